// Figure: the cost of run-time oracle-reach (issue 26, src/reporters/python/gate_reach.py)
// on a generated repo with a real pytest + hypothesis suite: the suite run with the gate's
// reporter streaming outcomes and no watch plan, against the same run with the plan fed and
// every line of the product watched (the worst case: every product frame is the patch's).
import { spawn } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { buildEntries } from './build.mjs'
import { median, pythonShims, tempDir, writeFiles } from './lib.mjs'

const ROOT = join(import.meta.dirname, '..')
const REPORTERS = [
  join(ROOT, 'dist', 'reporters', 'python'),
  join(ROOT, 'src', 'reporters', 'python')
]

export function properties(n) {
  const tests = Array.from(
    { length: n },
    (_, i) => `
@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.integers(min_value=-1000, max_value=1000), max_size=30))
def test_sum_property_${i}(xs):
    assert total(xs) == sum(xs)
`
  )
  const plain = Array.from(
    { length: 300 },
    (_, i) => `
def test_scaled_${i}():
    assert scaled(${i}) == ${i} * FACTOR
`
  )
  return `from hypothesis import given, settings, strategies as st
from calc import FACTOR, scaled, total
${tests.join('')}${plain.join('')}`
}

export const PRODUCT = `import json
import logging
import os
import pathlib

log = logging.getLogger(__name__)
FACTOR = json.loads((pathlib.Path(__file__).parent / "table.json").read_text())["factor"]
DEBUG = os.environ.get("CALC_DEBUG") == "1"


def total(xs):
    result = 0
    for x in xs:
        result += x
    return result


def scaled(n):
    log.debug("scaled %s", n)
    return n * FACTOR
`

// pytest in process, so the run's own CPU time (user + system) can be read at its end: on a
// shared machine the wall time of one run swings by a third.
const MAIN =
  "import resource, sys, pytest; code = pytest.main(sys.argv[1:]); u = resource.getrusage(resource.RUSAGE_SELF); sys.stderr.write('CPU %f\\n' % (u.ru_utime + u.ru_stime)); sys.exit(code)"

/**
 * One pytest run with the reporter; `plan` fed at descriptor 4 when given. CPU seconds, and
 * the instructions counted when `wrapper` runs it under valgrind's callgrind.
 */
export function run(python, dir, reporters, plan, wrapper = []) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const env = {
      ...process.env,
      PYTEST_PLUGINS: 'pytest_outcomes',
      PYTHONPATH: reporters,
      TEST_OUTCOME_STREAM: plan ? '3:bench:4' : '3:bench'
    }
    const argv = [python, '-c', MAIN, 'tests', '-q', '-p', 'no:cacheprovider']
    const [command, ...args] = [...wrapper, ...argv]
    const child = spawn(command, args, {
      cwd: dir,
      env,
      stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe']
    })
    let stream = ''
    let errors = ''
    child.stdio[2].on('data', chunk => (errors += chunk))
    child.stdio[3].on('data', chunk => (stream += chunk))
    child.stdio[4].end(plan ?? '')
    child.on('error', reject)
    child.on('close', code => {
      if (code !== 0) reject(new Error(`pytest exited ${code}`))
      else if (plan && !stream.includes('"watch": true')) reject(new Error('plan not read'))
      else {
        const cpu = /CPU ([\d.]+)/.exec(errors)
        if (!cpu) reject(new Error(`no CPU figure: ${errors.slice(-400)}`))
        else {
          // The run's own count: a child it forks prints its own (its share up to then).
          const own = new RegExp(`==${child.pid}== Collected : ([\\d,]+)`)
          const counted = own.exec(errors)?.[1]?.replace(/,/g, '')
          const wall = (performance.now() - started) / 1000
          resolve({ cpu: Number(cpu[1]), wall, stream, instructions: Number(counted ?? NaN) })
        }
      }
    })
  })
}

/**
 * The bench's suite in a temp folder, the reporters' folder that holds `watcher`, and the
 * plan that watches every product line (`extra`: further plan keys, the recorder's `diff`).
 */
export function reachProject(watcher = 'gate_reach.py', prefix = 'og-bench-reach-') {
  const reporters = REPORTERS.find(d => existsSync(join(d, watcher)))
  if (!reporters) throw new Error(`${watcher} not found`)
  const dir = tempDir(prefix)
  writeFiles(dir, {
    'pytest.ini': '[pytest]\npythonpath = .\n',
    'calc/__init__.py': 'from calc.core import FACTOR, scaled, total\n',
    'calc/core.py': PRODUCT,
    'calc/table.json': '{"factor": 3}\n',
    'tests/test_calc.py': properties(8)
  })
  const lines = PRODUCT.split('\n').length
  const plan = (extra = {}) =>
    `${JSON.stringify({
      v: 1,
      root: dir,
      lines: { 'calc/core.py': [[1, lines]], 'calc/__init__.py': [[1, 1]] },
      instrument: ['tests'],
      reach: true,
      cover: false,
      ...extra
    })}\n`
  return { reporters, dir, plan, python: join(pythonShims(), 'python3') }
}

export async function reachCost() {
  const project = reachProject()
  const { reporters, dir, python } = project
  const plan = project.plan()
  try {
    const off = [],
      on = []
    // Five rounds, alternating, medians: the machine is shared.
    for (let i = 0; i < 5; i++) {
      off.push(await run(python, dir, reporters))
      on.push(await run(python, dir, reporters, plan))
    }
    const cpu = runs => median(runs.map(r => r.cpu))
    const wall = runs => median(runs.map(r => r.wall))
    const ratio = cpu(on) / cpu(off)
    return [
      { measure: 'suite, reporter only: CPU (s)', value: cpu(off), digits: 2, goal: '' },
      { measure: 'suite, reporter only: wall (s)', value: wall(off), digits: 2, goal: '' },
      { measure: 'watched ÷ not watched, wall', value: wall(on) / wall(off), goal: '' },
      {
        measure: 'watched (run-time oracle-reach) ÷ not watched, CPU',
        value: ratio,
        goal: '≤ 1.10',
        ok: ratio <= 1.1
      }
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The same two runs counted in instructions (valgrind's callgrind, about three minutes a
 * run): the same count for the same code and inputs whatever else the machine does, where
 * the CPU figure above swings by a fifth between runs minutes apart. The suite is
 * derandomized; each run starts without a Hypothesis database.
 */
export async function reachInstructions() {
  const { findProgram } = await import(await buildEntries())
  const valgrind = findProgram(process.env.PATH, 'valgrind')
  if (valgrind === null)
    return [
      { measure: 'not measured: valgrind is not installed (Debian: valgrind)', value: '', goal: '' }
    ]
  const project = reachProject()
  const { reporters, dir, python } = project
  const plan = project.plan()
  const wrapper = [valgrind, '--tool=callgrind', '--callgrind-out-file=/dev/null']
  const counted = async watch => {
    rmSync(join(dir, '.hypothesis'), { recursive: true, force: true })
    const r = await run(python, dir, reporters, watch, wrapper)
    if (!Number.isFinite(r.instructions)) throw new Error('bench: callgrind printed no count')
    return r.instructions
  }
  try {
    const off = await counted(undefined)
    const on = await counted(plan)
    const ratio = on / off
    return [
      { measure: 'suite, reporter only: instructions (G)', value: off / 1e9, goal: '' },
      { measure: 'suite, watched: instructions (G)', value: on / 1e9, goal: '' },
      {
        measure: 'watched (run-time oracle-reach) ÷ not watched, instructions',
        value: ratio,
        goal: '≤ 1.10',
        ok: ratio <= 1.1
      }
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
