// Builds the scorecard object: an empty card every stage fills in, and the final step
// that derives verdict and merge from the reasons (never set by hand elsewhere).
import type { Reason, Scorecard } from '../types.js'
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
    votes: { passed: 0, failed: 0, frozen: 0, drafts: 0, by_class: {} },
    transitions: {
      fail_to_pass: [],
      pass_to_fail: [],
      fail_to_fail: [],
      pass_to_pass: 0,
      vanished: []
    },
    seeds: { oracle_hits: 0, raw_fail_to_pass: 0, min_distance: 0, hit_ids: [] },
    freeze_debt: [],
    flakes: [],
    runs: [],
    diagnostics: { non_discriminating: [], drafts: {} },
    timings_ms: {}
  }
}

/** Sets verdict and merge from the reasons; the only writer of those two fields. */
export function finalize(card: Scorecard, extra: readonly Reason[] = []): Scorecard {
  const reasons = sortReasons([...card.reasons, ...extra])
  const verdict = decide(reasons)
  return { ...card, reasons, verdict, merge: verdict === 'merge' }
}
