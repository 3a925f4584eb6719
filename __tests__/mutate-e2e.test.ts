// Mutants run for real (src/evidence/mutate.ts): pytest, node:test, vitest (TypeScript) and
// jest suites in temporary repositories, the mutants made by mutantsFor from the head's
// text and run through the replay's runSuite. The head is green first (so a kill is the
// mutant's doing); a strong test kills the mutant of a fixed comparison and is named; a
// weak test that checks only the type leaves a survivor, and only the selected test ran;
// budget 0 runs nothing; a runner that cannot select, or too many covering tests, runs the
// whole suite; a run that hangs or dies is `not_run`, never killed; the file is
// byte-identical (and keeps its time) after every run; a folder setup made into a link out
// of the worktree is never written through; a head that rewrites the tests during a mutant
// run is shown poisoning the later mutants, then stopped by the fidelity check; the runs
// are contained by the vote's sandbox (shown uncontained first).
import { execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { GateContext } from '../src/context.js'
import { mutantsFor } from '../src/evidence/mutants.js'
import { MAX_SELECTED, runMutants } from '../src/evidence/mutate.js'
import type { Mutant, MutantOutcome } from '../src/evidence/types.js'
import { languageOf } from '../src/lints/parsers.js'
import { worktreeIdContext } from '../src/replay/ids.js'
import { observe } from '../src/replay/rerun.js'
import { runSuite } from '../src/replay/run.js'
import { detectRunner } from '../src/replay/runners.js'
import { judgeStream } from '../src/replay/tripwires.js'
import { containRuns } from '../src/replay/contain.js'
import { checkFidelity } from '../src/replay/fidelity.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { linkRunner, SUITE_COMMANDS } from './helpers/runners.js'
import { cleanEnv, contextFor } from './helpers/setup-fixture.js'

const PY = pythonWithPytest()
const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.()
})

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/**
 * Policy of a suite whose tests live under oracle/ (the voting plane). Uncontained by
 * default: the tests log each execution to a file outside the worktree (RUNLOG).
 */
function policy(command: string, timeout = 120, extra = 'sandbox: off\n', suiteExtra = ''): string {
  return `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/**]
${extra}suite:
  command: ${JSON.stringify(command)}
  timeout: ${timeout}
  reruns: 0
${suiteExtra}`
}

interface Fixture {
  repo: TestRepo
  ctx: GateContext & { log: { lines: string[] } }
  runlog: string
  /** The run log of the mutants (MutationInput.log). */
  log: string
}

/** A committed repository, used as the head's worktree, and a context over it. */
function fixture(
  files: Record<string, string>,
  command: string,
  timeout = 120,
  extra?: string,
  suiteExtra?: string
): Fixture {
  const repo = new TestRepo('og-mut-')
  cleanups.push(() => repo.cleanup())
  const logs = tempDir('og-mut-log-')
  const runlog = join(logs, 'runs.log')
  repo.write({ '.gitignore': '__pycache__/\nnode_modules/\n', ...files })
  const sha = repo.commit('head')
  const ctx = contextFor(repo, policy(command, timeout, extra, suiteExtra), {
    mergeBase: sha,
    head: sha,
    env: cleanEnv({ RUNLOG: runlog, WORKTREE: repo.dir })
  })
  cleanups.push(() => rmSync(ctx.tempDir, { recursive: true, force: true }))
  return { repo, ctx, runlog, log: join(logs, 'mutants.log') }
}

/** The mutants mutantsFor makes of `lines` of the head's file. */
async function mutantsOf(f: Fixture, path: string, lines: number[]): Promise<Mutant[]> {
  const language = languageOf(path)
  if (language === undefined) throw new Error(`no grammar for ${path}`)
  const text = readFileSync(join(f.repo.dir, path), 'utf8')
  return mutantsFor(path, language, text, new Set(lines), 10)
}

