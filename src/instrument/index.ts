// PLACEHOLDER (issue 3 replaces this): instrument integrity checks.
import type { GateContext } from '../context.js'
import type { OracleDigest, Reason } from '../types.js'

export interface InstrumentResult {
  reasons: Reason[]
  oracle: OracleDigest
}

const INSTRUMENT_RULES = new Set(['protected-path', 'oracle-digest', 'fixture-digest', 'runner-tampered'])

export async function checkInstrument(_ctx: GateContext): Promise<InstrumentResult> {
  return { reasons: [], oracle: { base_digest: '', head_digest: '', unchanged: true } }
}

/**
 * What the head worktree must receive from the merge base before its suite runs, so that
 * the base's instrument measures the head: `restore` paths are checked out from the merge
 * base (protected trees, runner configuration); `remove` paths exist at head but are
 * instrument-like and absent at the merge base (an added root conftest.py), so they go.
 */
export async function instrumentOverlay(_ctx: GateContext): Promise<{ restore: string[]; remove: string[] }> {
  return { restore: [], remove: [] }
}

/** True when a failing reason says the patch touched the instrument (no suite runs then). */
export function instrumentTouched(reasons: readonly Reason[]): boolean {
  return reasons.some(r => r.level === 'failure' && INSTRUMENT_RULES.has(r.rule))
}
