// Replay: the same instrument (the merge base's) measures the base and the head, and the
// verdict comes from what changed between them. This file sequences the pieces: corpus and
// overlay from the merge base, two worktrees, one side run each, then pure scoring.
import { emptyDiagnostics, emptySeeds, emptyTransitions, emptyVotes } from '../verdict/scorecard.js'
import type { GateContext } from '../context.js'
import {
  computeOverlay,
  productionReset,
  unmeasuredPaths,
  voteUsesHead,
  type InstrumentOverlay
} from '../instrument/overlay.js'
import { runnerChanges } from '../instrument/tampering.js'
import { instrumentView, type InstrumentView } from '../instrument/view.js'
import type { SandboxReport } from '../exec/sandbox.js'
import type { LedgerState } from '../ledger/types.js'
import type {
  FlakeRow,
  Plane,
  Reason,
  Scorecard,
  SeedSummary,
  SideRun,
  Transitions,
  EvidenceCard,
  Votes
} from '../types.js'
import { GateError } from '../errors.js'
import { guardGitState } from '../git/state.js'
import { canaryBase, planCanary, type CanaryPlanning } from './canary.js'
import { compileClasses, type ClassOf } from './classes.js'
import { containmentNotices, containRuns, startProbe, watchedInstrument } from './contain.js'
import { watchPlan } from './watch.js'
import { replayEvidence } from '../evidence/index.js'
import { pluginReasons, runtimeReach, type ReachEvent } from './reach-events.js'
import { replayDifferential } from './differential.js'
import { configDrift } from './config-drift.js'
import type { WatchRecord } from './tripwires.js'
import { allowList, entryPoints } from '../lints/reach/allow.js'
import { levelOf } from '../lints/registry.js'
import { checkFidelity, fidelitySpec, foldCollisions, type FidelitySpec } from './fidelity.js'
import { patchTestPlan, probeInDiff, runPatchTests, type PatchTestPlan } from './patch-tests.js'
import { detectRunner } from './runners.js'
import { loadCorpus, scoreSeeds, type Seed } from './seeds.js'
import { runSide, startSide, type SideOutcome, type SideOptions } from './side.js'
import { score, type Observation } from './transitions.js'
import { judgeTripwires, unexplainedHit } from './tripwires.js'
import { unmeasuredReasons } from './unmeasured.js'
import { applyOverlay, withWorktrees, type Worktrees } from './worktree.js'
import { shardBlock } from '../shard/record.js'
import { planSlice } from '../shard/slice.js'
import type { ShardSpec } from '../shard/split.js'
import type { ShardBlock } from '../shard/types.js'

export interface ReplayOutcome {
  reasons: Reason[]
  votes: Votes
  transitions: Transitions
  seeds: SeedSummary
  flakes: FlakeRow[]
  runs: SideRun[]
  diagnostics: Scorecard['diagnostics']
  /** What the head changed that the vote did not use (the card's `unmeasured`). */
  unmeasured?: string[]
  /** A shard's slice and observations, for the merge (src/shard/). */
  shard?: ShardBlock
  /** How the runs were contained (scorecard `sandbox`). */
  sandbox?: SandboxReport
  /** What the voting tests ran and pinned of the patch (scorecard `evidence`). */
  evidence?: EvidenceCard
}

/** `path` under `from` as the same path under `to`. */
function atPath(path: string, from: string, to: string): string {
  return path === from || path.startsWith(`${from}/`) ? to + path.slice(from.length) : path
}

/**
 * Supplies the base side around its normal run: a primed result instead of running it, or
 * the run stored for later (src/prime/source.ts). Absent, the base side simply runs.
 */
export type BaseSide = (ctx: GateContext, run: () => Promise<SideOutcome>) => Promise<SideOutcome>

/** How much of the replay runs. */
export interface ReplayMode {
  /**
   * Only the base side (a prime, src/cli/prime.ts): no head worktree, no head run, no patch
   * tests; the outcome holds the base's run and any reason it could not be measured.
   */
  baseOnly?: boolean
  /**
   * One shard of a sharded replay (src/shard/slice.ts): only its voting files run on both
   * sides; shard 1 also runs the seeds and the patch's own tests.
   */
  shard?: ShardSpec
  /**
   * Called once, as soon as the base's first run's child is spawned (after its worktree,
   * setup and fidelity check; the head's worktree is made then too): the gate starts the
   * lints then, so that their CPU is spent while the
   * suite runs instead of before it (src/gate.ts). Not called for a primed base.
   */
  onBaseRun?: () => void
  /**
   * The base side is measured here (no primed result stands for it): its worktree is then
   * made beside the head's instead of after it (two `git worktree add` at once).
   */
  baseRuns?: boolean
}

