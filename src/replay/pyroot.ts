// pytest's rootdir, found in the merge base the way pytest finds it. pytest's JUnit
// classnames (xunit2) and xunit1 file attributes are relative to its rootdir, not to the
// repository: a suite configured by `qa/pytest.ini` and run as `pytest qa` writes
// `cases.test_fee` for `qa/cases/test_fee.py`. The rootdir is read from the merge base's
// command and configuration files only, so a head cannot move where its ids map. Pure:
// the base's file list and texts in, a repository-relative folder out ('' = the root).
import { dirname, posix } from 'node:path'
import { PYTEST_CONFIG_FILES, readPytestConfig } from '../policy/pytest-config.js'
import { normalisePath } from '../writeset/planes.js'

/** pytest options that take a value as the next word (the ones suite commands use). */
const TAKES_VALUE = new Set([
  '-c',
  '--config-file',
  '--rootdir',
  '-o',
  '--override-ini',
  '-k',
  '-m',
  '-p',
  '--junitxml',
  '--junit-xml',
  '--basetemp',
  '--ignore',
  '--ignore-glob',
  '--deselect',
  '-W',
  '--maxfail',
  '--tb',
  '-n',
  '--cov',
  '--durations',
  '--import-mode',
  '-r'
])

/** The files whose names may hold pytest's configuration or mark a rootdir (setup.py). */
export function rootdirInputs(files: readonly string[]): string[] {
  const names = new Set<string>([...PYTEST_CONFIG_FILES, 'setup.py'])
  return files.filter(f => names.has(posix.basename(f)))
}

/**
 * The rootdir pytest takes for `command` run at the repository root: `--rootdir`, else the
 * folder of `-c`, else the first folder from the arguments' common ancestor upwards with
 * a pytest configuration, else one with setup.py, else the root.
 */
export function pytestRootdir(
  command: string,
  files: readonly string[],
  read: (path: string) => string | null
): string {
  const words = pytestWords(command)
  if (words === null) return ''
  const explicit = optionValue(words, ['--rootdir'])
  if (explicit !== null) return inRepo(explicit)
  const config = optionValue(words, ['-c', '--config-file'])
  if (config !== null) return inRepo(dirname(config))
  const ancestor = commonAncestor(pathArgs(words, files))
  const chain = ancestors(ancestor)
  const withConfig = chain.find(dir => readPytestConfig(p => read(join(dir, p))).file !== null)
  if (withConfig !== undefined) return withConfig
  return chain.find(dir => files.includes(join(dir, 'setup.py'))) ?? ''
}

/** The words after the first `pytest` word up to a shell separator, or null. */
function pytestWords(command: string): string[] | null {
  const words = command.split(/\s+/).filter(w => w !== '')
  const at = words.findIndex(w => /(^|\/)(pytest|py\.test)$/.test(w))
  if (at < 0) return null
  const rest = words.slice(at + 1)
  const end = rest.findIndex(w => /^(;|&&|\|\||\||&)/.test(w))
  return (end < 0 ? rest : rest.slice(0, end)).map(unquote)
}

function unquote(word: string): string {
  return word.replace(/^(['"])(.*)\1$/, '$2')
}

function optionValue(words: readonly string[], names: readonly string[]): string | null {
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? ''
    if (names.includes(w) && i + 1 < words.length) return words[i + 1] ?? null
    const eq = w.indexOf('=')
    if (eq > 0 && names.includes(w.slice(0, eq))) return w.slice(eq + 1)
  }
  return null
}

/** Arguments that name a file or folder of the merge base (`path::test` counts as path). */
function pathArgs(words: readonly string[], files: readonly string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? ''
    if (w.startsWith('-')) {
      if (TAKES_VALUE.has(w)) i++
      continue
    }
    const path = inRepo(w.split('::')[0] ?? '')
    if (files.includes(path)) out.push(dirname(path) === '.' ? '' : dirname(path))
    else if (path !== '' && files.some(f => f.startsWith(`${path}/`))) out.push(path)
  }
  return out
}

function commonAncestor(dirs: readonly string[]): string {
  if (dirs.length === 0) return ''
  let parts = (dirs[0] ?? '').split('/')
  for (const dir of dirs.slice(1)) {
    const other = dir.split('/')
    let n = 0
    while (n < parts.length && n < other.length && parts[n] === other[n]) n++
    parts = parts.slice(0, n)
  }
  return parts.join('/')
}

/** `a/b` → [`a/b`, `a`, ``]. */
function ancestors(dir: string): string[] {
  const out: string[] = []
  for (let d = dir; d !== ''; d = d.includes('/') ? d.slice(0, d.lastIndexOf('/')) : '') out.push(d)
  out.push('')
  return out
}

function join(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`
}

/** A path of the command, repository-relative ('' for the root or a path outside it). */
function inRepo(path: string): string {
  const p = normalisePath(posix.normalize(path.replace(/\/+$/, '')))
  return p === '.' || p.startsWith('../') || p.startsWith('/') ? '' : p
}
