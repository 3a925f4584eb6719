// Targeted reruns without hand-written commands, and what must not be mis-measured, on real
// runners in temporary repositories: a failing base test of a vitest and of a jest suite is
// rerun alone (every test logs each execution, so the log shows what each run executed); a
// whole-suite rerun on the base does not turn an unrelated test into a flake of the oracle
// (on the head it still blocks); tests sharing an id are listed; hits without a production
// change are unexplained.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { linkRunner, linkSetup, SUITE_COMMANDS } from './helpers/runners.js'

const PY = pythonWithPytest()
const cleanups: (() => void)[] = []
afterEach(() => {
  for (const c of cleanups.splice(0)) c()
})

const failures = (card: Scorecard): string[] =>
  card.reasons.filter(r => r.level === 'failure').map(r => r.rule)

function newRepo(prefix: string): TestRepo {
  const repo = new TestRepo(prefix)
  cleanups.push(() => repo.cleanup())
  return repo
}

function runLog(): string {
  const dir = mkdtempSync(join(tmpdir(), 'og-runlog-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return join(dir, 'runs.log')
}

/** Executions per side, from the run log: {"base:name": count}. */
function executions(log: string): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const line of readFileSync(log, 'utf8').split('\n').filter(Boolean))
    counts[line] = (counts[line] ?? 0) + 1
  return counts
}

function policy(command: string, extra: string): string {
  return `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/props/**]
  in_diff: [tests/**]
# The runs log to a file outside the worktree (RUNLOG), which a sandbox would not allow.
sandbox: off
# This file counts the reruns of the vote: the evidence stage's own runs (a coverage run,
# the mutants, docs/evidence.md) would add executions of their own, so it is off here.
evidence:
  mode: off
suite:
  command: ${JSON.stringify(command)}
  timeout: 120
  reruns: 1
${extra}`
}

async function judge(repo: TestRepo): Promise<{ card: Scorecard; log: string[] }> {
  const log = memoryLogger()
  const card = await check({
    repoDir: repo.dir,
    base: 'main',
    head: 'agent',
    today: '2026-06-01',
    log
  })
  return { card, log: log.lines }
}

const CALC_BUGGY = 'function absval(x) {\n  return x\n}\n'
const CALC_FIXED = 'function absval(x) {\n  return x < 0 ? -x : x\n}\n'

/**
 * JS test files that log each execution as "<side>:<title>": the side from the product's
 * source (the head's is the fix), since both sides run at one path under neutral names.
 */
const logLine =
  "(process.getBuiltinModule('node:fs').readdirSync('lib').some(f => process.getBuiltinModule('node:fs').readFileSync('lib/' + f, 'utf8').includes('x < 0')) ? 'head:' : 'base:')"

