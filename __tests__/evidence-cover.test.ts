// Python diff coverage as the head's runner records it (src/reporters/python/gate_cover.py)
// and as the gate reads it (src/evidence/py-coverage.ts): a real pytest run fed a watch plan
// sends, per test, the watched changed lines it ran, under the classname and name of the
// test's `case` record (so both map to one canonical id); lines run at import go without a
// test; with `cover: false` nothing is traced and no `cover` record is sent. Then the parse:
// only passing voting tests count, records of other files or lines are ignored.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { pyCoverage } from '../src/evidence/py-coverage.js'
import { runShell } from '../src/exec/process.js'
import { canonicalId, worktreeIdContext } from '../src/replay/ids.js'
import type { WatchedRun } from '../src/replay/side.js'
import { planStream, reportersDir } from '../src/replay/stream.js'
import { encodeWatch } from '../src/replay/watch.js'
import { pythonWithPytest } from './helpers/python.js'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const FEE = `RATE = 3


def fee(amount):
    if amount > 1000:
        return amount * RATE // 200
    return amount * RATE // 100


def unused(x):
    return x + 1
`

const TESTS = `from pkg.fee import fee


def test_small():
    assert fee(100) == 3


class TestBig:
    def test_big(self):
        assert fee(2000) == 30

    def test_fails(self):
        assert fee(100) == 4
`

interface Watched {
  dir: string
  watched: WatchedRun
  cases: { classname: string; name: string; outcome: string }[]
}

const FEE_FILES: Record<string, string> = {
  'pkg/__init__.py': '',
  'pkg/fee.py': FEE,
  'tests/test_fee.py': TESTS,
  // Runs product code between tests (after each): nobody's lines, never "outside any test".
  'tests/conftest.py':
    'def pytest_runtest_logfinish(nodeid, location):\n    from pkg.fee import fee\n\n    fee(5000)\n',
  'pytest.ini': '[pytest]\npythonpath = .\n'
}

// Lines 1 (RATE, run at import), 5-7 (fee), 11 (unused, never run).
const FEE_LINES: Record<string, [number, number][]> = {
  'pkg/fee.py': [
    [1, 1],
    [5, 7],
    [11, 11]
  ]
}

function writeTree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cover-'))
  dirs.push(dir)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

async function runWatched(
  cover: boolean,
  files = FEE_FILES,
  lines = FEE_LINES,
  exitCode = 1
): Promise<Watched> {
  const dir = writeTree(files)
  const feed = encodeWatch({ lines, instrument: [], reach: false, cover }, dir)
  const plan = planStream(
    `${pythonWithPytest()} -m pytest -q -p no:cacheprovider tests`,
    'pytest',
    {},
    reportersDir(),
    feed
  )
  const result = await runShell({
    command: plan.command,
    cwd: dir,
    env: { PATH: process.env.PATH, ...plan.env },
    timeoutSec: 120,
    logFile: join(dir, 'log'),
    ...plan.shell
  })
  expect(result.exitCode, readFileSync(join(dir, 'log'), 'utf8')).toBe(exitCode)
  const outcome = plan.outcome()
  if (outcome.state !== 'read') throw new Error('no stream')
  return {
    dir,
    watched: { events: outcome.events, sessions: outcome.watched, dropped: outcome.dropped },
    cases: outcome.cases
  }
}

/** The same tree under plain pytest, no gate: what the product sees on its own. */
function plainRun(files: Record<string, string>): { status: number | null; output: string } {
  const dir = writeTree(files)
  const r = spawnSync(
    pythonWithPytest(),
    ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'],
    {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH }
    }
  )
  return { status: r.status, output: `${r.stdout}${r.stderr}` }
}

/** Lines of each `cover` record by test name (the test's function name; '' outside). */
function coverByTest(w: Watched): Map<string, number[]> {
  const out = new Map<string, number[]>()
  for (const e of w.watched.events.filter(x => x.t === 'cover'))
    out.set(typeof e.name === 'string' ? e.name : '', e.lines as number[])
  return out
}