export async function replay(
  ctx: GateContext,
  ledger: LedgerState,
  baseSide?: BaseSide,
  mode: ReplayMode = {}
): Promise<ReplayOutcome> {
  // The sandbox probe needs nothing of the instrument: it runs while the instrument's spec
  // and the watch plan are read (all before anything of the patch runs).
  const probe = startProbe(ctx)
  // Observed at once: a failure while the other reads go on is not an unhandled rejection.
  probe.catch(() => undefined)
  const view = ctx.instrument ?? (await settledAfter(probe, instrumentView(ctx)))
  const spec = await settledAfter(
    probe,
    fidelitySpec(ctx.git, view, ctx.policy, voteUsesHead(view, ctx.policy))
  )
  const watching = watchPlan(ctx, watchedInstrument(spec))
  watching.catch(() => undefined)
  // Decided once, before anything of the patch runs (contain.ts).
  const containment = await settledAfter(watching, containRuns(ctx, spec, probe))
  const watch = await watching
  const contained = { ...ctx, instrument: view, containment, watch }
  const outcome = await measureAndScore(contained, ledger, spec, baseSide, mode)
  outcome.reasons.push(...containmentNotices(ctx, containment))
  return { ...outcome, sandbox: containment.report }
}

/**
 * `work`'s value, or its failure once `beside` has settled too: nothing started beside it is
 * left running (writing into the run's temp dir) when the failure ends the run.
 */
async function settledAfter<T>(beside: Promise<unknown>, work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (error) {
    await beside.catch(() => undefined)
    throw error
  }
}

