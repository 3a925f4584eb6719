// Category `instrument` of oracle-reach: does a string literal of production code name a
// file of the instrument (protected, voting, fixture, seed, ledger or policy path)? Built
// from the merge base only: its policy globs and its tree. Pure once built.
import { normalisePath } from '../../writeset/planes.js'

export interface InstrumentNames {
  /** The instrument path a literal names, or undefined. */
  (value: string): string | undefined
}

/**
 * `paths`: every file of the base tree; `isInstrument`: the base policy's verdict on a
 * path (protected, voting, always protected, a fixture or seed file).
 *
 * A literal names the instrument when, read as a relative path, it is an instrument file,
 * a trailing part of one (`fixtures/golden.json` of `oracle/fixtures/golden.json`), a
 * folder holding only instrument files (`oracle/fixtures/`), a path the base's instrument
 * globs match, or a bare file name (`golden.json`) that in the base tree belongs to
 * instrument files only. Bare words (`oracle`) never do: a folder name alone is a word.
 */
export function instrumentNames(
  paths: readonly string[],
  isInstrument: (path: string) => boolean
): InstrumentNames {
  const files = new Set<string>()
  const suffixes = new Map<string, string>()
  const folders = new Map<string, boolean>()
  const baseNames = new Map<string, boolean>()
  for (const path of paths) {
    const instrument = isInstrument(path)
    const parts = path.split('/')
    const name = parts[parts.length - 1] ?? ''
    baseNames.set(name, (baseNames.get(name) ?? true) && instrument)
    for (let i = 1; i < parts.length; i++) {
      const folder = parts.slice(0, i).join('/')
      folders.set(folder, (folders.get(folder) ?? true) && instrument)
    }
    if (!instrument) continue
    files.add(path)
    for (let i = 1; i < parts.length - 1; i++) suffixes.set(parts.slice(i).join('/'), path)
  }
  return value => {
    const candidate = asPath(value)
    if (candidate === undefined) return undefined
    if (files.has(candidate)) return candidate
    const suffix = suffixes.get(candidate)
    if (suffix !== undefined) return suffix
    if (candidate.includes('/')) {
      // A longer path ending in an instrument file (`/tmp/checkout/oracle/golden.json`).
      const parts = candidate.split('/')
      for (let i = 1; i < parts.length; i++) {
        const tail = parts.slice(i).join('/')
        if (files.has(tail)) return tail
      }
      if (folders.get(candidate) === true) return `${candidate}/`
      if (isInstrument(candidate)) return candidate
      return undefined
    }
    return baseNames.get(candidate) === true &&
      /\.[A-Za-z0-9]+$/.test(candidate) &&
      candidate.length >= 5
      ? candidate
      : undefined
  }
}

/** The literal as a repository-relative path, or undefined when it cannot be one. */
function asPath(value: string): string | undefined {
  const trimmed = value.trim()
  if (trimmed === '' || trimmed.length > 400 || /[\n\0*?]/.test(trimmed)) return undefined
  const path = normalisePath(trimmed.replace(/^\/+/, ''))
  if (path === '' || path.startsWith('..')) return undefined
  return path
}
