// Small helpers shared by the benchmark figures: repos in a temp dir, timing, a Python
// with pytest, medians. Nothing here runs at import.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { scenarios } from '../demo/scenarios.mjs'

export const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'bench',
  GIT_AUTHOR_EMAIL: 'bench@example.invalid',
  GIT_COMMITTER_NAME: 'bench',
  GIT_COMMITTER_EMAIL: 'bench@example.invalid',
  GIT_CONFIG_NOSYSTEM: '1'
}

export function tempDir(prefix) {
  return mkdtempSync(join(tmpdir(), prefix))
}

export function git(dir, ...args) {
  return execFileSync('git', args, { cwd: dir, env: GIT_ENV, encoding: 'utf8', maxBuffer: 1 << 30 })
}

export function writeFiles(dir, files) {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
}

export function initRepo(dir) {
  git(dir, 'init', '-q', '-b', 'main')
  git(dir, 'config', 'commit.gpgsign', 'false')
  // No automatic gc in the background of a measurement (git starts one after big commits).
  git(dir, 'config', 'gc.auto', '0')
}

/** Packs the objects, as in a clone: a runner's checkout never holds 40,000 loose objects. */
export function pack(dir) {
  git(dir, 'gc', '-q')
}

export function commitAll(dir, message) {
  git(dir, 'add', '-A')
  git(dir, 'commit', '-q', '--allow-empty', '-m', message)
}

/** Seconds a command takes (wall clock), with its exit status. */
export function timeCommand(cmd, args, options = {}) {
  const started = process.hrtime.bigint()
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 30, ...options })
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  return { seconds, status: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** Seconds until the child has written `lines` complete lines (stdout and stderr together). */
export function timeToOutputLines(cmd, args, options = {}, lines = 1) {
  return new Promise(resolve => {
    const started = process.hrtime.bigint()
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options })
    let seen = 0
    let done = false
    const finish = () => {
      if (done) return
      done = true
      resolve(Number(process.hrtime.bigint() - started) / 1e9)
    }
    const count = data => {
      for (const byte of data) if (byte === 10 && ++seen >= lines) return finish()
    }
    child.stdout.on('data', count)
    child.stderr.on('data', count)
    child.on('close', finish)
  })
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** A directory with python/python3 pointing at an interpreter that has pytest+hypothesis. */
export function pythonShims() {
  for (const candidate of [
    process.env.ORACLE_GATE_TEST_PYTHON,
    'python3',
    '/usr/bin/python3'
  ].filter(Boolean)) {
    const r = spawnSync(
      candidate,
      ['-c', 'import pytest, hypothesis, sys; print(sys.executable)'],
      { encoding: 'utf8' }
    )
    if (r.status === 0) {
      const dir = tempDir('og-bench-bin-')
      symlinkSync(r.stdout.trim(), join(dir, 'python3'))
      symlinkSync(r.stdout.trim(), join(dir, 'python'))
      return dir
    }
  }
  throw new Error('bench: needs python3 with pytest and hypothesis')
}

// ——— Projects for the cost figures (issue 16): a repo with a base and a head branch, its
// suite commands, and what the minimal sound work of judging it is, run directly. ———

const PYTEST = 'python3 -m pytest oracle/properties -q -p no:cacheprovider --junitxml={junit}'

/** A property test module of `n` passing properties and `failing` ones the base fails. */
function oracleFirstTests(n, failing) {
  const passing = Array.from(
    { length: n },
    (_, i) => `
@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(st.integers(min_value=0, max_value=1000), max_size=30))
def test_sum_property_${i}(xs):
    assert total(xs) == sum(xs)
`
  )
  const failingTests = Array.from(
    { length: failing },
    (_, i) => `
@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(st.integers(min_value=-1000, max_value=1000), max_size=30))
def test_negatives_count_${i}(xs):
    assert total(xs) == sum(xs)
`
  )
  return `import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
from hypothesis import given, settings, strategies as st
from calc import total
${passing.join('')}${failingTests.join('')}`
}

const SEEDS_REPLAY = `import json, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
from calc import total
for line in sys.stdin:
    seed = json.loads(line)
    xs = seed["payload"]
    print(json.dumps({"id": seed["id"], "ok": total(xs) == sum(xs)}), flush=True)
`

function seedCorpus(count) {
  const seeds = Array.from({ length: count }, (_, i) => ({
    id: `s${i}`,
    payload: Array.from(
      { length: 8 + (i % 7) },
      (_, j) => ((i * 37 + j * 11) % 200) - (i % 2 ? 100 : 0)
    )
  }))
  return { property: 'total', seeds }
}

function costPolicy(suiteExtra, withSeeds) {
  return `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/properties/**]
suite:
  command: ${PYTEST}
  timeout: 900
  reruns: 2
${suiteExtra}${withSeeds ? 'seeds:\n  corpus: oracle/seeds/corpus.json\n  command: python3 oracle/seeds/replay.py\n  min_distance: 0\n' : ''}`
}