async function measureAndScore(
  ctx: GateContext & { instrument: InstrumentView },
  ledger: LedgerState,
  spec: FidelitySpec,
  baseSide: BaseSide | undefined,
  mode: ReplayMode
): Promise<ReplayOutcome> {
  const { planes } = ctx
  const planeOf = (p: string): Plane => planes.planeOf(p)
  const classOf = compileClasses(ctx.policy.classes)
  // Read before anything runs, so a broken corpus fails fast and nothing the head did can
  // change it.
  const corpus: Seed[] | null = ctx.policy.seeds ? await loadCorpus(ctx, ctx.policy.seeds) : null
  const view = ctx.instrument
  const headCounts = voteUsesHead(view, ctx.policy)
  const overlay = computeOverlay(view, await runnerChanges(ctx.git, view), headCounts)
  const appended = ctx.writeSet
    .filter(r => r.classification.row === 'voting-append')
    .map(r => r.path)
  const tests = patchTestPlan(view, overlay, appended)
  const reset = productionReset(view, headCounts, {
    restore: [...overlay.restore, ...tests.strip.restore],
    remove: [...overlay.remove, ...tests.strip.remove]
  })
  const unmeasured = unmeasuredPaths(view, [overlay, tests.strip, reset])
  const collisions = foldCollisions(spec, view.base, view.head)
  // The merge base's files: where the canary goes (the same on both sides, tripwires.ts)
  // and the only files node:test titles map to for certain (ids.ts).
  const baseFiles = [...view.base.keys()]
  const canary = planCanary(
    detectRunner(ctx.policy.suite),
    baseFiles,
    planeOf,
    ctx.policy.suite.command,
    undefined,
    canaryBase(view)
  )

  const slice = mode.shard ? planSlice(mode.shard, baseFiles, planes, ctx.policy.suite) : null
  const lead = slice?.lead ?? true

  const rerunnable = (o: Observation): boolean =>
    o.file !== null &&
    planeOf(o.file) === 'voting' &&
    !ledger.live.has(o.id) &&
    classOf(o.id) !== 'judge'

  const measured = await withWorktrees(ctx, async made => {
    // The head's worktree, given the base's instrument before anything can have it: every
    // use of `wt.head()` below (the head side, evidence, the differential, the patch tests)
    // waits for the overlay, so no code of the head runs in a worktree without it. Made as
    // the base's first run starts (worktree.ts makes worktrees one after another, the
    // base's first), so its `git worktree add` and overlay are off the path the runs wait
    // on; at once when no base run will start it (a primed base).
    let prepared: Promise<string> | undefined
    const headReady = (): Promise<string> =>
      (prepared ??= made.head().then(async dir => {
        await prepareHead(ctx, dir, overlay, tests, reset)
        return dir
      }))
    const onBaseRun = (): void => {
      mode.onBaseRun?.()
      if (!mode.baseOnly) void headReady().catch(() => undefined)
    }
    try {
      return await measureIn({ ...made, head: headReady }, onBaseRun)
    } finally {
      // Nothing of the preparation is left writing into a worktree being removed.
      await prepared?.catch(() => undefined)
    }
  })
  async function measureIn(wt: Worktrees, onBaseRun: () => void) {
    const options = async (side: 'base' | 'head'): Promise<SideOptions> => {
      const real = side === 'base' ? await wt.base() : await wt.head()
      // The one path both sides run at (worktree.ts stage; the sandbox mounts it there).
      const worktree = await wt.stage(real)
      return {
        side,
        worktree,
        rerunnable,
        planeOf,
        seeds: lead ? corpus : null,
        prepared: side === 'base' ? 'checkout' : 'overlay',
        fidelity: async moment => [
          ...(moment === 'overlay' ? collisions : []),
          ...(await checkFidelity(spec, worktree, { side, moment }))
        ],
        track: links =>
          wt.track(
            real,
            links.map(l => atPath(l, worktree, real))
          ),
        canary: canary.plan,
        baseFiles,
        ...(side === 'base' ? { onFirstRun: onBaseRun } : {}),
        // suite.parallel sets both sides up at once: nothing to share between them.
        ...(ctx.policy.suite.parallel ? {} : { share: wt.share }),
        ...(slice ? { first: slice.first(canary.plan), keep: slice.keep } : {})
      }
    }
    if (mode.baseOnly) return { base: await measureBase(ctx, options, baseSide) }
    if (mode.baseRuns) void wt.base().catch(() => undefined)
    else void wt.head().catch(() => undefined)
    const [base, head] = await measureSides(ctx, options, baseSide)
    // The vote is complete; its worktree is still here (src/evidence/, docs/evidence.md).
    const fidelity = async (): Promise<Reason[]> => (await options('head')).fidelity('run')
    const replayed = {
      head,
      planeOf,
      votes: rerunnable,
      baseFiles,
      shard: slice !== null,
      fidelity
    }
    const evidence = await replayEvidence(ctx, wt, replayed)
    // The patch's own tests, only now that no side is left to run (docs/replay.md).
    if (base.results === null || head.results === null) return { base, head, evidence }
    const differential = await differentialStage(ctx, wt, head, fidelity)
    const patchTests = { what: "the patch's own tests", patchCode: true }
    const patchRun =
      tests.headTests.length > 0 && lead
        ? await guardGitState(ctx.git, patchTests, () =>
            runPatchTests(ctx, wt, tests, overlay, planes)
          )
        : null
    const probed =
      tests.probeTests.length > 0 && lead
        ? await guardGitState(ctx.git, patchTests, () => probeInDiff(ctx, wt, tests, planes))
        : null
    return { base, head, patchRun, probed, evidence, differential }
  }
  if (measured.head === undefined) return baseOnlyOutcome(ctx, measured.base, canary)
  const { base, head } = measured
  const added = addedTests(measured.patchRun, head.results, new Set(tests.appended))
  if (head.results !== null && measured.patchRun) addDiagnostics(head.results, measured.patchRun)
  if (measured.probed) base.inDiffOnBase = measured.probed
  const fns = { planeOf, classOf, canary, added }
  const outcome = combine(ctx, ledger, base, head, lead ? corpus : null, fns)
  const differential = 'differential' in measured ? measured.differential : null
  outcome.reasons.push(
    ...(await reachAtRunTime(ctx, head.watched ?? [], differential?.events ?? []))
  )
  outcome.reasons.push(...(differential?.tampered ?? []))
  if (ctx.watch) outcome.reasons.push(...pluginReasons(head.watched ?? [], ctx.watch))
  outcome.reasons.push(...configDrift(driftInput(ctx, base.watched, head.watched)))
  outcome.unmeasured = unmeasured
  outcome.reasons.push(...unmeasuredReasons(ctx, unmeasured, outcome.reasons))
  outcome.reasons.push(...measured.evidence.reasons)
  if (measured.evidence.evidence) outcome.evidence = measured.evidence.evidence
  if (slice) outcome.shard = shardBlock(slice, base, head, canary, added)
  return outcome
}

/**
 * The head worktree before anything of it runs: the base's instrument laid over it, then
 * the patch's tests taken out (patch-tests.ts), in the worktree's own index.
 */
