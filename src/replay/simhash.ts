// Distances between seed payloads. SimHash is locality-sensitive: payloads that differ in
// one small value land a few bits apart, unrelated payloads around 32 bits apart, so a
// minimum distance really filters near-duplicate hits. A digest distance (sha256) puts
// every pair of distinct payloads ~128 bits apart and filters nothing; it is offered only
// for compatibility.
import { createHash } from 'node:crypto'
import { canonicalJson } from '../json.js'

/** Character shingle length: short enough that one changed digit touches few shingles. */
const SHINGLE = 3

/** 64-bit SimHash over character shingles, as two 32-bit halves [high, low]. */
export function simhash(text: string, k = SHINGLE): [number, number] {
  const weights = new Int32Array(64)
  const padded = text.length < k ? text.padEnd(k, '\u0000') : text
  for (let i = 0; i + k <= padded.length; i++) {
    const shingle = padded.slice(i, i + k)
    const hi = murmur3(shingle, 0x9747b28c)
    const lo = murmur3(shingle, 0x5bd1e995)
    for (let b = 0; b < 32; b++) {
      weights[b] = (weights[b] ?? 0) + ((hi >>> b) & 1 ? 1 : -1)
      weights[b + 32] = (weights[b + 32] ?? 0) + ((lo >>> b) & 1 ? 1 : -1)
    }
  }
  let hi = 0
  let lo = 0
  for (let b = 0; b < 32; b++) {
    if ((weights[b] ?? 0) > 0) hi |= 1 << b
    if ((weights[b + 32] ?? 0) > 0) lo |= 1 << b
  }
  return [hi >>> 0, lo >>> 0]
}

export function popcount32(x: number): number {
  let v = x >>> 0
  v = v - ((v >>> 1) & 0x55555555)
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333)
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24
}

export function hamming64(a: readonly [number, number], b: readonly [number, number]): number {
  return popcount32(a[0] ^ b[0]) + popcount32(a[1] ^ b[1])
}

export type DistanceKind = 'simhash' | 'sha256'

/** A distance function over payloads, fingerprinting each payload once. */
export function payloadDistance(kind: DistanceKind): (a: unknown, b: unknown) => number {
  const cache = new Map<unknown, Uint8Array | [number, number]>()
  const print = (payload: unknown): Uint8Array | [number, number] => {
    let p = cache.get(payload)
    if (p === undefined) {
      const text = canonicalJson(payload)
      p =
        kind === 'simhash'
          ? simhash(text)
          : new Uint8Array(createHash('sha256').update(text).digest())
      cache.set(payload, p)
    }
    return p
  }
  return (a, b) => {
    const pa = print(a)
    const pb = print(b)
    if (Array.isArray(pa) && Array.isArray(pb)) return hamming64(pa, pb)
    let d = 0
    const x = pa as Uint8Array
    const y = pb as Uint8Array
    for (let i = 0; i < x.length; i++) d += popcount32((x[i] ?? 0) ^ (y[i] ?? 0))
    return d
  }
}

/**
 * Greedy selection: walk the hits in order and keep one when it is at least `min` away
 * from every hit kept so far.
 */
export function keepDistinct<T>(
  items: readonly T[],
  payload: (t: T) => unknown,
  min: number,
  distance: (a: unknown, b: unknown) => number
): T[] {
  const kept: T[] = []
  for (const item of items) {
    if (kept.every(k => distance(payload(k), payload(item)) >= min)) kept.push(item)
  }
  return kept
}

/** MurmurHash3-style 32-bit hash, one UTF-16 code unit per block (fast, well mixed). */
function murmur3(key: string, seed: number): number {
  let h = seed >>> 0
  const c1 = 0xcc9e2d51
  const c2 = 0x1b873593
  for (let i = 0; i < key.length; i++) {
    let k = key.charCodeAt(i)
    k = Math.imul(k, c1)
    k = (k << 15) | (k >>> 17)
    k = Math.imul(k, c2)
    h ^= k
    h = (h << 13) | (h >>> 19)
    h = (Math.imul(h, 5) + 0xe6546b64) | 0
  }
  h ^= key.length
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}
