// JavaScript coverage from the head's vote (src/reporters/node/vote-cover.cjs sending,
// src/evidence/js-vote.ts putting back together): a real node process started with the
// watcher's coverage, fed a plan, running a planned file big enough that its payload goes
// in several chunks; its records read back give the lines that ran, and only the planned
// file's. Then the records a head's process could send instead: chunks missing, doubled,
// disagreeing on their count, a payload not of V8's shape, a worker that announced a planned
// file and never sent its take, records beyond the stream's cap: each measures nothing and
// is named, and none turns into a covered line. And the watcher as the gate starts it: a
// plan with `cover` gets the runner's and its child's coverage; without, nothing is sent.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Writable } from 'node:stream'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { testsByLine, voteDumps, type VoteDump } from '../src/evidence/js-vote.js'
import { coveredLines, type V8Dump } from '../src/evidence/v8.js'
import type { WatchedRun } from '../src/replay/side.js'

const NODE_DIR = join(import.meta.dirname, '..', 'src', 'reporters', 'node')
const HOOK = join(NODE_DIR, 'vote-cover.cjs')
const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

/** A module whose first function runs and whose second does not, padded past one chunk. */
const MODULE = `'use strict'
function used(x) {
  if (x > 1) {
    return 'big'
  }
  return 'small'
}
function unused() {
  return 'never'
}
module.exports = { used, unused }
// ${'padding '.repeat(2000)}
`

/** Runs `main` in a node process with the vote's coverage started for `planned`. */
function vote(root: string, planned: string[], main: string): Record<string, unknown>[] {
  const plan = {
    v: 1,
    root,
    lines: Object.fromEntries(planned.map(p => [p, [[1, 1]]])),
    reach: false,
    cover: true
  }
  const script = `const records = []
require(${JSON.stringify(HOOK)}).start(${JSON.stringify(plan)}, r => records.push(r), () => {})
process.on('exit', () => process.stdout.write(records.map(r => JSON.stringify(r)).join('\\n')))
${main}`
  const run = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' })
  expect(run.status, run.stderr).toBe(0)
  return run.stdout
    .split('\n')
    .filter(Boolean)
    .map(l => JSON.parse(l) as Record<string, unknown>)
}

const watched = (events: Record<string, unknown>[], dropped = 0): WatchedRun => ({
  events,
  sessions: 1,
  dropped
})

function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'og-jsvote-'))
  dirs.push(root)
  writeFileSync(join(root, 'fee.js'), MODULE)
  writeFileSync(join(root, 'other.js'), MODULE)
  return root
}

describe('coverage sent from the vote’s own processes', () => {
  it('a real process: the planned file’s lines that ran, in several chunks, the other file not sent', () => {
    const root = tree()
    const events = vote(
      root,
      ['fee.js'],
      "require('./fee.js').used(5); require('./other.js').used(5)"
    )
    const chunks = events.filter(e => e.t === 'jscov')
    expect(chunks.length).toBeGreaterThan(1)
    expect(new Set(chunks.map(e => e.p)).size).toBe(1)
    const file = join(root, 'fee.js')
    const found = voteDumps(watched(events), new Set([file]))
    expect(found.problems).toEqual([])
    expect(found.measured).toBe(true)
    expect(found.dumps.flatMap(d => d.result.map(s => s.url))).toEqual([pathToFileURL(file).href])
    const lines = coveredLines(
      found.dumps,
      new Map([[file, { text: MODULE, lines: [3, 4, 6, 9] }]])
    )
    expect([...(lines.covered.get(file) ?? [])].sort()).toEqual([3, 4])
  })

  it('a plan with no JavaScript file starts nothing and sends nothing', () => {
    const root = tree()
    expect(vote(root, ['fee.py'], "require('./fee.js').used(5)")).toEqual([])
  })

  it('a process that ran no planned file sends a payload that measures nothing (the gate falls back)', () => {
    const root = tree()
    const events = vote(root, ['fee.js'], "require('./other.js').used(5)")
    const found = voteDumps(watched(events), new Set([join(root, 'fee.js')]))
    expect(found.measured).toBe(false)
    expect(found.problems).toEqual([])
  })
})

