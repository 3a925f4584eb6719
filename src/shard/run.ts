// `check --shard I/N`: the gate as usual, with the replay restricted to the shard's slice
// (slice.ts), and the card's shard block completed with the fingerprint every shard of one
// gate must share (commits, policy and instrument digests, the date, the gate's version)
// and sealed with its digest (digest.ts). The merge (merge.ts) checks all of it.
import { check, type CheckOptions } from '../gate.js'
import type { Scorecard } from '../types.js'
import { VERSION } from '../version.js'
import { policyDigest } from './attestation.js'
import { sealed } from './digest.js'
import type { ShardSpec } from './split.js'
import type { ShardFingerprint } from './types.js'

export async function checkShard(options: CheckOptions & { shard: ShardSpec }): Promise<Scorecard> {
  const card = await check(options)
  const block = card.shard ?? { index: options.shard.index, total: options.shard.total, files: [] }
  const fingerprint = await shardFingerprint(options.repoDir, card, options.env ?? {})
  return { ...card, shard: sealed(fingerprint ? { ...block, fingerprint } : block) }
}

/** Null when the gate failed before it knew the commits (the card says why). */
async function shardFingerprint(
  repoDir: string,
  card: Scorecard,
  env: NodeJS.ProcessEnv
): Promise<ShardFingerprint | null> {
  const digest = await policyDigest(repoDir, card, env)
  if (!card.base || !card.head || !card.base_ref || digest === undefined) return null
  return {
    base: card.base,
    base_ref: card.base_ref,
    head: card.head,
    policy_path: card.policy_path,
    policy_digest: digest,
    instrument_digest: card.oracle.base_digest,
    today: card.today,
    gate_version: VERSION
  }
}