/**
 * The policy files of a project: serial, suite.jobs: 2, suite.parallel: true, each with the
 * evidence stage off, and serial with it in report mode (the default): evidence's cost is
 * measured apart from the gate's fixed cost.
 */
const VARIANTS = {
  serial: ['.github/oracle-gate.yml', ''],
  jobs: ['.github/og-jobs2.yml', '  jobs: 2\n'],
  parallel: ['.github/og-parallel.yml', '  parallel: true\n'],
  evidence: ['.github/og-evidence.yml', '']
}
const EVIDENCE = mode => `\nevidence:\n  mode: ${mode}\n`

/** A variant's policy text from the serial one. */
function variantText(name, text) {
  return `${text.trimEnd()}\n${EVIDENCE(name === 'evidence' ? 'report' : 'off')}`
}

/**
 * Env for direct runs: what the gate's children get (PYTHONSAFEPATH). No ORACLE_GATE_*: the
 * bench policies leave suite.expose_env off, so the gate's runs do not get them either (the
 * demo's properties then draw their default 50 examples, not the campaign's 40; with them
 * here the direct runs did less work than the gate's and the fixed cost came out larger).
 */
function directEnv(shims) {
  const env = { ...process.env, PATH: `${shims}:${process.env.PATH}`, PYTHONSAFEPATH: '1' }
  for (const name of Object.keys(env)) if (name.startsWith('ORACLE_GATE_')) delete env[name]
  return env
}

/**
 * A generated pytest + hypothesis project, oracle-first: `failing` properties fail on the
 * base (negatives are dropped) and pass on the head, `props` pass on both; with `seeds`, a
 * corpus of that many seeds, half of them hits.
 */
export function oracleFirstProject({ props, failing = 2, seeds = 0 }) {
  const shims = pythonShims()
  const dir = tempDir('og-bench-cost-')
  initRepo(dir)
  const files = {
    'src/calc.py': 'def total(xs):\n    return sum(x for x in xs if x >= 0)\n',
    'oracle/properties/test_calc.py': oracleFirstTests(props, failing)
  }
  if (seeds > 0) {
    files['oracle/seeds/replay.py'] = SEEDS_REPLAY
    files['oracle/seeds/corpus.json'] = JSON.stringify(seedCorpus(seeds))
  }
  for (const [name, [path, extra]] of Object.entries(VARIANTS))
    files[path] = variantText(name, costPolicy(extra, seeds > 0))
  writeFiles(dir, files)
  commitAll(dir, 'base: total drops negatives; locked properties say it must not')
  git(dir, 'checkout', '-q', '-b', 'head')
  writeFiles(dir, { 'src/calc.py': fixText() })
  commitAll(dir, 'head: the fix')
  pack(dir)
  const failingIds = Array.from(
    { length: failing },
    (_, i) => `oracle/properties/test_calc.py::test_negatives_count_${i}`
  )
  return {
    name: 'generated',
    dir,
    shims,
    env: directEnv(shims),
    suite: PYTEST,
    reruns: { ids: failingIds, times: 2 },
    seeds:
      seeds > 0
        ? {
            command: 'python3 oracle/seeds/replay.py',
            input: seedCorpus(seeds)
              .seeds.map(s => JSON.stringify({ id: s.id, property: 'total', payload: s.payload }))
              .join('\n')
          }
        : null,
    policies: Object.fromEntries(Object.entries(VARIANTS).map(([k, [path]]) => [k, path]))
  }
}

/**
 * The head's fix of src/calc.py: four changed lines, or OG_BENCH_FIX_LINES (more) for the
 * evidence stage's cost at a given patch size (the added lines run, each a mutant).
 */
function fixText() {
  const lines = Math.max(4, Number(process.env.OG_BENCH_FIX_LINES ?? 4))
  const extra = Array.from({ length: lines - 4 }, (_, i) => `    step${i} = result + ${i}\n`)
  return `def total(xs):\n    result = 0\n    for x in xs:\n        result += x\n${extra.join('')}    return result\n`
}

/**
 * The bundled demo (demo/example) at its base, and the honest fix's production edit as the
 * head (without the fix's own unit test: its diagnostics runs are not part of the minimal
 * sound work). The base fails test_negative_quantities_are_rejected, rerun once.
 */
