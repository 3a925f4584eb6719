// The output folders a head's setup and runs may fill outside production code: what the
// merge base's .gitignore files ignore, plus a fixed list of dependency, cache and build
// folders. Read from the merge base's tree only, so the head cannot widen it. A subset of
// gitignore(5): blank lines and `#` comments skipped, `!` re-includes, a trailing `/`
// matches folders only, a pattern with a `/` before its end is anchored to its file's
// folder, any other matches a name at any depth below it; an ignored folder ignores
// everything under it (git does not look inside either). Pure.
import picomatch from 'picomatch'

/** Folder names a setup or a run fills on every honest repository: never reported. */
export const OUTPUT_DIRS: ReadonlySet<string> = new Set([
  '.git',
  'node_modules',
  '__pycache__',
  '.pytest_cache',
  '.hypothesis',
  '.venv',
  'venv',
  '.tox',
  '.nox',
  '.mypy_cache',
  '.ruff_cache',
  '.eggs',
  '.nyc_output',
  'coverage'
])
/** File and folder name patterns of the same kind (egg-info of `pip install -e .`). */
const OUTPUT_NAMES = /(?:\.egg-info|\.dist-info)$|^\.coverage(?:\..*)?$/

interface Rule {
  negate: boolean
  dirOnly: boolean
  match: (rel: string) => boolean
  /** The folder of the .gitignore ('' for the root). */
  dir: string
}

/** Compiles the merge base's .gitignore files ({path of the file: its text}). */
export function ignoreMatcher(
  files: ReadonlyMap<string, string>
): (path: string, isDir: boolean) => boolean {
  const rules: Rule[] = []
  // Shallower files first: a deeper .gitignore's rules come later and win.
  const ordered = [...files].sort(([a], [b]) => a.split('/').length - b.split('/').length)
  for (const [file, text] of ordered) {
    const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : ''
    for (const raw of text.split(/\r?\n/)) rules.push(...compileLine(raw, dir))
  }
  const ignoredSelf = (path: string, isDir: boolean): boolean => {
    const name = path.slice(path.lastIndexOf('/') + 1)
    // A linked worktree's .git is a file naming its git directory.
    if (name === '.git' || (isDir && OUTPUT_DIRS.has(name)) || OUTPUT_NAMES.test(name)) return true
    let ignored = false
    for (const rule of rules) {
      if (rule.dirOnly && !isDir) continue
      if (rule.dir !== '' && !path.startsWith(`${rule.dir}/`)) continue
      const rel = rule.dir === '' ? path : path.slice(rule.dir.length + 1)
      if (rule.match(rel)) ignored = !rule.negate
    }
    return ignored
  }
  return (path, isDir) => {
    const parts = path.split('/')
    for (let i = 1; i < parts.length; i++)
      if (ignoredSelf(parts.slice(0, i).join('/'), true)) return true
    return ignoredSelf(path, isDir)
  }
}

function compileLine(raw: string, dir: string): Rule[] {
  let line = raw.replace(/(?<!\\)\s+$/, '')
  if (line === '' || line.startsWith('#')) return []
  const negate = line.startsWith('!')
  if (negate) line = line.slice(1)
  if (line.startsWith('\\')) line = line.slice(1)
  const dirOnly = line.endsWith('/')
  if (dirOnly) line = line.replace(/\/+$/, '')
  if (line === '') return []
  const anchored = line.includes('/')
  const glob = anchored ? line.replace(/^\/+/, '') : `**/${line}`
  const match = picomatch(glob, { dot: true })
  return [{ negate, dirOnly, match, dir }]
}
