// Figure 1: gate wall time ÷ (base suite + head suite run directly), serial and parallel,
// on a generated repo with a real pytest + hypothesis suite of a few seconds.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import {
  commitAll,
  git,
  initRepo,
  median,
  pythonShims,
  tempDir,
  timeCommand,
  writeFiles
} from './lib.mjs'

const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js')
const SUITE = 'python3 -m pytest oracle/properties -q -p no:cacheprovider --junitxml={junit}'

function properties(n) {
  const tests = Array.from(
    { length: n },
    (_, i) => `
@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(st.integers(min_value=-1000, max_value=1000), max_size=30))
def test_sum_property_${i}(xs):
    assert total(xs) == sum(xs)
`
  )
  return `import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
from hypothesis import given, settings, strategies as st
from calc import total
${tests.join('')}`
}

function policy(parallel) {
  return `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/properties/**]
suite:
  command: ${SUITE}
  timeout: 300
  reruns: 0
  parallel: ${parallel}
`
}

export async function overhead() {
  const shims = pythonShims()
  const env = { ...process.env, PATH: `${shims}:${process.env.PATH}` }
  const dir = tempDir('og-bench-overhead-')
  try {
    initRepo(dir)
    writeFiles(dir, {
      'src/calc.py': 'def total(xs):\n    return sum(xs)\n',
      'oracle/properties/test_calc.py': properties(8),
      '.github/oracle-gate.yml': policy(false)
    })
    commitAll(dir, 'base (serial policy)')
    git(dir, 'branch', 'base-parallel')
    git(dir, 'checkout', '-q', '-b', 'head-serial')
    writeFiles(dir, {
      'src/calc.py':
        'def total(xs):\n    result = 0\n    for x in xs:\n        result += x\n    return result\n'
    })
    commitAll(dir, 'head')
    git(dir, 'checkout', '-q', 'base-parallel')
    writeFiles(dir, { '.github/oracle-gate.yml': policy(true) })
    commitAll(dir, 'base (parallel policy)')
    git(dir, 'checkout', '-q', '-b', 'head-parallel')
    writeFiles(dir, {
      'src/calc.py':
        'def total(xs):\n    result = 0\n    for x in xs:\n        result += x\n    return result\n'
    })
    commitAll(dir, 'head')

    const direct = [],
      serial = [],
      parallel = []
    const junit = join(dir, '..', `${dir.split('/').pop()}-junit.xml`)
    const suite = SUITE.replace('{junit}', junit)
    // Five rounds, medians: the machine is shared and a single round can be off by 30 %.
    for (let i = 0; i < 5; i++) {
      git(dir, 'checkout', '-q', 'main')
      const a = timeCommand('bash', ['-c', suite], { cwd: dir, env })
      git(dir, 'checkout', '-q', 'head-serial')
      const b = timeCommand('bash', ['-c', suite], { cwd: dir, env })
      if (a.status !== 0 || b.status !== 0)
        throw new Error(`direct suite failed: ${a.stdout}${b.stdout}`)
      direct.push(a.seconds + b.seconds)
      const s = timeCommand(
        process.execPath,
        [CLI, 'check', '--base', 'main', '--head', 'head-serial', '--quiet'],
        { cwd: dir, env }
      )
      if (s.status !== 0) throw new Error(`gate (serial) exit ${s.status}: ${s.stderr.slice(-800)}`)
      serial.push(s.seconds)
      const p = timeCommand(
        process.execPath,
        [CLI, 'check', '--base', 'base-parallel', '--head', 'head-parallel', '--quiet'],
        { cwd: dir, env }
      )
      if (p.status !== 0)
        throw new Error(`gate (parallel) exit ${p.status}: ${p.stderr.slice(-800)}`)
      parallel.push(p.seconds)
    }
    rmSync(junit, { force: true })
    const d = median(direct)
    return [
      { measure: 'base+head suite run directly (s)', value: d, digits: 2, goal: '' },
      {
        measure: 'gate serial ÷ direct',
        value: median(serial) / d,
        goal: '≤ 1.15',
        ok: median(serial) / d <= 1.15
      },
      {
        measure: 'gate parallel ÷ direct',
        value: median(parallel) / d,
        goal: '≤ 0.65',
        ok: median(parallel) / d <= 0.65
      }
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
    rmSync(shims, { recursive: true, force: true })
  }
}