async function prepareHead(
  ctx: GateContext,
  dir: string,
  overlay: InstrumentOverlay,
  tests: PatchTestPlan,
  reset: InstrumentOverlay
): Promise<void> {
  await applyOverlay(ctx, dir, overlay)
  if (overlay.restore.length + overlay.remove.length > 0) {
    ctx.log.info(
      `head worktree: ${overlay.restore.length} instrument path(s) restored from the merge base, ${overlay.remove.length} removed`
    )
  }
  await applyOverlay(ctx, dir, tests.strip)
  const stripped = tests.strip.restore.length + tests.strip.remove.length
  if (stripped > 0) {
    ctx.log.info(
      `head worktree: the vote runs without the patch's tests: ${tests.strip.remove.length} test-plane path(s) removed, ${tests.strip.restore.length} restored from the merge base`
    )
  }
  await applyOverlay(ctx, dir, reset)
  if (reset.restore.length + reset.remove.length > 0) {
    ctx.log.info(
      `head worktree: outside production code (planes.production) ${reset.restore.length} path(s) restored from the merge base, ${reset.remove.length} removed`
    )
  }
}

/**
 * The differential replay (differential.ts) of the calls the head's vote recorded, in its
 * worktree at its run path with its git state guarded, and the fidelity check after it: a
 * replay that changed the instrument on disk is reported as the vote's runs are.
 */
async function differentialStage(
  ctx: GateContext,
  wt: Pick<Worktrees, 'head' | 'stage'>,
  head: SideOutcome,
  fidelity: () => Promise<Reason[]>
): Promise<{ events: ReachEvent[]; tampered: Reason[] }> {
  const events = head.firstWatched?.events
  if (!ctx.watch?.diff || events === undefined) return { events: [], tampered: [] }
  const worktree = await wt.stage(await wt.head())
  const found = await guardGitState(
    ctx.git,
    { what: 'the differential replay', patchCode: true },
    () =>
      replayDifferential(
        ctx,
        worktree,
        events,
        (head.watched ?? []).map(run => run.events)
      )
  )
  return { events: found.events, tampered: found.judged ? await fidelity() : [] }
}

/** What config-drift.ts compares: each side's runs, the patch's files and first lines. */
function driftInput(
  ctx: GateContext,
  base: readonly WatchRecord[] | undefined,
  head: readonly WatchRecord[] | undefined
): Parameters<typeof configDrift>[0] {
  const lines = Object.entries(ctx.watch?.lines ?? {})
  const changed = new Map(lines.map(([path, ranges]) => [path, ranges[0]?.[0] ?? 1]))
  return { base: base ?? [], head: head ?? [], changed, fallback: ctx.policy.path }
}

/** oracle-reach at run time: what the head's watched runs saw the patch's lines do. */
async function reachAtRunTime(
  ctx: GateContext,
  runs: readonly WatchRecord[],
  differential: readonly ReachEvent[]
): Promise<Reason[]> {
  const plan = ctx.watch
  const level = levelOf(ctx.policy.lints['oracle-reach'])
  if (!plan?.reach || level === undefined) return []
  const isEntry = entryPoints(
    await ctx.git.showText(ctx.mergeBase, 'package.json'),
    await ctx.git.showText(ctx.mergeBase, 'pyproject.toml')
  )
  const found = runtimeReach({
    runs,
    plan,
    level,
    allowed: allowList(ctx.policy.lints.reach_allow, ctx.policy.case_insensitive),
    isEntry,
    policyPath: ctx.policy.path,
    differential
  })
  ctx.log.info(
    `oracle-reach at run time: ${found.reasons.length} reason(s), ${found.waived} allowed by lints.reach_allow, ${found.forged} record(s) naming no line of the plan ignored`
  )
  return found.reasons
}

type SideOptionsOf = (side: 'base' | 'head') => Promise<SideOptions>

/** One side from start to end: fidelity, setup, the first run, seeds, reruns. */
async function fullSide(
  ctx: GateContext,
  options: SideOptionsOf,
  side: 'base' | 'head'
): Promise<SideOutcome> {
  return runSide(ctx, await options(side))
}

/** The base side alone, through the base seam (primed or priming), its git state guarded. */
function measureBase(
  ctx: GateContext,
  options: SideOptionsOf,
  baseSide?: BaseSide
): Promise<SideOutcome> {
  return guardGitState(ctx.git, { what: 'the base side', patchCode: false }, () =>
    throughSeam(ctx, baseSide, () => fullSide(ctx, options, 'base'))
  )
}