/** What each test said in one plain run of the head (the vote's reading: stream first). */
async function headRun(f: Fixture): Promise<Record<string, string>> {
  const run = await runSuite(f.ctx, {
    side: 'head',
    worktree: f.repo.dir,
    attempt: 0,
    command: f.ctx.policy.suite.command,
    logFile: join(f.ctx.tempDir, 'head.log')
  })
  if (run.report === null) throw new Error(`no report: ${run.reportError}`)
  const runner = detectRunner(f.ctx.policy.suite)
  const report = judgeStream(run.report, run.stream, f.repo.dir, runner).report
  const files = f.repo.git('ls-files').split('\n').filter(Boolean)
  const ids = worktreeIdContext(f.repo.dir, files, p => f.ctx.planes.planeOf(p), undefined, {
    runner
  })
  const out: Record<string, string> = {}
  for (const [id, o] of observe(report, ids)) out[id] = o.outcomes.join(',')
  return out
}

function executions(f: Fixture): string[] {
  return existsSync(f.runlog) ? readFileSync(f.runlog, 'utf8').split('\n').filter(Boolean) : []
}

function run(
  f: Fixture,
  mutants: readonly Mutant[],
  testsFor: (m: Mutant) => readonly string[],
  budgetSec = 600
): Promise<MutantOutcome[]> {
  return runMutants(f.ctx, { worktree: f.repo.dir, mutants, testsFor, budgetSec, log: f.log })
}

interface Snapshot {
  path: string
  bytes: string
  mtimeMs: number
}

/** Bytes and modification time of a file, to compare before and after. */
function snapshot(f: Fixture, path: string): Snapshot {
  const full = join(f.repo.dir, path)
  return { path, bytes: readFileSync(full).toString('hex'), mtimeMs: statSync(full).mtimeMs }
}

/** The same bytes, and the same time (to well under a millisecond: set as float seconds). */
function expectRestored(f: Fixture, before: Snapshot): void {
  const now = snapshot(f, before.path)
  expect(now.bytes).toBe(before.bytes)
  expect(Math.abs(now.mtimeMs - before.mtimeMs)).toBeLessThan(0.01)
}

function gitClean(f: Fixture): string {
  return execFileSync('git', ['status', '--porcelain'], { cwd: f.repo.dir, encoding: 'utf8' })
}

// ----------------------------------------------------------------------- pytest

const FEE_PY = `def fee(amount):
    if amount > 100:
        return 5
    return 0
`
const FEE_TESTS_PY = `import os

from lib.fee import fee


def seen(name):
    with open(os.environ["RUNLOG"], "a") as f:
        f.write(name + "\\n")


def test_boundary():
    seen("boundary")
    assert fee(100) == 0
    assert fee(101) == 5


def test_type():
    seen("type")
    assert isinstance(fee(100), int)
`
const PY_FILES = {
  'pytest.ini': '[pytest]\npythonpath = .\n',
  'lib/__init__.py': '',
  'lib/fee.py': FEE_PY,
  'oracle/test_fee.py': FEE_TESTS_PY
}
const PYTEST = SUITE_COMMANDS.pytest(PY, 'oracle')
const STRONG_PY = 'oracle/test_fee.py::test_boundary'
const WEAK_PY = 'oracle/test_fee.py::test_type'

