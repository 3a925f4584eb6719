// PLACEHOLDER (issue 6 replaces this): contamination lints.
import type { GateContext } from '../context.js'
import type { Reason } from '../types.js'

export async function runLints(_ctx: GateContext): Promise<Reason[]> {
  return []
}
