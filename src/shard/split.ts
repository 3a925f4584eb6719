// The split of the voting test files into N shards: pure and deterministic, so every shard
// of a matrix (and the merge) derives the same ownership from the same merge base. Greedy
// longest-processing-time: files by weight, heaviest first (ties by path in code-unit
// order), each to the lightest shard so far (ties to the lowest index). Every file is owned
// by exactly one shard. With no weights every file weighs 1 (balance by file count).
import type { Plane } from '../types.js'

/** `I/N` as the command line and the action take it (1-based). */
export interface ShardSpec {
  index: number
  total: number
}

/** The largest N accepted: a matrix is capped at 256 jobs by GitHub Actions. */
export const MAX_SHARDS = 256

/** Parses `I/N` (1 ≤ I ≤ N ≤ 256); the message says what is wrong. */
export function parseShard(text: string): ShardSpec | string {
  const m = /^\s*(\d{1,3})\s*\/\s*(\d{1,3})\s*$/.exec(text)
  if (!m) return `--shard takes I/N (e.g. 2/4), got "${text.slice(0, 40)}"`
  const index = Number(m[1])
  const total = Number(m[2])
  if (total < 1 || total > MAX_SHARDS) return `--shard: N must be 1..${MAX_SHARDS}, got ${total}`
  if (index < 1 || index > total) return `--shard: I must be 1..${total}, got ${index}`
  return { index, total }
}

/** Code-unit order (what `<` does on strings), never the locale's. */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * The files of the split: the merge base's voting test files (test-like by test_patterns,
 * conftest.py excepted: it is support, collected with its directory), sorted.
 */
export function votingTestFiles(
  paths: Iterable<string>,
  planeOf: (path: string) => Plane,
  isTestLike: (path: string) => boolean
): string[] {
  const out = new Set<string>()
  for (const p of paths) {
    if (/(^|\/)conftest\.py$/.test(p)) continue
    if (planeOf(p) === 'voting' && isTestLike(p)) out.add(p)
  }
  return [...out].sort(byCodeUnit)
}

/**
 * The N shards' files, index 0 for shard 1. `weight` gives a file's cost (a duration in
 * ms, say); absent or not a positive finite number, the file weighs 1.
 */
export function splitFiles(
  files: readonly string[],
  total: number,
  weight: (file: string) => number | undefined = () => undefined
): string[][] {
  if (!Number.isInteger(total) || total < 1) throw new RangeError(`shard count ${total}`)
  const weighed = [...new Set(files)].map(file => {
    const w = weight(file)
    return { file, w: w !== undefined && Number.isFinite(w) && w > 0 ? w : 1 }
  })
  weighed.sort((a, b) => b.w - a.w || byCodeUnit(a.file, b.file))
  const shards = Array.from({ length: total }, () => ({ load: 0, files: [] as string[] }))
  for (const { file, w } of weighed) {
    let lightest = 0
    for (let i = 1; i < total; i++)
      if ((shards[i]?.load ?? 0) < (shards[lightest]?.load ?? 0)) lightest = i
    const shard = shards[lightest]
    if (shard === undefined) continue
    shard.load += w
    shard.files.push(file)
  }
  return shards.map(s => s.files.sort(byCodeUnit))
}
