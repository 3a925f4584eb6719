// The shapes a shard scorecard carries (`shard` in scorecard.schema.json, the one source of
// truth for their JSON form): which slice it ran, the fingerprint every shard of one gate
// must share, what each side observed (enough for the merge to score the transitions once)
// and a digest over all of it, so a shard edited after the run is refused.
import type { CanaryPlanning } from '../replay/canary.js'
import type { Observation } from '../replay/transitions.js'
import type { RunRecord } from '../replay/tripwires.js'
import type { Reason, SideRun } from '../types.js'

/** What one side of one shard observed (a SideOutcome in JSON form). */
export interface ShardSide {
  run: SideRun
  /** null when the side produced no results (timeout, setup failure, missing report). */
  results: Observation[] | null
  failure?: Reason
  tampered?: Reason[]
  /** Seed answers [id, ok]: shard 1 only (it runs the seeds command). */
  seeds?: [string, boolean][]
  /** Base only, shard 1 only: the patch's in-diff tests against the base's code. */
  in_diff_on_base?: Observation[]
  records: RunRecord[]
  duplicates: string[]
}

/** The replay's part of a shard: the slice it ran and what it saw. */
export interface ShardObserved {
  /** How the slice was run: through the runner's selection, or the whole suite, filtered. */
  selection: 'runner' | 'full'
  canary: CanaryPlanning
  /** Tests the patch added to voting files (shard 1: it runs the patch's own tests). */
  added: string[]
  base: ShardSide
  head: ShardSide
}

/** What every shard of one gate must agree on, and what the merge checks against. */
export interface ShardFingerprint {
  /** The merge base (the scorecard's `base`). */
  base: string
  /** The base tip (the scorecard's `base_ref`), what `--base` resolved to. */
  base_ref: string
  head: string
  policy_path: string
  /** sha256 of the policy file's bytes at the merge base. */
  policy_digest: string
  /** The oracle digest of the merge base's instrument (the scorecard's oracle.base_digest). */
  instrument_digest: string
  today: string
  gate_version: string
}

export interface ShardBlock {
  /** 1-based. */
  index: number
  total: number
  /** The voting test files this shard owns (sorted). */
  files: string[]
  /** Set by the replay when it ran (absent when the gate stopped before it). */
  observed?: ShardObserved
  fingerprint?: ShardFingerprint
  /** sha256 over the canonical JSON of the block without this field (src/shard/digest.ts). */
  digest?: string
}
