// The shard scorecards a merge is given, checked before anything else runs: each is a
// scorecard (the schema), carries a shard block whose digest still matches (not altered),
// a fingerprint equal to every other's and the same N (not foreign), and the N indices are
// there exactly once (none missing, none duplicated). A shard that ended in `error` makes
// the merge an error too. Every refusal names the file. Pure.
import { GateError } from '../errors.js'
import { canonical } from '../prime/fingerprint.js'
import { logText } from '../report/sanitize.js'
import { formatIssue } from '../schema.js'
import type { Scorecard } from '../types.js'
import { scorecardValidator } from '../verdict/scorecard-schema.js'
import { shardDigest } from './digest.js'
import type { ShardBlock, ShardFingerprint } from './types.js'

export interface ShardFile {
  /** How the file is named in messages (its path, or the artifact it came from). */
  name: string
  text: string
}

export interface LoadedShard {
  name: string
  card: Scorecard
  block: ShardBlock & { fingerprint: ShardFingerprint }
}

/** The shards sorted by index; throws a GateError naming the first problem found. */
export function loadShards(files: readonly ShardFile[]): LoadedShard[] {
  if (files.length === 0) throw refusal('no shard scorecard was given')
  const validate = scorecardValidator()
  const loaded = files.map(f => loadOne(f, validate))
  agree(loaded)
  const sorted = [...loaded].sort((a, b) => a.block.index - b.block.index)
  present(sorted)
  for (const s of sorted) {
    if (s.card.verdict !== 'error') continue
    const why = s.card.reasons.find(r => r.level === 'failure')?.message ?? 'no reason given'
    throw refusal(`${label(s)} ended in error: ${clip(why)}`)
  }
  return sorted
}

function loadOne(
  file: ShardFile,
  validate: (v: unknown) => { path: string[]; message: string }[]
): LoadedShard {
  const name = logText(file.name)
  let value: unknown
  try {
    value = JSON.parse(file.text)
  } catch (error) {
    throw refusal(`${name} is not JSON (${error instanceof Error ? error.message : String(error)})`)
  }
  const issues = validate(value)
  if (issues.length > 0)
    throw refusal(`${name} is not a scorecard: ${issues.slice(0, 3).map(formatIssue).join('; ')}`)
  const card = value as Scorecard
  const block = card.shard
  if (block === undefined) throw refusal(`${name} is not a shard scorecard (no shard block)`)
  if (block.digest === undefined || block.digest !== shardDigest(block))
    throw refusal(
      `${name} (shard ${block.index}/${block.total}) was altered: its digest does not match its content`
    )
  if (block.fingerprint === undefined) {
    const why = card.reasons.find(r => r.level === 'failure')?.message ?? 'no reason given'
    throw refusal(
      `${name} (shard ${block.index}/${block.total}) ended before its commits were known: ${clip(why)}`
    )
  }
  return { name, card, block: block as LoadedShard['block'] }
}

/** Same N and the same fingerprint as the first file, field by field. */
function agree(loaded: readonly LoadedShard[]): void {
  const [first, ...rest] = loaded
  if (first === undefined) return
  for (const s of rest) {
    if (s.block.total !== first.block.total)
      throw refusal(
        `${label(s)} is foreign: a shard of ${s.block.total}, while ${label(first)} is a shard of ${first.block.total}`
      )
    const differs = fingerprintDifferences(first.block.fingerprint, s.block.fingerprint)
    if (differs.length > 0)
      throw refusal(
        `${label(s)} is foreign: its ${differs.join(', ')} differ from ${label(first)}'s`
      )
  }
}

/** Each index 1..N exactly once. */
function present(sorted: readonly LoadedShard[]): void {
  const total = sorted[0]?.block.total ?? 0
  const seen = new Map<number, LoadedShard>()
  for (const s of sorted) {
    const twin = seen.get(s.block.index)
    if (twin)
      throw refusal(
        `${label(s)} is duplicated: ${twin.name} is shard ${s.block.index}/${total} too`
      )
    seen.set(s.block.index, s)
  }
  const missing: string[] = []
  for (let i = 1; i <= total; i++) if (!seen.has(i)) missing.push(`${i}/${total}`)
  if (missing.length > 0)
    throw refusal(`shard ${missing.join(', ')} is missing (${sorted.length} of ${total} given)`)
}

export function fingerprintDifferences(a: ShardFingerprint, b: ShardFingerprint): string[] {
  return (Object.keys(a) as (keyof ShardFingerprint)[]).filter(
    k => canonical(a[k]) !== canonical(b[k])
  )
}

export function label(s: LoadedShard): string {
  return `${s.name} (shard ${s.block.index}/${s.block.total})`
}

export function refusal(message: string): GateError {
  return new GateError(`merge: ${message}`)
}

function clip(s: string): string {
  const flat = logText(s)
  return flat.length > 300 ? `${flat.slice(0, 297)}…` : flat
}
