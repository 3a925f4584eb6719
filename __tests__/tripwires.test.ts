// The run-time tripwires end to end, on real runners in real temporary repositories: the
// head's production code leaves the bug in and forges the runner's report (rewritten at exit,
// or written by the product while it kills the runner). Each attack first shows the naive
// run's report green with the bug still in, then the gate's verdict; honest fixes stay green.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { linkRunner, linkSetup, naiveRun, SUITE_COMMANDS } from './helpers/runners.js'

const PY = pythonWithPytest()
const repos: TestRepo[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})

const failures = (card: Scorecard): string[] =>
  card.reasons.filter(r => r.level === 'failure').map(r => r.rule)

async function judge(repo: TestRepo): Promise<Scorecard> {
  return check({
    repoDir: repo.dir,
    base: 'main',
    head: 'agent',
    today: '2026-06-01',
    log: memoryLogger()
  })
}

// The static oracle-reach rule would see these forgeries in the diff; it is off here, standing
// in for code it cannot parse (docs/lints.md), so that the tripwire alone must catch each one.
// The forgers find the report through ORACLE_GATE_JUNIT, which suite.expose_env hands them
// (the default hides it: sandbox.test.ts shows a product finding nothing to tell the runs apart).
function policy(command: string, extra = ''): string {
  return `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/props/**]
  in_diff: [tests/**]
lints:
  oracle-reach: off
suite:
  command: ${JSON.stringify(command)}
  timeout: 120
  reruns: 0
  expose_env: true
${extra}`
}

/** A naive run's report: does it still say anything failed? */
function naiveReportFails(
  repo: TestRepo,
  command: string
): { status: number | null; failing: boolean } {
  const junit = join(repo.dir, '.naive-junit.xml')
  const run = naiveRun(repo, command, junit)
  const xml = readFileSync(junit, 'utf8')
  expect(xml).toMatch(/<testcase/)
  return { status: run.status, failing: /<failure|<error/.test(xml) }
}

// --- pytest ---------------------------------------------------------------------------

const CALC_PY = 'def absval(x):\n    return x  # bug: negatives stay negative\n'
const FIXED_PY = 'def absval(x):\n    return -x if x < 0 else x\n'
const PROPS_PY = `from app import calc


def test_abs_non_negative():
    for x in (-3, 0, 4):
        assert calc.absval(x) >= 0


def test_abs_keeps_positives():
    assert calc.absval(5) == 5
`
/** The bug stays; at exit the report loses its failures (and, optionally, the exit its status). */
const forgingPy = (forceExit: boolean): string => `import atexit
import os
import re


def absval(x):
    return x  # bug: negatives stay negative


def _clean():
    path = os.environ.get("ORACLE_GATE_JUNIT")
    if path and os.path.exists(path):
        text = open(path).read()
        text = re.sub(r"<failure.*?</failure>", "", text, flags=re.S)
        text = re.sub(r'failures="\\d+"', 'failures="0"', text)
        open(path, "w").write(text)
    ${forceExit ? 'os._exit(0)' : 'return None'}


atexit.register(_clean)
`

function pytestRepo(command: string, head: string): TestRepo {
  const repo = new TestRepo('og-trip-py-')
  repos.push(repo)
  repo.write({
    '.gitignore': '.naive-junit.xml\n__pycache__/\n',
    '.github/oracle-gate.yml': policy(command),
    'oracle/run.sh': `exec ${PY} -m pytest oracle/props -q -p no:cacheprovider --junitxml="$1"\n`,
    // The children run with PYTHONSAFEPATH=1: the source goes on the path explicitly.
    'pytest.ini': '[pytest]\npythonpath = .\n',
    'app/__init__.py': '',
    'app/calc.py': CALC_PY,
    'oracle/props/test_calc.py': PROPS_PY
  })
  repo.commit('base')
  repo.branch('agent').write({ 'app/calc.py': head }).commit('agent patch')
  return repo
}

const stillBuggy = (repo: TestRepo): string =>
  execFileSync(PY, ['-c', 'from app.calc import absval; print(absval(-3))'], {
    cwd: repo.dir,
    encoding: 'utf8'
  }).trim()