describe('pytest', () => {
  it('a strong test kills the mutant of the fixed comparison and is named', async () => {
    const f = fixture(PY_FILES, PYTEST)
    expect(await headRun(f)).toEqual({ [STRONG_PY]: 'passed', [WEAK_PY]: 'passed' })
    const before = snapshot(f, 'lib/fee.py')
    const mutants = await mutantsOf(f, 'lib/fee.py', [2])
    expect(mutants.map(m => m.mutation)).toEqual(['`>` → `>=`'])

    const [out] = await run(f, mutants, () => [WEAK_PY, STRONG_PY])
    expect(out).toMatchObject({ path: 'lib/fee.py', line: 2, killed_by: STRONG_PY })
    expect(out?.not_run).toBeUndefined()
    expectRestored(f, before)
    expect(gitClean(f)).toBe('')
  })

  it("a mutant the size of the original is not mistaken for it by Python's bytecode cache", async () => {
    // Without the gate's reporter (a wrapper script) and with bytecode allowed, the head's
    // run leaves bytecode keyed on the source's whole-second time and size.
    const script = `#!/bin/sh\nexec ${PY} -m pytest oracle -q -p no:cacheprovider --junitxml="$1"\n`
    const f = fixture({ ...PY_FILES, 'oracle/run.sh': script }, 'sh oracle/run.sh {junit}')
    delete f.ctx.childEnv.PYTHONDONTWRITEBYTECODE
    expect(await headRun(f)).toEqual({ [STRONG_PY]: 'passed', [WEAK_PY]: 'passed' })
    expect(readdirSync(join(f.repo.dir, 'lib/__pycache__')).some(n => n.startsWith('fee.'))).toBe(
      true
    )
    const before = snapshot(f, 'lib/fee.py')
    const mutants = await mutantsOf(f, 'lib/fee.py', [3])
    expect(
      mutants.map(m => [m.mutation, m.replacement.length - (m.original ?? '').length])
    ).toEqual([['`5` → `6`', 0]])
    const [out] = await run(f, mutants, () => [STRONG_PY])
    expect(out).toMatchObject({ killed_by: STRONG_PY })
    expectRestored(f, before)
  })

  it('a weak test that checks only the type leaves a survivor; only it ran', async () => {
    const f = fixture(PY_FILES, PYTEST)
    const before = snapshot(f, 'lib/fee.py')
    const mutants = await mutantsOf(f, 'lib/fee.py', [2, 3])
    expect(mutants.map(m => `${m.line} ${m.mutation}`)).toEqual(['2 `>` → `>=`', '3 `5` → `6`'])

    const outcomes = await run(f, mutants, () => [WEAK_PY])
    expect(outcomes.map(o => [o.line, o.killed_by, o.not_run])).toEqual([
      [2, null, undefined],
      [3, null, undefined]
    ])
    // Each mutant ran the selected test alone.
    expect(executions(f)).toEqual(['type', 'type'])
    expectRestored(f, before)
  })

  it('budget 0: every mutant is not run, and nothing runs', async () => {
    const f = fixture(PY_FILES, PYTEST)
    const mutants = await mutantsOf(f, 'lib/fee.py', [2, 3])
    const outcomes = await run(f, mutants, () => [STRONG_PY], 0)
    expect(outcomes.map(o => [o.killed_by, o.not_run])).toEqual([
      [null, 'budget'],
      [null, 'budget']
    ])
    expect(executions(f)).toEqual([])
    expect(existsSync(f.log)).toBe(false)
  })

  it('a runner the gate cannot select through runs the whole suite per mutant', async () => {
    const script = `#!/bin/sh\nexec ${PY} -m pytest oracle -q -p no:cacheprovider --junitxml="$1"\n`
    const f = fixture({ ...PY_FILES, 'oracle/run.sh': script }, 'sh oracle/run.sh {junit}')
    const mutants = await mutantsOf(f, 'lib/fee.py', [2])
    const [out] = await run(f, mutants, () => [STRONG_PY])
    expect(out?.killed_by).toBe(STRONG_PY)
    expect(executions(f).sort()).toEqual(['boundary', 'type'])
  })

  it('more covering tests than MAX_SELECTED: the whole suite is collected, the covering ones run and count', async () => {
    const many = `import pytest

from lib.fee import fee


@pytest.mark.parametrize("n", range(${MAX_SELECTED + 1}))
def test_many(n):
    assert fee(100 + n) == (5 if n > 0 else 0)
`
    const f = fixture({ ...PY_FILES, 'oracle/test_many.py': many }, PYTEST)
    const ids = Array.from(
      { length: MAX_SELECTED + 1 },
      (_, n) => `oracle/test_many.py::test_many[${n}]`
    ).reverse()
    const mutants = await mutantsOf(f, 'lib/fee.py', [2])
    const [out] = await run(f, mutants, () => ids)
    expect(out?.killed_by).toBe('oracle/test_many.py::test_many[0]')
    // The suite command, not a selection, collected the whole suite; in the one mutant
    // session (gate_mutate.py) only the covering tests ran: the others never logged.
    expect(executions(f)).toEqual([])
  })

  it('a mutant that hangs the suite is not run (timed out), never killed; the file is restored', async () => {
    const f = fixture(
      {
        ...PY_FILES,
        'lib/count.py':
          'def count(n):\n    i = 0\n    while i < n:\n        i += 1\n    return i\n',
        'oracle/test_count.py':
          'from lib.count import count\n\n\ndef test_count():\n    assert count(3) == 3\n'
      },
      PYTEST,
      5
    )
    const before = snapshot(f, 'lib/count.py')
    const mutants = await mutantsOf(f, 'lib/count.py', [4])
    expect(mutants.map(m => m.mutation)).toEqual(['`+=` → `-=`'])
    const [out] = await run(f, mutants, () => ['oracle/test_count.py::test_count'])
    expect(out).toMatchObject({ killed_by: null, not_run: 'timed out after 5s' })
    expectRestored(f, before)
    expect(gitClean(f)).toBe('')
  })

  it('a mutant whose run dies without a report is not run; the file is restored', async () => {
    const guard = 'import os\n\n\ndef guard(n):\n    if n < 0:\n        os._exit(3)\n    return n\n'
    const f = fixture(
      {
        ...PY_FILES,
        'lib/guard.py': guard,
        'oracle/test_guard.py':
          'from lib.guard import guard\n\n\ndef test_guard():\n    assert guard(0) == 0\n'
      },
      PYTEST
    )
    const before = snapshot(f, 'lib/guard.py')
    const mutants = await mutantsOf(f, 'lib/guard.py', [5])
    const [out] = await run(f, mutants, () => ['oracle/test_guard.py::test_guard'])
    expect(out?.killed_by).toBeNull()
    expect(out?.not_run).toMatch(/^no report/)
    expectRestored(f, before)
  })

  it('a mutant of a module the tests cannot import is not run, never killed, by the collection error', async () => {
    const f = fixture(
      {
        ...PY_FILES,
        'lib/table.py': 'RATES = {"a": 1}\nDEFAULT = RATES["a"]\n',
        'oracle/test_table.py':
          'from lib.table import DEFAULT\n\n\ndef test_default():\n    assert DEFAULT\n'
      },
      PYTEST
    )
    const mutants = await mutantsOf(f, 'lib/table.py', [2])
    expect(mutants.map(m => m.mutation)).toEqual(['`"a"` → `""`'])
    const [out] = await run(f, mutants, () => ['oracle/test_table.py::test_default'])
    expect(out?.killed_by).toBeNull()
    expect(out?.not_run).toMatch(/stopped oracle\/test_table\.py from loading/)
  })

  it('a folder setup made into a link out of the worktree is never written through', async () => {
    const f = fixture(PY_FILES, PYTEST)
    const outside = tempDir('og-mut-outside-')
    writeFileSync(join(outside, 'fee.py'), FEE_PY)
    symlinkSync(outside, join(f.repo.dir, 'lib2'))
    // A plain write at the path would land outside the worktree.
    expect(readFileSync(join(f.repo.dir, 'lib2/fee.py'), 'utf8')).toBe(FEE_PY)
    const [m] = await mutantsOf(f, 'lib/fee.py', [2])
    if (m === undefined) throw new Error('no mutant')
    const [out] = await run(f, [{ ...m, path: 'lib2/fee.py' }], () => [STRONG_PY])
    expect(out).toMatchObject({ killed_by: null, not_run: 'its folder leaves the worktree' })
    expect(readFileSync(join(outside, 'fee.py'), 'utf8')).toBe(FEE_PY)
    expect(executions(f)).toEqual([])
  })

  it('a file that is no longer the text the mutant was made from is left alone', async () => {
    const f = fixture(PY_FILES, PYTEST)
    const [m] = await mutantsOf(f, 'lib/fee.py', [2])
    if (m === undefined) throw new Error('no mutant')
    f.repo.write({ 'lib/fee.py': `# moved down a line\n${FEE_PY}` })
    const before = snapshot(f, 'lib/fee.py')
    const [out] = await run(f, [m], () => [STRONG_PY])
    expect(out?.not_run).toBe('the file is not the text the mutant was made from')
    expectRestored(f, before)
    expect(executions(f)).toEqual([])
  })
})

