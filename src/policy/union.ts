// Policy from the base tip too: an agent can branch from an old commit to be judged by an
// old, weaker policy. The gate reads the policy at the merge base and at the base branch's
// tip and judges with the union of their protections and planes. What cannot be united
// (two suites, two ledgers) asks for a rebase instead of picking one. Pure, except for
// readJudgingPolicy at the end, which reads the two texts from git.
import { GateError } from '../errors.js'
import type { Git } from '../git/git.js'
import type { Logger, Reason } from '../types.js'
import { parsePolicy } from './load.js'
import type { LintMode, Policy } from './types.js'
import { sameMaxDays, stricterMaxDays } from '../ledger/limits.js'
import { shortSha } from '../json.js'

export type PolicySource = 'merge-base' | 'union'

export interface UnitedPolicy {
  policy: Policy
  source: PolicySource
  /** Keys where the tip's policy added protection (for the notice). */
  widened: string[]
}

const union = (a: readonly string[], b: readonly string[]): readonly string[] => [
  ...new Set([...a, ...b])
]

const STRICTNESS: Record<LintMode, number> = { off: 0, warn: 1, error: 2 }
const stricter = (a: LintMode, b: LintMode): LintMode => (STRICTNESS[b] > STRICTNESS[a] ? b : a)

/** Settings that say how to run and where the instrument lies: they must agree. */
function conflicts(base: Policy, tip: Policy): string[] {
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)
  const keys: [string, unknown, unknown][] = [
    ['suite', base.suite, tip.suite],
    ['ledger', base.ledger, tip.ledger],
    ['fixtures', base.fixtures, tip.fixtures],
    ['seeds', base.seeds, tip.seeds],
    ['campaign', base.campaign, tip.campaign],
    ['classes', base.classes, tip.classes]
  ]
  return keys.filter(([, a, b]) => !same(a, b)).map(([k]) => k)
}

/**
 * The union of two policies' protections: protected globs, planes, runner_config,
 * test_patterns, case folding and the stricter lint levels. A path voting in either
 * votes (the plane order protected, voting, drafts, in_diff decides the rest). Throws
 * config-invalid, asking for a rebase, when suite, ledger, fixtures, seeds, campaign or
 * classes differ: the gate cannot run two suites or read two ledgers for one verdict.
 */
export function unitePolicies(
  base: Policy,
  tip: Policy | null,
  tipSha = 'the base tip'
): UnitedPolicy {
  if (tip === null) return { policy: base, source: 'merge-base', widened: [] }
  const clash = conflicts(base, tip)
  if (clash.length > 0) {
    throw new GateError(
      `the policy ${base.path} at ${tipSha} changes ${clash.join(', ')} since the merge base; these cannot be combined with the merge base's: rebase the pull request onto the base branch and run the gate again`,
      { rule: 'config-invalid', path: base.path }
    )
  }
  const lints = { ...base.lints }
  for (const key of ['literal-overlap', 'judge-import', 'skip-marker', 'ungoverned-test'] as const)
    lints[key] = stricter(base.lints[key], tip.lints[key])
  lints.judge_modules = union(base.lints.judge_modules, tip.lints.judge_modules)
  const policy: Policy = {
    ...base,
    protected: union(base.protected, tip.protected),
    case_insensitive: base.case_insensitive || tip.case_insensitive,
    planes: {
      voting: union(base.planes.voting, tip.planes.voting),
      drafts: union(base.planes.drafts, tip.planes.drafts),
      in_diff: union(base.planes.in_diff, tip.planes.in_diff)
    },
    test_patterns: union(base.test_patterns, tip.test_patterns),
    runner_config: union(base.runner_config, tip.runner_config),
    ledger_max_days: stricterMaxDays(base.ledger_max_days, tip.ledger_max_days),
    // A permission, not a protection: only approvers both policies name may approve.
    instrument_approvers: base.instrument_approvers.filter(a =>
      tip.instrument_approvers.some(b => b.toLowerCase() === a.toLowerCase())
    ),
    lints
  }
  const widened: string[] = (
    [
      ['protected', base.protected, policy.protected],
      ['planes.voting', base.planes.voting, policy.planes.voting],
      ['planes.drafts', base.planes.drafts, policy.planes.drafts],
      ['planes.in_diff', base.planes.in_diff, policy.planes.in_diff],
      ['test_patterns', base.test_patterns, policy.test_patterns],
      ['runner_config', base.runner_config, policy.runner_config]
    ] as const
  )
    .filter(([, before, after]) => after.length > before.length)
    .map(([k]) => k)
  if (policy.case_insensitive !== base.case_insensitive) widened.push('case_insensitive')
  for (const key of ['literal-overlap', 'judge-import', 'skip-marker', 'ungoverned-test'] as const)
    if (lints[key] !== base.lints[key]) widened.push(`lints.${key}`)
  if (!sameMaxDays(policy.ledger_max_days, base.ledger_max_days)) widened.push('ledger_max_days')
  return {
    policy: Object.freeze(policy),
    source: widened.length > 0 ? 'union' : 'merge-base',
    widened
  }
}

/** The notice that says which policy judged the pull request. */
export function policyNotice(united: UnitedPolicy, mergeBase: string, tip: string): Reason {
  const at = shortSha
  const message =
    united.source === 'union'
      ? `judged with the union of the policy at the merge base ${at(mergeBase)} and at the base tip ${at(tip)} (the tip adds ${united.widened.join(', ')})`
      : `judged with the policy at the merge base ${at(mergeBase)}${mergeBase === tip ? '' : ` (the base tip ${at(tip)} adds no protection)`}`
  // No path: a notice on the policy file would annotate a file the patch did not write.
  return { rule: 'diagnostic', level: 'notice', message }
}

/**
 * Reads the policy at the merge base (required) and at the base tip (when it differs and
 * has one), and unites them. An invalid policy at the tip is a config-invalid error: the
 * base branch's own policy is broken.
 */
export async function readJudgingPolicy(
  git: Git,
  refs: { mergeBase: string; baseTip: string },
  path: string,
  readBase: () => Promise<Policy>,
  log: Logger
): Promise<UnitedPolicy & { notice: Reason }> {
  const base = await readBase()
  let tip: Policy | null = null
  if (refs.baseTip !== refs.mergeBase) {
    const text = await git.showText(refs.baseTip, path)
    if (text !== null) tip = parsePolicy(text, path)
  }
  const united = unitePolicies(base, tip, shortSha(refs.baseTip))
  const notice = policyNotice(united, refs.mergeBase, refs.baseTip)
  log.info(notice.message)
  return { ...united, notice }
}
