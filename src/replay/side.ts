// Everything that happens in one worktree: setup, the suite, reruns of failing voting
// tests, the seeds command. Returns what the side observed, or the reason it observed
// nothing. A base that cannot be measured is a gate error; a head that cannot be measured
// is a red vote.
import { join } from 'node:path'
import type { GateContext } from '../context.js'
import { GateError } from '../errors.js'
import type { SeedSettings } from '../policy/types.js'
import type { Plane, Reason, SideRun } from '../types.js'
import type { Moment } from './fidelity.js'
import { worktreeIdContext, type IdContext } from './ids.js'
import type { Report } from './junit.js'
import { failedAsWritten, type CanaryPlan } from './canary.js'
import { observe, rerunArgs, rerunFailures, rerunPlan } from './rerun.js'
import { logHead, placement, sideEnv, type Side } from './run.js'
import { detectRunner } from './runners.js'
import { RunWatch, type RunRecord, type WatchRecord } from './tripwires.js'
import { runSeeds, type Seed, type SeedRun } from './seeds.js'
import { prepareWorktree } from './setup.js'
import type { SetupShare } from './share.js'
import type { Observation } from './transitions.js'
import { worktreeFiles } from './worktree.js'

export interface SideOutcome {
  side: Side
  run: SideRun
  /** null when the side produced no results (timeout, setup failure, missing report). */
  results: Map<string, Observation> | null
  /** Why there are no results (a red vote), when there are none. */
  failure?: Reason
  /** The instrument on disk was not the merge base's (oracle-digest), so no results. */
  tampered?: Reason[]
  /** Seed answers, when a corpus is configured and setup succeeded. */
  seeds?: Map<string, boolean>
  /** Head only: why the seeds command's answers were not read (its stdout over the cap). */
  seedsFailure?: Reason
  /** Base only: the head's in-diff tests run against the base's code (see patch-tests.ts). */
  inDiffOnBase?: Map<string, Observation>
  /** What each run showed, for the tripwires (tripwires.ts). */
  records?: readonly RunRecord[]
  /** What the watchers streamed in each run (reach-events.ts). */
  watched?: readonly WatchRecord[]
  /** Ids that more than one test of the first run collapsed into. */
  duplicates?: readonly string[]
  /** What the watchers in the first run's reporter sent (replay/watch.ts), when it was read. */
  firstWatched?: WatchedRun
}

/** The watch records of one run (stream.ts `events`): each stage parses its own kind. */
export interface WatchedRun {
  events: readonly Record<string, unknown>[]
  /** Sessions that started with the plan read. */
  sessions: number
  /** Records beyond the stream's cap, only counted. */
  dropped: number
}

export interface SideOptions {
  side: Side
  worktree: string
  /** May this observation be rerun (an unfrozen, non-judge voting test)? */
  rerunnable: (o: Observation) => boolean
  planeOf: (path: string) => Plane
  seeds: readonly Seed[] | null
  /**
   * Checkout fidelity of this worktree at a moment (fidelity.ts): the oracle-digest
   * failures found, empty when the instrument on disk is the merge base's.
   */
  fidelity: (moment: Moment) => Promise<Reason[]>
  /** The moment of the first check: 'checkout' (base) or 'overlay' (head). */
  prepared: Moment
  /** Receives the links setup made, so the worktree's removal unlinks them. */
  track: (links: readonly string[]) => void
  /** The canary for the first run (the same on both sides), or null when not armed. */
  canary?: CanaryPlan | null
  /** Files of the merge base: node:test titles found elsewhere map provisionally (ids.ts). */
  baseFiles?: readonly string[]
  /** A shard (src/shard/slice.ts): the first run's selecting command and its `{tests}`. */
  first?: { command: string; testArgs: string[] } | null
  /** A shard: the observations it keeps (those of its own files); default all. */
  keep?: (o: Observation) => boolean
  /** The run's setup share (share.ts): the base offers its install, the head takes it. */
  share?: SetupShare
  /** Called once the first run's child is spawned (ReplayMode.onBaseRun). */
  onFirstRun?: () => void
}

