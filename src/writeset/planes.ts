// Which plane a path belongs to, from the policy's globs: one table, compiled once per
// policy. Used by the write-set classifier, the replay (a test id's file decides whether it
// votes), the ledger and the lints.
import picomatch from 'picomatch'
import type { Policy } from '../policy/types.js'
import { isInstrumentPlane } from '../instrument/rules.js'
import type { Plane } from '../types.js'

export interface PlaneMatcher {
  /** The plane of a repository path (first match wins: protected, voting, drafts, in_diff). */
  planeOf(path: string): Plane
  isProtected(path: string): boolean
  isTestLike(path: string): boolean
  /**
   * On the production plane (`planes.production`, any form of the name): the head's
   * version is what the vote uses. False for every path when the policy has no such plane.
   */
  isProduction(path: string): boolean
  /** Whether the policy names its production code at all (`planes.production`). */
  hasProduction: boolean
}

/** Paths that are protected whatever the policy says: the policy and the files it names. */
export function alwaysProtected(policy: Policy): string[] {
  return [policy.path, policy.ledger, policy.fixtures, policy.seeds?.corpus]
    .filter((p): p is string => !!p)
    .map(normalisePath)
}

export function compilePlanes(policy: Policy): PlaneMatcher {
  const compile = (globs: readonly string[]): ((path: string) => boolean) =>
    compileGlobs(globs, policy.case_insensitive)
  const fixed = new Set(
    alwaysProtected(policy).map(p => (policy.case_insensitive ? p.toLowerCase() : p))
  )
  const protectedGlob = compile(policy.protected)
  const voting = compile(policy.planes.voting)
  const drafts = compile(policy.planes.drafts)
  const inDiff = compile(policy.planes.in_diff)
  const testLike = compile(policy.test_patterns)
  const production = compile(policy.planes.production ?? [])
  // Internal checks take an already normalised path: a 20,000-path write set should pay
  // for normalisation once per path, not once per glob list.
  const protectedNormal = (p: string): boolean =>
    fixed.has(policy.case_insensitive ? p.toLowerCase() : p) || protectedGlob(p)
  const planeOfForm = (p: string): Plane => {
    if (protectedNormal(p)) return voting(p) ? 'voting' : 'protected'
    if (voting(p)) return 'voting'
    if (drafts(p)) return 'drafts'
    if (inDiff(p)) return 'in_diff'
    return testLike(p) ? 'other' : 'source'
  }
  return {
    isProtected: path => pathForms(normalisePath(path)).some(protectedNormal),
    isTestLike: path => pathForms(normalisePath(path)).some(testLike),
    // Every form must be production: a name that reads as something else is not the head's.
    isProduction: path => pathForms(normalisePath(path)).every(production),
    hasProduction: policy.planes.production !== undefined,
    planeOf: path => {
      const [raw, ...others] = pathForms(normalisePath(path))
      const plane = planeOfForm(raw as string)
      if (isInstrumentPlane(plane)) return plane
      // A name that reads as an instrument path in another form (composed, compatibility
      // characters folded, invisible characters dropped) is instrument: on a macOS checkout,
      // or to a reviewer reading it, it is that path.
      for (const form of others) {
        const p = planeOfForm(form)
        if (isInstrumentPlane(p)) return p
      }
      return plane
    }
  }
}

/**
 * Characters that make a name print as something it is not: C0/C1 controls (\n, \r, ESC),
 * format characters (zero-width spaces, bidi overrides, BOM) and the line and paragraph
 * separators U+2028/U+2029.
 */
const HIDDEN_CHARACTER = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u
const HIDDEN_CHARACTERS = new RegExp(HIDDEN_CHARACTER.source, 'gu')
const PLAIN_ASCII = /^[\x20-\x7e]*$/
const NEEDS_WORK = /\/\/|(?:^|\/)\.\.?(?:\/|$)|^\/|\/$/

/**
 * True when a name holds a control, format or line-separator character, or compatibility
 * characters (fullwidth letters, ligatures) that fold to other text: the name does not say
 * what it is. NFC and NFD differing is not suspicious (a macOS checkout writes NFD).
 */
export function suspiciousName(path: string): boolean {
  if (PLAIN_ASCII.test(path)) return false
  if (HIDDEN_CHARACTER.test(path)) return true
  return path.normalize('NFKC') !== path.normalize('NFC')
}

/**
 * The forms a path is matched in: first as written (never rewritten: a backslash is an
 * ordinary character of a Linux file name), then composed (NFC), compatibility-folded
 * (NFKC), and with hidden characters dropped. Printable ASCII has one form.
 */
export function pathForms(path: string): string[] {
  if (PLAIN_ASCII.test(path)) return [path]
  const forms = [path, path.normalize('NFC'), path.normalize('NFKC')]
  const visible = path.replace(HIDDEN_CHARACTERS, '')
  forms.push(visible, visible.normalize('NFKC'))
  return [...new Set(forms)]
}

/**
 * Repository-relative, no leading "./", "." and ".." segments and doubled slashes
 * collapsed. Nothing else is rewritten: not a backslash (an ordinary character of a Linux
 * file name, not a separator), not the Unicode form (see pathForms). A path that escapes
 * the repository ("..") is kept as written so that no glob matches it by accident and the
 * caller can reject it.
 */
export function normalisePath(path: string): string {
  // Fast path: nothing to collapse, the common case.
  if (!NEEDS_WORK.test(path)) return path
  let p = path.replace(/\/{2,}/g, '/')
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

/**
 * One regular expression for a list of globs (picomatch's own array matcher tries each
 * glob in turn; the union is one scan). `dot: true`: dot-files and dot-directories such
 * as .github are ordinary paths to the gate. Flag `s`: picomatch's `**` is built on `.`,
 * which would otherwise stop at \n, \r, U+2028 and U+2029, so a name holding one would
 * fall out of `oracle/**`. `u` is not set: picomatch's sources are not unicode-mode safe.
 */
export function compileGlobs(globs: readonly string[], nocase: boolean): (path: string) => boolean {
  if (globs.length === 0) return () => false
  const sources = globs.map(g => picomatch.makeRe(normalisePath(g), { dot: true, nocase }).source)
  // `s`: picomatch's `**` is built on `.`, which without dotAll stops at \n, \r, U+2028
  // and U+2029, so a path holding one of them would match no glob at all (not protected).
  const union = new RegExp(sources.map(source => `(?:${source})`).join('|'), nocase ? 'is' : 's')
  return path => union.test(path)
}

/**
 * conftest.py matches the default test patterns, but it is runner configuration (pytest
 * loads it for every test below it), never a test of its own. Case-folded, as macOS reads it.
 */
export function isConftest(path: string): boolean {
  return path.slice(path.lastIndexOf('/') + 1).toLowerCase() === 'conftest.py'
}
