// What the runner loads beyond its configuration files, derived from the merge base: which
// directories the suite command collects, which setup files the base's jest/vitest
// configuration names, which directories are on the voting run's sys.path, and which
// module names a head-added file would shadow there (a stdlib module, a test dependency,
// an existing module under another extension). Pure functions over paths and texts; the
// view (view.ts) reads the texts from git.
import { posix } from 'node:path'
import { normalisePath } from '../writeset/planes.js'
import { STDLIB_MODULES, TEST_DEPENDENCY_MODULES } from './pynames.js'
import { iniSections, tomlSections } from './sections.js'

/** The base's modules, folded to lower case, for shadowing checks. */
export interface ModuleIndex {
  /** Directories ("" = root) on the voting run's sys.path besides collected ones. */
  pythonPath: readonly string[]
  /** `dir/stem` → extensions at the base, for JS/TS files (`src/fee` → {ts}). */
  jsModules: ReadonlyMap<string, ReadonlySet<string>>
  /** `dir/stem` of every Python module file (`stem.py`) at the base. */
  pyModules: ReadonlySet<string>
  /** Every path of the base: a file the base already has shadows nothing new. */
  files: ReadonlySet<string>
}

const JS_EXTENSIONS = new Set(['js', 'mjs', 'cjs', 'jsx', 'ts', 'mts', 'cts', 'tsx', 'json'])

/**
 * The base's modules and the voting run's sys.path: the root, `src/`, the `pythonpath` of
 * its pytest configuration, and the directory of every Python test file under a
 * directory the suite collects (pytest's default import mode puts it first on sys.path).
 */
export function moduleIndex(
  baseFiles: Iterable<string>,
  pythonPath: readonly string[],
  collected: readonly string[] = []
): ModuleIndex {
  const jsModules = new Map<string, Set<string>>()
  const pyModules = new Set<string>()
  const dirs = ['', 'src', ...pythonPath.map(d => normalisePath(d).toLowerCase())]
  const roots = collected.map(c => normalisePath(c).toLowerCase())
  const files = new Set<string>()
  for (const path of baseFiles) {
    const p = normalisePath(path).toLowerCase()
    files.add(p)
    const m = /^(.*?)(?:\/index)?\.([a-z]+)$/.exec(p)
    const plain = /^(.*)\.([a-z]+)$/.exec(p)
    if (plain && plain[2] === 'py') pyModules.add(plain[1] ?? '')
    if (
      /(^|\/)(test_[^/]*|[^/]*_test)\.py$/.test(p) &&
      roots.some(r => r === '' || p.startsWith(`${r}/`))
    )
      dirs.push(p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '')
    for (const match of [plain, m]) {
      if (!match || !JS_EXTENSIONS.has(match[2] ?? '')) continue
      const key = match[1] ?? ''
      const set = jsModules.get(key) ?? new Set<string>()
      set.add(match[2] ?? '')
      jsModules.set(key, set)
    }
  }
  return { pythonPath: [...new Set(dirs)], jsModules, pyModules, files }
}

/** `json.py`, `json.cpython-311-x86_64-linux-gnu.so`, `json/__init__.py` → `json`. */
function importName(rel: string): string | null {
  const parts = rel.split('/')
  if (parts.length === 1) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:\.[^.]+)*\.(py|pyc|pyd|so)$/.exec(parts[0] ?? '')
    return m ? (m[1] ?? null) : null
  }
  if (parts.length === 2 && /^__init__\.(py|pyc|pyd|so)$/.test(parts[1] ?? ''))
    return parts[0] ?? null
  return null
}

/**
 * Why a path the head adds would shadow a module of the voting run, or null. A path the
 * merge base already has is null: editing the project's own root `calendar.py` is
 * production code, and the overlay must not put the base's version back.
 */
export function shadowedModule(path: string, index: ModuleIndex): string | null {
  const p = path.toLowerCase()
  if (index.files.has(p)) return null
  for (const root of index.pythonPath) {
    if (root !== '' && !p.startsWith(`${root}/`)) continue
    const name = importName(path.slice(root === '' ? 0 : root.length + 1))
    if (name === null) continue
    const where = root === '' ? 'the repository root' : `${root}/`
    if (STDLIB_MODULES.has(name))
      return `a module named ${name} in ${where} shadows the standard-library module ${name} for every import of it in the voting run`
    if (TEST_DEPENDENCY_MODULES.has(name))
      return `a module named ${name} in ${where} shadows the test dependency ${name}: the voting run would import it instead of the real one`
  }
  const pkg = /^(.*)\/__init__\.(py|pyc|so)$/.exec(p)
  if (pkg && index.pyModules.has(pkg[1] ?? ''))
    return `the package ${pkg[1] ?? ''}/ takes precedence over the module ${pkg[1] ?? ''}.py the merge base has`
  const ext = /^(.*?)(?:\.[^./]+)*\.(so|pyd)$/.exec(p)
  if (ext && index.pyModules.has(ext[1] ?? ''))
    return `an extension module takes precedence over ${ext[1] ?? ''}.py the merge base has`
  const js = /^(.*)\.([a-z]+)$/.exec(p)
  if (js && JS_EXTENSIONS.has(js[2] ?? '')) {
    const existing = index.jsModules.get(js[1] ?? '')
    const others = [...(existing ?? [])].filter(e => e !== js[2])
    if (others.length > 0)
      return `${js[1] ?? ''}.${js[2] ?? ''} shadows the merge base's ${js[1] ?? ''}.${others[0] ?? ''}: an extensionless import resolves to whichever extension the runner tries first`
  }
  return null
}