describe('pytest: the instrument rewritten during a mutant run', () => {
  // The head's code notices it is mutated (its own source changed) and rewrites the weak
  // test to fail, so every later mutant looks killed.
  const ATTACK = `import pathlib

_here = pathlib.Path(__file__)
if (b"amount " + b"> 100") not in _here.read_bytes():
    _t = _here.parent.parent / "oracle" / "test_fee.py"
    _t.write_text(_t.read_text().replace("isinstance(fee(100), int)", "False"))


${FEE_PY}`
  const LINES = [10, 11] // `if amount > 100:` and `return 5`
  // The one-process-per-mutant way (a runner the gate does not know as pytest, selecting
  // through its rerun command): each mutant is written over the file, which the head reads.
  const WRAPPER = `#!/bin/sh\nj="$1"\nshift\nexec ${PY} -m pytest -q -p no:cacheprovider --junitxml="$j" "\${@:-oracle}"\n`
  const perProcess = (files: Record<string, string>): Fixture =>
    fixture(
      { ...files, 'oracle/run.sh': WRAPPER },
      'sh oracle/run.sh {junit}',
      120,
      undefined,
      '  rerun_command: "sh oracle/run.sh {junit} {tests}"\n'
    )

  it('unchecked, the second mutant is killed by a test the first run rewrote', async () => {
    const f = perProcess({ ...PY_FILES, 'lib/fee.py': ATTACK })
    expect(await headRun(f)).toEqual({ [STRONG_PY]: 'passed', [WEAK_PY]: 'passed' })
    const mutants = await mutantsOf(f, 'lib/fee.py', LINES)
    expect(mutants.map(m => m.mutation)).toEqual(['`>` → `>=`', '`5` → `6`'])
    const outcomes = await run(f, mutants, () => [WEAK_PY])
    expect(outcomes.map(o => o.killed_by)).toEqual([null, WEAK_PY])
  })

  it("with the vote's fidelity check, the run that changed it and all after are not run", async () => {
    const f = perProcess({ ...PY_FILES, 'lib/fee.py': ATTACK })
    const like = f.repo.git('rev-parse', 'HEAD').trim()
    const sha = f.repo.git('rev-parse', 'HEAD:oracle/test_fee.py').trim()
    const spec = {
      files: new Map([['oracle/test_fee.py', { mode: '100644', sha }]]),
      sections: new Map(),
      deep: ['oracle'],
      shallow: [],
      watched: (p: string) => (p === 'oracle/test_fee.py' ? ('file' as const) : null),
      like
    }
    const fidelity = () => checkFidelity(spec, f.repo.dir, { side: 'head', moment: 'run' })
    expect(await fidelity()).toEqual([])
    const mutants = await mutantsOf(f, 'lib/fee.py', LINES)
    const outcomes = await runMutants(f.ctx, {
      worktree: f.repo.dir,
      mutants,
      testsFor: () => [WEAK_PY],
      budgetSec: 600,
      log: f.log,
      fidelity
    })
    expect(outcomes.map(o => [o.killed_by, o.not_run])).toEqual([
      [null, 'the instrument changed during a mutant run'],
      [null, 'the instrument changed during a mutant run']
    ])
    // The second mutant never ran.
    expect(executions(f)).toEqual(['type'])
  })

  it('in the one pytest session the file is never written: the head cannot tell it is mutated', async () => {
    const f = fixture({ ...PY_FILES, 'lib/fee.py': ATTACK }, PYTEST)
    const before = snapshot(f, 'lib/fee.py')
    const mutants = await mutantsOf(f, 'lib/fee.py', LINES)
    const outcomes = await run(f, mutants, () => [WEAK_PY])
    // Both survive the weak test, which nothing rewrote.
    expect(outcomes.map(o => [o.killed_by, o.not_run])).toEqual([
      [null, undefined],
      [null, undefined]
    ])
    expect(executions(f)).toEqual(['type', 'type'])
    expect(readFileSync(join(f.repo.dir, 'oracle/test_fee.py'), 'utf8')).toBe(FEE_TESTS_PY)
    expectRestored(f, before)
  })
})

