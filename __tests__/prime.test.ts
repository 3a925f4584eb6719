// Primed base results, end to end on a real node:test suite: `prime` stores the base side
// of the default branch's tip; `check --base-results` on a PR whose merge base is that
// commit takes the base side from it and does not run the base suite. The product code
// appends "base" or "head" to a marker file outside the repository each time a suite
// imports it, so whether the base suite ran is observed, not inferred from the card.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import type { Io } from '../src/cli/io.js'
import { main } from '../src/cli/main.js'
import { check } from '../src/gate.js'
import { fingerprintDifferences, lockfileDigests } from '../src/prime/fingerprint.js'
import { provenanceProblems, runLabel } from '../src/prime/provenance.js'
import { primedBase } from '../src/prime/source.js'
import { parsePrimed, readPrimed, type PrimedFile } from '../src/prime/store.js'
import type { Scorecard } from '../src/types.js'
import { validateScorecard } from '../src/verdict/scorecard-schema.js'
import { memoryLogger } from './helpers/logger.js'
import { TestRepo } from './helpers/repo.js'

const POLICY = `version: 1
protected:
  - oracle/**
planes:
  voting: [oracle/props/**]
  in_diff: [test/**]
# The product reports to a file outside its worktree, which a sandbox would not allow.
sandbox: off
# This file counts the head's runs (one, from a primed base): the evidence stage's own runs
# (the mutants, docs/evidence.md) would add runs of their own, so it is off here.
evidence:
  mode: off
suite:
  command: ${process.execPath} --test --test-reporter=junit --test-reporter-destination={junit} oracle/props/
  timeout: 120
  reruns: 1
`

