// PLACEHOLDER (issue 5 replaces this): replay the locked suite on base and head.
import type { GateContext } from '../context.js'
import type { LedgerState } from '../ledger/types.js'
import type { FlakeRow, Reason, Scorecard, SeedSummary, SideRun, Transitions, Votes } from '../types.js'

export interface ReplayOutcome {
  reasons: Reason[]
  votes: Votes
  transitions: Transitions
  seeds: SeedSummary
  flakes: FlakeRow[]
  runs: SideRun[]
  diagnostics: Scorecard['diagnostics']
}

export async function replay(_ctx: GateContext, _ledger: LedgerState): Promise<ReplayOutcome> {
  return {
    reasons: [{ rule: 'empty-vote', message: 'replay not implemented yet', level: 'failure' }],
    votes: { passed: 0, failed: 0, frozen: 0, drafts: 0, by_class: {} },
    transitions: { fail_to_pass: [], pass_to_fail: [], fail_to_fail: [], pass_to_pass: 0, vanished: [] },
    seeds: { oracle_hits: 0, raw_fail_to_pass: 0, min_distance: 0, hit_ids: [] },
    flakes: [],
    runs: [],
    diagnostics: { non_discriminating: [], drafts: {} }
  }
}