describe('pytest: every mutant in one session (mutant schemata)', () => {
  const TESTS = `import os
import time

from lib.fee import fee
from lib.rate import rate


def seen(name):
    with open(os.environ["RUNLOG"], "a") as f:
        f.write("%s %d\\n" % (name, os.getpid()))


def test_boundary():
    seen("boundary")
    assert fee(100) == 0
    assert fee(101) == 5


def test_type():
    seen("type")
    assert isinstance(fee(100), int)


def test_rate():
    seen("rate")
    assert rate(3) == 6


def test_slow():
    seen("slow")
    # At least 1.5 s (a least duration, not a bound): longer than the budget below.
    start = time.monotonic()
    while time.monotonic() - start < 1.5:
        pass
    assert fee(100) == 0
`
  const FILES = {
    'pytest.ini': '[pytest]\npythonpath = .\n',
    'lib/__init__.py': '',
    'lib/fee.py': FEE_PY,
    'lib/rate.py': 'RATE = 2\n\n\ndef rate(x):\n    return x * RATE\n',
    'oracle/test_fee.py': TESTS
  }
  const id = (name: string): string => `oracle/test_fee.py::${name}`

  it('one process runs every mutant inside a function; one at import gets its own', async () => {
    const f = fixture(FILES, PYTEST)
    const fee = snapshot(f, 'lib/fee.py')
    const mutants = [
      ...(await mutantsOf(f, 'lib/fee.py', [2, 3, 4])),
      ...(await mutantsOf(f, 'lib/rate.py', [1, 5]))
    ]
    expect(mutants.map(m => `${m.path}:${m.line} ${m.mutation}`)).toEqual([
      'lib/fee.py:2 `>` → `>=`',
      'lib/fee.py:3 `5` → `6`',
      'lib/fee.py:4 `0` → `1`',
      'lib/rate.py:1 `2` → `3`',
      'lib/rate.py:5 `*` → `/`'
    ])
    const testsFor = (m: Mutant): string[] =>
      m.path === 'lib/fee.py' ? [id('test_type'), id('test_boundary')] : [id('test_rate')]
    const outcomes = await run(f, mutants, testsFor)
    expect(outcomes.map(o => [o.line, o.killed_by, o.not_run])).toEqual([
      [2, id('test_boundary'), undefined],
      [3, id('test_boundary'), undefined],
      [4, id('test_boundary'), undefined],
      [1, id('test_rate'), undefined],
      [5, id('test_rate'), undefined]
    ])
    const runs = executions(f).map(l => l.split(' '))
    // In order: each fee mutant's weak test, then the strong one; rate's in-function one.
    expect(runs.map(r => r[0])).toEqual([
      'type',
      'boundary',
      'type',
      'boundary',
      'type',
      'boundary',
      'rate',
      'rate'
    ])
    // All in one process but the import-time mutant's run, which had a process of its own.
    const pids = runs.map(r => r[1])
    expect(new Set(pids.slice(0, 7)).size).toBe(1)
    expect(pids[7]).not.toBe(pids[0])
    expectRestored(f, fee)
    expect(gitClean(f)).toBe('')
  })

  it('the budget is checked before each mutant of the session: the rest are not run', async () => {
    const f = fixture(FILES, PYTEST)
    const mutants = await mutantsOf(f, 'lib/fee.py', [2, 3])
    const outcomes = await run(f, mutants, () => [id('test_slow')], 1)
    expect(outcomes.map(o => [o.line, o.killed_by, o.not_run])).toEqual([
      [2, id('test_slow'), undefined],
      [3, null, 'budget']
    ])
    expect(executions(f).map(l => l.split(' ')[0])).toEqual(['slow'])
  })
})

