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
 * Production literals are indexed by their first `keyLength` UTF-16 units; each test
 * literal is scanned once, position by position: linear in the total length of the test
 * literals, whatever the number of production literals.
 */
export function findOverlaps(
  production: readonly Located[],
  tests: readonly Located[],
  keyLength: number
): Overlap[] {
  const k = Math.max(1, keyLength)
  const index = new Map<string, Located[]>()
  const firstOfValue = new Map<string, Located>()
  for (const p of production) {
    if (p.value.length < k || firstOfValue.has(p.value)) continue
    // One occurrence per value is enough to name it; the first one, in input order.
    firstOfValue.set(p.value, p)
    const key = p.value.slice(0, k)
    const bucket = index.get(key)
    if (bucket) bucket.push(p)
    else index.set(key, [p])
  }
  const overlaps: Overlap[] = []
  if (index.size === 0) return overlaps
  for (const t of tests) {
    const seen = new Set<string>()
    for (let i = 0; i + k <= t.value.length; i++) {
      const bucket = index.get(t.value.slice(i, i + k))
      if (!bucket) continue
      for (const p of bucket) {
        if (!seen.has(p.value) && t.value.startsWith(p.value, i)) {
          seen.add(p.value)
          overlaps.push({ production: p, test: t })
        }
      }
    }
  }
  return overlaps
}
