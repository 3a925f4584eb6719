// The canary: a test written to fail, with a random name, placed where the voting command
// collects it, in both worktrees, for the first run of each side. Code in the voting process
// that rewrites results wholesale (every case passed, failures dropped) cannot tell the
// canary from a real test, so a canary reported passed, or gone while other tests ran,
// shows the tampering. The canary is checked on the base first: when the base's command
// does not collect it, it is "not armed" (a notice), never a tripwire. Its result never
// counts as a test. The file exists only for the duration of one run and is removed after.
import { randomBytes } from 'node:crypto'
import { readdir, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join, posix } from 'node:path'
import type { Plane } from '../types.js'
import type { Outcome, Report } from './junit.js'
import type { RunnerKind } from './runners.js'

export interface CanaryPlan {
  runner: RunnerKind
  /** Repository-relative path of the canary file (inside a voting directory). */
  path: string
  /** The random name, in the file name and the test name. */
  token: string
  content: string
}

export type CanaryPlanning = { plan: CanaryPlan } | { plan: null; why: string }

/** What the report said about the canary in one run. */
export type CanaryOutcome = Outcome | 'absent'

const PY_TEST = /(^|\/)(test_[^/]*|[^/]*_test)\.py$/
const JS_TEST = /\.(test|spec)\.([cm]?[jt]sx?)$/
const JS_TESTS_DIR = /(^|\/)__tests__\/(.*\/)?[^/]+(\.[cm]?[jt]sx?)$/
const NODE_TEST =
  /(^|\/)([^/]*[.\-_]test|test-[^/]*|test)\.[cm]?js$|(^|\/)test\/(.*\/)?[^/]+\.[cm]?js$/

export function canaryToken(): string {
  return `og_canary_${randomBytes(6).toString('hex')}`
}

/**
 * Where the canary goes: beside the first voting test file of the merge base that the
 * runner's default file pattern matches, named after that file's pattern.
 */
export function planCanary(
  runner: RunnerKind | null,
  files: readonly string[],
  planeOf: (path: string) => Plane,
  token: string,
  command = ''
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
  const beside = voting[0]
  if (beside === undefined)
    return {
      plan: null,
      why: `no voting test file of the merge base matches ${runner}'s file pattern`
    }
  const name = canaryName(runner, beside, token)
  const dir = dirname(beside)
  return {
    plan: {
      runner,
      path: dir === '.' ? name : posix.join(dir, name),
      token,
      content: canaryContent(runner, token)
    }
  }
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

function canaryName(runner: RunnerKind, beside: string, token: string): string {
  const file = basename(beside)
  // pytest runs a directory's files in name order: `zz` puts the canary last, so a suite
  // that stops at its first failure through configuration has run the real tests first.
  if (runner === 'pytest')
    return file.startsWith('test_') ? `test_zz_${token}.py` : `zz_${token}_test.py`
  if (runner === 'node-test') return `${token}.test.mjs`
  const m = JS_TEST.exec(file)
  const kind = m?.[1] ?? 'test'
  let ext = m?.[2] ?? (JS_TESTS_DIR.exec(beside)?.[3] ?? '.js').slice(1)
  // vitest's canary imports from 'vitest': give it a module extension.
  if (runner === 'vitest' && ext.startsWith('c')) ext = `m${ext.slice(1)}`
  return m ? `${token}.${kind}.${ext}` : `${token}.${ext}`
}

function canaryContent(runner: RunnerKind, token: string): string {
  const body = `test('${token}', () => {\n  throw new Error('oracle-gate canary: written to fail')\n})\n`
  if (runner === 'pytest')
    return `def test_${token}():\n    assert False, "oracle-gate canary: written to fail"\n`
  if (runner === 'vitest') return `import { test } from 'vitest'\n${body}`
  if (runner === 'node-test') return `import { test } from 'node:test'\n${body}`
  return body // jest: test() is a global, and this is valid JS and TS alike
}

/** Writes the canary into a worktree; refuses to overwrite anything. */
export async function armCanary(worktree: string, plan: CanaryPlan): Promise<void> {
  await writeFile(join(worktree, plan.path), plan.content, { flag: 'wx' })
}

/** Removes the canary and what the runner compiled from it (pytest's __pycache__ entry). */
export async function disarmCanary(worktree: string, plan: CanaryPlan): Promise<void> {
  const full = join(worktree, plan.path)
  await rm(full, { force: true })
  const cache = join(dirname(full), '__pycache__')
  const entries = await readdir(cache).catch(() => [] as string[])
  for (const entry of entries)
    if (entry.includes(plan.token)) await rm(join(cache, entry), { force: true })
}

/** The report without the canary's cases, and what it said about the canary. */
export function takeCanary(
  report: Report,
  token: string
): { report: Report; outcome: CanaryOutcome } {
  const isCanary = (c: Report['cases'][number]): boolean =>
    c.name.includes(token) || c.classname.includes(token) || (c.file ?? '').includes(token)
  const canary = report.cases.filter(isCanary)
  if (canary.length === 0) return { report, outcome: 'absent' }
  // Any case of the canary that did not fail is the evidence.
  const notFailed = canary.find(c => c.outcome !== 'failed' && c.outcome !== 'error')
  return {
    report: { ...report, cases: report.cases.filter(c => !isCanary(c)) },
    outcome: notFailed ? notFailed.outcome : 'failed'
  }
}
