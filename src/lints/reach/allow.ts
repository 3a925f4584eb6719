// Who may do what: the policy's allow list (`lints.reach_allow`, read from the merge base)
// and the entry-point files where exit codes and exit-time cleanup are ordinary habits.
// Pure once built.
import type { ReachAllow } from '../../policy/types.js'
import { compileGlobs } from '../../writeset/planes.js'
import type { ReachCategory } from './types.js'

export type AllowCheck = (path: string, category: ReachCategory) => boolean

export function allowList(entries: readonly ReachAllow[], nocase: boolean): AllowCheck {
  const compiled = entries.map(e => ({
    match: compileGlobs([e.path], nocase),
    categories: new Set(e.categories)
  }))
  return (path, category) => compiled.some(e => e.categories.has(category) && e.match(path))
}

const ENTRY_NAMES = /^(__main__\.py|cli\.(py|[cm]?[jt]s)|[\w-]+[_-]cli\.(py|[cm]?[jt]s))$/

/**
 * Command-line entry points: `__main__.py`, `cli.py`/`cli.js`/`cli.ts`, `*_cli.py`, files
 * under a `bin/` or `cli/` folder, and the files the merge base's package.json names in
 * `bin`. Only the merge base's package.json counts: a patch cannot make a file an entry
 * point by declaring it one.
 */
export function entryPoints(basePackageJson: string | null): (path: string) => boolean {
  const bins = new Set<string>()
  if (basePackageJson !== null) {
    try {
      const bin = (JSON.parse(basePackageJson) as { bin?: unknown }).bin
      const targets =
        typeof bin === 'string' ? [bin] : bin && typeof bin === 'object' ? Object.values(bin) : []
      for (const t of targets) if (typeof t === 'string') bins.add(t.replace(/^\.\//, ''))
    } catch {
      // An unparsable package.json declares no entry point.
    }
  }
  return path => {
    const parts = path.split('/')
    const name = parts[parts.length - 1] ?? ''
    return (
      bins.has(path) ||
      ENTRY_NAMES.test(name) ||
      parts.slice(0, -1).some(p => p === 'bin' || p === 'cli')
    )
  }
}
