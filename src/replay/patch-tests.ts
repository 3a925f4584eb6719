// The vote runs without the patch's tests. A test file shares its process with every other
// test the runner collects: a conftest.py the patch adds under tests/, or a test module
// that monkeypatches the product at import, can make the locked tests pass with the bug
// still in, whatever plane the file is on. So in the worktree where the head is measured,
// everything the patch wrote on a test plane (drafts, in_diff, any test-like file,
// conftest.py anywhere) is put back to the merge base's version or removed before setup,
// and the patch's own tests run afterwards as diagnostics, each run in a fresh worktree of
// its own, holding no other test file: the patch's tests on the head (drafts results, the
// head half of non-discriminating), and the in-diff ones on the base's code (the probe).
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { GateContext } from '../context.js'
import type { InstrumentOverlay } from '../instrument/overlay.js'
import type { InstrumentView } from '../instrument/view.js'
import type { Plane } from '../types.js'
import { isConftest, type PlaneMatcher } from '../writeset/planes.js'
import { worktreeIdContext } from './ids.js'
import { observe, rerunPlan } from './rerun.js'
import { runSuite, shellQuote, type Side } from './run.js'
import { detectRunner } from './runners.js'
import { prepareWorktree } from './setup.js'
import type { Observation } from './transitions.js'
import { applyOverlay, worktreeFiles, type Worktrees } from './worktree.js'

export interface PatchTestPlan {
  /** For the head worktree before the vote: paths back to the merge base's, paths gone. */
  strip: InstrumentOverlay
  /** Test files the patch wrote on the drafts and in_diff planes (run on the head). */
  headTests: string[]
  /** In-diff files the patch wrote (tests and their helpers), copied into the probe tree. */
  probeFiles: string[]
  /** The test files among probeFiles: what the probe runs. */
  probeTests: string[]
  /** Voting files the patch extended (voting_edits: append), at their head version. */
  appended: string[]
}

const TEST_PLANES: ReadonlySet<Plane> = new Set(['drafts', 'in_diff'])

/**
 * Which paths the patch wrote on a test plane and what becomes of them. From the two
 * trees, like the overlay (a files list that missed a path cannot keep it in the vote).
 * A test file (collected by the runner, imported by nobody) the patch added or changed is
 * removed: it never votes, and the base's version could only add a collection error
 * against the head's code. Anything else on a test plane (conftest.py, helpers, data)
 * that the merge base has is restored, because the base's tests may load it; what the
 * patch added is removed. Paths the instrument overlay handles are left to it.
 */
export function patchTestPlan(
  view: InstrumentView,
  overlay: InstrumentOverlay,
  appended: readonly string[] = []
): PatchTestPlan {
  const handled = new Set([...overlay.restore, ...overlay.remove])
  const plan: PatchTestPlan = {
    strip: { restore: [], remove: [] },
    headTests: [],
    probeFiles: [],
    probeTests: [],
    appended: []
  }
  // Voting files the patch may extend: the overlay gives the vote the base's version; the
  // head's version (the added tests) runs with the patch's tests and in the probe.
  for (const path of appended) {
    if (!view.head.has(path)) continue
    plan.appended.push(path)
    plan.headTests.push(path)
    plan.probeFiles.push(path)
    plan.probeTests.push(path)
  }
  for (const path of view.changed) {
    if (handled.has(path) || view.isInstrument(path)) continue
    const plane = view.planes.planeOf(path)
    const testFile = view.planes.isTestLike(path) && !isConftest(path)
    if (!TEST_PLANES.has(plane) && !testFile && !isConftest(path)) continue
    const atBase = view.base.has(path)
    const atHead = view.head.has(path)
    if (atHead && (testFile || !atBase)) plan.strip.remove.push(path)
    else if (atBase && !testFile) plan.strip.restore.push(path)
    if (!atHead || !TEST_PLANES.has(plane)) continue
    if (testFile) plan.headTests.push(path)
    if (plane === 'in_diff') {
      plan.probeFiles.push(path)
      if (testFile) plan.probeTests.push(path)
    }
  }
  return plan
}

interface DiagnosticRun {
  /** Worktree name (under the run's temp dir) and the commit it holds. */
  name: string
  rev: string
  side: Side
  /** Made ready before anything else is removed or set up (overlay, files copied in). */
  prepare(dir: string): Promise<void>
  /** The test files to run; every other test file is removed from the worktree. */
  tests: readonly string[]
  /** Which results to keep (by the file's plane). */
  keep: ReadonlySet<Plane>
  /** Report file number, distinct from the side's own runs. */
  attempt: number
}

/**
 * The patch's drafts and in-diff tests on the head, in a fresh head worktree with the
 * base's instrument and no other test file. Their outcomes are diagnostics only.
 */