const slug = (
  marker: string,
  side: string,
  fixed: boolean
): string => `import { appendFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
// One line per run of the suite: every test file of a run (the canaries import the product
// too) shares the runner's process as parent.
appendFileSync(${JSON.stringify(marker)}, '${side} ' + process.ppid + '\\n')
// The gate's worktrees while this suite runs (one line each, to a file beside the marker):
// the commit each is at (their names are random), every one but the checkout (listed first).
const listed = execFileSync('git', ['worktree', 'list', '--porcelain'], { encoding: 'utf8' })
for (const block of listed.split('\\n\\n').filter(Boolean).slice(1)) {
  const sha = /^HEAD (\\w+)/m.exec(block)?.[1]
  if (sha) appendFileSync(${JSON.stringify(marker)} + '.worktrees', '${side} ' + sha + ' ' + process.ppid + '\\n')
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

function capture(cwd: string): Io & { err: () => string } {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let err = ''
  stdout.resume()
  stderr.on('data', d => (err += String(d)))
  return { stdout, stderr, cwd, env: { PATH: process.env.PATH ?? '' }, err: () => err }
}

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const c of cleanups.splice(0)) c()
})

interface Setup {
  repo: TestRepo
  marker: string
  primed: string
  sides: () => string[]
  /** "<side> wt-<name>": the gate's worktrees each suite run saw. */
  worktrees: () => string[]
}

function setup(): Setup {
  const repo = new TestRepo()
  const scratch = mkdtempSync(join(tmpdir(), 'og-prime-'))
  cleanups.push(
    () => repo.cleanup(),
    () => rmSync(scratch, { recursive: true, force: true })
  )
  const marker = join(scratch, 'marker')
  repo.write({
    '.github/oracle-gate.yml': POLICY,
    'package.json': '{"type": "module"}\n',
    'package-lock.json': '{"lockfileVersion": 3}\n',
    'lib/slug.mjs': slug(marker, 'base', false),
    'oracle/props/slug.test.mjs': PROPS
  })
  repo.commit('base')
  repo
    .branch('agent')
    .write({ 'lib/slug.mjs': slug(marker, 'head', true) })
    .commit('fix')
  repo.checkout('main')
  const lines = (path: string): string[] =>
    existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : []
  const sides = (): string[] => [...new Set(lines(marker))].map(l => l.split(' ')[0] ?? '')
  // Each worktree by the commit it is at: the merge base's (wt-base) or the head's (wt-head).
  const label = (sha: string): string =>
    sha === repo.git('rev-parse', 'main').trim()
      ? 'wt-base'
      : sha === repo.git('rev-parse', 'agent').trim()
        ? 'wt-head'
        : sha
  const worktrees = (): string[] =>
    [...new Set(lines(`${marker}.worktrees`))].map(l => {
      const [side = '', sha = ''] = l.split(' ')
      return `${side} ${label(sha)}`
    })
  return { repo, marker, primed: join(scratch, 'primed.json'), sides, worktrees }
}

async function prime(s: Setup): Promise<void> {
  const io = capture(s.repo.dir)
  const code = await main(['prime', '--out', s.primed, '--commit', 'main', '-q'], io)
  expect(code, io.err()).toBe(0)
  rmSync(s.marker, { force: true })
  rmSync(`${s.marker}.worktrees`, { force: true })
}

async function judge(s: Setup, primed: boolean): Promise<{ card: Scorecard; log: string[] }> {
  const log = memoryLogger()
  const card = await check({
    repoDir: s.repo.dir,
    base: 'main',
    head: 'agent',
    today: '2026-06-01',
    log,
    ...(primed ? { baseSource: primedBase(() => readPrimed(s.primed), {}) } : {})
  })
  return { card, log: log.lines }
}

function edit(path: string, change: (f: PrimedFile) => void): void {
  const file = JSON.parse(readFileSync(path, 'utf8')) as PrimedFile
  change(file)
  writeFileSync(path, JSON.stringify(file))
}

const notices = (card: Scorecard): string[] =>
  card.reasons
    .filter(r => r.message.startsWith('primed base') || r.message.includes('primed result of'))
    .map(r => r.message)

describe('primed base results', () => {
  it('prime writes a schema-valid file; check reuses it and the base suite does not run', async () => {
    const s = setup()
    // Without a primed result both suites run: the marker shows base and head.
    const plain = await judge(s, false)
    expect(plain.card.verdict).toBe('merge')
    expect(s.sides()).toContain('base')
    expect(s.sides()).toContain('head')

    await prime(s)
    const parsed = parsePrimed(readFileSync(s.primed, 'utf8'))
    expect(typeof parsed).not.toBe('string')
    const file = parsed as PrimedFile
    expect(file.fingerprint.commit).toBe(s.repo.sha('main'))
    expect(file.fingerprint.lockfiles).toHaveProperty(['package-lock.json'])
    expect(file.base.results.map(o => o.id).sort()).toEqual([
      'oracle/props/slug.test.mjs::joins words',
      'oracle/props/slug.test.mjs::lowercases'
    ])

    const reused = await judge(s, true)
    expect(s.sides()).toEqual(['head']) // the base suite never imported the product
    expect(reused.card.verdict).toBe('merge')
    expect(reused.card.transitions).toEqual(plain.card.transitions)
    expect(reused.card.votes).toEqual(plain.card.votes)
    expect(reused.card.runs[0]?.primed_from).toContain('oracle-gate prime of main')
    expect(notices(reused.card)).toHaveLength(1)
    expect(notices(reused.card)[0]).toContain('the base suite was not run')
    // The card with its new field is still a valid scorecard (the external contract).
    expect(validateScorecard(JSON.parse(JSON.stringify(reused.card)))).toEqual([])
  })

  it('prime runs the suite once (the base side only); a primed judge makes no base worktree', async () => {
    const s = setup()
    const plain = await judge(s, false)
    expect(plain.card.verdict).toBe('merge')
    // Without a primed result the head's suite runs while the base's worktree exists.
    expect(s.worktrees()).toContain('head wt-base')
    expect(s.worktrees()).toContain('head wt-head')
    rmSync(s.marker)
    rmSync(`${s.marker}.worktrees`)

    const io = capture(s.repo.dir)
    expect(await main(['prime', '--out', s.primed, '--commit', 'main', '-q'], io), io.err()).toBe(0)
    // The base's first run and the rerun of its failing test ('lowercases'); no head side
    // for the same commit (which would have run the suite twice more).
    expect(s.sides()).toEqual(['base', 'base'])
    expect(s.worktrees()).toEqual(['base wt-base', 'base wt-base'])
    expect(existsSync(s.primed)).toBe(true)
    rmSync(s.marker)
    rmSync(`${s.marker}.worktrees`)

    const reused = await judge(s, true)
    expect(reused.card.verdict).toBe('merge')
    expect(s.sides()).toEqual(['head'])
    expect(s.worktrees()).toEqual(['head wt-head'])
  })

  it('a prime whose base side leaves no report writes nothing and exits 4', async () => {
    const s = setup()
    s.repo
      .write({ '.github/oracle-gate.yml': POLICY.replace(/command: .*/, 'command: "true"') })
      .commit('a suite command that writes no report')
    const io = capture(s.repo.dir)
    writeFileSync(s.primed, 'stale')
    expect(await main(['prime', '--out', s.primed, '--commit', 'main', '-q'], io)).toBe(4)
    expect(existsSync(s.primed)).toBe(false)
    expect(io.err()).toContain('no primed result written')
  })

  it.each([
    ['instrument digest', (f: PrimedFile) => void (f.fingerprint.instrument_digest = 'sha256:00')],
    [
      'lockfiles',
      (f: PrimedFile) => void (f.fingerprint.lockfiles['package-lock.json'] = 'f'.repeat(40))
    ],
    [
      'suite command',
      (f: PrimedFile) => void (f.fingerprint.suite_command = '{"command":"other"}')
    ],
    ['gate version', (f: PrimedFile) => void (f.fingerprint.gate_version = '0.0.0-other')]
  ])(
    'refuses a stored result whose %s differs: the base runs, the reason is logged',
    async (field, change) => {
      const s = setup()
      await prime(s)
      edit(s.primed, change)
      const { card, log } = await judge(s, true)
      expect(s.sides()).toContain('base')
      expect(card.verdict).toBe('merge')
      expect(card.runs[0]?.primed_from).toBeUndefined()
      expect(
        log.some(
          l =>
            l.startsWith('warning: primed base result not used') && l.includes(`${field}: stored`)
        )
      ).toBe(true)
      expect(notices(card).join('\n')).toContain(`${field}: stored`)
    }
  )

  it('refuses a result primed on another commit (the default branch moved on)', async () => {
    const s = setup()
    await prime(s)
    s.repo.write({ 'README.md': 'later\n' }).commit('later on main')
    s.repo.checkout('agent')
    s.repo.git('rebase', '-q', 'main')
    const { card } = await judge(s, true)
    expect(s.sides()).toContain('base')
    expect(notices(card).join('\n')).toContain('commit: stored')
  })

  it('refuses an off-schema or missing file, and a failed prime writes nothing', async () => {
    const s = setup()
    writeFileSync(s.primed, '{"schema": "oracle-gate/primed-base@1"}')
    const { card } = await judge(s, true)
    expect(s.sides()).toContain('base')
    expect(notices(card).join('\n')).toContain('not a primed base file')
    rmSync(s.primed)
    rmSync(s.marker, { force: true })
    const missing = await judge(s, true)
    expect(s.sides()).toContain('base')
    expect(notices(missing.card).join('\n')).toContain('cannot read it')

    const io = capture(s.repo.dir)
    writeFileSync(s.primed, 'stale')
    expect(await main(['prime', '--out', s.primed, '--commit', 'no-such-ref', '-q'], io)).toBe(4)
    expect(existsSync(s.primed)).toBe(false)
  })
})

describe('fingerprint (pure)', () => {
  it('names every differing field and ignores key order', () => {
    const fp = {
      commit: 'a'.repeat(40),
      instrument_digest: 'sha256:1',
      policy_digest: 'sha256:2',
      suite_command: '{}',
      lockfiles: { 'a/yarn.lock': '1', 'go.sum': '2' },
      runner: { os: 'linux', arch: 'x64', release: '6', image_os: '', image_version: '' },
      gate_version: '1'
    }
    expect(
      fingerprintDifferences(fp, { ...fp, lockfiles: { 'go.sum': '2', 'a/yarn.lock': '1' } })
    ).toEqual([])
    const diffs = fingerprintDifferences(fp, {
      ...fp,
      policy_digest: 'x',
      runner: { ...fp.runner, image_version: '2' }
    })
    expect(diffs).toHaveLength(2)
    expect(diffs[0]).toBe('policy digest: stored "sha256:2", this run "x"')
    expect(diffs[1]).toMatch(
      /^runner OS\/image: stored .*"image_version":"".*this run .*"image_version":"2"/
    )
    expect(
      lockfileDigests([
        { path: 'web/package-lock.json', sha: '1' },
        { path: 'src/lock.ts', sha: '2' },
        { path: 'Cargo.lock', sha: '3' }
      ])
    ).toEqual({ 'web/package-lock.json': '1', 'Cargo.lock': '3' })
  })
})

describe('provenance of a primed artifact (pure)', () => {
  const want = {
    defaultBranch: 'main',
    mergeBase: 'a'.repeat(40),
    workflowPath: '.github/workflows/gate.yml',
    repository: 'acme/app'
  }
  const pushRun = {
    id: 7,
    event: 'push',
    head_branch: 'main',
    head_sha: 'a'.repeat(40),
    path: '.github/workflows/gate.yml@refs/heads/main',
    status: 'completed',
    conclusion: 'success',
    head_repository_full_name: 'acme/app',
    html_url: 'https://github.com/acme/app/actions/runs/7'
  }
  it('accepts a successful push run of the same workflow on the default branch at the merge base', () => {
    expect(provenanceProblems(pushRun, want)).toEqual([])
    expect(runLabel(pushRun)).toContain('workflow run 7 (push to main')
  })
  it('refuses a forged artifact from a pull-request run, and every other mismatch', () => {
    // A PR run whose head claims to be main at the merge base: the event alone refuses it.
    const forged = { ...pushRun, event: 'pull_request' }
    expect(provenanceProblems(forged, want)).toEqual(['event is "pull_request", not "push"'])
    expect(provenanceProblems({ ...pushRun, head_branch: 'agent' }, want)).toEqual([
      'branch is "agent", not "main"'
    ])
    expect(provenanceProblems({ ...pushRun, head_sha: 'b'.repeat(40) }, want)).toHaveLength(1)
    expect(provenanceProblems({ ...pushRun, path: '.github/workflows/other.yml' }, want)).toEqual([
      'workflow path is ".github/workflows/other.yml", not ".github/workflows/gate.yml"'
    ])
    expect(provenanceProblems({ ...pushRun, conclusion: 'failure' }, want)).toEqual([
      'conclusion is "failure", not "success"'
    ])
    expect(
      provenanceProblems(
        { ...pushRun, event: 'pull_request', head_repository_full_name: 'fork/app' },
        want
      )
    ).toHaveLength(2)
  })
})