/** Sets up, runs and reruns one side; see the sections below. */
export async function runSide(ctx: GateContext, opts: SideOptions): Promise<SideOutcome> {
  return (await startSide(ctx, opts)).rest()
}

/**
 * A side whose first run is over. `rest` runs what is left (the seeds command, reruns of
 * failing voting tests) and yields the outcome; it is the outcome at once when the side
 * stopped early. Split so the head's first run can overlap the base's rest (suite.jobs).
 */
export interface StartedSide {
  rest: () => Promise<SideOutcome>
}

/** What one side's phases share: its run record, tripwire watch, log and exits. */
interface SideState {
  run: SideRun
  watch: RunWatch
  duplicates: Set<string>
  logFile: string
  finish: (outcome: Omit<SideOutcome, 'side' | 'run'>) => SideOutcome
  /** A fidelity check at a moment: the finished outcome when the instrument changed. */
  tampered: (moment: Moment) => Promise<SideOutcome | null>
}

function sideState(ctx: GateContext, opts: SideOptions): SideState {
  const run: SideRun = {
    side: opts.side,
    exit_code: null,
    timed_out: false,
    duration_ms: 0,
    tests: 0
  }
  const started = Date.now()
  const watch = new RunWatch(opts.side, opts.canary ?? null)
  const duplicates = new Set<string>()
  const finish = (outcome: Omit<SideOutcome, 'side' | 'run'>): SideOutcome => {
    run.duration_ms = Date.now() - started
    const trip = {
      records: watch.records,
      watched: watch.watched,
      duplicates: [...duplicates].sort()
    }
    return { side: opts.side, run, ...outcome, ...trip }
  }
  // Every step that can write to the worktree is followed by a fidelity check; setup in
  // particular never runs on a worktree that has not passed one.
  const tampered = async (moment: Moment): Promise<SideOutcome | null> => {
    const found = await opts.fidelity(moment)
    if (found.length === 0) return null
    ctx.log.warning(`${opts.side}: the instrument on disk changed (${moment}); no results`)
    return finish({ results: null, tampered: found })
  }
  const logFile = join(ctx.tempDir, `${opts.side}-suite.log`)
  return { run, watch, duplicates, logFile, finish, tampered }
}

/** Fidelity, setup and the first run of a side; the rest is left to `rest`. */
export async function startSide(ctx: GateContext, opts: SideOptions): Promise<StartedSide> {
  const state = sideState(ctx, opts)
  const done = (outcome: SideOutcome): StartedSide => ({ rest: () => Promise.resolve(outcome) })
  const before = await state.tampered(opts.prepared)
  if (before) return done(before)
  const notReady = await setupSide(ctx, opts, state.run)
  if (notReady !== null) return done(state.finish({ results: null, failure: notReady }))
  const afterSetup = await state.tampered('setup')
  if (afterSetup) return done(afterSetup)

  const first = await firstRun(ctx, opts, state.run, state.logFile, state.watch)
  const afterRun = await state.tampered('run')
  if (afterRun) return done(afterRun)
  return { rest: () => restOfSide(ctx, opts, state, first) }
}

/** After the first run: the seeds command, then reruns of the failing voting tests. */
async function restOfSide(
  ctx: GateContext,
  opts: SideOptions,
  state: SideState,
  first: Awaited<ReturnType<typeof firstRun>>
): Promise<SideOutcome> {
  const { finish, tampered } = state
  const seeded = opts.seeds
    ? await seedAnswers(ctx, opts.side, opts.worktree, opts.seeds)
    : undefined
  const afterSeeds = opts.seeds ? await tampered('run') : null
  if (afterSeeds) return afterSeeds
  const withSeeds = <T extends object>(o: T): T & Pick<SideOutcome, 'seeds' | 'seedsFailure'> =>
    seeded ? { ...o, ...seeded } : o
  if ('failure' in first) return finish(withSeeds({ results: null, failure: first.failure }))
  const firstWatched = first.watched ? { firstWatched: first.watched } : {}

  const ids = lazyIds(ctx, opts)
  const results = kept(observe(first.report, await ids(), state.duplicates), opts.keep)
  const rerunTampered = await rerunSide(ctx, opts, results, ids, state.logFile, state.watch)
  if (rerunTampered.length > 0) return finish({ results: null, tampered: rerunTampered })
  return finish(withSeeds({ results: kept(results, opts.keep), ...firstWatched }))
}

