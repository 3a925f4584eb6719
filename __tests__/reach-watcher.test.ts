// The run-time reach watcher (src/reporters/python/gate_reach.py) in a real pytest run, fed
// a plan as the gate feeds it: the product finds no trace of it by name (no module, path,
// variable or file), it reports only what the plan's lines did (the same code on a line
// outside the plan, or with reach off, sends nothing; a child waited for is ordinary, one
// still running when the session ends outlives it), and a second pytest session of the
// same command, finding the plan already read, starts unwatched.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runShell } from '../src/exec/process.js'
import { planStream, reportersDir } from '../src/replay/stream.js'
import { encodeWatch, type WatchPlan } from '../src/replay/watch.js'
import { pythonWithPytest } from './helpers/python.js'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const python = pythonWithPytest()

// Line 5 reads a runner key through a built name; test_outside does the same, off the plan.
const PRODUCT = `import os


def probe():
    os.environ.get("PYTEST_" + "CURRENT_TEST")
    return 1


def children():
    import subprocess, sys
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
`

const TEST = `import json, os, sys
from pkg.mod import probe


def test_probe():
    assert probe() == 1
    found = {
        "modules": sorted(m for m in sys.modules if "gate" in m or "pytest_outcomes" in m),
        "path": [p for p in sys.path if "reporters" in p],
        "env": sorted(k for k in os.environ if "OUTCOME" in k or "GATE" in k),
        "files": sorted(f for f in os.listdir(".") if not f.startswith(".")),
    }
    with open(os.environ["PROBE_OUT"], "w") as out:
        json.dump(found, out)


def test_children():
    from pkg.mod import children
    child = children()
    import atexit
    atexit.register(child.kill)


def test_outside():
    os.environ.get("PYTEST_" + "CURRENT_TEST")
`

interface Seen {
  events: Record<string, unknown>[]
  watched: number
  started: number
  found: { modules: string[]; path: string[]; env: string[]; files: string[] }
}

async function run(plan: WatchPlan | null, twice = false): Promise<Seen> {
  const dir = mkdtempSync(join(tmpdir(), 'reach-watcher-'))
  dirs.push(dir)
  const repo = join(dir, 'repo')
  mkdirSync(join(repo, 'pkg'), { recursive: true })
  writeFileSync(join(repo, 'pkg', '__init__.py'), '')
  writeFileSync(join(repo, 'pkg', 'mod.py'), PRODUCT)
  writeFileSync(join(repo, 'test_probe.py'), TEST)
  writeFileSync(join(repo, 'pytest.ini'), '[pytest]\npythonpath = .\n')
  const line = `${python} -m pytest -q -p no:cacheprovider`
  const stream = planStream(
    twice ? `${line} && ${line}` : line,
    'pytest',
    {},
    reportersDir(),
    plan ? encodeWatch(plan, repo) : undefined
  )
  const result = await runShell({
    command: stream.command,
    cwd: repo,
    env: { PATH: process.env.PATH, ...stream.env, PROBE_OUT: join(dir, 'found.json') },
    timeoutSec: 120,
    logFile: join(dir, 'log'),
    ...stream.shell
  })
  expect(result.exitCode, readFileSync(join(dir, 'log'), 'utf8')).toBe(0)
  const outcome = stream.outcome()
  if (outcome.state !== 'read') throw new Error('no stream')
  return {
    events: outcome.events,
    watched: outcome.watched,
    started: outcome.started,
    found: JSON.parse(readFileSync(join(dir, 'found.json'), 'utf8'))
  }
}

const plan = (reach: boolean): WatchPlan => ({
  lines: {
    'pkg/mod.py': [
      [5, 6],
      [10, 13]
    ]
  },
  instrument: ['test_probe.py'],
  reach,
  cover: false
})

describe('the run-time reach watcher in a real pytest run', () => {
  it('reports the plan’s line, not the same read elsewhere, and leaves no trace by name', async () => {
    const seen = await run(plan(true))
    expect(seen.watched).toBe(1)
    expect(seen.events).toEqual([
      {
        t: 'reach',
        k: expect.any(String),
        category: 'markers',
        what: 'environment read of PYTEST_CURRENT_TEST, which the runner set',
        path: 'pkg/mod.py',
        line: 5
      },
      // The child waited for (line 11) is ordinary; the one still running at the end is not.
      {
        t: 'reach',
        k: expect.any(String),
        category: 'process',
        what: 'a child process still running when the session ended',
        path: 'pkg/mod.py',
        line: 12
      }
    ])
    expect(seen.found).toEqual({
      modules: [],
      path: [],
      env: [],
      files: ['pkg', 'pytest.ini', 'test_probe.py']
    })
  })

  it('with reach off nothing is reported', async () => {
    expect((await run(plan(false))).events).toEqual([])
  })

  it('a second session of the same command finds the plan read and starts unwatched', async () => {
    const seen = await run(plan(true), true)
    expect(seen).toMatchObject({ started: 2, watched: 1 })
  })
})
