// Which test literals contain a production literal: the core of `literal-overlap`. Pure.

export interface Located {
  value: string
  path: string
  line: number
}

export interface Overlap {
  /** The production literal the patch adds. */
  production: Located
  /** The test literal that contains it (equal to it, or around it). */
  test: Located
}

/** Literal values the lint considers: long enough (ignoring outer blanks) and not allowed. */
export function eligible(value: string, minLength: number, allow: ReadonlySet<string>): boolean {
  const trimmed = value.trim()
  return codePoints(trimmed) >= minLength && !allow.has(value) && !allow.has(trimmed)
}

function codePoints(s: string): number {
  let n = 0
  for (const _ of s) n++
  return n
}

/**
 * Pairs each test literal with every production literal it contains. A test that builds
 * its expectation around the patch's own string (`"Error: " + msg` in the code, `"Error:
 * bad input"` in the test) copies it as surely as one that repeats it whole.
 *
 * Production literals are indexed by their first `keyLength` UTF-16 units, then by length.
 * Each test literal is scanned once, position by position; at a position whose key is
 * indexed, one hash lookup per distinct length in that bucket decides. Many literals with
 * a common prefix ("Error: ...") therefore cost no more than their distinct lengths.
 */
export function findOverlaps(
  production: readonly Located[],
  tests: readonly Located[],
  keyLength: number
): Overlap[] {
  const k = Math.max(1, keyLength)
  const index = new Map<string, Map<number, Map<string, Located>>>()
  for (const p of production) {
    if (p.value.length < k) continue
    const key = p.value.slice(0, k)
    let byLength = index.get(key)
    if (!byLength) index.set(key, (byLength = new Map()))
    let byValue = byLength.get(p.value.length)
    if (!byValue) byLength.set(p.value.length, (byValue = new Map()))
    // One occurrence per value is enough to name it: the first, in input order.
    if (!byValue.has(p.value)) byValue.set(p.value, p)
  }
  const overlaps: Overlap[] = []
  if (index.size === 0) return overlaps
  for (const t of tests) {
    const seen = new Set<string>()
    const text = t.value
    for (let i = 0; i + k <= text.length; i++) {
      const byLength = index.get(text.slice(i, i + k))
      if (!byLength) continue
      for (const [length, byValue] of byLength) {
        if (i + length > text.length) continue
        const p = byValue.get(text.slice(i, i + length))
        if (p && !seen.has(p.value)) {
          seen.add(p.value)
          overlaps.push({ production: p, test: t })
        }
      }
    }
  }
  return overlaps
}

/**
 * The values that occur in any of the texts. A handful of values is searched directly
 * (`indexOf` is fast over megabytes); many are indexed by a hash of their first `keyLength`
 * UTF-16 units, then by length, and each text is scanned once with a rolling hash of that
 * many units: only a position whose hash is indexed is compared (one lookup per distinct
 * length), so megabytes of text cost a multiply-add per character, not a substring.
 */
export function valuesFoundIn(
  values: readonly string[],
  texts: readonly string[],
  keyLength: number
): Set<string> {
  const found = new Set<string>()
  const k = Math.max(1, keyLength)
  const short = values.filter(v => v.length < k)
  const long = values.filter(v => v.length >= k)
  const direct = long.length <= 32 ? [...short, ...long] : short
  for (const value of direct) if (texts.some(text => text.includes(value))) found.add(value)
  if (direct.length === values.length) return found

  // By key hash, then by length: values with a common prefix ("Error: ...") cost one
  // lookup per distinct length, as in findOverlaps.
  const byKey = new Map<number, Map<number, Set<string>>>()
  for (const value of long) {
    const h = rollingHash(value, 0, k)
    let byLength = byKey.get(h)
    if (!byLength) byKey.set(h, (byLength = new Map()))
    const bucket = byLength.get(value.length)
    if (bucket) bucket.add(value)
    else byLength.set(value.length, new Set([value]))
  }
  // ROLL^k: the weight of the unit leaving the window (arithmetic modulo 2^32).
  let drop = 1
  for (let i = 0; i < k; i++) drop = Math.imul(drop, ROLL)
  for (const text of texts) {
    if (text.length < k) continue
    let h = rollingHash(text, 0, k)
    for (let i = 0; ; i++) {
      const byLength = byKey.get(h)
      if (byLength) {
        for (const [length, bucket] of byLength) {
          if (i + length > text.length) continue
          const candidate = text.slice(i, i + length)
          if (bucket.has(candidate)) found.add(candidate)
        }
      }
      if (i + k >= text.length) break
      h = (Math.imul(h, ROLL) + text.charCodeAt(i + k) - Math.imul(drop, text.charCodeAt(i))) | 0
    }
    if (found.size === values.length) break
  }
  return found
}

const ROLL = 0x01000193

function rollingHash(text: string, from: number, length: number): number {
  let h = 0
  for (let i = from; i < from + length; i++) h = (Math.imul(h, ROLL) + text.charCodeAt(i)) | 0
  return h
}
