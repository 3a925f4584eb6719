// The merge of N shard scorecards into one verdict. The stages before the replay run again
// here, from the same commits (the shards' fingerprint), so everything trust-relevant is
// still read from the merge base; the replay stage is replaced by `mergedReplay`, which
// checks the shards against this run (commits, policy and instrument digests, the split
// re-derived from the merge base: each voting file owned exactly once, by the shard the
// split gives it to), merges each side's observations keep-worst and scores the
// transitions once, through the same `combine` an unsharded replay uses.
import { createHash } from 'node:crypto'
import type { GateContext } from '../context.js'
import { check, type CheckOptions } from '../gate.js'
import { instrumentDigest } from '../instrument/digest.js'
import { instrumentView } from '../instrument/view.js'
import type { LedgerState } from '../ledger/types.js'
import { compileClasses } from '../replay/classes.js'
import { combine, type ReplayOutcome } from '../replay/index.js'
import { OUTCOME_RANK } from '../replay/junit.js'
import { loadCorpus } from '../replay/seeds.js'
import type { SideOutcome } from '../replay/side.js'
import type { Observation } from '../replay/transitions.js'
import { judgeTripwires } from '../replay/tripwires.js'
import type { Reason, Scorecard, SideRun } from '../types.js'
import { fromShardSide } from './record.js'
import { label, refusal, type LoadedShard } from './shards.js'
import { planSlice } from './slice.js'
import type { ShardObserved } from './types.js'

type Observed = LoadedShard & { observed: ShardObserved }

/** The merged verdict: `check` of the shards' commits with the replay taken from the shards. */
export async function mergeShards(
  shards: readonly LoadedShard[],
  options: Omit<CheckOptions, 'base' | 'head' | 'today' | 'policyPath' | 'replay' | 'shard'>
): Promise<Scorecard> {
  const fp = shards[0]?.block.fingerprint
  if (fp === undefined) throw refusal('no shard scorecard was given')
  return check({
    ...options,
    base: fp.base_ref,
    head: fp.head,
    today: fp.today,
    policyPath: fp.policy_path,
    replay: (ctx, ledger) => mergedReplay(ctx, ledger, shards)
  })
}

async function mergedReplay(
  ctx: GateContext,
  ledger: LedgerState,
  shards: readonly LoadedShard[]
): Promise<ReplayOutcome> {
  const observed = await verified(ctx, shards)
  const lead = observed[0]
  if (lead === undefined) throw refusal('no shard scorecard was given')
  const base = mergeSides(
    'base',
    observed.map(s => fromShardSide('base', s.observed.base))
  )
  const head = mergeSides(
    'head',
    observed.map(s => fromShardSide('head', s.observed.head))
  )
  const corpus = ctx.policy.seeds ? await loadCorpus(ctx, ctx.policy.seeds) : null
  const added = new Set(observed.flatMap(s => s.observed.added))
  // Each shard's runs are judged with its own canary; `combine` gets none of the records.
  const outcome = combine(ctx, ledger, base.side, head.side, corpus, {
    planeOf: p => ctx.planes.planeOf(p),
    classOf: compileClasses(ctx.policy.classes),
    canary: lead.observed.canary,
    added
  })
  const extra = [...base.extra, ...head.extra, ...observed.flatMap(s => shardTripwires(ctx, s))]
  outcome.reasons = unique([...outcome.reasons, ...extra])
  outcome.reasons.push({
    rule: 'diagnostic',
    level: 'notice',
    message: `merged from ${observed.length} shard(s) (${selections(observed)}); the transitions were scored once`,
    path: ctx.policy.path
  })
  return outcome
}

/**
 * The shards against this run: the same merge base, head, policy and instrument, and each
 * voting file of the merge base owned exactly once, by the shard the split gives it to.
 */
