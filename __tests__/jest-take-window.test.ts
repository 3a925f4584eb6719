// The jest worker's coverage take and jest's grace period (docs/evidence.md "Limits"): jest
// tells a pool worker to end, SIGTERMs it half a second later and SIGKILLs it half a second
// after that (jest-worker's end() and forceExit()). A worker that compiled many scripts can
// take longer than that to take its V8 coverage (measured: 1,800 jest scripts, 0.8 s under
// load), and its lines were then lost. Real jest-worker (the repository's own), the gate's
// watcher preloaded as in the vote (src/reporters/node/gate-reach.cjs, plan over descriptor
// 4, records on 3): the worker loads the planned file, then compiles 300,000 functions, so
// its take is slow on any machine (at least about 2 s idle; a least duration, not a bound).
// Shown: the take outlasts jest's window (jest did send the SIGKILL), and the worker's
// coverage still arrives whole, because the watcher in jest's process holds a SIGKILL of a
// worker whose take has begun until its last chunk is in. Near miss: a worker that hangs
// before any take is SIGKILLed when jest says.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const dir = mkdtempSync(join(tmpdir(), 'og-jest-take-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const WATCHER = resolve(__dirname, '..', 'src', 'reporters', 'node', 'gate-reach.cjs')
const JEST_WORKER = resolve(__dirname, '..', 'node_modules', 'jest-worker')

writeFileSync(join(dir, 'fee.js'), 'exports.fee = x => (x > 100 ? 5 : 0)\n')
writeFileSync(
  join(dir, 'worker.js'),
  `exports.run = (mode, n) => {
  // A worker that hangs once its call is answered: it never reads jest's END.
  if (mode === 'hang') return void setTimeout(() => { for (;;); }, 0)
  require('./fee.js').fee(200)
  let src = 'const fs = []\\n'
  for (let i = 0; i < n; i++) src += 'fs.push(function (a) { if (a > ' + i + ') { return a + 1 } return ' + i + ' })\\n'
  src += 'let t = 0; for (const f of fs) t += f(1); return t'
  new Function(src)()
  return process.pid
}
`
)
// jest's process: one worker, one call, then jest-worker's own end (END, SIGTERM, SIGKILL).
writeFileSync(
  join(dir, 'main.js'),
  `const { ChildProcess } = require('node:child_process')
const { appendFileSync, readFileSync } = require('node:fs')
const kill = ChildProcess.prototype.kill
ChildProcess.prototype.kill = function (signal) {
  appendFileSync(process.env.SIGNALS, signal + '\\n')
  return kill.call(this, signal)
}
const { Worker } = require(${JSON.stringify(JEST_WORKER)})
const worker = new Worker(require.resolve('./worker.js'), { numWorkers: 1, enableWorkerThreads: false })
worker.run(process.argv[2], Number(process.argv[3])).then(async pid => {
  // naive: a SIGKILL that no watcher can hold (process.kill, not the child's kill), sent as
  // soon as the worker has said it is taking (its jscov-taking record), so that it lands
  // mid-take whatever the machine's speed (a fixed delay let a fast take finish first).
  if (process.argv[4] === 'naive') {
    const taking = () => readFileSync(process.env.RECORDS, 'utf8').includes('"jscov-taking"')
    const poll = setInterval(() => {
      if (taking()) {
        clearInterval(poll)
        process.kill(pid, 'SIGKILL')
      }
    }, 1)
  }
  const { forceExited } = await worker.end()
  appendFileSync(process.env.SIGNALS, 'forceExited ' + forceExited + '\\n')
})
`
)

/** One run of jest's process under the watcher: the records it sent, the signals jest sent. */
function run(
  mode: 'load' | 'hang',
  n: number,
  naive = false
): { records: Record<string, unknown>[]; signals: string[] } {
  const plan = join(dir, 'plan.json')
  writeFileSync(
    plan,
    JSON.stringify({
      v: 1,
      root: dir,
      lines: { 'fee.js': [[1, 1]] },
      instrument: [],
      reach: false,
      cover: true
    })
  )
  const out = join(dir, `records-${mode}-${naive}.jsonl`)
  const signals = join(dir, `signals-${mode}-${naive}`)
  writeFileSync(out, '')
  writeFileSync(signals, '')
  const result = spawnSync(process.execPath, ['main.js', mode, String(n), naive ? 'naive' : ''], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      NODE_OPTIONS: `--require=${WATCHER}`,
      TEST_OUTCOME_STREAM: '3:nonce:4',
      SIGNALS: signals,
      RECORDS: out
    },
    stdio: ['ignore', 'inherit', 'inherit', openSync(out, 'a'), openSync(plan, 'r')],
    encoding: 'utf8'
  })
  expect(result.status).toBe(0)
  const records = readFileSync(out, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(l => JSON.parse(l) as Record<string, unknown>)
  return { records, signals: readFileSync(signals, 'utf8').split('\n').filter(Boolean) }
}

describe("a jest worker's coverage take outlasting jest's grace period", () => {
  it("naive: a SIGKILL at jest's moment lands mid-take, and the worker's payload is lost", () => {
    const { records } = run('load', 300_000, true)
    const taking = records.filter(r => r.t === 'jscov-taking')
    expect(taking).toHaveLength(1)
    const chunks = records.filter(r => r.t === 'jscov' && r.p === taking[0]?.p)
    expect(chunks).toEqual([])
  })

  it('the take outlasts the window (jest sends SIGKILL), yet the payload arrives whole', () => {
    const { records, signals } = run('load', 300_000)
    // jest gave up waiting: it SIGTERMed and then SIGKILLed the worker mid-take.
    expect(signals).toEqual(['SIGTERM', 'SIGKILL', 'forceExited true'])
    const taking = records.filter(r => r.t === 'jscov-taking')
    expect(taking).toHaveLength(1)
    // The worker's payload (jest's own process sends one of its own too).
    const chunks = records.filter(r => r.t === 'jscov' && r.p === taking[0]?.p)
    const n = chunks[0]?.n
    expect(typeof n).toBe('number')
    expect(chunks.map(c => c.i)).toEqual([...Array(n as number).keys()])
    const payload = JSON.parse(chunks.map(c => c.d).join('')) as {
      result: { url: string }[]
    }
    expect(payload.result.map(s => s.url)).toEqual([`file://${join(dir, 'fee.js')}`])
  })

  it('near miss: a hung worker that never began a take is killed when jest says', () => {
    // Were its SIGKILL held, this run would never end (the worker loops for ever).
    const { records, signals } = run('hang', 0)
    expect(records.filter(r => r.t === 'jscov-taking')).toEqual([])
    expect(signals).toEqual(['SIGTERM', 'SIGKILL', 'forceExited true'])
  })
})