describe('records a head’s process could forge or cut', () => {
  const file = '/w/fee.js'
  const asked = new Set([file])
  const payload = JSON.stringify({
    result: [
      {
        url: `file://${file}`,
        functions: [{ ranges: [{ startOffset: 0, endOffset: 10, count: 1 }] }]
      }
    ],
    sources: {}
  })
  const half = Math.ceil(payload.length / 2)
  const chunk = (p: string, i: number, n: number, d: string): Record<string, unknown> => ({
    t: 'jscov',
    p,
    i,
    n,
    d
  })
  const a = chunk('1-0-x', 0, 2, payload.slice(0, half))
  const b = chunk('1-0-x', 1, 2, payload.slice(half))

  it('both chunks: one dump', () => {
    const found = voteDumps(watched([b, a]), asked)
    expect(found).toMatchObject({ measured: true, problems: [] })
    expect(found.dumps).toHaveLength(1)
  })

  it.each([
    ['a chunk missing', [a]],
    ['a chunk doubled', [a, a, b]],
    ['chunks disagreeing on their count', [a, chunk('1-0-x', 1, 3, payload.slice(half))]],
    ['an index out of range', [a, chunk('1-0-x', 2, 2, payload.slice(half))]],
    ['a payload that is not JSON', [chunk('2-0-y', 0, 1, '{"result": [')]],
    ['a payload not of V8’s shape', [chunk('2-0-y', 0, 1, '{"result": [{"url": 3}]}')]],
    ['a record without its fields', [{ t: 'jscov', p: 'z', d: payload }]]
  ])('%s: named, nothing measured from it', (_, events) => {
    const found = voteDumps(watched(events as Record<string, unknown>[]), asked)
    expect(found.problems.join()).toMatch(/incomplete or not V8's shape/)
    expect(found.dumps.filter(d => d.result.length > 0).length).toBeLessThanOrEqual(
      events.length === 3 ? 1 : 0
    )
  })

  it('a worker that announced a planned file and sent nothing was killed: counted', () => {
    const found = voteDumps(
      watched([{ t: 'jscov-start', p: '3-0-q' }, { t: 'jscov-start', p: '1-0-x' }, a, b]),
      asked
    )
    expect(found.problems).toEqual([
      expect.stringMatching(
        /^1 Node process\(es\) of the vote that compiled changed code ended before/
      )
    ])
  })

  it('records beyond the stream’s cap: said', () => {
    expect(voteDumps(watched([a, b], 4), asked).problems).toEqual([
      expect.stringMatching(/4 watch record\(s\) beyond the stream's cap/)
    ])
  })
})

describe('which voting tests may have run a line (a mutant runs only those)', () => {
  /** A process's dump: the lines it ran (in `url`, read by the fake measure) and its files. */
  const dump = (ran: Record<string, number[]>, loaded: string[] | null): VoteDump => ({
    result: Object.entries(ran).map(([url, lines]) => ({
      url,
      functions: lines.map(n => ({ ranges: [{ startOffset: n, endOffset: n, count: 1 }] }))
    })),
    loaded
  })
  const measure = (dumps: readonly V8Dump[]): Map<string, Set<number>> => {
    const out = new Map<string, Set<number>>()
    for (const d of dumps)
      for (const s of d.result)
        for (const f of s.functions)
          for (const r of f.ranges) out.set(s.url, (out.get(s.url) ?? new Set()).add(r.startOffset))
    return out
  }
  const passing = new Set([
    'oracle/a.test.ts::adds',
    'oracle/a.test.ts::more',
    'oracle/b.test.ts::doubles'
  ])

  it('each process’s lines go to the passing tests of the test files it compiled', () => {
    const by = testsByLine(
      [
        dump({ '/w/lib/a.ts': [2, 3] }, ['oracle/a.test.ts', 'lib/a.ts']),
        dump({ '/w/lib/a.ts': [3], '/w/lib/b.ts': [2] }, [
          'oracle/b.test.ts',
          'lib/a.ts',
          'lib/b.ts'
        ])
      ],
      passing,
      measure
    )
    expect(by.get('/w/lib/a.ts')?.get(2)).toEqual([
      'oracle/a.test.ts::adds',
      'oracle/a.test.ts::more'
    ])
    expect(by.get('/w/lib/a.ts')?.get(3)).toEqual([...passing].sort())
    expect(by.get('/w/lib/b.ts')?.get(2)).toEqual(['oracle/b.test.ts::doubles'])
  })

  it('a line also run by a process that compiled no passing test’s file (a test’s subprocess) has no list: its mutant runs every test', () => {
    const by = testsByLine(
      [
        dump({ '/w/lib/a.ts': [2, 3] }, ['oracle/a.test.ts', 'lib/a.ts']),
        dump({ '/w/lib/a.ts': [3] }, ['lib/a.ts', 'bin/cli.js']),
        dump({ '/w/lib/a.ts': [4] }, null)
      ],
      passing,
      measure
    )
    // b's test: its file compiled by no process, so it goes with every line.
    expect(by.get('/w/lib/a.ts')?.get(2)).toEqual([...passing].sort())
    expect(by.get('/w/lib/a.ts')?.has(3)).toBe(false)
    expect(by.get('/w/lib/a.ts')?.has(4)).toBe(false)
  })

  it('a passing test whose file no process compiled, or with no file in its id, goes with every line', () => {
    const by = testsByLine(
      [dump({ '/w/lib/a.ts': [2] }, ['oracle/a.test.ts'])],
      new Set(['oracle/a.test.ts::adds', 'oracle/c.test.ts::elsewhere', 'plain name']),
      measure
    )
    expect(by.get('/w/lib/a.ts')?.get(2)).toEqual([
      'oracle/a.test.ts::adds',
      'oracle/c.test.ts::elsewhere',
      'plain name'
    ])
  })
})

/**
 * A node process of the head's run as the gate starts it: the watcher preloaded, the stream
 * at descriptor 3, the plan fed at 4; it runs `main`, which spawns a child. The records sent.
 */
function watchedRun(
  root: string,
  cover: boolean,
  main: string
): Promise<Record<string, unknown>[]> {
  const plan = { v: 1, root, lines: { 'fee.js': [[2, 6]] }, instrument: [], reach: false, cover }
  return new Promise(done => {
    const child = spawn(process.execPath, ['-e', main], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        TEST_OUTCOME_STREAM: '3:n0nce:4',
        NODE_OPTIONS: `--require=${join(NODE_DIR, 'gate-reach.cjs')}`
      },
      stdio: ['ignore', 'ignore', 'inherit', 'pipe', 'pipe']
    })
    const feed = child.stdio[4] as Writable | null
    feed?.end(`${JSON.stringify(plan)}\n`)
    let out = ''
    child.stdio[3]?.on('data', (d: Buffer) => (out += d.toString()))
    child.on('close', () =>
      done(
        out
          .split('\n')
          .filter(Boolean)
          .map(l => JSON.parse(l) as Record<string, unknown>)
      )
    )
  })
}

describe('the watcher starts coverage only when the plan asks', () => {
  const main = `require('./fee.js').used(5)
require('node:child_process').spawn(process.execPath, ['-e', "require('./fee.js').used(0)"], { stdio: 'inherit' })`

  it('cover on (reach off): the runner’s process and its child each send their payload, relayed', async () => {
    const root = tree()
    const events = await watchedRun(root, true, main)
    expect(events.every(e => e.k === 'n0nce')).toBe(true)
    const file = join(root, 'fee.js')
    const found = voteDumps(watched(events), new Set([file]))
    expect(found.dumps).toHaveLength(2)
    const lines = coveredLines(
      found.dumps,
      new Map([[file, { text: MODULE, lines: [3, 4, 6, 9] }]])
    )
    // used(5) in the parent ran the `big` return, used(0) in the child the `small` one.
    expect([...(lines.covered.get(file) ?? [])].sort()).toEqual([3, 4, 6])
  })

  it('cover off (evidence off): nothing is started and nothing sent', async () => {
    expect(await watchedRun(tree(), false, main)).toEqual([])
  })
})