/** The base side as the seam supplies it (primed or priming), or simply run. */
function throughSeam(
  ctx: GateContext,
  baseSide: BaseSide | undefined,
  run: () => Promise<SideOutcome>
): Promise<SideOutcome> {
  return baseSide ? baseSide(ctx, run) : run()
}

/**
 * Base then head (serial); both at once with suite.parallel; with suite.jobs ≥ 2 the head
 * starts when the base's first run is over (docs/replay.md "Overlap"). Both run to the end
 * either way.
 */
async function measureSides(
  ctx: GateContext,
  options: SideOptionsOf,
  baseSide?: BaseSide
): Promise<readonly [SideOutcome, SideOutcome]> {
  const { parallel, jobs } = ctx.policy.suite
  // Overlap only in separate sandboxes: without, both would need the one run path.
  const apart = ctx.containment?.bin != null
  if (parallel && apart) return parallelSides(ctx, options, baseSide)
  if (jobs >= 2 && apart) return overlappingSides(ctx, options, baseSide)
  // No side's children may change the checkout's git configuration or hooks (git/state.ts).
  const base = await measureBase(ctx, options, baseSide)
  const head = await guardGitState(ctx.git, { what: 'the head side', patchCode: true }, () =>
    fullSide(ctx, options, 'head')
  )
  return [base, head] as const
}

async function parallelSides(
  ctx: GateContext,
  options: SideOptionsOf,
  baseSide?: BaseSide
): Promise<readonly [SideOutcome, SideOutcome]> {
  // The merge base is checked out before any of the patch's code runs: running, that code
  // could rewrite objects in the repository both worktrees are checked out from.
  await options('base')
  const base = (): Promise<SideOutcome> => fullSide(ctx, options, 'base')
  const both = { what: 'the base and head sides (in parallel)', patchCode: true }
  const settled = await guardGitState(ctx.git, both, () =>
    Promise.allSettled([throughSeam(ctx, baseSide, base), fullSide(ctx, options, 'head')])
  )
  const [b, h] = settled
  if (b?.status === 'rejected') throw b.reason
  if (h?.status === 'rejected') throw h.reason
  return [
    (b as PromiseFulfilledResult<SideOutcome>).value,
    (h as PromiseFulfilledResult<SideOutcome>).value
  ] as const
}

/**
 * suite.jobs ≥ 2: the base's setup and first run alone (guarded as the base's: only its
 * code ran), then its seeds and reruns while the head runs (guarded together, as the
 * patch's code: either may have made a change). A base taken from a primed result starts
 * the head when the seam returns. A base that fails first never starts the head.
 */
async function overlappingSides(
  ctx: GateContext,
  options: SideOptionsOf,
  baseSide?: BaseSide
): Promise<readonly [SideOutcome, SideOutcome]> {
  let head: Promise<SideOutcome> | undefined
  const startHead = (): Promise<SideOutcome> => (head ??= fullSide(ctx, options, 'head'))
  const base = async (): Promise<SideOutcome> => {
    const alone = { what: 'the base side', patchCode: false }
    const started = await guardGitState(ctx.git, alone, async () =>
      startSide(ctx, await options('base'))
    )
    ctx.log.info("head: starting, the base's first run is over (suite.jobs)")
    void startHead().catch(() => undefined)
    return started.rest()
  }
  const both = { what: 'the base and head sides (overlapping)', patchCode: true }
  return guardGitState(ctx.git, both, async () => {
    let measured: SideOutcome
    try {
      measured = await throughSeam(ctx, baseSide, base)
    } catch (error) {
      // Whatever the head had started runs to its end before the worktrees go.
      await head?.catch(() => undefined)
      throw error
    }
    return [measured, await startHead()] as const
  })
}

/**
 * The tests the patch added to voting files (voting_edits: append): ids of the patch-tests
 * run in those files that the vote (the merge base's version of each file) did not have.
 */
function addedTests(
  patchRun: ReadonlyMap<string, Observation> | null | undefined,
  voted: ReadonlyMap<string, Observation> | null,
  appended: ReadonlySet<string>
): Set<string> {
  const ids = new Set<string>()
  if (!patchRun || appended.size === 0) return ids
  for (const [id, o] of patchRun)
    if (o.file !== null && appended.has(o.file) && !voted?.has(id)) ids.add(id)
  return ids
}