describe('targeted reruns', () => {
  it('vitest: the failing base test is rerun alone (file and -t pattern built from its id)', async () => {
    const logFile = runLog()
    const repo = newRepo('og-rerun-vi-')
    const seen = `(t) => appendFileSync(process.env.RUNLOG, ${logLine} + t + '\\n')`
    repo.write({
      '.gitignore': 'node_modules/\n',
      '.github/oracle-gate.yml': policy(
        SUITE_COMMANDS.vitest('oracle/props'),
        `  setup: ${JSON.stringify(linkSetup('vitest'))}\n  env: {RUNLOG: ${JSON.stringify(logFile)}}\n`
      ),
      'package.json': '{"type": "module"}\n',
      'lib/calc.mjs': `export ${CALC_BUGGY}`,
      'oracle/props/a.test.ts': `import { appendFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { absval } from '../../lib/calc.mjs'
const seen = ${seen}
describe('absval (x)', () => {
  test('is non-negative [-3]', () => { seen('neg'); expect(absval(-3)).toBe(3) })
  test('keeps positives', () => { seen('pos'); expect(absval(5)).toBe(5) })
})
`,
      'oracle/props/b.test.ts': `import { appendFileSync } from 'node:fs'
import { test } from 'vitest'
const seen = ${seen}
test('other file', () => seen('other'))
`
    })
    repo.commit('base')
    repo
      .branch('agent')
      .write({ 'lib/calc.mjs': `export ${CALC_FIXED}` })
      .commit('fix')
    linkRunner(repo, 'vitest')

    const { card, log } = await judge(repo)
    expect(failures(card)).toEqual([])
    expect(card.verdict).toBe('merge')
    expect(log).toContain('base: rerun 1 of 1 failing test(s)')
    // The base ran everything once and the failing test once more; nothing else reran.
    expect(executions(logFile)).toEqual({
      'base:neg': 2,
      'base:pos': 1,
      'base:other': 1,
      'head:neg': 1,
      'head:pos': 1,
      'head:other': 1
    })
    expect(card.transitions.fail_to_pass).toEqual([
      'oracle/props/a.test.ts::absval (x) > is non-negative [-3]'
    ])
    expect(card.flakes).toEqual([])
  })

  it('jest: the failing base test is rerun alone (file pattern and --testNamePattern)', async () => {
    const logFile = runLog()
    const repo = newRepo('og-rerun-jest-')
    const seen = `(t) => require('node:fs').appendFileSync(process.env.RUNLOG, ${logLine} + t + '\\n')`
    repo.write({
      '.gitignore': 'node_modules/\n',
      '.github/oracle-gate.yml': policy(
        SUITE_COMMANDS.jest('oracle/props'),
        `  setup: ${JSON.stringify(linkSetup('jest'))}\n  env: {RUNLOG: ${JSON.stringify(logFile)}}\n`
      ),
      'package.json': '{}\n',
      'lib/calc.js': `${CALC_BUGGY}module.exports = { absval }\n`,
      'oracle/props/a.test.js': `const { absval } = require('../../lib/calc.js')
const seen = ${seen}
describe('absval (x)', () => {
  test('is non-negative [-3]', () => { seen('neg'); expect(absval(-3)).toBe(3) })
  test('keeps positives', () => { seen('pos'); expect(absval(5)).toBe(5) })
})
`,
      'oracle/props/b.test.js': `const seen = ${seen}\ntest('other file', () => seen('other'))\n`
    })
    repo.commit('base')
    repo
      .branch('agent')
      .write({ 'lib/calc.js': `${CALC_FIXED}module.exports = { absval }\n` })
      .commit('fix')
    linkRunner(repo, 'jest')

    const { card, log } = await judge(repo)
    expect(failures(card)).toEqual([])
    expect(card.verdict).toBe('merge')
    expect(log).toContain('base: rerun 1 of 1 failing test(s)')
    expect(executions(logFile)).toEqual({
      'base:neg': 2,
      'base:pos': 1,
      'base:other': 1,
      'head:neg': 1,
      'head:pos': 1,
      'head:other': 1
    })
    expect(card.transitions.fail_to_pass).toEqual([
      'oracle/props/a.test.js::absval (x) > is non-negative [-3]'
    ])
  })

  it('node:test: the failing base test is rerun with its file and --test-name-pattern', async () => {
    const logFile = runLog()
    const repo = newRepo('og-rerun-node-')
    const seen = `(t) => appendFileSync(process.env.RUNLOG, ${logLine} + t + '\\n')`
    const header = `import { appendFileSync } from 'node:fs'\nimport { describe, test } from 'node:test'\nimport assert from 'node:assert/strict'\nconst seen = ${seen}\n`
    repo.write({
      '.github/oracle-gate.yml': policy(
        SUITE_COMMANDS.nodeTest('oracle/props/'),
        `  env: {RUNLOG: ${JSON.stringify(logFile)}}\n`
      ),
      'package.json': '{"type": "module"}\n',
      'lib/calc.mjs': `export ${CALC_BUGGY}`,
      'oracle/props/a.test.mjs': `${header}import { absval } from '../../lib/calc.mjs'
describe('absval', () => {
  test('is non-negative', () => { seen('neg'); assert.equal(absval(-3), 3) })
})
test('keeps positives', () => { seen('pos'); assert.equal(absval(5), 5) })
`,
      'oracle/props/b.test.mjs': `${header}test('other file', () => seen('other'))\n`
    })
    repo.commit('base')
    repo
      .branch('agent')
      .write({ 'lib/calc.mjs': `export ${CALC_FIXED}` })
      .commit('fix')

    const { card, log } = await judge(repo)
    expect(failures(card)).toEqual([])
    expect(log).toContain('base: rerun 1 of 1 failing test(s)')
    expect(executions(logFile)).toEqual({
      'base:neg': 2,
      'base:pos': 1,
      'base:other': 1,
      'head:neg': 1,
      'head:pos': 1,
      'head:other': 1
    })
    expect(card.transitions.fail_to_pass).toEqual([
      'oracle/props/a.test.mjs::absval > is non-negative'
    ])
  })
})

