// Python diff coverage as the head's runner records it (src/reporters/python/gate_cover.py)
// and as the gate reads it (src/evidence/py-coverage.ts): a real pytest run fed a watch plan
// sends, per test, the watched changed lines it ran, under the classname and name of the
// test's `case` record (so both map to one canonical id); lines run at import go without a
// test; with `cover: false` nothing is traced and no `cover` record is sent. Then the parse:
// only passing voting tests count, records of other files or lines are ignored.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
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

async function runWatched(cover: boolean): Promise<{
  dir: string
  watched: WatchedRun
  cases: { classname: string; name: string; outcome: string }[]
}> {
  const dir = mkdtempSync(join(tmpdir(), 'cover-'))
  dirs.push(dir)
  mkdirSync(join(dir, 'pkg'))
  mkdirSync(join(dir, 'tests'))
  writeFileSync(join(dir, 'pkg', '__init__.py'), '')
  writeFileSync(join(dir, 'pkg', 'fee.py'), FEE)
  writeFileSync(join(dir, 'tests', 'test_fee.py'), TESTS)
  // Runs product code between tests (after each): nobody's lines, never "outside any test".
  writeFileSync(
    join(dir, 'tests', 'conftest.py'),
    'def pytest_runtest_logfinish(nodeid, location):\n    from pkg.fee import fee\n\n    fee(5000)\n'
  )
  writeFileSync(join(dir, 'pytest.ini'), '[pytest]\npythonpath = .\n')
  const feed = encodeWatch(
    // Lines 1 (RATE, run at import), 5-7 (fee), 11 (unused, never run).
    {
      lines: {
        'pkg/fee.py': [
          [1, 1],
          [5, 7],
          [11, 11]
        ]
      },
      instrument: [],
      reach: false,
      cover
    },
    dir
  )
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
  expect(result.exitCode).toBe(1)
  const outcome = plan.outcome()
  if (outcome.state !== 'read') throw new Error('no stream')
  return {
    dir,
    watched: { events: outcome.events, sessions: outcome.watched, dropped: outcome.dropped },
    cases: outcome.cases
  }
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