export function demoProject(fixEdit) {
  const shims = pythonShims()
  const dir = tempDir('og-bench-demo-')
  cpSync(join(import.meta.dirname, '..', 'demo', 'example'), dir, { recursive: true })
  initRepo(dir)
  const policy = readFileSync(join(dir, '.github/oracle-gate.yml'), 'utf8')
  const files = {}
  // Every variant, the serial one included (the demo's own policy, evidence off added).
  for (const [name, [path, extra]] of Object.entries(VARIANTS))
    files[path] = variantText(name, policy.replace(/(\n {2}reruns: 1\n)/, `$1${extra}`))
  writeFiles(dir, files)
  commitAll(dir, 'demo base')
  git(dir, 'checkout', '-q', '-b', 'head')
  const [file, from, to] = fixEdit
  const text = readFileSync(join(dir, file), 'utf8')
  if (!text.includes(from)) throw new Error(`bench: the demo fix does not apply to ${file}`)
  writeFileSync(join(dir, file), text.replace(from, to))
  commitAll(dir, 'head: the honest fix')
  if (/expose_env: true/.test(policy))
    throw new Error('bench: the demo policy exposes ORACLE_GATE_*')
  const suite = /command: (.*)\n/.exec(policy)?.[1]
  return {
    name: 'demo',
    dir,
    shims,
    env: directEnv(shims),
    suite,
    reruns: {
      ids: ['oracle/properties/test_total.py::test_negative_quantities_are_rejected'],
      times: 1
    },
    seeds: null,
    policies: Object.fromEntries(Object.entries(VARIANTS).map(([k, [path]]) => [k, path]))
  }
}

/**
 * The two bench projects one after the other (the generated oracle-first suite, then the
 * demo with its honest fix), each measured by `measureRows(project)` and removed after.
 */
export function onBenchProjects(generatedOptions, measureRows) {
  const fix = scenarios.find(s => s.name === 'honest-fix')?.edit?.[0]
  if (!fix) throw new Error('bench: the demo has no honest-fix scenario')
  const out = []
  for (const make of [() => oracleFirstProject(generatedOptions), () => demoProject(fix)]) {
    const p = make()
    try {
      out.push(...measureRows(p))
    } finally {
      removeProject(p)
    }
  }
  return out
}

export function removeProject(p) {
  rmSync(p.dir, { recursive: true, force: true })
  rmSync(p.shims, { recursive: true, force: true })
}

/** One direct run in the checkout at `ref`, from a clean tree (no .hypothesis left). */
export function direct(p, ref, command, input) {
  git(p.dir, 'checkout', '-q', ref)
  git(p.dir, 'clean', '-qfdx')
  const junit = `${p.dir}-junit.xml`
  const r = timeCommand('bash', ['-c', command.replace('{junit}', junit)], {
    cwd: p.dir,
    env: p.env,
    ...(input === undefined ? {} : { input })
  })
  rmSync(junit, { force: true })
  return r
}

/**
 * The minimal sound work of judging `p`, in seconds, each piece run directly with the
 * commands the gate runs: the base suite, the targeted reruns of the base's failing voting
 * tests (as often as the policy reruns them), the head suite, and the seeds command on
 * each side. The base suite must fail (oracle-first) and the head's must pass.
 */
export function minimalWork(p) {
  const base = direct(p, 'main', p.suite)
  if (base.status !== 1)
    throw new Error(`bench: the base suite should fail: ${base.stdout.slice(-400)}`)
  const rerunCommand = p.suite.replace(/ oracle\/properties /, ` ${p.reruns.ids.join(' ')} `)
  let reruns = 0
  for (let i = 0; i < p.reruns.times; i++) {
    // No clean between reruns: the gate reruns in the worktree of the first run too.
    const junit = `${p.dir}-junit.xml`
    const r = timeCommand('bash', ['-c', rerunCommand.replace('{junit}', junit)], {
      cwd: p.dir,
      env: p.env
    })
    if (r.status !== 1) throw new Error(`bench: a rerun should fail: ${r.stdout.slice(-400)}`)
    reruns += r.seconds
  }
  const seedsBase = p.seeds ? timeSeeds(p) : 0
  const head = direct(p, 'head', p.suite)
  if (head.status !== 0)
    throw new Error(`bench: the head suite should pass: ${head.stdout.slice(-400)}`)
  const seedsHead = p.seeds ? timeSeeds(p) : 0
  return {
    base: base.seconds,
    reruns,
    head: head.seconds,
    seeds: seedsBase + seedsHead,
    total: base.seconds + reruns + head.seconds + seedsBase + seedsHead
  }
}

function timeSeeds(p) {
  const r = timeCommand('bash', ['-c', p.seeds.command], {
    cwd: p.dir,
    env: p.env,
    input: p.seeds.input
  })
  if (r.status !== 0) throw new Error(`bench: the seeds command failed: ${r.stderr.slice(-400)}`)
  return r.seconds
}

/** Seconds of `oracle-gate check` (bundled) on the project, which must answer merge. */
export function gateSeconds(p, variant, extra = []) {
  const cli = join(import.meta.dirname, '..', 'dist', 'cli.js')
  git(p.dir, 'checkout', '-q', 'main')
  git(p.dir, 'clean', '-qfdx')
  const args = [cli, 'check', '--base', 'main', '--head', 'head', '--policy', p.policies[variant]]
  const r = timeCommand(process.execPath, [...args, '--quiet', ...extra], {
    cwd: p.dir,
    env: { ...process.env, PATH: `${p.shims}:${process.env.PATH}` }
  })
  if (r.status !== 0)
    throw new Error(`bench: gate (${variant}) exit ${r.status}: ${r.stderr.slice(-800)}`)
  return { seconds: r.seconds, stdout: r.stdout }
}