describe('pytest, contained', () => {
  it('the mutants run in the sandbox of the vote: killed and survivor alike', async () => {
    const real = execFileSync(PY, ['-c', 'import sys; print(sys.executable)'], {
      encoding: 'utf8'
    }).trim()
    // The strong test also checks it runs at the sandbox's path, not the worktree's own.
    const tests = FEE_TESTS_PY.replace(/ {4}seen\("(\w+)"\)\n/g, '').replace(
      '    assert fee(100) == 0\n',
      '    assert os.getcwd() != os.environ["WORKTREE"]\n    assert fee(100) == 0\n'
    )
    const f = fixture(
      { ...PY_FILES, 'oracle/test_fee.py': tests },
      SUITE_COMMANDS.pytest(real, 'oracle'),
      120,
      'sandbox: required\n'
    )
    // Uncontained, the strong test sees the worktree's own path and fails.
    expect(await headRun(f)).toEqual({ [STRONG_PY]: 'failed', [WEAK_PY]: 'passed' })
    const spec = { files: new Map(), sections: new Map(), deep: ['oracle'], shallow: [] }
    f.ctx.containment = await containRuns(f.ctx, {
      ...spec,
      watched: () => null,
      like: f.repo.git('rev-parse', 'HEAD').trim()
    })
    expect(f.ctx.containment.report.contained).toBe(true)
    expect(await headRun(f)).toEqual({ [STRONG_PY]: 'passed', [WEAK_PY]: 'passed' })

    const before = snapshot(f, 'lib/fee.py')
    const [m] = await mutantsOf(f, 'lib/fee.py', [2])
    if (m === undefined) throw new Error('no mutant')
    let asked = 0
    const outcomes = await run(f, [m, m], () => (asked++ === 0 ? [STRONG_PY] : [WEAK_PY]))
    expect(outcomes.map(o => [o.killed_by, o.not_run])).toEqual([
      [STRONG_PY, undefined],
      [null, undefined]
    ])
    expectRestored(f, before)
    expect(gitClean(f)).toBe('')
  })
})