describe('pytest: exit status vs report', () => {
  // A wrapper script names no runner the gate knows, so no canary: the exit status alone.
  const wrapped = 'bash oracle/run.sh {junit}'

  it('a report rewritten at exit is green, the exit still says failure: report-mismatch', async () => {
    const repo = pytestRepo(wrapped, forgingPy(false))
    expect(stillBuggy(repo)).toBe('-3')
    const naive = naiveReportFails(repo, wrapped)
    expect(naive).toEqual({ status: 1, failing: false }) // the report is green, the bug is in

    const card = await judge(repo)
    expect(failures(card)).toEqual(['report-mismatch'])
    expect(card.verdict).toBe('product')
    const reason = card.reasons.find(r => r.rule === 'report-mismatch')
    expect(reason?.message).toMatch(/exited with status 1 in the first run on head/)
    // The canary could not be armed for this command, and the card says so.
    expect(card.reasons).toContainEqual(
      expect.objectContaining({
        level: 'notice',
        message: expect.stringMatching(/canaries were not armed/)
      })
    )
  })

  it('an honest fix through the same wrapper merges (the base exits 1 with failing tests)', async () => {
    const card = await judge(pytestRepo(wrapped, FIXED_PY))
    expect(failures(card)).toEqual([])
    expect(card.verdict).toBe('merge')
    expect(card.runs.map(r => r.exit_code)).toEqual([1, 0])
  })
})

describe('pytest: the canary', () => {
  const plain = SUITE_COMMANDS.pytest(PY, 'oracle/props')

  it('a report rewritten at exit with exit status 0 is green to CI; the canary passed: runner-tampered', async () => {
    const repo = pytestRepo(plain, forgingPy(true))
    expect(stillBuggy(repo)).toBe('-3')
    expect(naiveReportFails(repo, plain)).toEqual({ status: 0, failing: false })

    const card = await judge(repo)
    // Exit 0 and a report with no failure agree; the stream and the canaries tell, and the
    // vote takes the streamed failure.
    expect(failures(card).sort()).toEqual(['oracle-failed', 'runner-tampered'])
    expect(card.verdict).toBe('policy')
    const tampered = card.reasons.filter(r => r.rule === 'runner-tampered').map(r => r.message)
    expect(tampered.join('\n')).toMatch(
      /oracle\.props\.test_calc::test_abs_non_negative was streamed failed but the report says passed/
    )
    // The canaries written to fail were rewritten too: the file says they passed.
    expect(tampered.join('\n')).toMatch(
      /oracle\.props\.test_calc_\w+::test_\w+ was streamed failed but the report says passed/
    )
    // The canary never counts as a test, and left nothing in the repository.
    expect(card.runs.map(r => r.tests)).toEqual([2, 2])
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('')
  })

  it('an honest fix merges with the canary armed on both sides', async () => {
    const card = await judge(pytestRepo(plain, FIXED_PY))
    expect(failures(card)).toEqual([])
    expect(card.verdict).toBe('merge')
    expect(card.transitions.fail_to_pass).toEqual([
      'oracle/props/test_calc.py::test_abs_non_negative'
    ])
    expect(card.reasons.map(r => r.message).join('\n')).not.toMatch(/canary/)
  })
})

// --- vitest ---------------------------------------------------------------------------

const CALC_JS = 'export function absval(x) {\n  return x // bug: negatives stay negative\n}\n'
const FIXED_JS = 'export function absval(x) {\n  return x < 0 ? -x : x\n}\n'
const PROPS_JS = `import { describe, expect, test } from 'vitest'
import { absval } from '../../lib/calc.mjs'

describe('absval', () => {
  test('is non-negative', () => {
    for (const x of [-3, 0, 4]) expect(absval(x)).toBeGreaterThanOrEqual(0)
  })
  test('keeps positives', () => expect(absval(5)).toBe(5))
})
`
/** The bug stays; the product writes a green report where the gate reads it and kills the runner. */
const FORGING_JS = `import { writeFileSync } from 'node:fs'

export function absval(x) {
  return x // bug: negatives stay negative
}

const report = process.env.ORACLE_GATE_JUNIT
if (report) {
  const file = 'oracle/props/calc.test.ts'
  const cases = ['is non-negative', 'keeps positives']
    .map(name => '<testcase classname="' + file + '" name="absval &gt; ' + name + '"/>')
    .join('')
  writeFileSync(report, '<?xml version="1.0"?><testsuites><testsuite name="' + file + '">' + cases + '</testsuite></testsuites>')
  process.kill(process.ppid, 'SIGKILL')
}
`

