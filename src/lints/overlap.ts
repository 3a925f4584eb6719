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
 * (`indexOf` is fast over megabytes); many go through the index of findOverlaps.
 */
export function valuesFoundIn(
  values: readonly string[],
  texts: readonly string[],
  keyLength: number
): Set<string> {
  const found = new Set<string>()
  if (values.length <= 32) {
    for (const value of values) if (texts.some(text => text.includes(value))) found.add(value)
    return found
  }
  const wanted = values.map(value => ({ value, path: '', line: 0 }))
  const haystacks = texts.map(value => ({ value, path: '', line: 0 }))
  for (const hit of findOverlaps(wanted, haystacks, keyLength)) found.add(hit.production.value)
  return found
}
