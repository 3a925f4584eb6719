// The action's pure pieces (event parsing, artifact checks, step annotations) and the
// commit fetching against real shallow clones.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { impliedReasons, parseArtifactCard } from '../src/action/artifact.js'
import { actionsToolkit, readEnvironment } from '../src/action/environment.js'
import { ensureCommits } from '../src/action/fetch.js'
import { stepAnnotations } from '../src/action/publish.js'
import { pullNumber } from '../src/action/report.js'
import { GateError } from '../src/errors.js'
import { Git } from '../src/git/git.js'
import { parseEvent, pushFrom } from '../src/github/event.js'
import type { WorkflowRunTarget } from '../src/github/event.js'
import type { Reason, Scorecard } from '../src/types.js'
import { emptyScorecard, finalize } from '../src/verdict/scorecard.js'
import { memoryLogger } from './helpers/logger.js'
import { TestRepo } from './helpers/repo.js'

const A = 'a'.repeat(40)
const B = 'b'.repeat(40)

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const c of cleanups.splice(0)) c()
})

function gateError(fn: () => unknown): GateError {
  try {
    fn()
  } catch (error) {
    if (error instanceof GateError) return error
    throw error
  }
  throw new Error('expected a GateError')
}

describe('parseEvent', () => {
  const pr = {
    pull_request: {
      number: 3,
      base: { sha: A },
      head: { sha: B, repo: { full_name: 'fork/widget' } }
    }
  }

  it('pull_request and pull_request_target give base, head and number', () => {
    expect(parseEvent('pull_request', pr)).toEqual({
      kind: 'pull_request',
      event: 'pull_request',
      number: 3,
      baseSha: A,
      headSha: B,
      headRepo: 'fork/widget'
    })
    expect(parseEvent('pull_request_target', pr)).toMatchObject({
      kind: 'pull_request',
      event: 'pull_request_target'
    })
  })

  it('a payload without shas, or with refs instead of shas, is a config error', () => {
    expect(gateError(() => parseEvent('pull_request', { pull_request: { number: 3 } })).rule).toBe(
      'config-invalid'
    )
    expect(
      gateError(() =>
        parseEvent('pull_request', {
          pull_request: { number: 3, base: { sha: 'main' }, head: { sha: B } }
        })
      ).message
    ).toMatch(/not commit shas/)
  })

  it('push and workflow_dispatch have nothing to judge; unknown events and no event are errors', () => {
    expect(parseEvent('push', {})).toMatchObject({ kind: 'nothing', event: 'push' })
    expect(parseEvent('workflow_dispatch', {})).toMatchObject({
      kind: 'nothing',
      message: expect.stringMatching(/nothing to judge/)
    })
    expect(gateError(() => parseEvent('issues', {})).message).toMatch(/"issues" is not supported/)
    expect(gateError(() => parseEvent(undefined, {})).message).toMatch(/GITHUB_EVENT_NAME/)
  })

  it('workflow_run gives the tested sha and the (possibly empty) PR list', () => {
    const run = {
      workflow_run: {
        id: 9,
        event: 'pull_request',
        head_sha: B,
        head_repository: { full_name: 'fork/widget' },
        pull_requests: []
      }
    }
    expect(parseEvent('workflow_run', run)).toEqual({
      kind: 'workflow_run',
      event: 'workflow_run',
      runId: 9,
      headSha: B,
      headRepo: 'fork/widget',
      triggeringEvent: 'pull_request',
      pullNumbers: []
    })
    expect(gateError(() => parseEvent('workflow_run', { workflow_run: { id: 9 } })).rule).toBe(
      'config-invalid'
    )
  })
})

describe('report mode: which PR, which results', () => {
  const run = (pullNumbers: number[]): WorkflowRunTarget => ({
    kind: 'workflow_run',
    event: 'workflow_run',
    runId: 1,
    headSha: B,
    triggeringEvent: 'pull_request',
    pullNumbers
  })
  const event = (number: number) => ({
    pull_request: { number, base: { sha: A }, head: { sha: B } }
  })

  it('takes the PR from GitHub when it has one, from the artifact for forks, and refuses a disagreement', () => {
    expect(pullNumber(run([4]), null)).toBe(4)
    expect(pullNumber(run([]), event(5))).toBe(5)
    expect(pullNumber(run([5]), event(5))).toBe(5)
    expect(gateError(() => pullNumber(run([4]), event(5))).message).toMatch(
      /names PR #4 but the artifact's event file names #5/
    )
    expect(gateError(() => pullNumber(run([]), null)).message).toMatch(/no PR to report on/)
  })

  const base = (): Scorecard => {
    const c = emptyScorecard({ version: 't', today: '2026-01-01', policyPath: 'p' })
    c.votes = { passed: 2, failed: 0, frozen: 0, drafts: 0, by_class: {} }
    return finalize(c)
  }

  it('figures that contradict the reason list become failing reasons; a consistent card adds none', () => {
    expect(impliedReasons(base())).toEqual([])
    const empty = base()
    empty.votes.passed = 0
    expect(impliedReasons(empty).map(r => r.rule)).toEqual(['empty-vote'])
    const bad = base()
    bad.transitions.pass_to_fail = ['t::a']
    bad.transitions.vanished = ['t::b']
    bad.votes.failed = 1
    expect(impliedReasons(bad).map(r => r.rule)).toEqual([
      'regression',
      'vanished-oracle',
      'oracle-failed'
    ])
    bad.reasons = [{ rule: 'regression', message: 'r', level: 'failure' }]
    // A regression reason is a product failure: it also accounts for the failing vote.
    expect(impliedReasons(bad).map(r => r.rule)).toEqual(['vanished-oracle'])
  })

  it('an artifact that is not a scorecard is a config error naming the file', () => {
    expect(parseArtifactCard(JSON.parse(JSON.stringify(base())), 'x.json').votes.passed).toBe(2)
    expect(gateError(() => parseArtifactCard({ schema: 'other' }, 'x.json')).message).toMatch(
      /x\.json is not an oracle-gate scorecard: schema/
    )
    const unknownRule = {
      ...base(),
      reasons: [{ rule: 'made-up', message: 'm', level: 'failure' }]
    }
    expect(gateError(() => parseArtifactCard(unknownRule, 'x.json')).message).toMatch(/reasons/)
    const negative = { ...base(), votes: { ...base().votes, failed: -1 } }
    expect(gateError(() => parseArtifactCard(negative, 'x.json')).message).toMatch(/votes/)
  })
})