describe('gate_cover.py in a real pytest run', () => {
  it('sends each test the changed lines it ran, under its case names; import lines without a test', async () => {
    const { watched, cases } = await runWatched(true)
    const cover = watched.events.filter(e => e.t === 'cover')
    const byName = new Map(cover.map(e => [`${String(e.classname)}::${String(e.name)}`, e]))
    expect(byName.get('tests.test_fee::test_small')).toMatchObject({
      path: 'pkg/fee.py',
      lines: [5, 7]
    })
    expect(byName.get('tests.test_fee.TestBig::test_big')).toMatchObject({ lines: [5, 6] })
    // The names are the ones the outcome stream gave the same tests.
    for (const e of cover.filter(e => typeof e.name === 'string'))
      expect(cases.some(c => c.classname === e.classname && c.name === e.name)).toBe(true)
    // Only the import's line: what the conftest ran between tests (5, 6) is nobody's.
    const outside = cover.filter(e => e.name === undefined)
    expect(outside).toEqual([expect.objectContaining({ path: 'pkg/fee.py', lines: [1] })])
    // Line 11 never ran: no record holds it.
    expect(cover.some(e => (e.lines as number[]).includes(11))).toBe(false)
  })

  it('with cover off nothing is traced: the session is watched, no cover record is sent', async () => {
    const { watched } = await runWatched(false)
    expect(watched.sessions).toBe(1)
    expect(watched.events.filter(e => e.t === 'cover')).toEqual([])
  })

  it('the gate counts the lines of passing voting tests only, mapped like the cases', async () => {
    const { dir, watched } = await runWatched(true)
    const ids = worktreeIdContext(dir, ['pkg/__init__.py', 'pkg/fee.py', 'tests/test_fee.py'], p =>
      p.startsWith('tests/') ? 'voting' : 'source'
    )
    const idOf = (c: Parameters<typeof canonicalId>[0] & object): string => canonicalId(c, ids).id
    const changed = [{ path: 'pkg/fee.py', lines: [1, 5, 6, 7, 11] }]
    const small = 'tests/test_fee.py::test_small'
    const big = 'tests/test_fee.py::TestBig::test_big'
    const all = pyCoverage({ watched, changed, idOf, passing: new Set([small, big]) })
    expect([...(all.covered.get('pkg/fee.py') ?? [])].sort((a, b) => a - b)).toEqual([1, 5, 6, 7])
    expect(all.byTest?.get('pkg/fee.py')?.get(6)).toEqual([big])
    expect(all.byTest?.get('pkg/fee.py')?.get(5)?.sort()).toEqual([big, small].sort())
    expect(all.problems).toBeUndefined()
    // Without test_big among the passing voting tests, line 6 is not covered.
    const some = pyCoverage({ watched, changed, idOf, passing: new Set([small]) })
    expect([...(some.covered.get('pkg/fee.py') ?? [])].sort((a, b) => a - b)).toEqual([1, 5, 7])
  })
})

// A product that looks at itself: its globals at import, its functions' names, source,
// line numbers and tracebacks, its own tracer and a thread. Every line of it is changed.
const LOOK = `import sys
import threading

NAMES = sorted(globals())


def boom(n):
    if n > 0:
        raise ValueError(n)
    return n


def add(out):
    out.append(1)
`

