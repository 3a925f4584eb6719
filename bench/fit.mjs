// Issue 25, cost of fitting a repository as it is: the gate's wall time ÷ a plain run of
// the suite on the base and the head (what a developer does: one install, the suite at the
// base, the suite at the head), on two generated shapes that need a real setup:
// (a) vitest: this project's own package.json and package-lock.json (~450 packages),
//     installed by `npm ci --offline` from the npm cache CI's own install fills;
// (b) pytest + hypothesis: a venv (`python -m venv --system-site-packages .venv`) as setup.
// Each shape is judged twice: suite.share_setup on (the default: setup once per dependency
// fingerprint) and off (setup per worktree), so the saving shows. reruns: 0 on both, the
// sandbox as the default policy has it (auto). Medians of ROUNDS, interleaved.
import { spawnSync } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { commitAll, git, initRepo, median, tempDir, timeCommand, writeFiles } from './lib.mjs'

const ROUNDS = Number(process.env.OG_BENCH_FIT_ROUNDS ?? 3)
const root = join(import.meta.dirname, '..')

function python() {
  for (const py of [process.env.ORACLE_GATE_TEST_PYTHON, 'python3'].filter(Boolean)) {
    if (spawnSync(py, ['-c', 'import pytest, hypothesis'], { stdio: 'ignore' }).status === 0)
      return py
  }
  throw new Error('bench fit: no python with pytest and hypothesis')
}

const policy = (suite, setup, share) => `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/properties/**]
  production: [src/**]
suite:
  command: ${suite}
  timeout: 900
  reruns: 0
  setup: ${JSON.stringify(setup)}
  setup_timeout: 900
  share_setup: ${share}
`

/** A repository with the base (buggy) on main, the fix on head, both policies committed. */
function repo(name, files, fix, suite, setup) {
  const dir = tempDir(`og-bench-fit-${name}-`)
  initRepo(dir)
  writeFiles(dir, {
    ...files,
    '.github/oracle-gate.yml': policy(suite, setup, true),
    '.github/og-no-share.yml': policy(suite, setup, false)
  })
  commitAll(dir, 'base')
  git(dir, 'checkout', '-q', '-b', 'head')
  writeFiles(dir, fix)
  commitAll(dir, 'head: the fix')
  git(dir, 'checkout', '-q', 'main')
  return { name, dir, suite, setup }
}

function vitestShape() {
  const add = f => `export function add(a: number, b: number): number {\n  return ${f}\n}\n`
  const tests = Array.from(
    { length: 20 },
    (_, i) => `test('adds ${i}', () => expect(add(${i}, 2)).toBe(${i + 2}))`
  )
  return repo(
    'vitest',
    {
      '.gitignore': 'node_modules/\n',
      // The manifest and lockfile of this very project: a real dependency tree.
      'package.json': readFileSync(join(root, 'package.json'), 'utf8'),
      'package-lock.json': readFileSync(join(root, 'package-lock.json'), 'utf8'),
      'src/add.ts': add('a - b'),
      'oracle/properties/add.test.ts': [
        "import { expect, test } from 'vitest'",
        "import { add } from '../../src/add'",
        ...tests,
        ''
      ].join('\n')
    },
    { 'src/add.ts': add('a + b') },
    'node node_modules/vitest/vitest.mjs run oracle/properties --reporter=junit --outputFile.junit={junit}',
    'npm ci --offline --no-audit --no-fund --ignore-scripts'
  )
  return p
}

