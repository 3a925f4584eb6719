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
  pick: Pick = pickRandom
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
  const pattern = runner === 'pytest' ? PY_TEST : runner === 'node-test' ? NODE_TEST : null
  const voting = [...files]
    .filter(f => planeOf(f) === 'voting')
    .filter(f => (pattern ? pattern.test(f) : JS_TEST.test(f) || JS_TESTS_DIR.test(f)))
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
  const paths = siblings.map(beside => freePath(runner, beside, taken, pick))
  const canaries = expects.map((expect, i): Canary => {
    const at = i < 2 ? 0 : paths.length - 1
    const a = 2 + pick(90)
    const b = 2 + pick(90)
    return {
      path: paths[at] ?? '',
      title: freeTitle(runner, titles, pick),
      expect,
      beside: siblings[at] ?? '',
      a,
      b
    }
  })
  return { plan: { runner, canaries } }
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
function freePath(runner: RunnerKind, beside: string, taken: Set<string>, pick: Pick): string {
  const dir = dirname(beside)
  const words = [...new Set(NOUNS.map(n => n.split(' ').pop() ?? n))]
  const from = pick(words.length)
  for (let i = 0; ; i++) {
    const word = words[(from + i) % words.length] ?? 'values'
    const round = Math.floor(i / words.length)
    const name = canaryFile(runner, basename(beside), round === 0 ? word : `${word}${round + 1}`)
    const path = dir === '.' ? name : posix.join(dir, name)
    if (!taken.has(path)) {
      taken.add(path)
      return path
    }
  }
}

function canaryFile(runner: RunnerKind, file: string, word: string): string {
  if (runner === 'pytest') {
    if (file.startsWith('test_')) return `${file.slice(0, -3)}_${word}.py`
    return `${file.slice(0, -'_test.py'.length)}_${word}_test.py`
  }
  const m = /^(.*?)((?:[.\-_](?:test|spec))?\.[cm]?[jt]sx?)$/.exec(file)
  const stem = m?.[1] ?? file
  let ext = m?.[2] ?? '.test.js'
  // A vitest canary imports from 'vitest': it needs a module extension.
  if (runner === 'vitest') ext = ext.replace(/\.c([jt]s)$/, '.m$1')
  const sep = stem.includes('_') ? '_' : '-'
  return `${stem}${sep}${word}${ext}`
}

function freeTitle(runner: RunnerKind, titles: Set<string>, pick: Pick): string {
  const all = VERBS.length * NOUNS.length
  const from = pick(all)
  for (let i = 0; ; i++) {
    const at = (from + i) % all
    const verb = VERBS[Math.floor(at / NOUNS.length)] ?? 'keeps'
    const noun = NOUNS[at % NOUNS.length] ?? 'values'
    const round = Math.floor(i / all)
    const plain =
      runner === 'pytest' ? `test_${verb}_${noun.replace(/ /g, '_')}` : `${verb} ${noun}`
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
  const fileOf = (c: Report['cases'][number]): string | null => {
    const where = c.file !== undefined ? toRepoPath(c.file, root) : c.classname
    for (const path of files.keys())
      if (
        where === path ||
        where === dotted(path) ||
        (c.classname === '' && c.name === dotted(path))
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
