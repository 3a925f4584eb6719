export async function lintFiles() {
  throw new Error('not measured yet')
}
