// Policy from the base tip too: an agent can branch from an old commit to be judged by an
// old, weaker policy. The gate reads the policy at the merge base and at the base branch's
// tip and judges with the two united key by key, each key as the schema declares (the
// stricter of the two, never the merge base's alone). What cannot be united (two suites,
// two ledgers) asks for a rebase instead of picking one. Pure, except for
// readJudgingPolicy at the end, which reads the two texts from git.
import { GateError } from '../errors.js'
import type { Git } from '../git/git.js'
import type { Logger, Reason } from '../types.js'
import { freeze, parsePolicy } from './load.js'
import type { Policy } from './types.js'
import { shortSha } from '../json.js'
import { uniteBySchema, type UniteNode } from './unite.js'
import { policySchema } from './validate.js'
import { dependencySource } from './production.js'

export type PolicySource = 'merge-base' | 'union'

export interface UnitedPolicy {
  policy: Policy
  source: PolicySource
  /** Keys where the tip's policy added protection (for the notice). */
  widened: string[]
}

/**
 * Unites two policies key by key as src/policy/schema.json declares (`x-unite`: union of
 * protections, intersection of permissions, the stricter level, the smaller limit, ...;
 * docs/policy.md shows each key's rule). Throws config-invalid, asking for a rebase, when
 * a key that must agree (suite, ledger, fixtures, seeds, campaign, classes) differs: the
 * gate cannot run two suites or read two ledgers for one verdict.
 */
export function unitePolicies(
  base: Policy,
  tip: Policy | null,
  tipSha = 'the base tip'
): UnitedPolicy {
  if (tip === null) return { policy: base, source: 'merge-base', widened: [] }
  const path = base.path
  // Only the schema's keys are walked: `path` (where the file was read) is the base's.
  // `dependencies` has a default that depends on the plane: unite what each side applies.
  const resolved = (p: Policy): Policy => ({ ...p, dependencies: dependencySource(p) })
  const united = uniteBySchema(policySchema as UniteNode, resolved(base), resolved(tip))
  if (united.clashes.length > 0) {
    throw new GateError(
      `the policy ${path} at ${tipSha} changes ${united.clashes.join(', ')} since the merge base; these cannot be combined with the merge base's: rebase the pull request onto the base branch and run the gate again`,
      { rule: 'config-invalid', path }
    )
  }
  const policy = freeze({ ...united.value, path } as unknown as Policy)
  return {
    policy,
    source: united.widened.length > 0 ? 'union' : 'merge-base',
    widened: united.widened
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
