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
 * under a `bin/` or `cli/` folder, the files the merge base's package.json names in `bin`
 * or runs in a script (`node src/server.js`), and the modules its pyproject.toml names in
 * `[project.scripts]` or `[tool.poetry.scripts]`. Only the merge base's manifests count: a
 * patch cannot make a file an entry point by declaring it one.
 */
export function entryPoints(
  basePackageJson: string | null,
  basePyproject: string | null = null
): (path: string) => boolean {
  const bins = new Set([...packageEntries(basePackageJson), ...pyprojectEntries(basePyproject)])
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

function packageEntries(text: string | null): string[] {
  if (text === null) return []
  let manifest: { bin?: unknown; scripts?: unknown }
  try {
    manifest = JSON.parse(text) as { bin?: unknown; scripts?: unknown }
  } catch {
    return [] // An unparsable package.json declares no entry point.
  }
  const { bin, scripts } = manifest
  const targets =
    typeof bin === 'string' ? [bin] : bin && typeof bin === 'object' ? Object.values(bin) : []
  const out = targets.filter((t): t is string => typeof t === 'string')
  if (scripts && typeof scripts === 'object') {
    for (const line of Object.values(scripts)) {
      if (typeof line !== 'string') continue
      const runs =
        /(?:^|[\s;&|(])(?:node|tsx|ts-node|bun|bun run|deno run)\s+(?:-\S+\s+)*([^\s;&|()]+\.[cm]?[jt]sx?)/g
      for (const m of line.matchAll(runs)) if (m[1]) out.push(m[1])
    }
  }
  return out.map(t => t.replace(/^\.\//, ''))
}

/** `name = "pkg.cli:main"` lines of the scripts tables: pkg/cli.py (or src/pkg/cli.py). */
function pyprojectEntries(text: string | null): string[] {
  if (text === null) return []
  const out: string[] = []
  let inScripts = false
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (line.startsWith('[')) {
      inScripts = line === '[project.scripts]' || line === '[tool.poetry.scripts]'
      continue
    }
    const m = inScripts ? /^[\w.-]+\s*=\s*["']([\w.]+)(?::[\w.]+)?["']/.exec(line) : null
    if (m?.[1]) {
      const file = `${m[1].replace(/\./g, '/')}.py`
      out.push(file, `src/${file}`, `${m[1].replace(/\./g, '/')}/__init__.py`)
    }
  }
  return out
}