/** jest/vitest keys whose values are files the runner executes around the tests. */
const SETUP_KEYS =
  /["']?\b(setupFiles|setupFilesAfterEnv|globalSetup|globalTeardown|snapshotResolver|testSequencer|resolver|testResultsProcessor|testEnvironment|prettierPath|dependencyExtractor)\b["']?\s*:\s*(\[[^\]]*\]|"[^"]*"|'[^']*'|`[^`]*`)/g

/**
 * Repository files a jest or vitest configuration names as setup files (and other
 * modules the runner executes: resolvers, sequencers, environments), resolved against the
 * configuration's directory (`<rootDir>` included), kept when the base has them.
 */
export function setupFilesOf(
  configPath: string,
  text: string,
  baseFiles: ReadonlySet<string>
): string[] {
  const dir = posix.dirname(normalisePath(configPath))
  const found: string[] = []
  for (const m of text.matchAll(SETUP_KEYS)) {
    for (const lit of (m[2] ?? '').matchAll(/"([^"]*)"|'([^']*)'|`([^`]*)`/g)) {
      const value = (lit[1] ?? lit[2] ?? lit[3] ?? '').replace(/^<rootDir>\//, '')
      if (value === '' || value.includes('${')) continue
      const joined = normalisePath(dir === '.' ? value : `${dir}/${value}`)
      for (const candidate of [
        joined,
        ...['.js', '.ts', '.mjs', '.cjs', '.tsx', '.jsx'].map(e => joined + e)
      ]) {
        if (baseFiles.has(candidate)) found.push(candidate)
      }
    }
  }
  return found
}

/** The pytest part of a configuration file, by its name (pyproject, setup.cfg, ini, toml). */
function pytestPart(configPath: string, text: string): string {
  const name = posix.basename(configPath).toLowerCase()
  if (name === 'pyproject.toml') return tomlSections(text, 'tool.pytest') ?? ''
  if (name === 'setup.cfg') return iniSections(text, s => s === 'tool:pytest') ?? ''
  if (name === 'tox.ini') return iniSections(text, s => s === 'pytest') ?? ''
  return text // pytest.ini, .pytest.ini, pytest.toml: the whole file is pytest's
}

/** A list option (`pythonpath`, `testpaths`) of a pytest configuration, as repository paths. */
export function pytestPathsOption(configPath: string, text: string, option: string): string[] {
  const dir = posix.dirname(normalisePath(configPath))
  const re = new RegExp(
    `^(?:[^|\\n]*\\|)?\\s*${option}\\s*=\\s*(\\[[^\\]]*\\]|[^\\n]*(?:\\n[ \\t]+[^\\n]+)*)`,
    'm'
  )
  const m = re.exec(pytestPart(configPath, text))
  if (!m) return []
  const raw = m[1] ?? ''
  const values = raw.startsWith('[')
    ? [...raw.matchAll(/"([^"]*)"|'([^']*)'/g)].map(v => v[1] ?? v[2] ?? '')
    : raw.split(/\s+/)
  return values
    .filter(v => v !== '' && !v.startsWith('/') && !/[*?[]/.test(v))
    .map(v => normalisePath(dir === '.' ? v : `${dir}/${v}`))
}

/** `pythonpath` of a pytest configuration (pyproject.toml, pytest.ini, setup.cfg, tox.ini). */
export function pythonPathOf(configPath: string, text: string): string[] {
  return pytestPathsOption(configPath, text, 'pythonpath')
}

/**
 * Directories the suite commands name (every token that is a directory of the base tree).
 * When no token names a file or directory of the base, pytest collects its `testpaths`
 * (from the base's configuration) or, without them, the root: "" is returned.
 */
export function collectedRoots(
  commands: readonly string[],
  baseFiles: Iterable<string>,
  testpaths: readonly string[] = []
): string[] {
  const dirs = new Set<string>()
  const files = new Set<string>()
  for (const f of baseFiles) {
    files.add(f)
    const parts = f.split('/')
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'))
  }
  const roots = new Set<string>()
  let named = false
  for (const command of commands) {
    for (const raw of command.split(/[\s;&|()]+/)) {
      const token = normalisePath(raw.replace(/^['"]|['"]$/g, '').replace(/::.*$/, ''))
      if (token === '' || token.startsWith('-') || token.includes('{')) continue
      if (dirs.has(token)) {
        roots.add(token)
        named = true
      } else if (files.has(token)) named = true
    }
  }
  if (named) return [...roots]
  return testpaths.length > 0 ? [...testpaths] : ['']
}

/** Base files whose text the loading rules read: JS runner configs and pytest configs. */
export function loadingConfigFiles(
  baseFiles: Iterable<string>,
  ancestors: ReadonlySet<string>
): string[] {
  const wanted: string[] = []
  for (const f of baseFiles) {
    const slash = f.lastIndexOf('/')
    const dir = slash < 0 ? '' : f.slice(0, slash)
    if (!ancestors.has(dir)) continue
    const base = f.slice(slash + 1).toLowerCase()
    if (
      /^(jest|vitest|vite)\.config\.[a-z]+$/.test(base) ||
      /^vitest\.workspace\.[a-z]+$/.test(base) ||
      base === 'package.json' ||
      [
        'pyproject.toml',
        'pytest.ini',
        '.pytest.ini',
        'pytest.toml',
        '.pytest.toml',
        'setup.cfg',
        'tox.ini'
      ].includes(base)
    )
      wanted.push(f)
  }
  return wanted
}