// A runner the gate cannot select with (a wrapper script): every rerun is the whole suite.
const PY_PROPS = `import os
import tempfile

from app import calc


def test_abs_non_negative():
    assert calc.absval(-3) == 3


def test_unrelated_flips_on_second_run():
    # Passes the first time in a side's worktree, fails every time after (every run
    # gets a fresh temp folder).
    marker = os.path.join(os.getcwd(), ".ran-once")
    first = not os.path.exists(marker)
    open(marker, "w").close()
    assert first
`

function wholeSuiteRepo(head: string): TestRepo {
  const repo = newRepo('og-rerun-whole-')
  repo.write({
    '.gitignore': '__pycache__/\n',
    '.github/oracle-gate.yml': policy('bash oracle/run.sh {junit}', ''),
    'oracle/run.sh': `exec ${PY} -m pytest oracle/props -q -p no:cacheprovider --junitxml="$1"\n`,
    // The children run with PYTHONSAFEPATH=1: the source goes on the path explicitly.
    'pytest.ini': '[pytest]\npythonpath = .\n',
    'app/__init__.py': '',
    'app/calc.py': 'def absval(x):\n    return x\n',
    'oracle/props/test_calc.py': PY_PROPS
  })
  repo.commit('base')
  repo.branch('agent').write({ 'app/calc.py': head }).commit('agent patch')
  return repo
}