describe('step annotations (no check run)', () => {
  it('at most 9 errors (the step failure is the 10th), failures before warnings, in card order', () => {
    const reasons: Reason[] = [
      ...Array.from({ length: 12 }, (_, i): Reason => ({
        rule: 'protected-path',
        message: `p${i}`,
        path: `o/${i}`,
        level: 'failure'
      })),
      ...Array.from({ length: 12 }, (_, i): Reason => ({
        rule: 'ledger-expiring',
        message: `w${i}`,
        level: 'warning'
      }))
    ]
    const { errors, warnings } = stepAnnotations(reasons)
    expect(errors.map(r => r.message)).toEqual([
      'p0',
      'p1',
      'p2',
      'p3',
      'p4',
      'p5',
      'p6',
      'p7',
      'p8'
    ])
    expect(warnings).toHaveLength(10)
    expect(stepAnnotations([]).errors).toEqual([])
  })
})

describe('ensureCommits', () => {
  /** origin: `ahead` commits on main after the agent branched (120: depth 50 misses the merge base). */
  function origin(ahead = 120): { repo: TestRepo; base: string; head: string; mergeBase: string } {
    const repo = new TestRepo('og-fetch-')
    cleanups.push(() => repo.cleanup())
    repo.write({ 'a.txt': '0\n' })
    const mergeBase = repo.commit('root')
    repo.branch('agent')
    repo.write({ 'b.txt': 'agent\n' })
    const head = repo.commit('agent')
    repo.checkout('main')
    // One fast-import instead of `ahead` git processes.
    let stream = ''
    for (let i = 1; i <= ahead; i++) {
      const msg = `main ${i}`
      stream += `commit refs/heads/main\nmark :${i}\ncommitter t <t@example.invalid> ${1_700_000_000 + i} +0000\ndata ${msg.length}\n${msg}\nfrom ${i === 1 ? mergeBase : `:${i - 1}`}\n\n`
    }
    if (ahead > 0) execFileSync('git', ['fast-import', '--quiet'], { cwd: repo.dir, input: stream })
    repo.git('update-ref', 'refs/pull/1/head', head)
    return { repo, base: repo.sha('main'), head, mergeBase }
  }

  function clone(from: TestRepo, args: string[]): string {
    const dir = mkdtempSync(join(tmpdir(), 'og-fetch-ws-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    execFileSync('git', ['clone', '-q', ...args, `file://${from.dir}`, dir], { stdio: 'pipe' })
    return dir
  }

  it('fetches missing commits into a depth-1 clone and deepens until the merge base appears', async () => {
    const o = origin()
    const git = new Git(clone(o.repo, ['--depth=1', '--branch', 'main']), process.env)
    expect(await git.hasCommit(o.head)).toBe(false)
    const log = memoryLogger()
    await ensureCommits(git, { baseSha: o.base, headSha: o.head, pullNumber: 1 }, log)
    expect(await git.mergeBase(o.base, o.head)).toBe(o.mergeBase)
    const text = log.lines.join('\n')
    expect(text).toMatch(/the checkout lacks [0-9a-f]{12}: fetching it from origin/)
    expect(text).toMatch(/deepening by 50 commits/)
    expect(text).not.toMatch(/unshallow/)
  })

  it('does nothing to a full clone that has both commits, and says nothing', async () => {
    const o = origin(3)
    const dir = clone(o.repo, [])
    execFileSync('git', ['fetch', '-q', 'origin', 'refs/pull/1/head'], { cwd: dir })
    const log = memoryLogger()
    await ensureCommits(new Git(dir, process.env), { baseSha: o.base, headSha: o.head }, log)
    expect(log.lines).toEqual([])
  })

  it('unrelated histories are a gate error, not a guess', async () => {
    const o = origin(0)
    const other = new TestRepo('og-fetch-other-')
    cleanups.push(() => other.cleanup())
    other.write({ 'z.txt': 'z\n' })
    const lonely = other.commit('unrelated root')
    const dir = clone(o.repo, [])
    execFileSync('git', ['fetch', '-q', other.dir, 'main'], { cwd: dir })
    await expect(
      ensureCommits(new Git(dir, process.env), { baseSha: o.base, headSha: lonely }, memoryLogger())
    ).rejects.toThrow(/no common ancestor: unrelated histories/)
  })
})

describe('readEnvironment (the runner environment, read once)', () => {
  const toolkit = actionsToolkit()
  const env = {
    INPUT_TOKEN: ' ghs_x ',
    'INPUT_CHECK-NAME': 'gate',
    INPUT_TODAY: '2026-02-03',
    'INPUT_WORKING-DIRECTORY': 'sub',
    GITHUB_WORKSPACE: '/ws',
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: '/tmp/event.json',
    GITHUB_REPOSITORY: 'acme/widget',
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_RUN_ID: '7',
    RUNNER_TEMP: '/rt'
  }

  it('takes the inputs as core.getInput would (trimmed, defaults) and the runner paths', () => {
    const e = readEnvironment(env, toolkit, '/cwd')
    expect(e.inputs).toEqual({
      token: 'ghs_x',
      policyPath: '.github/oracle-gate.yml',
      checkName: 'gate',
      today: '2026-02-03',
      workdir: '/ws/sub',
      mode: 'judge',
      primedBase: 'off',
      scorecard: '',
      comment: 'never'
    })
    expect(e.secrets).toEqual(['ghs_x'])
    expect(e.event).toEqual({ name: 'pull_request', path: '/tmp/event.json' })
    expect(e.paths).toEqual({ workspace: '/ws', runnerTemp: '/rt', stepSummary: undefined })
    expect(e.github).toMatchObject({
      repository: 'acme/widget',
      apiUrl: undefined,
      detailsUrl: 'https://github.example/acme/widget/actions/runs/7',
      serverUrl: 'https://github.example'
    })
    expect(e.env).toBe(env)
  })

  it('an invalid input is kept as the error run() reports, with what the error card needs', () => {
    const e = readEnvironment({ ...env, INPUT_MODE: 'judge-harder' }, toolkit, '/cwd')
    expect(e.inputs).toBeInstanceOf(GateError)
    expect((e.inputs as GateError).rule).toBe('config-invalid')
    expect(e.fallback).toEqual({ today: '2026-02-03', policyPath: '.github/oracle-gate.yml' })
    expect(readEnvironment({}, toolkit, '/cwd').paths.workspace).toBe('/cwd')
    const primed = readEnvironment({ ...env, 'INPUT_PRIMED-BASE': 'yes' }, toolkit, '/cwd')
    expect((primed.inputs as GateError).message).toBe(
      'input primed-base must be "off" or "auto", got "yes"'
    )
  })

  it("names this workflow file from GITHUB_WORKFLOW_REF, only when it is this repository's", () => {
    const path = (ref: string | undefined): string | undefined =>
      readEnvironment({ ...env, GITHUB_WORKFLOW_REF: ref }, toolkit, '/cwd').github.workflowPath
    expect(path('acme/widget/.github/workflows/gate.yml@refs/pull/3/merge')).toBe(
      '.github/workflows/gate.yml'
    )
    expect(path('acme/widget/.github/workflows/gate.yml@refs/heads/main')).toBe(
      '.github/workflows/gate.yml'
    )
    expect(path('other/repo/.github/workflows/gate.yml@refs/heads/main')).toBeUndefined()
    expect(path('acme/widget/elsewhere/gate.yml@refs/heads/main')).toBeUndefined()
    expect(path(undefined)).toBeUndefined()
  })
})

describe('pushFrom (mode: prime)', () => {
  const sha = 'a'.repeat(40)
  it('takes the pushed ref, the commit and the default branch', () => {
    expect(
      pushFrom({ ref: 'refs/heads/main', after: sha, repository: { default_branch: 'main' } })
    ).toEqual({ kind: 'push', ref: 'refs/heads/main', sha, defaultBranch: 'main' })
  })
  it.each([
    ['a deleted branch', { ref: 'refs/heads/x', after: '0'.repeat(40), deleted: true }],
    ['no commit', { ref: 'refs/heads/x' }],
    ['a short sha', { ref: 'refs/heads/x', after: 'abc' }]
  ])('refuses %s as config-invalid', (_what, payload) => {
    expect(() => pushFrom(payload)).toThrow(/push payload has no ref \/ after commit/)
  })
  it('the PR payload carries the default branch into the target', () => {
    const pr = parseEvent('pull_request', {
      pull_request: { number: 2, base: { sha }, head: { sha } },
      repository: { default_branch: 'trunk' }
    })
    expect(pr).toMatchObject({ kind: 'pull_request', defaultBranch: 'trunk' })
  })
})
