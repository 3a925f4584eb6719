// What "the instrument" means, written once: the planes whose files are the instrument
// (protected or voting), the rules whose failure says the patch touched it, and the test
// on a card's reasons. The instrument stage, the approval, the card's next step, the
// write set's symlink check and the lints all ask here. Pure data and predicates.
import type { Plane, Reason, RuleId } from '../types.js'

/** Rules whose failure means the patch touched the instrument (no suite runs then). */
export const INSTRUMENT_RULES: ReadonlySet<RuleId> = new Set<RuleId>([
  'protected-path',
  'oracle-digest',
  'fixture-digest',
  'runner-tampered'
])

/** The planes whose files are the instrument: protected trees and voting tests. */
export function isInstrumentPlane(plane: Plane): boolean {
  return plane === 'protected' || plane === 'voting'
}

/** A failure of one of INSTRUMENT_RULES. */
export function isInstrumentFailure(reason: Reason): boolean {
  return reason.level === 'failure' && INSTRUMENT_RULES.has(reason.rule)
}

/** True when a failing reason says the patch touched the instrument (no suite runs then). */
export function instrumentTouched(reasons: readonly Reason[]): boolean {
  return reasons.some(isInstrumentFailure)
}