/** A shard's own observations (SideOptions.keep), before and after its reruns. */
function kept(
  results: Map<string, Observation>,
  keep: ((o: Observation) => boolean) | undefined
): Map<string, Observation> {
  if (!keep) return results
  for (const [id, o] of results) if (!keep(o)) results.delete(id)
  return results
}

/**
 * The first run's canaries written to fail that failed as written: the runner's exit status
 * counts them (a 1 where every test of the repository passed), the card says so.
 */
function failedCanaries(watch: RunWatch): number {
  const first = watch.records.find(r => r.attempt === 0)
  return (first?.canaries ?? []).filter(failedAsWritten).length
}

/**
 * Setup: null when the side is ready for the suite, else the red vote of a head whose
 * setup failed. A base that cannot be set up throws (nothing can be measured).
 */
async function setupSide(
  ctx: GateContext,
  opts: SideOptions,
  run: SideRun
): Promise<Reason | null> {
  const { side, worktree } = opts
  const log = join(ctx.tempDir, `${side}-setup.log`)
  const setup = await prepareWorktree(ctx, side, worktree, log, opts.share)
  opts.track(setup.links ?? [])
  run.setup = setup.mode
  run.setup_reason = setup.reason
  if (setup.ok) return null
  const what = setup.timedOut ? 'timed out' : 'failed'
  run.timed_out = setup.timedOut
  if (setup.tail) run.log_tail = setup.tail
  if (side === 'base') {
    throw new GateError(
      `setup ${what} on the base, so nothing can be measured:\n${setup.tail ?? ''}`,
      {
        path: ctx.policy.path
      }
    )
  }
  return failure('setup-failed', `setup ${what} on head:\n${setup.tail ?? ''}`, ctx)
}

/**
 * The first (full) run of the suite: its report, or the red vote of a head that timed out
 * or left no readable report. A base without a report throws.
 */
async function firstRun(
  ctx: GateContext,
  opts: SideOptions,
  run: SideRun,
  logFile: string,
  watch: RunWatch
): Promise<{ report: Report; watched?: WatchedRun } | { failure: Reason }> {
  const { side, worktree } = opts
  const suite = ctx.policy.suite
  ctx.log.info(`${side}: running the suite`)
  // The first run carries the canary (tripwires.ts); its cases come back already removed.
  const command = opts.first?.command ?? suite.command
  const testArgs = opts.first ? { testArgs: opts.first.testArgs } : {}
  // The first run's child is started before what waits for it (the lints, the head's
  // worktree): their work on this process's thread would otherwise hold back its spawn.
  const onSpawn = opts.onFirstRun ? { onSpawn: opts.onFirstRun } : {}
  const first = await watch.run(
    ctx,
    { side, worktree, attempt: 0, command, logFile, ...testArgs, ...onSpawn },
    true
  )
  run.exit_code = first.result.exitCode
  run.timed_out = first.result.timedOut
  run.log_tail = first.result.tail
  const canaries = failedCanaries(watch)
  if (canaries > 0) run.canaries_failed = canaries
  if (first.result.timedOut) {
    return {
      failure: failure(
        'suite-timeout',
        `the suite timed out on ${side} after ${suite.timeout}s (a timed-out side is a red vote):\n${first.result.tail}`,
        ctx
      )
    }
  }
  if (first.report === null) {
    if (first.result.head) run.log_head = first.result.head
    const message = `the suite left no readable report on ${side} (${first.reportError ?? 'unknown'}); output head:\n${await logHead(logFile)}\n…\noutput tail:\n${first.result.tail}`
    if (side === 'base') throw new GateError(message, { path: ctx.policy.path })
    return {
      failure: failure('oracle-failed', `${message}\n(a missing report is not a pass)`, ctx)
    }
  }
  run.tests = first.report.cases.length
  const stream = first.stream
  if (stream?.state !== 'read') return { report: first.report }
  const watched = { events: stream.events, sessions: stream.watched, dropped: stream.dropped }
  return { report: first.report, watched }
}