async function verified(ctx: GateContext, shards: readonly LoadedShard[]): Promise<Observed[]> {
  const view = ctx.instrument ?? (await instrumentView(ctx))
  const policyBytes = (await ctx.git.showFile(ctx.mergeBase, ctx.policy.path)) ?? Buffer.alloc(0)
  const here = {
    base: ctx.mergeBase,
    head: ctx.head,
    policy_digest: `sha256:${createHash('sha256').update(policyBytes).digest('hex')}`,
    instrument_digest: instrumentDigest(view.base.values(), view.isInstrument).digest
  }
  const owners = new Map<string, LoadedShard>()
  const out: Observed[] = []
  for (const s of shards) {
    const fp = s.block.fingerprint
    for (const key of Object.keys(here) as (keyof typeof here)[])
      if (fp[key] !== here[key])
        throw refusal(
          `${label(s)} is foreign: its ${key} is not this run's (${fp[key]} vs ${here[key]})`
        )
    if (s.block.observed === undefined)
      throw refusal(`${label(s)} has no observations: its replay did not run`)
    for (const file of s.block.files) {
      const twin = owners.get(file)
      if (twin) throw refusal(`${file} is owned twice: by ${label(twin)} and ${label(s)}`)
      owners.set(file, s)
    }
    out.push({ ...s, observed: s.block.observed })
  }
  const spec = { index: 1, total: shards.length }
  const split = planSlice(spec, view.base.keys(), ctx.planes, ctx.policy.suite)
  const voting = new Set(split.all)
  const foreign = [...owners.keys()].filter(f => !voting.has(f))
  if (foreign.length > 0)
    throw refusal(
      `${label(owners.get(foreign[0] ?? '') as LoadedShard)} owns ${foreign[0]}, not a voting test file of the merge base`
    )
  const missing = split.all.filter(f => !owners.has(f))
  if (missing.length > 0)
    throw refusal(
      `no shard owns ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''}`
    )
  for (const s of shards) {
    const expected = planSlice(
      { index: s.block.index, total: shards.length },
      view.base.keys(),
      ctx.planes,
      ctx.policy.suite
    ).files
    if (expected.join('\n') !== s.block.files.join('\n'))
      throw refusal(`${label(s)} was altered: its files are not the split of the merge base`)
  }
  return out
}

/** One side of all shards: observations keep-worst, the first failure, runs summed up. */
function mergeSides(
  which: 'base' | 'head',
  sides: readonly SideOutcome[]
): { side: SideOutcome; extra: Reason[] } {
  const failures = sides.flatMap(s => (s.failure ? [s.failure] : []))
  const nullResults = sides.some(s => s.results === null)
  const results = nullResults ? null : keepWorst(sides.map(s => s.results ?? new Map()))
  const side: SideOutcome = {
    side: which,
    run: mergedRun(
      which,
      sides.map(s => s.run)
    ),
    results,
    records: [],
    duplicates: [...new Set(sides.flatMap(s => s.duplicates ?? []))].sort()
  }
  const [failure, ...others] = failures
  if (failure) side.failure = failure
  const tampered = sides.flatMap(s => s.tampered ?? [])
  if (tampered.length > 0) side.tampered = tampered
  const lead = sides[0]
  if (lead?.seeds) side.seeds = lead.seeds
  if (lead?.inDiffOnBase) side.inDiffOnBase = lead.inDiffOnBase
  return { side, extra: others }
}

/** An id more than one shard reported (a file outside the split): its worst observation. */
function keepWorst(maps: readonly ReadonlyMap<string, Observation>[]): Map<string, Observation> {
  const out = new Map<string, Observation>()
  const worst = (o: Observation): number => Math.max(...o.outcomes.map(x => OUTCOME_RANK[x]), -1)
  for (const map of maps)
    for (const [id, o] of map) {
      const prior = out.get(id)
      if (prior === undefined || worst(o) > worst(prior)) out.set(id, o)
    }
  return out
}

/** The shards' runs of one side as one: the longest duration, tests summed, the worst exit. */
function mergedRun(which: 'base' | 'head', runs: readonly SideRun[]): SideRun {
  const failing = runs.find(r => r.timed_out || r.exit_code !== 0) ?? runs[0]
  const run: SideRun = {
    side: which,
    exit_code: failing?.exit_code ?? null,
    timed_out: runs.some(r => r.timed_out),
    duration_ms: Math.max(0, ...runs.map(r => r.duration_ms)),
    tests: runs.reduce((n, r) => n + r.tests, 0)
  }
  if (runs[0]?.setup) run.setup = runs[0].setup
  if (runs[0]?.setup_reason) run.setup_reason = runs[0].setup_reason
  if (failing?.log_tail) run.log_tail = failing.log_tail
  const primed = runs.find(r => r.primed_from)?.primed_from
  if (primed) run.primed_from = primed
  return run
}

/** One shard's tripwires, judged with its own canary; its base's problems are a gate error. */
function shardTripwires(ctx: GateContext, s: Observed): Reason[] {
  const trip = judgeTripwires({
    base: s.observed.base.records,
    head: s.observed.head.records,
    canary: s.observed.canary,
    policyPath: ctx.policy.path
  })
  if (trip.baseProblems.length > 0) throw refusal(`${label(s)}: ${trip.baseProblems.join('\n')}`)
  return trip.reasons
}

function unique(reasons: readonly Reason[]): Reason[] {
  const seen = new Set<string>()
  return reasons.filter(r => {
    const key = `${r.rule}\0${r.level}\0${r.path ?? ''}\0${r.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function selections(observed: readonly Observed[]): string {
  const runner = observed.filter(s => s.observed.selection === 'runner').length
  return runner === observed.length
    ? "each ran its files through the runner's selection"
    : `${observed.length - runner} ran the whole suite and kept its own files' results`
}