function pytestShape() {
  const py = python()
  const total = body => `def total(xs):\n${body}`
  const tests = Array.from(
    { length: 10 },
    (_, i) =>
      `@settings(max_examples=200, deadline=None, derandomize=True)\n@given(st.lists(st.integers()))\ndef test_total_${i}(xs):\n    assert total(xs) == sum(xs)\n`
  )
  return repo(
    'pytest',
    {
      '.gitignore': '.venv/\n',
      'pytest.ini': '[pytest]\npythonpath = .\n',
      'src/__init__.py': '',
      'src/calc.py': total('    return sum(x for x in xs if x >= 0)\n'),
      'oracle/properties/test_calc.py': `from hypothesis import given, settings, strategies as st\nfrom src.calc import total\n\n\n${tests.join('\n\n')}`
    },
    { 'src/calc.py': total('    return sum(xs)\n') },
    '.venv/bin/python -m pytest oracle/properties -q -p no:cacheprovider --junitxml={junit}',
    `${py} -m venv --system-site-packages .venv`
  )
}

/** A developer's plain run: one setup, the suite at the base, the suite at the head. */
function plain(p) {
  git(p.dir, 'checkout', '-q', 'main')
  git(p.dir, 'clean', '-qfdx')
  const env = { ...process.env, PYTHONSAFEPATH: '1' }
  const run = (what, cmd) => {
    const r = timeCommand('bash', ['-c', cmd.replace('{junit}', `${p.dir}-junit.xml`)], {
      cwd: p.dir,
      env
    })
    if (what === 'setup' && r.status !== 0)
      throw new Error(`bench fit: ${p.name} setup failed: ${r.stderr.slice(-400)}`)
    return r.seconds
  }
  const setup = run('setup', p.setup)
  const base = run('base', p.suite)
  git(p.dir, 'checkout', '-q', 'head')
  const head = run('head', p.suite)
  git(p.dir, 'checkout', '-q', 'main')
  git(p.dir, 'clean', '-qfdx')
  rmSync(`${p.dir}-junit.xml`, { force: true })
  return { setup, suites: base + head, total: setup + base + head }
}

function gate(p, policyPath) {
  const cli = join(root, 'dist', 'cli.js')
  git(p.dir, 'checkout', '-q', 'main')
  git(p.dir, 'clean', '-qfdx')
  const args = [cli, 'check', '--base', 'main', '--head', 'head', '--policy', policyPath]
  const r = timeCommand(process.execPath, [...args, '--quiet'], { cwd: p.dir, env: process.env })
  if (r.status !== 0)
    throw new Error(`bench fit: ${p.name} gate exit ${r.status}: ${r.stderr.slice(-800)}`)
  return r.seconds
}

function measure(p) {
  const plains = [],
    shared = [],
    unshared = []
  for (let i = 0; i < ROUNDS; i++) {
    plains.push(plain(p))
    shared.push(gate(p, '.github/oracle-gate.yml'))
    unshared.push(gate(p, '.github/og-no-share.yml'))
  }
  const m = {
    setup: median(plains.map(x => x.setup)),
    suites: median(plains.map(x => x.suites)),
    plain: median(plains.map(x => x.total)),
    shared: median(shared),
    unshared: median(unshared)
  }
  const n = p.name
  return [
    { measure: `${n}: one setup (s)`, value: m.setup, digits: 2, goal: '' },
    {
      measure: `${n}: plain run, setup + base suite + head suite (s)`,
      value: m.plain,
      digits: 2,
      goal: ''
    },
    { measure: `${n}: gate, setup once per fingerprint (s)`, value: m.shared, digits: 2, goal: '' },
    { measure: `${n}: gate, setup per worktree (s)`, value: m.unshared, digits: 2, goal: '' },
    { measure: `${n}: gate ÷ plain run (shared setup)`, value: m.shared / m.plain, goal: '' },
    {
      measure: `${n}: gate ÷ plain run (setup per worktree)`,
      value: m.unshared / m.plain,
      goal: ''
    },
    { measure: `${n}: saved by sharing (s)`, value: m.unshared - m.shared, digits: 2, goal: '' }
  ]
}

export async function fit() {
  const out = []
  for (const make of [pytestShape, vitestShape]) {
    const p = make()
    try {
      out.push(...measure(p))
    } finally {
      rmSync(p.dir, { recursive: true, force: true })
    }
  }
  return out
}