// ----------------------------------------------------------------------- node:test

const FEE_JS = `export function fee(amount) {
  if (amount > 100) return 5
  return 0
}
`
const FEE_TESTS_JS = `import { appendFileSync } from 'node:fs'
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fee } from '../lib/fee.mjs'

const seen = t => appendFileSync(process.env.RUNLOG, t + '\\n')

test('boundary', () => {
  seen('boundary')
  assert.equal(fee(100), 0)
  assert.equal(fee(101), 5)
})

test('type', () => {
  seen('type')
  assert.equal(typeof fee(100), 'number')
})
`
const JS_FILES = {
  'package.json': '{"type": "module"}\n',
  'lib/fee.mjs': FEE_JS,
  'oracle/fee.test.mjs': FEE_TESTS_JS
}
const NODE_TEST = SUITE_COMMANDS.nodeTest('oracle/')
const STRONG_JS = 'oracle/fee.test.mjs::boundary'
const WEAK_JS = 'oracle/fee.test.mjs::type'

describe('node:test', () => {
  it('the strong test kills the comparison mutant; the weak one leaves it a survivor', async () => {
    const f = fixture(JS_FILES, NODE_TEST)
    expect(await headRun(f)).toEqual({ [STRONG_JS]: 'passed', [WEAK_JS]: 'passed' })
    const before = snapshot(f, 'lib/fee.mjs')
    const mutants = await mutantsOf(f, 'lib/fee.mjs', [2])
    expect(mutants.map(m => m.mutation)).toEqual(['`>` → `>=`'])
    const [m] = mutants
    if (m === undefined) throw new Error('no mutant')

    // The same mutant twice: first against the strong test, then against the weak one.
    let asked = 0
    const outcomes = await run(f, [m, m], () => (asked++ === 0 ? [STRONG_JS] : [WEAK_JS]))
    expect(outcomes.map(o => [o.killed_by, o.not_run])).toEqual([
      [STRONG_JS, undefined],
      [null, undefined]
    ])
    // The head's run ran both; each mutant's run only its selected test.
    expect(executions(f)).toEqual(['boundary', 'type', 'boundary', 'type'])
    expectRestored(f, before)
    expect(gitClean(f)).toBe('')
  })
})

