// A side's outcome in and out of its JSON form in a shard scorecard (types.ts ShardSide),
// and the replay's shard block. Pure.
import type { CanaryPlanning } from '../replay/canary.js'
import type { SideOutcome } from '../replay/side.js'
import type { Observation } from '../replay/transitions.js'
import type { ShardSlice } from './slice.js'
import type { ShardBlock, ShardSide } from './types.js'

/** `keep`: the shard's own observations (a primed base side holds every file's). */
export function toShardSide(
  outcome: SideOutcome,
  keep: (o: Observation) => boolean = () => true
): ShardSide {
  const side: ShardSide = {
    run: { ...outcome.run },
    results: outcome.results
      ? [...outcome.results.values()].filter(keep).map(copyObservation)
      : null,
    records: [...(outcome.records ?? [])],
    duplicates: [...(outcome.duplicates ?? [])]
  }
  if (outcome.failure) side.failure = outcome.failure
  if (outcome.tampered) side.tampered = [...outcome.tampered]
  if (outcome.seeds) side.seeds = [...outcome.seeds.entries()]
  if (outcome.inDiffOnBase)
    side.in_diff_on_base = [...outcome.inDiffOnBase.values()].map(copyObservation)
  return side
}

export function fromShardSide(which: 'base' | 'head', side: ShardSide): SideOutcome {
  const outcome: SideOutcome = {
    side: which,
    run: { ...side.run, side: which },
    results: side.results ? new Map(side.results.map(o => [o.id, copyObservation(o)])) : null,
    records: side.records,
    duplicates: side.duplicates
  }
  if (side.failure) outcome.failure = side.failure
  if (side.tampered) outcome.tampered = side.tampered
  if (side.seeds) outcome.seeds = new Map(side.seeds)
  if (side.in_diff_on_base)
    outcome.inDiffOnBase = new Map(side.in_diff_on_base.map(o => [o.id, copyObservation(o)]))
  return outcome
}

/** The replay's part of a shard scorecard: its slice and what both sides observed. */
export function shardBlock(
  slice: ShardSlice,
  base: SideOutcome,
  head: SideOutcome,
  canary: CanaryPlanning,
  added: ReadonlySet<string>
): ShardBlock {
  return {
    index: slice.index,
    total: slice.total,
    files: [...slice.files],
    observed: {
      selection: slice.first(canary.plan) ? 'runner' : 'full',
      canary,
      added: [...added].sort(),
      base: toShardSide(base, slice.keep),
      head: toShardSide(head, slice.keep)
    }
  }
}

function copyObservation(o: Observation): Observation {
  const copy: Observation = { ...o, outcomes: [...o.outcomes] }
  if (o.incidental) copy.incidental = [...o.incidental]
  return copy
}
