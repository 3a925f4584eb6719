// Builds the scorecard object: an empty card every stage fills in, and the final step
// that derives verdict and merge from the reasons (never set by hand elsewhere).
import type { Reason, Scorecard, SeedSummary, Transitions, Votes } from '../types.js'
import { decide, sortReasons } from './verdict.js'

export const SCORECARD_SCHEMA = 'oracle-gate/scorecard@1' as const

export function emptyScorecard(init: {
  version: string
  today: string
  policyPath: string
}): Scorecard {
  return {
    schema: SCORECARD_SCHEMA,
    version: init.version,
    verdict: 'error',
    merge: false,
    base: '',
    head: '',
    today: init.today,
    policy_path: init.policyPath,
    reasons: [],
    write_set: [],
    oracle: { base_digest: '', head_digest: '', unchanged: false },
    votes: emptyVotes(),
    transitions: emptyTransitions(),
    seeds: emptySeeds(0),
    freeze_debt: [],
    flakes: [],
    runs: [],
    diagnostics: emptyDiagnostics(),
    timings_ms: {}
  }
}

// Fresh empty sections, for the card and for the stages that fill one of them.
export const emptyVotes = (): Votes => ({
  passed: 0,
  failed: 0,
  frozen: 0,
  drafts: 0,
  by_class: {}
})
export const emptyTransitions = (): Transitions => ({
  fail_to_pass: [],
  pass_to_fail: [],
  fail_to_fail: [],
  pass_to_pass: 0,
  vanished: []
})
export const emptySeeds = (minDistance: number): SeedSummary => ({
  oracle_hits: 0,
  raw_fail_to_pass: 0,
  min_distance: minDistance,
  hit_ids: []
})
export const emptyDiagnostics = (): Scorecard['diagnostics'] => ({
  non_discriminating: [],
  drafts: {}
})

/** Sets verdict and merge from the reasons; the only writer of those two fields. */
export function finalize(card: Scorecard, extra: readonly Reason[] = []): Scorecard {
  const reasons = sortReasons([...card.reasons, ...extra])
  const verdict = decide(reasons)
  return { ...card, reasons, verdict, merge: verdict === 'merge' }
}