// ----------------------------------------------------------------------- vitest, TypeScript

describe('vitest (TypeScript source)', () => {
  it('the strong test kills the comparison mutant; the weak one leaves it a survivor', async () => {
    const f = fixture(
      {
        'package.json': '{"type": "module"}\n',
        'lib/fee.ts': `export function fee(amount: number): number {\n  if (amount > 100) return 5\n  return 0\n}\n`,
        'oracle/fee.test.ts': `import { appendFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { fee } from '../lib/fee.js'

const seen = (t: string): void => appendFileSync(process.env.RUNLOG ?? '', t + '\\n')

describe('fee', () => {
  test('boundary', () => {
    seen('boundary')
    expect(fee(100)).toBe(0)
    expect(fee(101)).toBe(5)
  })
  test('type', () => {
    seen('type')
    expect(typeof fee(100)).toBe('number')
  })
})
`
      },
      SUITE_COMMANDS.vitest('oracle')
    )
    linkRunner(f.repo, 'vitest')
    const strong = 'oracle/fee.test.ts::fee > boundary'
    const weak = 'oracle/fee.test.ts::fee > type'
    expect(await headRun(f)).toEqual({ [strong]: 'passed', [weak]: 'passed' })
    const before = snapshot(f, 'lib/fee.ts')
    const mutants = await mutantsOf(f, 'lib/fee.ts', [1, 2])
    expect(mutants.map(m => `${m.line} ${m.mutation}`)).toEqual(['2 `>` → `>=`'])
    const [m] = mutants
    if (m === undefined) throw new Error('no mutant')

    let asked = 0
    const outcomes = await run(f, [m, m], () => (asked++ === 0 ? [strong] : [weak]))
    expect(outcomes.map(o => [o.killed_by, o.not_run])).toEqual([
      [strong, undefined],
      [null, undefined]
    ])
    expect(executions(f)).toEqual(['boundary', 'type', 'boundary', 'type'])
    expectRestored(f, before)
    expect(gitClean(f)).toBe('')
  })
})

// ----------------------------------------------------------------------- jest

describe('jest', () => {
  it('the strong test kills the comparison mutant; the weak one leaves it a survivor', async () => {
    const f = fixture(
      {
        'package.json': '{}\n',
        'lib/fee.js': `function fee(amount) {\n  if (amount > 100) return 5\n  return 0\n}\nmodule.exports = { fee }\n`,
        'oracle/fee.test.js': `const { appendFileSync } = require('node:fs')
const { fee } = require('../lib/fee.js')

const seen = t => appendFileSync(process.env.RUNLOG, t + '\\n')

describe('fee', () => {
  test('boundary', () => {
    seen('boundary')
    expect(fee(100)).toBe(0)
    expect(fee(101)).toBe(5)
  })
  test('type', () => {
    seen('type')
    expect(typeof fee(100)).toBe('number')
  })
})
`
      },
      SUITE_COMMANDS.jest('oracle')
    )
    linkRunner(f.repo, 'jest')
    const strong = 'oracle/fee.test.js::fee > boundary'
    const weak = 'oracle/fee.test.js::fee > type'
    expect(await headRun(f)).toEqual({ [strong]: 'passed', [weak]: 'passed' })
    const before = snapshot(f, 'lib/fee.js')
    const [m] = await mutantsOf(f, 'lib/fee.js', [2])
    if (m === undefined) throw new Error('no mutant')

    let asked = 0
    const outcomes = await run(f, [m, m], () => (asked++ === 0 ? [strong] : [weak]))
    expect(outcomes.map(o => [o.killed_by, o.not_run])).toEqual([
      [strong, undefined],
      [null, undefined]
    ])
    expect(executions(f)).toEqual(['boundary', 'type', 'boundary', 'type'])
    expectRestored(f, before)
    expect(gitClean(f)).toBe('')
  })
})