const LOOK_TESTS = `import inspect
import sys
import threading
import traceback

from pkg import look

PLAIN = ['__builtins__', '__cached__', '__doc__', '__file__', '__loader__', '__name__',
         '__package__', '__spec__', 'sys', 'threading']


def test_globals_and_names():
    assert look.NAMES == PLAIN
    assert sorted(k for k in vars(look) if not k.startswith('__')) == [
        'NAMES', 'add', 'boom', 'sys', 'threading']
    assert look.boom.__code__.co_names == ('ValueError',)
    assert look.boom.__code__.co_varnames == ('n',)
    assert look.boom.__code__.co_firstlineno == 7


def test_source_and_traceback():
    assert inspect.getsource(look.boom).startswith('def boom(n):\\n    if n > 0:')
    try:
        look.boom(1)
    except ValueError as e:
        frame = traceback.extract_tb(e.__traceback__)[-1]
    assert (frame.lineno, frame.line) == (9, 'raise ValueError(n)')


def test_own_tracer_and_thread():
    sys.settrace(lambda *a: None)
    try:
        assert look.boom(0) == 0
    finally:
        sys.settrace(None)
    out = []
    t = threading.Thread(target=look.add, args=(out,))
    t.start()
    t.join()
    assert out == [1]


def test_consts_plain():
    # What the product CAN see: a bytearray among its code objects' constants.
    assert not any(isinstance(c, bytearray) for c in look.boom.__code__.co_consts)
`

const LOOK_FILES: Record<string, string> = {
  'pkg/__init__.py': '',
  'pkg/look.py': LOOK,
  'tests/test_look.py': LOOK_TESTS,
  'pytest.ini': '[pytest]\npythonpath = .\n'
}

describe('the probes, as the product sees them', () => {
  it('plain pytest: every look the product takes at itself passes', () => {
    const r = plainRun(LOOK_FILES)
    expect(r.status, r.output).toBe(0)
  })

  it('probed: globals, names, source, lines, tracebacks as without; only a constant differs', async () => {
    const w = await runWatched(true, LOOK_FILES, { 'pkg/look.py': [[1, 15]] }, 1)
    const outcome = new Map(w.cases.map(c => [c.name, c.outcome]))
    expect(Object.fromEntries(outcome)).toEqual({
      test_globals_and_names: 'passed',
      test_source_and_traceback: 'passed',
      test_own_tracer_and_thread: 'passed',
      // Said precisely in docs/evidence.md: the probe's array is a constant of the code.
      test_consts_plain: 'failed'
    })
    const cover = coverByTest(w)
    // Import: the imports, NAMES, the two defs; boom's body only where a test ran it.
    expect(cover.get('')).toEqual([1, 2, 4, 7, 13])
    expect(cover.get('test_source_and_traceback')).toEqual([8, 9])
    // A tracer of the product's own and a thread of its own lose nothing.
    expect(cover.get('test_own_tracer_and_thread')).toEqual([8, 10, 14])
    expect(cover.get('test_globals_and_names')).toBeUndefined()
  })
})

describe('pyCoverage on hand-made records', () => {
  const changed = [{ path: 'a.py', lines: [3, 4] }]
  const idOf = (c: { classname: string; name: string }): string => `${c.classname}::${c.name}`

  it('ignores other files, lines not asked about, malformed records and failing tests', () => {
    const watched: WatchedRun = {
      sessions: 1,
      dropped: 0,
      events: [
        { t: 'cover', path: 'b.py', lines: [3], classname: 't', name: 'ok' },
        { t: 'cover', path: 'a.py', lines: [9, 'x', -1], classname: 't', name: 'ok' },
        { t: 'cover', path: 'a.py', lines: 'nope', classname: 't', name: 'ok' },
        { t: 'reach', path: 'a.py', lines: [3] },
        { t: 'cover', path: 'a.py', lines: [4], classname: 't', name: 'red' }
      ]
    }
    const cov = pyCoverage({ watched, changed, idOf, passing: new Set(['t::ok']) })
    expect(cov.covered.size).toBe(0)
  })

  it('names the files when the run never read the plan, or records were cut', () => {
    const none = pyCoverage({ watched: undefined, changed, idOf, passing: new Set() })
    expect(none.problems?.[0]).toMatch(/a\.py: the head's runner did not load/)
    const cut = pyCoverage({
      watched: { sessions: 1, dropped: 5, events: [] },
      changed,
      idOf,
      passing: new Set()
    })
    expect(cut.problems?.[0]).toMatch(/5 watch record\(s\) beyond the stream's cap/)
  })
})
