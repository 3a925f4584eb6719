// suite.jobs, end to end on a real node:test suite whose base has a failing voting test
// (the head fixes it), so the base reruns it. The product code of each commit reports what
// it sees at import to a small HTTP server of this test (the sides overlap only in separate
// sandboxes, which share no folder; suite.network lets them reach it): the side, whether
// the run is a rerun (ORACLE_GATE_TESTS is set: suite.expose_env), and, in the base's
// rerun, whether the head's first run started while the rerun was still going (it waits
// for that up to OG_WAIT_MS). So the order of the runs is observed in the order of the
// lines, not inferred from wall times.
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { TestRepo } from './helpers/repo.js'

// Evidence off: this file orders the vote's runs, and the evidence stage's own head runs
// (coverage, mutants; docs/evidence.md) would add lines of their own to the channels.
const policy = (jobs: number, waitMs: number): string => `version: 1
protected:
  - oracle/**
planes:
  voting: [oracle/props/**]
evidence:
  mode: off
suite:
  command: ${process.execPath} --test --test-reporter=junit --test-reporter-destination={junit} oracle/props/
  timeout: 120
  reruns: 1
  jobs: ${jobs}
  network: true
  expose_env: true
  env: {OG_WAIT_MS: "${waitMs}"}
`

// The lines each channel (a path of the server) received, in order.
const channels = new Map<string, string[]>()
let server: Server
let base = ''
beforeAll(async () => {
  server = createServer((req, res) => {
    const got = channels.get(req.url ?? '') ?? []
    channels.set(req.url ?? '', got)
    let body = ''
    req.on('data', (d: Buffer) => (body += d.toString('utf8')))
    req.on('end', () => {
      if (req.method === 'POST') got.push(body)
      res.end(got.join('\n'))
    })
  })
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>(r => server.close(() => r())))

/** A fresh channel: its URL, and the lines it received so far. */
function channel(): { url: string; lines: () => string[]; reset: () => void } {
  const path = `/${randomUUID()}`
  return {
    url: base + path,
    lines: () => [...new Set(channels.get(path) ?? [])].map(l => l.replace(/ @\d+$/, '')),
    reset: () => channels.delete(path)
  }
}

/** The product: slugify (lowercasing only when fixed), plus the marker lines above. */
const slug = (
  url: string,
  side: string,
  fixed: boolean
): string => `const url = ${JSON.stringify(url)}
// Each line carries the runner's process (the parent of every test file of a run, the
// canaries' included): lines() keeps one per run.
const say = line =>
  fetch(url, { method: 'POST', body: line + ' @' + process.ppid }).then(r => r.text())
const rerun = (process.env.ORACLE_GATE_TESTS ?? '') !== ''
await say('${side} ' + (rerun ? 'rerun' : 'first'))
if ('${side}' === 'base' && rerun) {
  const deadline = Date.now() + Number(process.env.OG_WAIT_MS)
  let saw = false
  while (!saw && Date.now() < deadline) {
    saw = (await (await fetch(url)).text()).includes('head first')
    if (!saw) await new Promise(r => setTimeout(r, 50))
  }
  await say(saw ? 'base rerun saw the head running' : 'base rerun done alone')
}
export function slugify(text) {
  return text.trim().split(/\\s+/).join('-')${fixed ? '.toLowerCase()' : ''}
}
`
const PROPS = `import { test } from 'node:test'
import assert from 'node:assert/strict'
import { slugify } from '../../lib/slug.mjs'
test('lowercases', () => assert.equal(slugify('Hello World'), 'hello-world'))
test('joins words', () => assert.equal(slugify('a b').length, 3))
`

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const c of cleanups.splice(0)) c()
})

function setup(): { repo: TestRepo; lines: () => string[]; reset: () => void } {
  const repo = new TestRepo()
  cleanups.push(() => repo.cleanup())
  const { url: marker, lines, reset } = channel()
  repo.write({
    // Serial waits briefly (nothing can show up); overlapping waits long (it shows up).
    '.github/oracle-gate.yml': policy(1, 1500),
    '.github/oracle-gate-jobs2.yml': policy(2, 60_000),
    'package.json': '{"type": "module"}\n',
    'lib/slug.mjs': slug(marker, 'base', false),
    'oracle/props/slug.test.mjs': PROPS
  })
  repo.commit('base: slugify does not lowercase, a locked test says it must')
  repo
    .branch('agent')
    .write({ 'lib/slug.mjs': slug(marker, 'head', true) })
    .commit('fix')
  repo.checkout('main')
  return { repo, lines, reset }
}

async function judge(repo: TestRepo, policyPath?: string): Promise<Scorecard> {
  return check({
    repoDir: repo.dir,
    base: 'main',
    head: 'agent',
    today: '2026-06-01',
    log: memoryLogger(),
    ...(policyPath ? { policyPath } : {})
  })
}

