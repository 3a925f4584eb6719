// Everything that happens in one worktree: setup, the suite, reruns of failing voting
// tests, the seeds command. Returns what the side observed, or the reason it observed
// nothing. A base that cannot be measured is a gate error; a head that cannot be measured
// is a red vote.
import { join } from 'node:path'
import type { GateContext } from '../context.js'
import { GateError } from '../errors.js'
import type { Plane, Reason, SideRun } from '../types.js'
import { worktreeIdContext, type IdContext } from './ids.js'
import { observe, rerunFailures, rerunPlan } from './rerun.js'
import { runSuite, sideEnv, type Side } from './run.js'
import { runSeeds, type Seed } from './seeds.js'
import { prepareWorktree } from './setup.js'
import type { Observation } from './transitions.js'
import { worktreeFiles } from './worktree.js'

export interface SideOutcome {
  side: Side
  run: SideRun
  /** null when the side produced no results (timeout, setup failure, missing report). */
  results: Map<string, Observation> | null
  /** Why there are no results (a red vote), when there are none. */
  failure?: Reason
  /** Seed answers, when a corpus is configured and setup succeeded. */
  seeds?: Map<string, boolean>
  /** Base only: the head's in-diff tests run against the base's code (see probeInDiff). */
  inDiffOnBase?: Map<string, Observation>
}

export interface SideOptions {
  side: Side
  worktree: string
  /** May this observation be rerun (an unfrozen, non-judge voting test)? */
  rerunnable: (o: Observation) => boolean
  planeOf: (path: string) => Plane
  seeds: readonly Seed[] | null
  /** Base only: in-diff test files the patch wrote, to probe against the base's code. */
  probe?: readonly string[]
}

export async function runSide(ctx: GateContext, opts: SideOptions): Promise<SideOutcome> {
  const { side, worktree } = opts
  const suite = ctx.policy.suite
  const logFile = join(ctx.tempDir, `${side}-suite.log`)
  const run: SideRun = { side, exit_code: null, timed_out: false, duration_ms: 0, tests: 0 }
  const started = Date.now()
  const finish = (outcome: Omit<SideOutcome, 'side' | 'run'>): SideOutcome => {
    run.duration_ms = Date.now() - started
    return { side, run, ...outcome }
  }

  const setup = await prepareWorktree(ctx, side, worktree, join(ctx.tempDir, `${side}-setup.log`))
  run.setup = setup.mode
  run.setup_reason = setup.reason
  if (!setup.ok) {
    const what = setup.timedOut ? 'timed out' : 'failed'
    run.timed_out = setup.timedOut
    if (setup.tail) run.log_tail = setup.tail
    if (side === 'base') {
      throw new GateError(
        `setup ${what} on the base, so nothing can be measured:\n${setup.tail ?? ''}`,
        { path: ctx.policy.path }
      )
    }
    return finish({
      results: null,
      failure: failure('setup-failed', `setup ${what} on head:\n${setup.tail ?? ''}`, ctx)
    })
  }

  ctx.log.info(`${side}: running the suite`)
  const first = await runSuite(ctx, { side, worktree, attempt: 0, command: suite.command, logFile })
  run.exit_code = first.result.exitCode
  run.timed_out = first.result.timedOut
  run.log_tail = first.result.tail
  const seeds = opts.seeds ? await seedAnswers(ctx, side, worktree, opts.seeds) : undefined
  const withSeeds = <T extends object>(o: T): T & { seeds?: Map<string, boolean> } =>
    seeds ? { ...o, seeds } : o

  if (first.result.timedOut) {
    return finish(
      withSeeds({
        results: null,
        failure: failure(
          'suite-timeout',
          `the suite timed out on ${side} after ${suite.timeout}s (a timed-out side is a red vote):\n${first.result.tail}`,
          ctx
        )
      })
    )
  }
  if (first.report === null) {
    if (first.result.head) run.log_head = first.result.head
    const message = `the suite left no readable report on ${side} (${first.reportError ?? 'unknown'}); output tail:\n${first.result.tail}`
    if (side === 'base') throw new GateError(message, { path: ctx.policy.path })
    return finish(
      withSeeds({
        results: null,
        failure: failure('oracle-failed', `${message}\n(a missing report is not a pass)`, ctx)
      })
    )
  }
  run.tests = first.report.cases.length

  let ids: IdContext | null = null
  const idContext = async (): Promise<IdContext> =>
    (ids ??= worktreeIdContext(
      worktree,
      await worktreeFiles(ctx, worktree),
      opts.planeOf,
      suite.report
    ))
  const results = observe(first.report, await idContext())

  const plan = rerunPlan(suite)
  const reruns = await rerunFailures({
    results,
    reruns: suite.reruns,
    plan,
    eligible: opts.rerunnable,
    ids: idContext,
    run: async (attempt, tests) => {
      ctx.log.info(
        `${side}: rerun ${attempt}${tests ? ` of ${tests.length} failing test(s)` : ' of the whole suite'}`
      )
      const again = await runSuite(ctx, {
        side,
        worktree,
        attempt,
        command: plan.command,
        tests: tests ?? [],
        logFile
      })
      if (again.report === null)
        ctx.log.warning(
          `${side}: rerun ${attempt} gave no report (${again.reportError ?? 'unknown'})`
        )
      return again.report
    }
  })
  if (reruns > 0) ctx.log.info(`${side}: ${reruns} rerun(s)`)
  const probed =
    opts.probe && opts.probe.length > 0
      ? await probeInDiff(ctx, worktree, opts.probe, opts.planeOf, logFile)
      : null
  return finish(withSeeds(probed ? { results, inDiffOnBase: probed } : { results }))
}

