// The cost of the node watcher (src/reporters/node/gate-reach.cjs, issue 26): one generated
// suite (40 test files of 25 tests each over 40 product modules, every product file's lines
// on the watch plan) run by vitest, jest and node:test with the gate's reporter, with and
// without the watcher, the way the gate runs a head (stream at descriptor 3, plan at 4).
// Medians of 3 wall-clock runs, with the machine's load (uptime) before each runner's.
// Run: node bench/reach-node.mjs [--real] [--only=<runner>] [--watcher=<dir>] (another copy of
// src/reporters/node, e.g. the merge base's, to compare two watchers on one machine state).
import { execFileSync, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { median, tempDir } from './lib.mjs'
import { FILES, RUNNERS, suiteProject, TESTS } from './node-suite.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const option = name => process.argv.find(a => a.startsWith(`--${name}=`))?.split('=')[1]
const reporters = option('watcher') ?? join(here, '..', 'src', 'reporters', 'node')
const load = () =>
  execFileSync('uptime', { encoding: 'utf8' })
    .trim()
    .replace(/^.*load/, 'load')

function runOnce(dir, command, plan) {
  return new Promise(done => {
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TEST_OUTCOME_STREAM: `3:bench${plan ? ':4' : ''}`
    }
    if (plan) env.NODE_OPTIONS = `--require=${reporters}/gate-reach.cjs`
    const start = process.hrtime.bigint()
    const cpuFile = join(tempDir('bench-cpu-'), 'cpu')
    const child = spawn('/usr/bin/time', ['-f', '%U %S', '-o', cpuFile, 'bash', '-c', command], {
      cwd: dir,
      env,
      stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe']
    })
    child.stdio[4].on('error', () => {})
    child.stdio[4].end(plan ? `${JSON.stringify(plan)}\n` : '')
    let out = ''
    child.stdio[3].on('data', d => (out += d))
    child.on('close', code => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9
      const [user, sys] = readFileSync(cpuFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number)
      const events = out.split('\n').filter(l => l.includes('"t":"reach"')).length
      const cases = out.split('\n').filter(l => l.includes('"t":"case"')).length
      done({ seconds, cpu: user + sys, code, events, cases })
    })
  })
}

/** Plain and watched runs alternated, 3 each: medians of wall and CPU (the process tree's). */
async function compare(dir, command, plan) {
  const plain = []
  const watched = []
  let last
  for (let i = 0; i < 3; i++) {
    plain.push(await runOnce(dir, command, null))
    last = await runOnce(dir, command, plan)
    watched.push(last)
  }
  const figure = key => {
    const a = median(plain.map(r => r[key]))
    const b = median(watched.map(r => r[key]))
    return `${key} ${a.toFixed(2)} → ${b.toFixed(2)} s (${(((b - a) / a) * 100).toFixed(1)} %)`
  }
  return `${figure('seconds')}, ${figure('cpu')}; ${last.cases} cases streamed, ${last.events} reach events, exit ${last.code}`
}

const only = option('only')
const chosen = Object.entries(RUNNERS).filter(([name]) => only === undefined || name === only)
for (const [name, r] of process.argv.includes('--real') ? [] : chosen) {
  const dir = suiteProject('bench-reach-', name, r)
  const lines = {}
  for (let f = 0; f < FILES; f++) lines[`src/m${f}.${r.ext}`] = [[1, 4]]
  const plan = { v: 1, root: dir, lines, instrument: ['test'], reach: true, cover: false }
  await runOnce(dir, r.command, null) // warm the transform caches
  const before = load()
  console.log(`${name}: ${FILES * TESTS} tests, ${await compare(dir, r.command, plan)} (${before})`)
}

// A real suite: eight of this project's own unit test files (vitest, TypeScript), with
// every line of the modules they test on the plan (source maps kept, every hit attributed).
if (process.argv.includes('--real')) {
  const root = join(here, '..')
  const tests = [
    'junit',
    'runners',
    'policy',
    'sanitize',
    'markdown',
    'simhash',
    'glob-linebreak',
    'lints-overlap'
  ]
  const command = `node node_modules/vitest/vitest.mjs run ${tests.map(t => `__tests__/${t}.test.ts`).join(' ')} --project unit --reporter=dot --reporter=${reporters}/vitest.mjs`
  const lines = {}
  for (const f of [
    'src/replay/junit.ts',
    'src/replay/runners.ts',
    'src/policy/load.ts',
    'src/report/sanitize.ts',
    'src/lints/overlap.ts'
  ])
    lines[f] = [[1, 100000]]
  const plan = { v: 1, root, lines, instrument: ['__tests__'], reach: true, cover: false }
  await runOnce(root, command, null)
  console.log(`real (oracle-gate's own unit tests): ${await compare(root, command, plan)}`)
}