/**
 * The patch's drafts and in-diff test outcomes join the head's results for scoring: they
 * never vote (their plane decides), they fill diagnostics.drafts and the head half of
 * non-discriminating. An id the vote already has is left as the vote saw it.
 */
function addDiagnostics(
  results: Map<string, Observation>,
  patchRun: ReadonlyMap<string, Observation>
): void {
  for (const [id, o] of patchRun) if (!results.has(id)) results.set(id, o)
}

/**
 * A prime's outcome (ReplayMode.baseOnly): the base's run, why it could not be measured if
 * it could not, and the base's own tripwire problems as a gate error, as in a full replay.
 */
function baseOnlyOutcome(
  ctx: GateContext,
  base: SideOutcome,
  canary: CanaryPlanning
): ReplayOutcome {
  const reasons: Reason[] = [...(base.failure ? [base.failure] : []), ...(base.tampered ?? [])]
  const trip = judgeTripwires({
    base: base.records ?? [],
    head: [],
    canary,
    policyPath: ctx.policy.path
  })
  if (trip.baseProblems.length > 0)
    throw new GateError(trip.baseProblems.join('\n'), { path: ctx.policy.path })
  reasons.push({
    rule: 'diagnostic',
    level: 'notice',
    message: 'only the base side was measured (a prime): the head was not run, this is no verdict',
    path: ctx.policy.path
  })
  return {
    reasons,
    votes: emptyVotes(),
    transitions: emptyTransitions(),
    seeds: emptySeeds(ctx.policy.seeds?.min_distance ?? 0),
    flakes: [],
    runs: [base.run],
    diagnostics: emptyDiagnostics(),
    unmeasured: []
  }
}

/** Scores two measured sides (exported for the merge of shards, src/shard/merge.ts). */
export function combine(
  ctx: GateContext,
  ledger: LedgerState,
  base: SideOutcome,
  head: SideOutcome,
  corpus: readonly Seed[] | null,
  fns: {
    planeOf: (p: string) => Plane
    classOf: ClassOf
    canary: CanaryPlanning
    added: ReadonlySet<string>
  }
): ReplayOutcome {
  const reasons: Reason[] = []
  for (const side of [base, head]) {
    if (side.failure) reasons.push(side.failure)
    if (side.seedsFailure) reasons.push(side.seedsFailure)
    reasons.push(...(side.tampered ?? []))
  }
  const trip = judgeTripwires({
    base: base.records ?? [],
    head: head.records ?? [],
    canary: fns.canary,
    policyPath: ctx.policy.path
  })
  if (trip.baseProblems.length > 0)
    throw new GateError(trip.baseProblems.join('\n'), { path: ctx.policy.path })
  reasons.push(...trip.reasons)

  const outcome: ReplayOutcome = {
    reasons,
    votes: emptyVotes(),
    transitions: emptyTransitions(),
    seeds: emptySeeds(ctx.policy.seeds?.min_distance ?? 0),
    flakes: [],
    runs: [base.run, head.run],
    diagnostics: emptyDiagnostics(),
    unmeasured: []
  }

  // Without base results there is nothing to compare against: the base's failure (a
  // timeout) is the vote.
  if (base.results !== null) {
    const written = new Set(ctx.writeSet.filter(r => r.status !== 'deleted').map(r => r.path))
    const input: Parameters<typeof score>[0] = {
      base: base.results,
      head: head.results,
      planeOf: fns.planeOf,
      classOf: fns.classOf,
      live: ledger.live,
      policyPath: ctx.policy.path,
      written,
      duplicates: { base: base.duplicates ?? [], head: head.duplicates ?? [] },
      today: ctx.today,
      added: fns.added
    }
    if (ledger.path !== undefined) input.ledgerPath = ledger.path
    if (base.inDiffOnBase) input.inDiffOnBase = base.inDiffOnBase
    const scored = score(input)
    reasons.push(...scored.reasons)
    outcome.votes = scored.votes
    outcome.transitions = scored.transitions
    outcome.flakes = scored.flakes
    outcome.diagnostics = scored.diagnostics
    const hit = unexplainedHit(
      ctx.writeSet,
      scored.transitions.fail_to_pass,
      fns.planeOf,
      ctx.policy.path
    )
    if (hit) reasons.push(hit)
  }

  const settings = ctx.policy.seeds
  if (settings && corpus) {
    const seeded = scoreSeeds(corpus, base.seeds ?? new Map(), head.seeds ?? new Map(), settings)
    reasons.push(...seeded.reasons)
    outcome.seeds = seeded.summary
  }
  return outcome
}
