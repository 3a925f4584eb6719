// Canaries: tests the gate writes for the first run of each side, some written to fail and
// some to pass, placed beside voting test files of the merge base where the voting command
// collects them. Code in the voting process that rewrites results (every case passed,
// failures dropped) cannot tell them from the real tests: their files and names are made
// like the voting tests' (a sibling's stem and a plain word; a plain test name, no token),
// they import what their sibling imports, fail through the framework's own assertions, and
// carry their sibling's modification time. A canary reported otherwise than written, or gone
// while other tests ran, shows the tampering. They are checked on the base first: a canary
// the base's command does not collect is "not armed" (a notice), never a tripwire. Their
// results never count as tests. The files exist only for the duration of one run.
import { randomInt } from 'node:crypto'
import { readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { basename, dirname, join, posix } from 'node:path'
import type { Plane } from '../types.js'
import { globRegExp } from '../policy/pytest-config.js'
import { toRepoPath } from './ids.js'
import type { Outcome, Report } from './junit.js'
import type { RunnerKind } from './runners.js'

/** One canary test. */
export interface Canary {
  /** Repository-relative path of its file (inside a voting directory). */
  path: string
  /** Its name as the runner reports it (the pytest function, the JS test's title). */
  title: string
  /** What an honest runner reports. */
  expect: 'failed' | 'passed'
  /** The voting file it sits beside: its imports and modification time are copied. */
  beside: string
  /** Two numbers: the assertion is `a + b == sum`, true for a passing canary. */
  a: number
  b: number
}

export interface CanaryPlan {
  runner: RunnerKind
  canaries: Canary[]
  /** pytest's rootdir in the merge base (pyroot.ts): its classnames are relative to it. */
  pyRoot?: string
}

/**
 * What the merge base says its command collects, beyond the runner's defaults: read from
 * the base's configuration and command only (never the head's), so the same canaries go
 * to both sides.
 */
export interface CanaryBase {
  /** pytest's rootdir (pyroot.ts), repository-relative; '' or absent for the root. */
  pyRoot?: string
  /** pytest's python_files globs of the base's configuration (file names, fnmatch). */
  pythonFiles?: readonly string[]
  /** pytest's python_functions of the base's configuration (prefixes or globs). */
  pythonFunctions?: readonly string[]
}

export type CanaryPlanning = { plan: CanaryPlan } | { plan: null; why: string }

/** What the report said about each canary in one run. */
export type CanaryOutcome = Outcome | 'absent'

export interface CanaryResult {
  canary: Canary
  outcome: CanaryOutcome
}

const PY_TEST = /(^|\/)(test_[^/]*|[^/]*_test)\.py$/
const JS_TEST = /\.(test|spec)\.([cm]?[jt]sx?)$/
const JS_TESTS_DIR = /(^|\/)__tests__\/(.*\/)?[^/]+(\.[cm]?[jt]sx?)$/
const NODE_TEST =
  /(^|\/)([^/]*[.\-_]test|test-[^/]*|test)\.[cm]?js$|(^|\/)test\/(.*\/)?[^/]+\.[cm]?js$/

const VERBS = ['handles', 'keeps', 'accepts', 'preserves', 'returns', 'matches', 'survives']
const NOUNS = [
  'empty input',
  'large values',
  'repeated keys',
  'unicode text',
  'negative numbers',
  'nested values',
  'boundaries',
  'mixed case',
  'whitespace',
  'single item',
  'round trip',
  'default options'
]

/** Chooses from a list (crypto randomness: the names must not be predictable). */
export type Pick = (n: number) => number
const pickRandom: Pick = n => randomInt(n)

/**
 * Where the canaries go: beside up to two voting test files of the merge base that the
 * runner's default file pattern matches, two written to fail and one to pass.
 */
export function planCanary(
  runner: RunnerKind | null,
  files: readonly string[],
  planeOf: (path: string) => Plane,
  command = '',
  pick: Pick = pickRandom,
  base: CanaryBase = {}
): CanaryPlanning {
  const stop = stopsEarly(command)
  if (stop !== null)
    return { plan: null, why: `the suite command stops at the first failure (${stop})` }
  if (runner === null)
    return {
      plan: null,
      why: 'the suite command names no runner the gate knows (set suite.runner)'
    }
  if (runner === 'go') return { plan: null, why: 'go test has no canary (a test needs a package)' }
  const collects = collected(runner, command, base)
  const voting = [...files]
    .filter(f => planeOf(f) === 'voting')
    .filter(collects)
    .sort()
  if (voting.length === 0)
    return {
      plan: null,
      why: `no voting test file of the merge base matches ${runner}'s file pattern`
    }
  const taken = new Set(files)
  const titles = new Set<string>()
  const siblings = [voting[pick(voting.length)] ?? '']
  const other = voting.filter(f => f !== siblings[0])
  if (other.length > 0) siblings.push(other[pick(other.length)] ?? '')
  const expects: Canary['expect'][] = ['failed', 'passed', 'failed']
  const paths = siblings.map(beside => freePath(runner, beside, taken, pick, collects))
  const canaries = expects.map((expect, i): Canary => {
    const at = i < 2 ? 0 : paths.length - 1
    const a = 2 + pick(90)
    const b = 2 + pick(90)
    return {
      path: paths[at] ?? '',
      title: freeTitle(runner, titles, pick, functionPrefix(base.pythonFunctions)),
      expect,
      beside: siblings[at] ?? '',
      a,
      b
    }
  })
  const plan: CanaryPlan = { runner, canaries }
  if (runner === 'pytest' && base.pyRoot) plan.pyRoot = base.pyRoot
  return { plan }
}

/**
 * Which files the base's command collects as tests: pytest's python_files of the base's
 * configuration; for node:test the files and globs the command names, else its default
 * pattern; jest and vitest their default patterns.
 */
function collected(
  runner: RunnerKind,
  command: string,
  base: CanaryBase
): (path: string) => boolean {
  if (runner === 'pytest') {
    const globs = (base.pythonFiles ?? []).map(globRegExp)
    if (globs.length === 0) return f => PY_TEST.test(f)
    return f => f.endsWith('.py') && globs.some(g => g.test(posix.basename(f)))
  }
  if (runner === 'node-test') {
    const named = nodeTestArgs(command)
    if (named.length === 0) return f => NODE_TEST.test(f)
    return f => named.some(n => n.test(f))
  }
  return f => JS_TEST.test(f) || JS_TESTS_DIR.test(f)
}

/** The file globs and names of a `node --test …` command (its non-option words after). */
function nodeTestArgs(command: string): RegExp[] {
  const words = command.split(/\s+/).filter(w => w !== '')
  const at = words.indexOf('--test')
  if (at < 0) return []
  const out: RegExp[] = []
  for (const raw of words.slice(at + 1)) {
    if (/^(;|&&|\|\||\||&)/.test(raw)) break
    const w = raw.replace(/^(['"])(.*)\1$/, '$2').replace(/^\.\//, '')
    if (w.startsWith('-') || w.includes('=') || !/\.[cm]?[jt]sx?$/.test(w)) continue
    out.push(pathGlob(w))
  }
  return out
}

/** A path glob (`**` any folders, `*` and `?` within a name) as a RegExp. */
function pathGlob(glob: string): RegExp {
  let out = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] ?? ''
    if (c === '*' && glob[i + 1] === '*') {
      out += glob[i + 2] === '/' ? '(?:.*/)?' : '.*'
      i += glob[i + 2] === '/' ? 2 : 1
    } else if (c === '*') out += '[^/]*'
    else if (c === '?') out += '[^/]'
    else out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  }
  return new RegExp(`^${out}$`)
}

/** The prefix of a pytest test function name: the base's python_functions, else `test`. */
function functionPrefix(patterns: readonly string[] | undefined): string {
  for (const p of patterns ?? []) {
    const prefix = /^([A-Za-z_]\w*)\*?$/.exec(p)?.[1]
    if (prefix) return prefix.endsWith('_') ? prefix : `${prefix}_`
  }
  return 'test_'
}

/** The merge base's collection rules as the instrument view read them (view.ts). */
export function canaryBase(view: {
  pyRoot?: string
  pytestNames?: { files: string[]; functions: string[] }
}): CanaryBase {
  const base: CanaryBase = {}
  if (view.pyRoot) base.pyRoot = view.pyRoot
  if (view.pytestNames) {
    base.pythonFiles = view.pytestNames.files
    base.pythonFunctions = view.pytestNames.functions
  }
  return base
}

/** An option that ends the run at the first failure: a failing canary would end it too. */
function stopsEarly(command: string): string | null {
  for (const word of command.split(/\s+/)) {
    if (
      /^(--exitfirst|--maxfail(=.*)?|--sw|--stepwise|--bail(=.*)?|-b|--test-fail-fast)$/.test(word)
    )
      return word
    if (/^-[a-wyzA-Z]*x[a-zA-Z]*$/.test(word) && !/^-[pkmcoWr]/.test(word)) return word
  }
  return null
}

/** A file name made from the sibling's stem and a plain word, free in the merge base. */
function freePath(
  runner: RunnerKind,
  beside: string,
  taken: Set<string>,
  pick: Pick,
  collects: (path: string) => boolean
): string {
  const dir = dirname(beside)
  const words = [...new Set(NOUNS.map(n => n.split(' ').pop() ?? n))]
  const from = pick(words.length)
  for (let i = 0; ; i++) {
    const word = words[(from + i) % words.length] ?? 'values'
    const round = Math.floor(i / words.length)
    const tag = round === 0 ? word : `${word}${round + 1}`
    const names = canaryFiles(runner, basename(beside), tag)
    const at = (name: string): string => (dir === '.' ? name : posix.join(dir, name))
    // The first form the base's command collects (the sibling's own pattern).
    const path = at(names.find(n => collects(at(n))) ?? names[0] ?? '')
    if (!taken.has(path)) {
      taken.add(path)
      return path
    }
  }
}

/** Names for a canary beside `file`, the likeliest to be collected first. */
function canaryFiles(runner: RunnerKind, file: string, word: string): string[] {
  if (runner === 'pytest') {
    const stem = file.slice(0, -3)
    const cut = stem.lastIndexOf('_')
    const suffixed = cut > 0 ? `${stem.slice(0, cut)}_${word}${stem.slice(cut)}.py` : null
    if (file.startsWith('test_')) return [`${stem}_${word}.py`]
    if (file.endsWith('_test.py')) return [`${file.slice(0, -'_test.py'.length)}_${word}_test.py`]
    return [`${stem}_${word}.py`, ...(suffixed ? [suffixed] : []), `${word}_${file}`]
  }
  return [canaryFile(runner, file, word)]
}

function canaryFile(runner: RunnerKind, file: string, word: string): string {
  const m = /^(.*?)((?:[.\-_](?:test|spec))?\.[cm]?[jt]sx?)$/.exec(file)
  const stem = m?.[1] ?? file
  let ext = m?.[2] ?? '.test.js'
  // A vitest canary imports from 'vitest': it needs a module extension.
  if (runner === 'vitest') ext = ext.replace(/\.c([jt]s)$/, '.m$1')
  const sep = stem.includes('_') ? '_' : '-'
  return `${stem}${sep}${word}${ext}`
}

function freeTitle(runner: RunnerKind, titles: Set<string>, pick: Pick, prefix: string): string {
  const all = VERBS.length * NOUNS.length
  const from = pick(all)
  for (let i = 0; ; i++) {
    const at = (from + i) % all
    const verb = VERBS[Math.floor(at / NOUNS.length)] ?? 'keeps'
    const noun = NOUNS[at % NOUNS.length] ?? 'values'
    const round = Math.floor(i / all)
    const plain =
      runner === 'pytest' ? `${prefix}${verb}_${noun.replace(/ /g, '_')}` : `${verb} ${noun}`
    const title = round === 0 ? plain : `${plain}${runner === 'pytest' ? '_' : ' '}${round + 1}`
    if (!titles.has(title)) {
      titles.add(title)
      return title
    }
  }
}

/** The import lines of a sibling test file that a canary repeats (not the framework's). */
export function siblingImports(runner: RunnerKind, text: string): string[] {
  const lines = text.split('\n')
  if (runner === 'pytest')
    return lines.filter(l => /^(import [\w., ]+|from [\w.]+ import [\w., ]+)\s*$/.test(l))
  const framework = /['"](vitest|node:test|@jest\/globals|node:assert(\/strict)?|assert)['"]/
  return lines.filter(
    l =>
      (/^import\s[^;]*from\s*['"][^'"]+['"];?\s*$/.test(l) ||
        /^import\s*['"][^'"]+['"];?\s*$/.test(l) ||
        /^const\s[^=]+=\s*require\(['"][^'"]+['"]\);?\s*$/.test(l)) &&
      !framework.test(l)
  )
}

/**
 * How the sibling loads its modules: CommonJS (`require`, or a `.cjs` file) or ES modules.
 * The canary is written the same way: an `import` in a CommonJS package does not load.
 */
export function moduleStyle(path: string, text: string): 'esm' | 'cjs' {
  if (path.endsWith('.cjs') || path.endsWith('.cts')) return 'cjs'
  if (path.endsWith('.mjs') || path.endsWith('.mts')) return 'esm'
  const requires = /^\s*(const|let|var)\s[^=]+=\s*require\(/m.test(text)
  const imports = /^\s*import\s/m.test(text)
  return requires && !imports ? 'cjs' : 'esm'
}

/** The framework lines of a JavaScript canary, in the sibling's module style. */
function frameworkHeader(runner: RunnerKind, style: 'esm' | 'cjs'): string[] {
  if (runner === 'vitest')
    return [
      style === 'cjs'
        ? "const { expect, test } = require('vitest')"
        : "import { expect, test } from 'vitest'"
    ]
  if (runner !== 'node-test') return []
  return style === 'cjs'
    ? ["const { test } = require('node:test')", "const assert = require('node:assert/strict')"]
    : ["import { test } from 'node:test'", "import assert from 'node:assert/strict'"]
}

/** The text of one canary file: the sibling's imports, then its tests. */
export function canaryContent(
  runner: RunnerKind,
  canaries: readonly Canary[],
  imports: readonly string[],
  style: 'esm' | 'cjs' = 'esm'
): string {
  const claim = (c: Canary): number => c.a + c.b + (c.expect === 'failed' ? 1 : 0)
  const header = [...imports]
  if (runner === 'pytest') {
    const tests = canaries.map(
      c =>
        `def ${c.title}():\n    left, right = ${c.a}, ${c.b}\n    assert left + right == ${claim(c)}\n`
    )
    return [...header, '', '', tests.join('\n\n')].join('\n')
  }
  header.unshift(...frameworkHeader(runner, style))
  const check = (c: Canary): string =>
    runner === 'node-test'
      ? `assert.equal(left + right, ${claim(c)})`
      : `expect(left + right).toBe(${claim(c)})`
  const tests = canaries.map(
    c =>
      `test(${JSON.stringify(c.title)}, () => {\n  const [left, right] = [${c.a}, ${c.b}]\n  ${check(c)}\n})\n`
  )
  return [...header, '', tests.join('\n')].join('\n')
}

/** The canaries grouped by file. */
function byFile(plan: CanaryPlan): Map<string, Canary[]> {
  const files = new Map<string, Canary[]>()
  for (const c of plan.canaries) files.set(c.path, [...(files.get(c.path) ?? []), c])
  return files
}

/**
 * Writes the canary files into a worktree (never over anything), each with its sibling's
 * imports and modification time.
 */
export async function armCanary(worktree: string, plan: CanaryPlan): Promise<void> {
  for (const [path, canaries] of byFile(plan)) {
    const beside = join(worktree, canaries[0]?.beside ?? '')
    const text = await readFile(beside, 'utf8').catch(() => '')
    const full = join(worktree, path)
    const content = canaryContent(
      plan.runner,
      canaries,
      siblingImports(plan.runner, text),
      moduleStyle(canaries[0]?.beside ?? '', text)
    )
    await writeFile(full, content, { flag: 'wx' })
    const info = await stat(beside).catch(() => null)
    if (info) await utimes(full, info.atime, info.mtime)
  }
}

/** Removes the canary files and what the runner compiled from them (pytest's __pycache__). */
export async function disarmCanary(worktree: string, plan: CanaryPlan): Promise<void> {
  for (const path of byFile(plan).keys()) {
    const full = join(worktree, path)
    await rm(full, { force: true })
    const stem = basename(path).replace(/\.[^.]+$/, '')
    const cache = join(dirname(full), '__pycache__')
    const entries = await readdir(cache).catch(() => [] as string[])
    for (const entry of entries)
      if (entry.startsWith(`${stem}.`)) await rm(join(cache, entry), { force: true })
  }
}

/** pytest's dotted module of a file (the classname of its cases without a file attribute). */
function dotted(path: string): string {
  return path.replace(/\.py$/, '').replace(/\//g, '.')
}

/**
 * The report without the canaries' cases, and what it said about each. A case in a canary
 * file that names no canary (a collection error of the file) stands for all of its canaries.
 */
export function takeCanary(
  report: Report,
  plan: CanaryPlan,
  root: string
): { report: Report; results: CanaryResult[] } {
  const files = byFile(plan)
  // pytest names a case's module (and its xunit1 file) relative to its rootdir.
  const prefix = plan.pyRoot ? `${plan.pyRoot}/` : ''
  const rel = (path: string): string =>
    prefix !== '' && path.startsWith(prefix) ? path.slice(prefix.length) : path
  const fileOf = (c: Report['cases'][number]): string | null => {
    const where = c.file !== undefined ? toRepoPath(c.file, root) : c.classname
    for (const path of files.keys())
      if (
        where === path ||
        where === rel(path) ||
        where === dotted(path) ||
        where === dotted(rel(path)) ||
        (c.classname === '' && (c.name === dotted(path) || c.name === dotted(rel(path))))
      )
        return path
    return null
  }
  const titled = (c: Report['cases'][number]): Canary | undefined => {
    const path = fileOf(c)
    if (path !== null) return files.get(path)?.find(k => c.name === k.title)
    // node:test names no file: the title alone, at the top level.
    if (plan.runner === 'node-test' && c.suites.every(s => s === ''))
      return plan.canaries.find(k => c.name === k.title)
    return undefined
  }
  const outcomes = new Map<Canary, CanaryOutcome>()
  const worse = (k: Canary, o: Outcome): void => {
    const held = outcomes.get(k)
    if (held === undefined || held === 'absent' || rank(o) > rank(held)) outcomes.set(k, o)
  }
  const kept = report.cases.filter(c => {
    const k = titled(c)
    if (k) worse(k, c.outcome)
    else {
      const path = fileOf(c)
      if (path === null) return true
      for (const each of files.get(path) ?? []) worse(each, c.outcome)
    }
    return false
  })
  const results = plan.canaries.map(canary => ({
    canary,
    outcome: outcomes.get(canary) ?? ('absent' as const)
  }))
  return { report: { ...report, cases: kept }, results }
}

function rank(o: Outcome): number {
  return o === 'passed' ? 0 : o === 'skipped' ? 1 : o === 'failed' ? 2 : 3
}

/** Did the runner report the canary as it was written (failed or passed)? */
/** A canary written to fail that failed: the runner's exit status counts it as a failure. */
export function failedAsWritten(r: CanaryResult): boolean {
  return r.canary.expect === 'failed' && asWritten(r)
}

export function asWritten(r: CanaryResult): boolean {
  if (r.outcome === 'absent') return false
  const failed = r.outcome === 'failed' || r.outcome === 'error'
  return r.canary.expect === 'failed' ? failed : r.outcome === 'passed'
}
