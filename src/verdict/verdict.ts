// The single place that turns reasons into a verdict and a verdict into an exit code and a
// check-run conclusion. Precedence: error > policy > product > no-vote > merge.
import { byCodeUnit } from '../json.js'
import type { Reason, RuleId, Verdict } from '../types.js'

/** Which verdict a failing reason of each rule stands for. */
export const RULE_VERDICT: Readonly<Record<RuleId, Exclude<Verdict, 'merge'>>> = {
  'config-invalid': 'error',
  'gate-error': 'error',
  'protected-path': 'policy',
  'oracle-digest': 'policy',
  'fixture-digest': 'policy',
  'runner-tampered': 'policy',
  'ungoverned-test': 'policy',
  'skip-marker': 'policy',
  'literal-overlap': 'policy',
  'judge-import': 'policy',
  'oracle-reach': 'policy',
  'ledger-invalid': 'policy',
  'ledger-expired': 'policy',
  'ledger-expiring': 'policy',
  'ledger-stale': 'policy',
  'instrument-approval': 'policy',
  'oracle-failed': 'product',
  regression: 'product',
  'vanished-oracle': 'product',
  'flaky-oracle': 'product',
  'suite-timeout': 'product',
  'setup-failed': 'product',
  'seed-regression': 'product',
  'report-mismatch': 'product',
  'unexplained-hit': 'product',
  'weak-evidence': 'product',
  'empty-vote': 'no-vote',
  'insufficient-hits': 'no-vote',
  'non-discriminating': 'no-vote',
  'not-measured': 'no-vote',
  diagnostic: 'no-vote'
}

const PRECEDENCE: readonly Verdict[] = ['error', 'policy', 'product', 'no-vote']

/** The verdict of a set of reasons: only `failure` reasons count; none means merge. */
export function decide(reasons: readonly Reason[]): Verdict {
  const present = new Set<Verdict>()
  for (const reason of reasons) {
    if (reason.level === 'failure') present.add(RULE_VERDICT[reason.rule])
  }
  return PRECEDENCE.find(v => present.has(v)) ?? 'merge'
}

export const EXIT_CODES: Readonly<Record<Verdict, number>> = {
  merge: 0,
  product: 1,
  policy: 2,
  'no-vote': 3,
  error: 4
}

export function exitCode(verdict: Verdict): number {
  return EXIT_CODES[verdict]
}

/** Check-run conclusion: only merge is success; never `neutral`, which branch protection passes. */
export function conclusion(verdict: Verdict): 'success' | 'failure' {
  return verdict === 'merge' ? 'success' : 'failure'
}

/** Orders reasons for display: failures first, by verdict precedence, then warnings. */
export function sortReasons(reasons: readonly Reason[]): Reason[] {
  const levelRank = { failure: 0, warning: 1, notice: 2 } as const
  const verdictRank = (r: Reason): number => PRECEDENCE.indexOf(RULE_VERDICT[r.rule])
  return [...reasons].sort(
    (a, b) =>
      levelRank[a.level] - levelRank[b.level] ||
      verdictRank(a) - verdictRank(b) ||
      byCodeUnit(a.path ?? '', b.path ?? '') ||
      (a.line ?? 0) - (b.line ?? 0)
  )
}