/** The id context of a side's worktree, built on first use (reruns may never need it). */
function lazyIds(ctx: GateContext, opts: SideOptions): () => Promise<IdContext> {
  let ids: IdContext | null = null
  return async () =>
    (ids ??= worktreeIdContext(
      opts.worktree,
      await worktreeFiles(ctx, opts.worktree),
      opts.planeOf,
      ctx.policy.suite.report,
      {
        literalFiles: opts.baseFiles,
        runner: detectRunner(ctx.policy.suite),
        pyRoot: ctx.instrument?.pyRoot
      }
    ))
}

/**
 * Reruns of failing voting tests, merged into `results`. Each rerun is followed by a
 * fidelity check; the first one that fails stops the reruns and is returned.
 */
async function rerunSide(
  ctx: GateContext,
  opts: SideOptions,
  results: Map<string, Observation>,
  ids: () => Promise<IdContext>,
  logFile: string,
  watch: RunWatch
): Promise<Reason[]> {
  const { side, worktree } = opts
  const suite = ctx.policy.suite
  const plan = rerunPlan(suite)
  let tampered: Reason[] = []
  const reruns = await rerunFailures({
    results,
    reruns: suite.reruns,
    plan,
    eligible: opts.rerunnable,
    ids,
    incidental: side === 'base',
    run: async (attempt, tests) => {
      if (tampered.length > 0) return null
      ctx.log.info(
        `${side}: rerun ${attempt}${tests ? ` of ${tests.length} failing test(s)` : ' of the whole suite'}`
      )
      const again = await watch.run(ctx, {
        side,
        worktree,
        attempt,
        command: plan.command,
        tests: tests ?? [],
        testArgs: tests ? rerunArgs(plan, tests) : [],
        logFile
      })
      tampered = await opts.fidelity('run')
      if (tampered.length > 0) return null
      if (again.report === null)
        ctx.log.warning(
          `${side}: rerun ${attempt} gave no report (${again.reportError ?? 'unknown'})`
        )
      return again.report
    }
  })
  if (reruns > 0) ctx.log.info(`${side}: ${reruns} rerun(s)`)
  return tampered
}

/**
 * The seeds command's answers on one side. Its stdout past the capture cap (the wrapper
 * killed it and kept nothing) is named: a gate error on the base, a failure on head.
 */
async function seedAnswers(
  ctx: GateContext,
  side: Side,
  worktree: string,
  seeds: readonly Seed[]
): Promise<Pick<SideOutcome, 'seeds' | 'seedsFailure'>> {
  const settings = ctx.policy.seeds
  if (!settings) return { seeds: new Map() }
  ctx.log.info(`${side}: replaying ${seeds.length} seed(s)`)
  const env = await sideEnv(ctx)
  const place = placement(ctx, worktree)
  const run = await runSeeds(
    settings,
    place.cwd,
    seeds,
    env,
    join(ctx.tempDir, `${side}-seeds.log`),
    place.wrap
  )
  return seedOutcome(side, seeds.length, run, settings)
}

/** A base that answered nothing (or past the cap) throws; a head past the cap fails. Pure. */
function seedOutcome(
  side: Side,
  asked: number,
  { answers, result }: SeedRun,
  settings: SeedSettings
): Pick<SideOutcome, 'seeds' | 'seedsFailure'> {
  if (side === 'base' && (result.failure !== undefined || (asked > 0 && answers.size === 0))) {
    const why =
      result.failure ??
      (result.timedOut
        ? `timed out after ${settings.timeout}s`
        : `exit ${result.exitCode ?? result.signal}`)
    throw new GateError(
      `the seeds command answered no seed on the base (${why}):\n${result.tail}`,
      { path: settings.corpus }
    )
  }
  if (result.failure === undefined) return { seeds: answers }
  const message = `the seeds command on head: ${result.failure}, so no seed counts as answered on head`
  return {
    seeds: answers,
    seedsFailure: { rule: 'seed-regression', message, path: settings.corpus, level: 'failure' }
  }
}

function failure(rule: Reason['rule'], message: string, ctx: GateContext): Reason {
  return { rule, message, path: ctx.policy.path, level: 'failure' }
}
