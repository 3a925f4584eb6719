// Instrument integrity: before any test runs, did the patch touch what measures it?
// Rules: protected-path (write set), oracle-digest (trees), fixture-digest (manifest from
// the merge base), runner-tampered (runner table), ungoverned-test (test-like files on no
// plane). All trust-relevant input is read at the merge base; the head only supplies the
// things being judged.
import type { GateContext } from '../context.js'
import type { OracleDigest, Reason } from '../types.js'
import { classifyChange, type ClassifierContext } from '../writeset/classify.js'
import { instrumentDirs, symlinkMap } from '../writeset/index.js'
import { digestDifferences, instrumentDigest } from './digest.js'
import { checkFixtures } from './fixtures.js'
import { computeOverlay } from './overlay.js'
import { runnerChanges, runnerReasons } from './tampering.js'
import { instrumentView, type InstrumentView } from './view.js'

export { RUNNER_TABLE, compileRunnerMatcher } from './runner.js'

export interface InstrumentResult {
  reasons: Reason[]
  oracle: OracleDigest
}

const INSTRUMENT_RULES = new Set([
  'protected-path',
  'oracle-digest',
  'fixture-digest',
  'runner-tampered'
])

export async function checkInstrument(ctx: GateContext): Promise<InstrumentResult> {
  const view = await instrumentView(ctx)
  const reasons: Reason[] = []
  const write = await writeSetReasons(ctx, view)
  reasons.push(...write.filter(r => r.rule === 'protected-path'))

  const base = instrumentDigest(view.base.values(), view.isInstrument)
  const head = instrumentDigest(view.head.values(), view.isInstrument)
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
  reasons.push(...runnerReasons(await runnerChanges(ctx.git, view)))
  reasons.push(...write.filter(r => r.rule === 'ungoverned-test'))
  return { reasons, oracle }
}

/** protected-path and ungoverned-test reasons: the classifier's verdict on each row. */
async function writeSetReasons(ctx: GateContext, view: InstrumentView): Promise<Reason[]> {
  const cctx: ClassifierContext = {
    planes: view.planes,
    ungovernedTest: ctx.policy.lints['ungoverned-test']
  }
  if (view.linkedInstrument !== undefined) cctx.linkedInstrument = view.linkedInstrument
  if (ctx.writeSet.some(r => r.new_kind === 'symlink')) {
    cctx.links = await symlinkMap(ctx.git, view.head)
    cctx.containsInstrument = instrumentDirs(view.planes, [view.base, view.head])
  }
  const mode = ctx.policy.lints['ungoverned-test']
  const reasons: Reason[] = []
  for (const row of ctx.writeSet) {
    const c = classifyChange(row, cctx)
    if (c.rule === 'protected-path' && c.action === 'reject') {
      reasons.push({ rule: 'protected-path', level: 'failure', path: row.path, message: c.message })
    } else if (c.rule === 'ungoverned-test' && mode !== 'off') {
      reasons.push({
        rule: 'ungoverned-test',
        level: mode === 'error' ? 'failure' : 'warning',
        path: row.path,
        message: c.message
      })
    }
  }
  return reasons
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
  ctx: GateContext
): Promise<{ restore: string[]; remove: string[] }> {
  const view = await instrumentView(ctx)
  return computeOverlay(view, await runnerChanges(ctx.git, view))
}

/** True when a failing reason says the patch touched the instrument (no suite runs then). */
export function instrumentTouched(reasons: readonly Reason[]): boolean {
  return reasons.some(r => r.level === 'failure' && INSTRUMENT_RULES.has(r.rule))
}
