// Issue 16, primed base: on a generated pytest + hypothesis suite (a few seconds per run;
// OG_BENCH_PRIMED_PROPS scales it), the gate judging a PR with a primed base result ÷ one
// plain head run of the suite (goal ≤ 1.15), beside the gate without one ÷ base + head run
// directly (for reference). The prime itself runs on the default branch, not timed here.
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
const ROUNDS = 3

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

const POLICY = `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/properties/**]
suite:
  command: ${SUITE}
  timeout: 300
  reruns: 0
`

export async function primed() {
  const shims = pythonShims()
  const env = { ...process.env, PATH: `${shims}:${process.env.PATH}` }
  const dir = tempDir('og-bench-primed-')
  const out = `${dir}-primed.json`
  const junit = `${dir}-junit.xml`
  try {
    initRepo(dir)
    writeFiles(dir, {
      'src/calc.py': 'def total(xs):\n    return sum(xs)\n',
      'oracle/properties/test_calc.py': properties(Number(process.env.OG_BENCH_PRIMED_PROPS ?? 12)),
      '.github/oracle-gate.yml': POLICY
    })
    commitAll(dir, 'base')
    git(dir, 'checkout', '-q', '-b', 'head')
    writeFiles(dir, {
      'src/calc.py':
        'def total(xs):\n    result = 0\n    for x in xs:\n        result += x\n    return result\n'
    })
    commitAll(dir, 'head')
    const p = timeCommand(
      process.execPath,
      [CLI, 'prime', '--out', out, '--commit', 'main', '-q'],
      {
        cwd: dir,
        env
      }
    )
    if (p.status !== 0) throw new Error(`prime exit ${p.status}: ${p.stderr.slice(-800)}`)
    const suite = SUITE.replace('{junit}', junit)
    const headRun = [],
      direct = [],
      plain = [],
      reused = []
    for (let i = 0; i < ROUNDS; i++) {
      git(dir, 'checkout', '-q', 'main')
      const a = timeCommand('bash', ['-c', suite], { cwd: dir, env })
      git(dir, 'checkout', '-q', 'head')
      const b = timeCommand('bash', ['-c', suite], { cwd: dir, env })
      if (a.status !== 0 || b.status !== 0) throw new Error('direct suite failed')
      headRun.push(b.seconds)
      direct.push(a.seconds + b.seconds)
      const args = [CLI, 'check', '--base', 'main', '--head', 'head', '--quiet']
      const g = timeCommand(process.execPath, args, { cwd: dir, env })
      if (g.status !== 0) throw new Error(`gate exit ${g.status}: ${g.stderr.slice(-800)}`)
      plain.push(g.seconds)
      const r = timeCommand(process.execPath, [...args, '--base-results', out], { cwd: dir, env })
      if (r.status !== 0) throw new Error(`gate (primed) exit ${r.status}: ${r.stderr.slice(-800)}`)
      if (!/primed result of/.test(r.stdout)) throw new Error('the primed base was not used')
      reused.push(r.seconds)
    }
    const h = median(headRun)
    const d = median(direct)
    const ratio = median(reused) / h
    return [
      { measure: 'primed: one plain head run (s)', value: h, digits: 2, goal: '' },
      {
        measure: 'primed: gate with primed base ÷ head run',
        value: ratio,
        goal: '≤ 1.15',
        ok: ratio <= 1.15
      },
      { measure: 'primed: gate without ÷ base+head direct', value: median(plain) / d, goal: '' },
      {
        measure: 'primed: gate with ÷ gate without',
        value: median(reused) / median(plain),
        goal: ''
      }
    ]
  } finally {
    for (const p of [dir, out, junit]) rmSync(p, { recursive: true, force: true })
    rmSync(shims, { recursive: true, force: true })
  }
}