/**
 * Would the patch's own tests have failed without the patch? After the base has been
 * measured, the in-diff test files the patch wrote are copied into the base worktree and
 * the suite runs once more. Only in-diff results are read from this run (a notice at most),
 * so nothing the patch's tests do here can reach a vote.
 */
async function probeInDiff(
  ctx: GateContext,
  worktree: string,
  files: readonly string[],
  planeOf: (path: string) => Plane,
  logFile: string
): Promise<Map<string, Observation> | null> {
  ctx.log.info(
    `base: probing ${files.length} in-diff test file(s) of the patch against the base's code`
  )
  await ctx.git.run([
    '-C',
    worktree,
    'checkout',
    ctx.head,
    '--',
    ...files.map(f => `:(literal)${f}`)
  ])
  const probe = await runSuite(ctx, {
    side: 'base',
    worktree,
    attempt: 1000,
    command: ctx.policy.suite.command,
    logFile
  })
  if (probe.report === null) {
    ctx.log.info(`base: the in-diff probe gave no report (${probe.reportError ?? 'unknown'})`)
    return null
  }
  const ids = worktreeIdContext(
    worktree,
    await worktreeFiles(ctx, worktree),
    planeOf,
    ctx.policy.suite.report
  )
  const observed = observe(probe.report, ids)
  for (const [id, o] of observed)
    if (o.file === null || planeOf(o.file) !== 'in_diff') observed.delete(id)
  return observed
}

async function seedAnswers(
  ctx: GateContext,
  side: Side,
  worktree: string,
  seeds: readonly Seed[]
): Promise<Map<string, boolean>> {
  const settings = ctx.policy.seeds
  if (!settings) return new Map()
  ctx.log.info(`${side}: replaying ${seeds.length} seed(s)`)
  const env = await sideEnv(ctx, side)
  const { answers, result } = await runSeeds(
    settings,
    worktree,
    seeds,
    env,
    join(ctx.tempDir, `${side}-seeds.log`)
  )
  if (side === 'base' && seeds.length > 0 && answers.size === 0) {
    const why = result.timedOut
      ? `timed out after ${settings.timeout}s`
      : `exit ${result.exitCode ?? result.signal}`
    throw new GateError(
      `the seeds command answered no seed on the base (${why}):\n${result.tail}`,
      { path: settings.corpus }
    )
  }
  return answers
}

function failure(rule: Reason['rule'], message: string, ctx: GateContext): Reason {
  return { rule, message, path: ctx.policy.path, level: 'failure' }
}