describe('suite.jobs: the base reruns overlap the head', () => {
  it('jobs: 1 keeps the serial order; jobs: 2 starts the head during the base rerun, same verdict', async () => {
    const s = setup()
    const serial = await judge(s.repo)
    expect(serial.verdict).toBe('merge')
    expect(serial.transitions.fail_to_pass).toEqual(['oracle/props/slug.test.mjs::lowercases'])
    expect(s.lines()).toEqual(['base first', 'base rerun', 'base rerun done alone', 'head first'])

    s.reset()
    const overlapped = await judge(s.repo, '.github/oracle-gate-jobs2.yml')
    // The rerun and the head's first run start at about the same time, so their first
    // lines come in either order; the rerun saw the head start before it ended.
    expect(s.lines()[0]).toBe('base first')
    expect([...s.lines()].sort()).toEqual([
      'base first',
      'base rerun',
      'base rerun saw the head running',
      'head first'
    ])
    expect(overlapped.verdict).toBe(serial.verdict)
    expect(overlapped.transitions).toEqual(serial.transitions)
    expect(overlapped.votes).toEqual(serial.votes)
    expect(overlapped.flakes).toEqual(serial.flakes)
    expect(overlapped.runs.map(r => [r.side, r.tests])).toEqual(
      serial.runs.map(r => [r.side, r.tests])
    )
  })

  it('jobs: 2 stays fail-closed: a base that cannot be set up is a gate error and the head never starts', async () => {
    const s = setup()
    s.repo
      .write({
        '.github/oracle-gate-jobs2.yml': policy(2, 60_000).replace(
          '  jobs: 2\n',
          '  jobs: 2\n  setup: grep -q toLowerCase lib/slug.mjs\n'
        )
      })
      .commit('a setup that fails on the base only (the head has the fix)')
    s.repo.checkout('agent')
    s.repo.git('rebase', '-q', 'main')
    s.repo.checkout('main')
    const card = await judge(s.repo, '.github/oracle-gate-jobs2.yml')
    expect(card.verdict).toBe('error')
    expect(card.reasons.map(r => r.message).join('\n')).toMatch(/setup failed on the base/)
    expect(s.lines()).toEqual([]) // the head, whose setup would pass, never ran
  })
})

describe('suite.parallel: the base is checked out before the patch runs', () => {
  // Running at once, the head's code could rewrite objects in the repository the base
  // worktree is checked out from; so the base checkout is complete before any head child
  // starts. The head's setup looks at the base worktree (5,000 files, so a checkout made
  // concurrently would still be under way) and writes what it found. In separate sandboxes
  // the head cannot see the base's worktree at all (sandbox.test.ts); without a sandbox the
  // sides run in turn, and the base's worktree (found by its commit: names are random) is
  // whole when the head's setup looks.
  it('the head side finds the whole base checkout in place when its first child starts', async () => {
    const repo = new TestRepo()
    const scratch = mkdtempSync(join(tmpdir(), 'og-parallel-'))
    cleanups.push(
      () => repo.cleanup(),
      () => rmSync(scratch, { recursive: true, force: true })
    )
    const marker = join(scratch, 'marker')
    const data = Object.fromEntries(
      Array.from({ length: 5000 }, (_, i) => [`data/f${i}.txt`, `${i}\n`])
    )
    repo.write({
      '.github/oracle-gate.yml': policy(1, 0)
        .replace('  jobs: 1\n', `  parallel: true\n  setup: ${process.execPath} tools/seen.mjs\n`)
        .replace('suite:\n', 'sandbox: off\nsuite:\n'),
      'package.json': '{"type": "module"}\n',
      'tools/seen.mjs': `import { execFileSync } from 'node:child_process'
import { appendFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
if (process.env.ORACLE_GATE_SIDE === 'head') {
  const list = execFileSync('git', ['worktree', 'list', '--porcelain'], { encoding: 'utf8' })
  // The gate's other worktree: not the checkout (listed first), not at the head's commit.
  const own = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim()
  const block = list.split('\\n\\n').slice(1).find(b => b.includes('HEAD ') && !b.includes('HEAD ' + own))
  const base = block?.split('\\n')[0]?.slice(9)
  const whole = base !== undefined && existsSync(join(base, 'data', 'f4999.txt'))
  appendFileSync(${JSON.stringify(marker)}, whole ? 'base checked out\\n' : 'base not checked out yet\\n')
}
`,
      'lib/slug.mjs': slug(channel().url, 'base', false),
      'oracle/props/slug.test.mjs': PROPS,
      ...data
    })
    repo.commit('base')
    repo
      .branch('agent')
      .write({ 'lib/slug.mjs': slug(channel().url, 'head', true) })
      .commit('fix')
    repo.checkout('main')
    const card = await judge(repo)
    expect(card.verdict).toBe('merge')
    expect(readFileSync(marker, 'utf8')).toBe('base checked out\n')
    expect(card.reasons.map(r => r.message).join('\n')).toMatch(
      /suite\.parallel asks the sides to overlap, but without a sandbox/
    )
  })
})
