// Replay: the same instrument (the merge base's) measures the base and the head, and the
// verdict comes from what changed between them. This file sequences the pieces: corpus and
// overlay from the merge base, two worktrees, one side run each, then pure scoring.
import { emptyDiagnostics, emptySeeds, emptyTransitions, emptyVotes } from '../verdict/scorecard.js'
import type { GateContext } from '../context.js'
import { computeOverlay, type InstrumentOverlay } from '../instrument/overlay.js'
import { runnerChanges } from '../instrument/tampering.js'
import { instrumentView } from '../instrument/view.js'
import type { LedgerState } from '../ledger/types.js'
import type {
  FlakeRow,
  Plane,
  Reason,
  Scorecard,
  SeedSummary,
  SideRun,
  Transitions,
  Votes
} from '../types.js'
import { GateError } from '../errors.js'
import { guardGitState } from '../git/state.js'
import { canaryToken, planCanary, type CanaryPlanning } from './canary.js'
import { compileClasses, type ClassOf } from './classes.js'
import { checkFidelity, fidelitySpec, foldCollisions } from './fidelity.js'
import { patchTestPlan, probeInDiff, runPatchTests, type PatchTestPlan } from './patch-tests.js'
import { detectRunner } from './runners.js'
import { loadCorpus, scoreSeeds, type Seed } from './seeds.js'
import { runSide, type SideOutcome, type SideOptions } from './side.js'
import { score, type Observation } from './transitions.js'
import { judgeTripwires, unexplainedHit } from './tripwires.js'
import { applyOverlay, withWorktrees } from './worktree.js'

export interface ReplayOutcome {
  reasons: Reason[]
  votes: Votes
  transitions: Transitions
  seeds: SeedSummary
  flakes: FlakeRow[]
  runs: SideRun[]
  diagnostics: Scorecard['diagnostics']
}

/**
 * Supplies the base side around its normal run: a primed result instead of running it, or
 * the run stored for later (src/prime/source.ts). Absent, the base side simply runs.
 */
export type BaseSide = (ctx: GateContext, run: () => Promise<SideOutcome>) => Promise<SideOutcome>

export async function replay(
  ctx: GateContext,
  ledger: LedgerState,
  baseSide?: BaseSide
): Promise<ReplayOutcome> {
  const { planes } = ctx
  const planeOf = (p: string): Plane => planes.planeOf(p)
  const classOf = compileClasses(ctx.policy.classes)
  // Read before anything runs, so a broken corpus fails fast and nothing the head did can
  // change it.
  const corpus: Seed[] | null = ctx.policy.seeds ? await loadCorpus(ctx, ctx.policy.seeds) : null
  const view = ctx.instrument ?? (await instrumentView(ctx))
  const overlay = computeOverlay(view, await runnerChanges(ctx.git, view))
  const appended = ctx.writeSet
    .filter(r => r.classification.row === 'voting-append')
    .map(r => r.path)
  const tests = patchTestPlan(view, overlay, appended)
  const spec = await fidelitySpec(ctx.git, view, ctx.policy)
  const collisions = foldCollisions(spec, view.base, view.head)
  // The merge base's files: where the canary goes (the same on both sides, tripwires.ts)
  // and the only files node:test titles map to for certain (ids.ts).
  const baseFiles = [...view.base.keys()]
  const canary = planCanary(
    detectRunner(ctx.policy.suite),
    baseFiles,
    planeOf,
    canaryToken(),
    ctx.policy.suite.command
  )

  const rerunnable = (o: Observation): boolean =>
    o.file !== null &&
    planeOf(o.file) === 'voting' &&
    !ledger.live.has(o.id) &&
    classOf(o.id) !== 'judge'

  const measured = await withWorktrees(ctx, async wt => {
    await prepareHead(ctx, wt.head, overlay, tests)
    const options = (side: 'base' | 'head'): SideOptions => {
      const worktree = side === 'base' ? wt.base : wt.head
      return {
        side,
        worktree,
        rerunnable,
        planeOf,
        seeds: corpus,
        prepared: side === 'base' ? 'checkout' : 'overlay',
        fidelity: async moment => [
          ...(moment === 'overlay' ? collisions : []),
          ...(await checkFidelity(spec, worktree, { side, moment }))
        ],
        track: links => wt.track(worktree, links),
        canary: canary.plan,
        baseFiles
      }
    }
    const [base, head] = await measureSides(ctx, options, baseSide)
    // The patch's own tests, only now that no side is left to run (docs/replay.md).
    if (base.results === null || head.results === null) return { base, head }
    const patchTests = { what: "the patch's own tests", patchCode: true }
    const patchRun =
      tests.headTests.length > 0
        ? await guardGitState(ctx.git, patchTests, () =>
            runPatchTests(ctx, wt, tests, overlay, planes)
          )
        : null
    const probed =
      tests.probeTests.length > 0
        ? await guardGitState(ctx.git, patchTests, () => probeInDiff(ctx, wt, tests, planes))
        : null
    return { base, head, patchRun, probed }
  })
  const { base, head } = measured
  const added = addedTests(measured.patchRun, head.results, new Set(tests.appended))
  if (head.results !== null && measured.patchRun) addDiagnostics(head.results, measured.patchRun)
  if (measured.probed) base.inDiffOnBase = measured.probed
  return combine(ctx, ledger, base, head, corpus, { planeOf, classOf, canary, added })
}

/**
 * The head worktree before anything of it runs: the base's instrument laid over it, then
 * the patch's tests taken out (patch-tests.ts), in the worktree's own index.
 */
async function prepareHead(
  ctx: GateContext,
  dir: string,
  overlay: InstrumentOverlay,
  tests: PatchTestPlan
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
}

/** Base then head, or both at once with suite.parallel (both run to the end either way). */
async function measureSides(
  ctx: GateContext,
  options: (side: 'base' | 'head') => SideOptions,
  baseSide?: BaseSide
): Promise<readonly [SideOutcome, SideOutcome]> {
  const runOne = (side: 'base' | 'head'): Promise<SideOutcome> =>
    side === 'base' && baseSide
      ? baseSide(ctx, () => runSide(ctx, options(side)))
      : runSide(ctx, options(side))
  // No side's children may change the checkout's git configuration or hooks (git/state.ts).
  const guarded = (side: 'base' | 'head'): Promise<SideOutcome> =>
    guardGitState(ctx.git, { what: `the ${side} side`, patchCode: side === 'head' }, () =>
      runOne(side)
    )
  if (!ctx.policy.suite.parallel) return [await guarded('base'), await guarded('head')] as const
  const both = { what: 'the base and head sides (in parallel)', patchCode: true }
  const settled = await guardGitState(ctx.git, both, () =>
    Promise.allSettled([runOne('base'), runOne('head')])
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

function combine(
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
    diagnostics: emptyDiagnostics()
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