export function runPatchTests(
  ctx: GateContext,
  wt: Worktrees,
  plan: PatchTestPlan,
  overlay: InstrumentOverlay,
  planes: PlaneMatcher
): Promise<Map<string, Observation> | null> {
  ctx.log.info(
    `head: running the patch's ${plan.headTests.length} test file(s) in a worktree of their own (diagnostics; they never vote)`
  )
  return diagnosticRun(ctx, wt, planes, {
    name: 'patch-tests',
    rev: ctx.head,
    side: 'head',
    prepare: async dir => {
      await applyOverlay(ctx, dir, overlay)
      if (plan.appended.length > 0) await ctx.git.checkoutPaths(dir, ctx.head, plan.appended)
    },
    tests: plan.headTests,
    keep: plan.appended.length > 0 ? new Set<Plane>([...TEST_PLANES, 'voting']) : TEST_PLANES,
    attempt: 1000
  })
}

/**
 * Would the patch's own tests have failed without the patch? After both sides are
 * measured, a fresh merge-base worktree receives the in-diff files the patch wrote and
 * runs only the in-diff test files among them. Only in-diff results are read (a notice at
 * most), so nothing the patch's tests do here can reach a vote.
 */
export function probeInDiff(
  ctx: GateContext,
  wt: Worktrees,
  plan: PatchTestPlan,
  planes: PlaneMatcher
): Promise<Map<string, Observation> | null> {
  ctx.log.info(
    `base: probing ${plan.probeTests.length} in-diff test file(s) of the patch against the base's code, in a worktree of their own`
  )
  return diagnosticRun(ctx, wt, planes, {
    name: 'probe',
    rev: ctx.mergeBase,
    side: 'base',
    prepare: async dir => {
      await ctx.git.checkoutPaths(dir, ctx.head, plan.probeFiles)
    },
    tests: plan.probeTests,
    keep: new Set<Plane>(plan.appended.length > 0 ? ['in_diff', 'voting'] : ['in_diff']),
    attempt: 2000
  })
}

async function diagnosticRun(
  ctx: GateContext,
  wt: Worktrees,
  planes: PlaneMatcher,
  run: DiagnosticRun
): Promise<Map<string, Observation> | null> {
  const dir = await wt.add(run.name, run.rev)
  await run.prepare(dir)
  await removeOtherTests(ctx, dir, run.tests, planes)
  const logFile = join(ctx.tempDir, `${run.name}.log`)
  const setup = await prepareWorktree(
    ctx,
    run.side,
    dir,
    join(ctx.tempDir, `${run.name}-setup.log`),
    wt.share
  )
  wt.track(dir, setup.links ?? [])
  if (!setup.ok) {
    ctx.log.warning(
      `${run.name}: setup failed, no diagnostics from the patch's tests (${setup.reason})`
    )
    return null
  }
  const result = await runSuite(ctx, {
    side: run.side,
    worktree: dir,
    attempt: run.attempt,
    ...targetedCommand(ctx.policy.suite, run.tests),
    logFile
  })
  if (result.report === null) {
    ctx.log.warning(`${run.name}: no report (${result.reportError ?? 'unknown'}); log ${logFile}`)
    return null
  }
  const planeOf = (p: string): Plane => planes.planeOf(p)
  const ids = worktreeIdContext(
    dir,
    await worktreeFiles(ctx, dir),
    planeOf,
    ctx.policy.suite.report,
    { runner: detectRunner(ctx.policy.suite), pyRoot: ctx.instrument?.pyRoot }
  )
  const observed = observe(result.report, ids)
  for (const [id, o] of observed)
    if (o.file === null || !run.keep.has(planeOf(o.file))) observed.delete(id)
  return observed
}

/**
 * The command that runs exactly `files`, and what its {tests} receives: the rerun plan's
 * command when it selects (a {tests} in rerun_command or suite.command, or the suite
 * command of a known runner rewritten to select, as for reruns), with the files as its
 * selection (regular expressions for jest, which reads its positionals so); otherwise the
 * suite command with the files appended, shell-quoted (pytest, vitest, jest and node
 * --test all take test files as trailing arguments). Either way the worktree holds no
 * other test file.
 */
export function targetedCommand(
  suite: Parameters<typeof rerunPlan>[0],
  files: readonly string[]
): { command: string; tests: string[] } {
  const plan = rerunPlan(suite)
  const tests =
    plan.runner === 'jest' ? files.map(f => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : [...files]
  if (plan.selects) return { command: plan.command, tests }
  return { command: `${suite.command} ${tests.map(shellQuote).join(' ')}`, tests }
}

/**
 * Deletes every tracked test-like file (test_patterns) of a diagnostics worktree except
 * `keep` (conftest.py files and helpers stay: the kept tests may need them), so that
 * whatever the suite command collects, only the kept tests run.
 */
async function removeOtherTests(
  ctx: GateContext,
  dir: string,
  keep: readonly string[],
  planes: PlaneMatcher
): Promise<void> {
  const kept = new Set(keep)
  for (const path of await worktreeFiles(ctx, dir)) {
    if (kept.has(path) || isConftest(path) || !planes.isTestLike(path)) continue
    await rm(join(dir, path), { force: true })
  }
}
