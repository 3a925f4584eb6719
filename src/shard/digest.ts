// The digest that seals a shard's block: sha256 over its canonical JSON (object keys
// sorted) without the digest itself. A block edited after the run no longer matches, and
// the merge refuses it as altered. It proves integrity against edits, not who wrote it:
// on GitHub the artifacts are read from this workflow run only (docs/github.md).
import { createHash } from 'node:crypto'
import { canonical } from '../prime/fingerprint.js'
import type { ShardBlock } from './types.js'

export function shardDigest(block: ShardBlock): string {
  const { digest: _ignored, ...rest } = block
  return `sha256:${createHash('sha256').update(canonical(rest)).digest('hex')}`
}

export function sealed(block: ShardBlock): ShardBlock {
  return { ...block, digest: shardDigest(block) }
}
