// Which plane a path belongs to, from the policy's globs: one table, compiled once per
// policy. Used by the write-set classifier, the replay (a test id's file decides whether it
// votes), the ledger and the lints.
import picomatch from 'picomatch'
import type { Policy } from '../policy/types.js'
import type { Plane } from '../types.js'

export interface PlaneMatcher {
  /** The plane of a repository path (first match wins: protected, voting, drafts, in_diff). */
  planeOf(path: string): Plane
  isProtected(path: string): boolean
  isTestLike(path: string): boolean
}

/** Paths that are protected whatever the policy says: the policy and the files it names. */
export function alwaysProtected(policy: Policy): string[] {
  return [policy.path, policy.ledger, policy.fixtures, policy.seeds?.corpus]
    .filter((p): p is string => !!p)
    .map(normalisePath)
}

export function compilePlanes(policy: Policy): PlaneMatcher {
  const options = { dot: true, nocase: policy.case_insensitive }
  const compile = (globs: readonly string[]): ((path: string) => boolean) =>
    globs.length === 0 ? () => false : picomatch(globs.map(normalisePath), options)
  const fixed = new Set(
    alwaysProtected(policy).map(p => (policy.case_insensitive ? p.toLowerCase() : p))
  )
  const protectedGlob = compile(policy.protected)
  const voting = compile(policy.planes.voting)
  const drafts = compile(policy.planes.drafts)
  const inDiff = compile(policy.planes.in_diff)
  const testLike = compile(policy.test_patterns)
  const isProtected = (path: string): boolean => {
    const p = normalisePath(path)
    return fixed.has(policy.case_insensitive ? p.toLowerCase() : p) || protectedGlob(p)
  }
  return {
    isProtected,
    isTestLike: path => testLike(normalisePath(path)),
    planeOf: path => {
      const p = normalisePath(path)
      if (isProtected(p)) return voting(p) ? 'voting' : 'protected'
      if (voting(p)) return 'voting'
      if (drafts(p)) return 'drafts'
      if (inDiff(p)) return 'in_diff'
      return testLike(p) ? 'other' : 'source'
    }
  }
}

/**
 * Repository-relative, forward slashes, no leading "./", NFC. A path that escapes the
 * repository ("..") is kept as written so that no glob matches it by accident and the
 * caller can reject it.
 */
export function normalisePath(path: string): string {
  let p = path
    .normalize('NFC')
    .replace(/\\/g, '/')
    .replace(/\/{2,}/g, '/')
  while (p.startsWith('./')) p = p.slice(2)
  const parts: string[] = []
  for (const part of p.split('/')) {
    if (part === '.' || part === '') continue
    if (part === '..') {
      if (parts.length === 0 || parts[parts.length - 1] === '..') parts.push('..')
      else parts.pop()
      continue
    }
    parts.push(part)
  }
  return parts.join('/')
}
