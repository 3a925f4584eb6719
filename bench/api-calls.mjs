export async function apiCalls() {
  throw new Error('not measured yet')
}