describe('whole-suite reruns', () => {
  const UNRELATED = 'oracle/props/test_calc.py::test_unrelated_flips_on_second_run'

  it('on the base, a test that passed first and failed only in a rerun for another test is a warning with a ledger row, not a flake of the oracle', async () => {
    const { card, log } = await judge(
      wholeSuiteRepo('def absval(x):\n    return -x if x < 0 else x\n')
    )
    expect(log).toContain('base: rerun 1 of the whole suite')
    expect(failures(card)).toEqual([])
    expect(card.verdict).toBe('merge')
    const warning = card.reasons.find(r => r.rule === 'flaky-oracle')
    expect(warning).toMatchObject({ level: 'warning', path: 'oracle/props/test_calc.py' })
    expect(warning?.message).toContain(
      `${UNRELATED} gave different outcomes on the base (passed, failed)`
    )
    expect(warning?.message).toMatch(/ledger row such as \{id: flake-<n>, test: ".*", cause: order/)
    expect(card.flakes).toEqual([{ test: UNRELATED, side: 'base', outcomes: ['passed', 'failed'] }])
    expect(card.transitions.pass_to_pass).toBe(1)
  })

  it('on the head, the same flake in a whole-suite rerun still blocks', async () => {
    // No fix: the head's failing test is rerun, and with it the whole suite.
    const { card } = await judge(wholeSuiteRepo('def absval(x):\n    return x\n\n\nX = 1\n'))
    const flakes = card.reasons.filter(r => r.rule === 'flaky-oracle' && r.level === 'failure')
    expect(flakes.map(r => r.message)).toEqual([
      expect.stringContaining(`${UNRELATED} gave different outcomes on the head (passed, failed)`)
    ])
    expect(card.verdict).toBe('product')
  })
})

describe('duplicate ids', () => {
  it('vitest: two tests with one name are listed in a warning and keep the worst outcome', async () => {
    const repo = newRepo('og-dup-vi-')
    const props = (second: string): string => `import { expect, test } from 'vitest'
import { absval } from '../../lib/calc.mjs'
test('absval works', () => expect(absval(5)).toBe(5))
test('absval works', () => expect(absval(${second})).toBe(3))
`
    repo.write({
      '.gitignore': 'node_modules/\n',
      '.github/oracle-gate.yml': policy(
        SUITE_COMMANDS.vitest('oracle/props'),
        `  setup: ${JSON.stringify(linkSetup('vitest'))}\n`
      ),
      'package.json': '{"type": "module"}\n',
      'lib/calc.mjs': `export ${CALC_BUGGY}`,
      'oracle/props/a.test.ts': props('-3')
    })
    repo.commit('base')
    repo
      .branch('agent')
      .write({ 'lib/calc.mjs': `export ${CALC_FIXED}` })
      .commit('fix')
    linkRunner(repo, 'vitest')

    const { card } = await judge(repo)
    const id = 'oracle/props/a.test.ts::absval works'
    // On the base the id's worst outcome is the failure: the fix is a hit.
    expect(card.transitions.fail_to_pass).toEqual([id])
    expect(card.verdict).toBe('merge')
    const warning = card.reasons.find(
      r => r.level === 'warning' && /shared by more than one test/.test(r.message)
    )
    expect(warning?.message).toContain(id)
  })

  it('jest: the same warning; a regression in one of the pair is not hidden', async () => {
    const repo = newRepo('og-dup-jest-')
    repo.write({
      '.gitignore': 'node_modules/\n',
      '.github/oracle-gate.yml': policy(
        SUITE_COMMANDS.jest('oracle/props'),
        `  setup: ${JSON.stringify(linkSetup('jest'))}\n`
      ),
      'package.json': '{}\n',
      'lib/calc.js': 'function absval(x) {\n  return Math.abs(x)\n}\nmodule.exports = { absval }\n',
      'oracle/props/a.test.js': `const { absval } = require('../../lib/calc.js')
describe('absval', () => {
  test('works', () => expect(absval(5)).toBe(5))
  test('works', () => expect(absval(-3)).toBe(3))
})
`
    })
    repo.commit('base')
    repo
      .branch('agent')
      .write({
        'lib/calc.js': 'function absval(x) {\n  return x\n}\nmodule.exports = { absval }\n'
      })
      .commit('break one of them')
    linkRunner(repo, 'jest')

    const { card } = await judge(repo)
    const id = 'oracle/props/a.test.js::absval > works'
    expect(card.transitions.pass_to_fail).toEqual([id])
    expect(failures(card)).toContain('regression')
    expect(
      card.reasons.find(r => r.level === 'warning' && r.message.includes(id))?.message
    ).toMatch(/1 test id\(s\) are shared by more than one test/)
  })
})

// A coin: the voting test fails in the base's worktree and passes in the head's (it asks
// git which commit it runs at; both sides run at one path, so the path cannot tell).
const COIN = `import subprocess


def test_depends_on_where_it_runs():
    subject = subprocess.run(["git", "log", "-1", "--format=%s"], capture_output=True, text=True).stdout
    assert subject.strip() == "agent patch"
`

function coinRepo(head: Record<string, string>): TestRepo {
  const repo = newRepo('og-coin-')
  repo.write({
    '.gitignore': '__pycache__/\n',
    '.github/oracle-gate.yml': policy(SUITE_COMMANDS.pytest(PY, 'oracle/props'), ''),
    // The children run with PYTHONSAFEPATH=1: the source goes on the path explicitly.
    'pytest.ini': '[pytest]\npythonpath = .\n',
    'app/__init__.py': '',
    'app/calc.py': 'def absval(x):\n    return x\n',
    'oracle/props/test_coin.py': COIN
  })
  repo.commit('base')
  repo.branch('agent').write(head).commit('agent patch')
  return repo
}

describe('unexplained hits', () => {
  it('a hit although the patch writes nothing on the source plane: unexplained-hit', async () => {
    const { card } = await judge(
      coinRepo({ 'tests/test_extra.py': 'def test_extra():\n    assert 1 + 1 == 2\n' })
    )
    expect(card.transitions.fail_to_pass).toEqual([
      'oracle/props/test_coin.py::test_depends_on_where_it_runs'
    ])
    expect(failures(card)).toEqual(['unexplained-hit'])
    expect(card.verdict).toBe('product')
    expect(card.reasons.find(r => r.rule === 'unexplained-hit')?.message).toMatch(
      /writes nothing on the source plane: either the oracle is a coin/
    )
  })

  it('the same hit with a production change is explained (merge)', async () => {
    const { card } = await judge(coinRepo({ 'app/calc.py': 'def absval(x):\n    return abs(x)\n' }))
    expect(card.transitions.fail_to_pass).toHaveLength(1)
    expect(failures(card)).toEqual([])
    expect(card.verdict).toBe('merge')
  })

  it('a test the patch adds that fails on head is a warning naming it, not a vote', async () => {
    const { card } = await judge(
      coinRepo({
        'app/calc.py': 'def absval(x):\n    return abs(x)\n',
        'tests/test_mine.py':
          'from app import calc\n\n\ndef test_mine():\n    assert calc.absval(-2) == 5\n'
      })
    )
    expect(failures(card)).toEqual([])
    expect(card.verdict).toBe('merge')
    expect(card.reasons).toContainEqual(
      expect.objectContaining({
        level: 'warning',
        path: 'tests/test_mine.py',
        message: expect.stringMatching(
          /^tests\/test_mine\.py::test_mine, a test the patch wrote, fails on head/
        )
      })
    )
  })
})