function vitestRepo(command: string, head: string): TestRepo {
  const repo = new TestRepo('og-trip-vi-')
  repos.push(repo)
  repo.write({
    '.gitignore': 'node_modules/\n.naive-junit.xml\n',
    '.github/oracle-gate.yml': policy(command, `  setup: ${JSON.stringify(linkSetup('vitest'))}\n`),
    'oracle/run.sh': `exec ${SUITE_COMMANDS.vitest('oracle/props').replace('{junit}', '"$1"')}\n`,
    'package.json': '{"type": "module"}\n',
    'lib/calc.mjs': CALC_JS,
    'oracle/props/calc.test.ts': PROPS_JS
  })
  repo.commit('base')
  repo.branch('agent').write({ 'lib/calc.mjs': head }).commit('agent patch')
  linkRunner(repo, 'vitest')
  return repo
}

describe('vitest: exit status vs report', () => {
  const wrapped = 'bash oracle/run.sh {junit}'

  it('a report the product writes before killing the runner is green: report-mismatch', async () => {
    const repo = vitestRepo(wrapped, FORGING_JS)
    expect(naiveReportFails(repo, wrapped)).toEqual({ status: null, failing: false })

    const card = await judge(repo)
    expect(failures(card)).toEqual(['report-mismatch'])
    expect(card.reasons.find(r => r.rule === 'report-mismatch')?.message).toMatch(
      /was killed by SIGKILL in the first run on head while its report shows no failing test of the repository/
    )
  })

  it('an honest fix through the same wrapper merges', async () => {
    const card = await judge(vitestRepo(wrapped, FIXED_JS))
    expect(failures(card)).toEqual([])
    expect(card.verdict).toBe('merge')
  })
})

describe('vitest: the canary', () => {
  const plain = SUITE_COMMANDS.vitest('oracle/props')

  it('the forged report lacks the canary the base reported: runner-tampered', async () => {
    const repo = vitestRepo(plain, FORGING_JS)
    expect(naiveReportFails(repo, plain).failing).toBe(false)

    const card = await judge(repo)
    expect(failures(card)).toContain('runner-tampered')
    expect(card.verdict).toBe('policy')
    // The runner was killed before its end: the stream is cut short, whatever the file says.
    expect(card.reasons.find(r => r.rule === 'runner-tampered')?.message).toMatch(
      /the stream was cut short: .*the runner never reached its end.*oracle\/props\/calc\.test\.ts::absval > is non-negative is in the report \(passed\) but was never streamed/
    )
  })

  it('an honest fix merges with the canary armed', async () => {
    const card = await judge(vitestRepo(plain, FIXED_JS))
    expect(failures(card)).toEqual([])
    expect(card.verdict).toBe('merge')
    expect(card.votes).toMatchObject({ passed: 2, failed: 0 })
    expect(card.reasons.map(r => r.message).join('\n')).not.toMatch(/canary/)
  })
})

describe('a base with no report', () => {
  it('shows the first lines of the log as well as the last', async () => {
    const repo = new TestRepo('og-noreport-')
    repos.push(repo)
    repo.write({
      '.github/oracle-gate.yml': policy('bash oracle/broken.sh'),
      'oracle/broken.sh':
        'echo "ImportError: the real cause is printed first"\nfor i in $(seq 1 400); do echo "noise line $i"; done\necho "giving up"\nexit 3\n',
      'oracle/props/test_x.py': 'def test_x():\n    pass\n'
    })
    repo.commit('base')
    repo.branch('agent').write({ 'app.py': 'X = 1\n' }).commit('agent patch')
    const card = await judge(repo)
    expect(card.verdict).toBe('error')
    const message = card.reasons.find(r => r.level === 'failure')?.message ?? ''
    expect(message).toMatch(
      /output head:\nImportError: the real cause is printed first\nnoise line 1\n/
    )
    expect(message).toMatch(/output tail:\n[\s\S]*noise line 400\ngiving up/)
  })
})
