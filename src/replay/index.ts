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
import { guardGitState } from '../git/state.js'
import { compilePlanes } from '../writeset/planes.js'
import { compileClasses, type ClassOf } from './classes.js'
import { loadCorpus, scoreSeeds, type Seed } from './seeds.js'
import { runSide, type SideOutcome, type SideOptions } from './side.js'
import { score, type Observation } from './transitions.js'
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

  const [base, head] = await withWorktrees(ctx, async wt => {
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
      ...(side === 'base' ? { probe } : {})
    })
    // No side's children may change the checkout's git configuration or hooks; the base
    // side runs the patch's code too when it probes the in-diff tests.
    const during = (side: 'base' | 'head') =>
      side === 'head'
        ? { what: 'the head side', patchCode: true }
        : probe.length > 0
          ? { what: "the base side (with the in-diff probe of the patch's tests)", patchCode: true }
          : { what: 'the base side', patchCode: false }
    const guarded = (side: 'base' | 'head'): Promise<SideOutcome> =>
      guardGitState(ctx.git, during(side), () => runSide(ctx, options(side)))
    if (!ctx.policy.suite.parallel) return [await guarded('base'), await guarded('head')] as const
    // Both sides run to the end before the worktrees go, even when one of them throws.
    const both = { what: 'the base and head sides (in parallel)', patchCode: true }
    const settled = await guardGitState(ctx.git, both, () =>
      Promise.allSettled([runSide(ctx, options('base')), runSide(ctx, options('head'))])
    )
    const [b, h] = settled
    if (b?.status === 'rejected') throw b.reason
    if (h?.status === 'rejected') throw h.reason
    return [
      (b as PromiseFulfilledResult<SideOutcome>).value,
      (h as PromiseFulfilledResult<SideOutcome>).value
    ] as const
  })

  return combine(ctx, ledger, base, head, corpus, { planeOf: p => planes.planeOf(p), classOf })
}

function combine(
  ctx: GateContext,
  ledger: LedgerState,
  base: SideOutcome,
  head: SideOutcome,
  corpus: readonly Seed[] | null,
  fns: { planeOf: (p: string) => Plane; classOf: ClassOf }
): ReplayOutcome {
  const reasons: Reason[] = []
  for (const side of [base, head]) if (side.failure) reasons.push(side.failure)

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
      written
    }
    if (ledger.path !== undefined) input.ledgerPath = ledger.path
    if (base.inDiffOnBase) input.inDiffOnBase = base.inDiffOnBase
    const scored = score(input)
    reasons.push(...scored.reasons)
    outcome.votes = scored.votes
    outcome.transitions = scored.transitions
    outcome.flakes = scored.flakes
    outcome.diagnostics = scored.diagnostics
  }

  const settings = ctx.policy.seeds
  if (settings && corpus) {
    const seeded = scoreSeeds(corpus, base.seeds ?? new Map(), head.seeds ?? new Map(), settings)
    reasons.push(...seeded.reasons)
    outcome.seeds = seeded.summary
  }
  return outcome
}
