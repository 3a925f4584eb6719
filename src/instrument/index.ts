// Instrument integrity: before any test runs, did the patch touch what measures it?
// Rules: protected-path (write set), oracle-digest (trees), fixture-digest (manifest from
// the merge base), runner-tampered (runner table). All trust-relevant input is read at the
// merge base; the head only supplies the things being judged. (ungoverned-test, the other
// rule the write-set classifier decides, is a lint: src/lints/ungoverned-test.ts.)
import type { GateContext } from '../context.js'
import { GateError } from '../errors.js'
import type { TreeEntry } from '../git/git.js'
import type { OracleDigest, Reason } from '../types.js'
import type { ClassifiedRow } from '../writeset/index.js'
import { digestDifferences, instrumentDigest } from './digest.js'
import { checkFixtures } from './fixtures.js'
import { computeOverlay, voteUsesHead, type HeadCounts } from './overlay.js'
import { runnerChanges, runnerReasons } from './tampering.js'
import { instrumentView, type InstrumentView } from './view.js'

export { RUNNER_TABLE, compileRunnerMatcher } from './runner.js'
export { instrumentTouched } from './rules.js'

export interface InstrumentResult {
  reasons: Reason[]
  oracle: OracleDigest
  /** Both trees as this stage saw them: the replay's overlay is computed from the same. */
  view: InstrumentView
}

/**
 * Runner changes that judge the head: with a production plane, one outside production
 * code never reaches the vote (the head's vote worktree holds the merge base's version),
 * so it is listed as not measured instead; .gitattributes lines stay (they change how
 * the worktree itself is checked out).
 */
export function judgedRunnerChanges<T extends { path: string }>(
  changes: readonly T[],
  headCounts: HeadCounts
): T[] {
  return changes.filter(
    c => headCounts(c.path) || c.path.split('/').pop()?.toLowerCase() === '.gitattributes'
  )
}

export async function checkInstrument(ctx: GateContext): Promise<InstrumentResult> {
  const view = await instrumentView(ctx)
  const reasons: Reason[] = protectedPathReasons(ctx.writeSet)

  const base = instrumentDigest(view.base.values(), view.isInstrument)
  const head = instrumentDigest(headAsVoted(view, ctx.writeSet), view.isInstrument)
  const oracle: OracleDigest = {
    base_digest: base.digest,
    head_digest: head.digest,
    unchanged: base.digest === head.digest
  }
  if (!oracle.unchanged) {
    const differs = digestDifferences(base, head)
    const shown =
      differs.slice(0, 5).join(', ') + (differs.length > 5 ? ` (+${differs.length - 5} more)` : '')
    const reason: Reason = {
      rule: 'oracle-digest',
      level: 'failure',
      message: `the oracle digest changed (${base.digest.slice(0, 19)}… → ${head.digest.slice(0, 19)}…): ${differs.length} instrument entr${differs.length === 1 ? 'y differs' : 'ies differ'}: ${shown}`
    }
    if (differs[0] !== undefined) reason.path = differs[0]
    reasons.push(reason)
  }

  if (view.fixtures !== null && ctx.policy.fixtures !== undefined) {
    reasons.push(
      ...(await checkFixtures(ctx.git, ctx.mergeBase, ctx.head, ctx.policy.fixtures, view.fixtures))
    )
  }
  // Instrument paths are judged as before (their change fails protected-path as well).
  const uses = voteUsesHead(view, ctx.policy)
  const judged = judgedRunnerChanges(
    await runnerChanges(ctx.git, view),
    p => uses(p) || view.isInstrument(p) || view.fixturePaths.has(p)
  )
  reasons.push(...runnerReasons(judged))
  return { reasons, oracle, view }
}

/**
 * The head's tree entries as the vote will see them: a voting file the patch may extend
 * (voting_edits: append, row `voting-append`) counts with the merge base's entry, a new one
 * not at all. The replay restores and removes those files like any instrument path.
 */
function headAsVoted(view: InstrumentView, writeSet: readonly ClassifiedRow[]): TreeEntry[] {
  const appended = new Set(
    writeSet.filter(r => r.classification.row === 'voting-append').map(r => r.path)
  )
  if (appended.size === 0) return [...view.head.values()]
  const entries: TreeEntry[] = []
  for (const entry of view.head.values()) {
    if (!appended.has(entry.path)) entries.push(entry)
    else {
      const base = view.base.get(entry.path)
      if (base !== undefined) entries.push(base)
    }
  }
  return entries
}

/** protected-path reasons: the classifier's verdict on each row of the write set. */
function protectedPathReasons(writeSet: readonly ClassifiedRow[]): Reason[] {
  return writeSet
    .filter(r => r.classification.rule === 'protected-path' && r.action === 'reject')
    .map(r => ({
      rule: 'protected-path',
      level: 'failure',
      path: r.path,
      message: r.classification.message
    }))
}

/**
 * What the head worktree must receive from the merge base before its suite runs, so that
 * the base's instrument measures the head: `restore` paths are checked out from the merge
 * base (protected trees, voting tests, fixture files, runner configuration); `remove`
 * paths exist at head but are instrument-like and absent at the merge base (an added root
 * conftest.py), so they go. Apply `remove` first, then `restore`. Only paths whose tree
 * entry differs are listed (the rest is already the base's).
 */
export async function instrumentOverlay(
  ctx: Pick<GateContext, 'git' | 'instrument' | 'policy'>
): Promise<{ restore: string[]; remove: string[] }> {
  const view = ctx.instrument
  // Fail closed: without the instrument stage's view the head would run unrestored.
  if (view === undefined) throw new GateError('the replay ran before the instrument stage')
  return computeOverlay(view, await runnerChanges(ctx.git, view), voteUsesHead(view, ctx.policy))
}
