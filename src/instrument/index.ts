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

/** True when a failing reason says the patch touched the instrument (no suite runs then). */
export function instrumentTouched(reasons: readonly Reason[]): boolean {
  return reasons.some(r => r.level === 'failure' && INSTRUMENT_RULES.has(r.rule))
}
