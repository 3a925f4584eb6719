// Replay: the same instrument (the merge base's) measures the base and the head, and the
// verdict comes from what changed between them. This file sequences the pieces: corpus and
// overlay from the merge base, two worktrees, one side run each, then pure scoring.
import { emptyDiagnostics, emptySeeds, emptyTransitions, emptyVotes } from '../verdict/scorecard.js'
import type { GateContext } from '../context.js'
import { instrumentOverlay } from '../instrument/index.js'
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
import { compilePlanes } from '../writeset/planes.js'
import { GateError } from '../errors.js'
import { canaryToken, planCanary, type CanaryPlanning } from './canary.js'
import { compileClasses, type ClassOf } from './classes.js'
import { detectRunner } from './runners.js'
import { loadCorpus, scoreSeeds, type Seed } from './seeds.js'
import { runSide, type SideOutcome, type SideOptions } from './side.js'
import { score, type Observation } from './transitions.js'
import { judgeTripwires, unexplainedHit } from './tripwires.js'
import { applyOverlay, withWorktrees, worktreeFiles } from './worktree.js'

export interface ReplayOutcome {
  reasons: Reason[]
  votes: Votes
  transitions: Transitions
  seeds: SeedSummary
  flakes: FlakeRow[]
  runs: SideRun[]
  diagnostics: Scorecard['diagnostics']
}

export async function replay(ctx: GateContext, ledger: LedgerState): Promise<ReplayOutcome> {
  const planes = compilePlanes(ctx.policy)
  const classOf = compileClasses(ctx.policy.classes)
  // Read before anything runs, so a broken corpus fails fast and nothing the head did can
  // change it.
  const corpus: Seed[] | null = ctx.policy.seeds ? await loadCorpus(ctx, ctx.policy.seeds) : null
  const overlay = await instrumentOverlay(ctx)

  // In-diff test files the patch wrote: run against the base's code for non-discriminating.
  const probe = ctx.writeSet
    .filter(r => r.status !== 'deleted' && r.plane === 'in_diff')
    .map(r => r.path)

  const rerunnable = (o: Observation): boolean =>
    o.file !== null &&
    planes.planeOf(o.file) === 'voting' &&
    !ledger.live.has(o.id) &&
    classOf(o.id) !== 'judge'

  let canary: CanaryPlanning = { plan: null, why: 'the replay did not start' }
  const [base, head] = await withWorktrees(ctx, async wt => {
    // Chosen from the merge base's files, the same for both sides (tripwires.ts).
    const baseFiles = await worktreeFiles(ctx, wt.base)
    canary = planCanary(detectRunner(ctx.policy.suite), baseFiles, planes.planeOf, canaryToken())
    await applyOverlay(ctx, wt.head, overlay)
    if (overlay.restore.length + overlay.remove.length > 0) {
      ctx.log.info(
        `head worktree: ${overlay.restore.length} instrument path(s) restored from the merge base, ${overlay.remove.length} removed`
      )
    }
    const options = (side: 'base' | 'head'): SideOptions => ({
      side,
      worktree: side === 'base' ? wt.base : wt.head,
      rerunnable,
      planeOf: p => planes.planeOf(p),
      seeds: corpus,
      canary: canary.plan,
      baseFiles,
      ...(side === 'base' ? { probe } : {})
    })
    if (!ctx.policy.suite.parallel)
      return [await runSide(ctx, options('base')), await runSide(ctx, options('head'))] as const
    // Both sides run to the end before the worktrees go, even when one of them throws.
    const settled = await Promise.allSettled([
      runSide(ctx, options('base')),
      runSide(ctx, options('head'))
    ])
    const [b, h] = settled
    if (b?.status === 'rejected') throw b.reason
    if (h?.status === 'rejected') throw h.reason
    return [
      (b as PromiseFulfilledResult<SideOutcome>).value,
      (h as PromiseFulfilledResult<SideOutcome>).value
    ] as const
  })

  return combine(ctx, ledger, base, head, corpus, {
    planeOf: p => planes.planeOf(p),
    classOf,
    canary
  })
}

function combine(
  ctx: GateContext,
  ledger: LedgerState,
  base: SideOutcome,
  head: SideOutcome,
  corpus: readonly Seed[] | null,
  fns: { planeOf: (p: string) => Plane; classOf: ClassOf; canary: CanaryPlanning }
): ReplayOutcome {
  const reasons: Reason[] = []
  for (const side of [base, head]) if (side.failure) reasons.push(side.failure)
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
      today: ctx.today
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
