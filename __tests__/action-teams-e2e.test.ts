// End to end, the action's run() (in process, helpers/action-run.ts) as teams run it (issue 17): a merge queue's
// merge_group run, a person's instrument change approved (or not) through PR reviews read
// from the API, the sticky PR comment, and the card of every verdict within GitHub's limits.
// The fake GitHub validates every request against GitHub's OpenAPI request schemas.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import type { Scorecard } from '../src/types.js'
import { validateScorecard } from '../src/verdict/scorecard-schema.js'
import { runActionInProcess } from './helpers/action-run.js'
import { FakeGitHub } from './helpers/fake-github.js'
import type { ActionRun, FakeGitHubOptions, FakePull, FakeReview } from './helpers/fake-github.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const ENTRY = join(ROOT, 'dist/index.js')
const PY = pythonWithPytest()
const TOKEN = 'ghs_e2eTeamsToken0123456789'
const FILES = 'GET /repos/{owner}/{repo}/pulls/{pull_number}/files'
const REVIEWS = 'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews'
const POST_COMMENT = 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments'
const PATCH_COMMENT = 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}'

const CALC_BUGGY = `def add(a, b):
    return a + b


def absval(x):
    return x  # bug: negative numbers stay negative
`
const CALC_FIXED = CALC_BUGGY.replace(
  'return x  # bug: negative numbers stay negative',
  'return -x if x < 0 else x'
)
const PROPERTIES = `from app import calc


def test_add_commutes():
    for a, b in [(1, 2), (-3, 5), (0, 7)]:
        assert calc.add(a, b) == calc.add(b, a)


def test_abs_non_negative():
    for x in [-5, 0, 3, -250]:
        assert calc.absval(x) >= 0
`
// A person's oracle-first PR: a new voting test that specifies a known-good behaviour.
const NEW_ORACLE = `from app import calc


def test_add_zero():
    assert calc.add(0, 4) == 4
`
const policy = (extra = ''): string => `version: 1
protected:
  - oracle/**
planes:
  voting: [oracle/properties/**]
  in_diff: [tests/**]
suite:
  command: ${PY} -m pytest oracle/properties -q -p no:cacheprovider --junitxml={junit}
  timeout: 120
  reruns: 1
${extra}`
const APPROVERS = `instrument_approvers: [alice, oracle-bot, acme/oracle-owners]\n`

const cleanups: Array<() => void> = []
const fakes: FakeGitHub[] = []
afterEach(async () => {
  for (const f of fakes.splice(0)) await f.close()
  for (const c of cleanups.splice(0)) c()
})

interface Origin {
  repo: TestRepo
  /** The base tip the PR (or the queue) is built on. */
  base: string
}

/** origin with main at the base commit (the agent's bug, the oracle). */
function origin(extraPolicy = '', baseFiles: Record<string, string> = {}): Origin {
  const repo = new TestRepo('og-teams-')
  cleanups.push(() => repo.cleanup())
  repo.write({
    '.github/oracle-gate.yml': policy(extraPolicy),
    'pytest.ini': '[pytest]\npythonpath = .\n',
    'app/__init__.py': '',
    'app/calc.py': CALC_BUGGY,
    'oracle/properties/test_calc.py': PROPERTIES,
    ...baseFiles
  })
  return { repo, base: repo.commit('base') }
}

/** A PR branch on top of main, published as refs/pull/N/head and refs/pull/N/merge. */
function pushPull(o: Origin, files: Record<string, string>, number = 1, from = o.base): string {
  const { repo } = o
  repo.git('checkout', '-q', '--detach', from)
  repo.write(files)
  const head = repo.commit(`PR ${number}`)
  repo.git('update-ref', `refs/pull/${number}/head`, head)
  repo.git('checkout', '-q', '--detach', o.base)
  repo.git('merge', '-q', '--no-ff', '-m', `merge #${number}`, head)
  repo.git('update-ref', `refs/pull/${number}/merge`, 'HEAD')
  repo.checkout('main')
  return head
}

/** What actions/checkout leaves: a depth-1 clone of one ref. */
function shallowClone(o: Origin, ref: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'og-ws-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' })
  git('init', '-q')
  git('remote', 'add', 'origin', `file://${o.repo.dir}`)
  git('fetch', '-q', '--no-tags', '--depth=1', 'origin', `+${ref}:refs/remotes/checkout`)
  git('checkout', '-q', '--detach', 'refs/remotes/checkout')
  return dir
}

function apiFiles(o: Origin, head: string): FakePull['files'] {
  return o.repo
    .git('diff', '--name-only', o.base, head)
    .split('\n')
    .filter(Boolean)
    .map(filename => ({ filename, status: 'added' }))
}

const REPO = { full_name: 'acme/widget', name: 'widget', owner: { login: 'acme' } }
function prPayload(o: Origin, head: string, event = 'synchronize', number = 1): unknown {
  return {
    action: event,
    number,
    pull_request: {
      number,
      base: { sha: o.base, ref: 'main', repo: REPO },
      head: { sha: head, ref: 'oracle-first', repo: REPO }
    },
    repository: REPO
  }
}

async function fake(options: FakeGitHubOptions): Promise<FakeGitHub> {
  const f = await FakeGitHub.start({ token: TOKEN, ...options })
  fakes.push(f)
  return f
}

async function run(
  f: FakeGitHub,
  workspace: string,
  eventName: string,
  payload: unknown,
  inputs: Record<string, string> = {}
): Promise<ActionRun> {
  // run() in this process with millisecond API waits (helpers/action-run.ts); the bundle
  // itself is smoke-tested in action-e2e.test.ts.
  const r = await runActionInProcess({
    entry: ENTRY,
    workspace,
    eventName,
    payload,
    inputs: { token: TOKEN, today: '2026-06-01', ...inputs },
    apiUrl: f.apiUrl,
    repository: f.repository
  })
  cleanups.push(() => rmSync(r.runnerTemp, { recursive: true, force: true }))
  return r
}

/** The card the run wrote; every one of them must match the published schema. */
function card(r: ActionRun): Scorecard {
  const json: unknown = JSON.parse(readFileSync(r.outputs.scorecard ?? '', 'utf8'))
  expect(validateScorecard(json)).toEqual([])
  return json as Scorecard
}

describe('merge_group', () => {
  /** The queue's commit: main's tip merged with the PR head, on gh-readonly-queue/main/pr-N-<sha>. */
  function queue(o: Origin, head: string, number = 1): { sha: string; ref: string } {
    const { repo } = o
    repo.git('checkout', '-q', '--detach', o.base)
    repo.git('merge', '-q', '--no-ff', '-m', `Merge pull request #${number}`, head)
    const sha = repo.sha()
    const ref = `refs/heads/gh-readonly-queue/main/pr-${number}-${head}`
    repo.git('update-ref', ref, sha)
    repo.checkout('main')
    return { sha, ref }
  }
  const groupPayload = (o: Origin, g: { sha: string; ref: string }): unknown => ({
    action: 'checks_requested',
    merge_group: {
      head_sha: g.sha,
      head_ref: g.ref,
      base_sha: o.base,
      base_ref: 'refs/heads/main',
      head_commit: { id: g.sha, message: 'Merge pull request #1' }
    },
    repository: REPO
  })

  it('judges base_sha…head_sha from a depth-1 checkout and posts on the group head sha', async () => {
    const o = origin()
    const head = pushPull(o, { 'app/calc.py': CALC_FIXED })
    const g = queue(o, head)
    const f = await fake({ pulls: [] })
    const r = await run(f, shallowClone(o, g.ref), 'merge_group', groupPayload(o, g))

    expect(r.stdout).toMatch(/the checkout lacks [0-9a-f]{12}: fetching it from origin/)
    expect(r.stdout).toContain(`merge_group ${g.ref} (#1)`)
    expect(r.outputs).toMatchObject({ verdict: 'merge', merge: 'true' })
    const c = card(r)
    expect(c).toMatchObject({ base: o.base, head: g.sha, event: 'merge_group', pull_requests: [1] })
    expect(c.transitions.fail_to_pass).toEqual([
      'oracle/properties/test_calc.py::test_abs_non_negative'
    ])
    expect(f.checkRuns).toEqual([
      expect.objectContaining({ head_sha: g.sha, conclusion: 'success', name: 'oracle-gate' })
    ])
    expect(f.checkRuns[0]?.output.summary).toContain('merge queue group for #1')
    // No PR files list describes a group: git does, and no PR call is made.
    expect(f.calls(FILES)).toEqual([])
    expect(f.invalid).toEqual([])
  })

  it('a group that breaks the product fails on the group sha', async () => {
    const o = origin()
    const head = pushPull(o, { 'app/calc.py': CALC_BUGGY.replace('a + b', 'a - b') })
    const g = queue(o, head, 7)
    const f = await fake({ pulls: [] })
    const r = await run(f, shallowClone(o, g.ref), 'merge_group', groupPayload(o, g))
    expect(r.code).toBe(1)
    expect(r.outputs.verdict).toBe('product')
    expect(f.checkRuns[0]).toMatchObject({ head_sha: g.sha, conclusion: 'failure' })
    expect(card(r).pull_requests).toEqual([7])
    expect(f.invalid).toEqual([])
  })

  it('carries an approved instrument change over only to the merge of exactly the approved head', async () => {
    const o = origin(APPROVERS, { 'app/calc.py': CALC_FIXED })
    const head = pushPull(o, { 'oracle/properties/test_zero.py': NEW_ORACLE })
    const g = queue(o, head)
    const pull: FakePull = {
      number: 1,
      baseSha: o.base,
      headSha: head,
      files: apiFiles(o, head),
      author: { login: 'carol', type: 'User' },
      reviews: [{ login: 'alice', state: 'APPROVED', commit_id: head }]
    }
    const f = await fake({ pulls: [pull] })
    const approved = await run(f, shallowClone(o, g.ref), 'merge_group', groupPayload(o, g))
    expect(approved.outputs.verdict).toBe('merge')
    expect(card(approved).reasons.map(x => x.message)).toContain(
      `instrument change approved by @alice at ${head}: judged by the base's instrument, which the change replaces once merged`
    )

    // A squash-like group commit (one parent) cannot be tied to the approved head.
    o.repo.git('checkout', '-q', '--detach', o.base)
    o.repo.write({ 'oracle/properties/test_zero.py': NEW_ORACLE })
    const squash = {
      sha: o.repo.commit('squash #1'),
      ref: `refs/heads/gh-readonly-queue/main/pr-1-${head}`
    }
    o.repo.git('update-ref', squash.ref, squash.sha)
    o.repo.checkout('main')
    const unattributed = await run(
      f,
      shallowClone(o, squash.ref),
      'merge_group',
      groupPayload(o, squash)
    )
    expect(unattributed.outputs.verdict).toBe('policy')
    expect(unattributed.stdout).toMatch(/the PR's approval does not carry over/)
    expect(f.invalid).toEqual([])
  })
})

describe("people's instrument changes (instrument_approvers)", () => {
  it('policy without approval; merge on an approver review of the current sha; policy again after a push or a dismissal; never on the author or a bot', async () => {
    const o = origin(APPROVERS, { 'app/calc.py': CALC_FIXED })
    const head = pushPull(o, { 'oracle/properties/test_zero.py': NEW_ORACLE })
    const reviews: FakeReview[] = []
    const pull: FakePull = {
      number: 1,
      baseSha: o.base,
      headSha: head,
      files: apiFiles(o, head),
      author: { login: 'carol', type: 'User' },
      reviews
    }
    const f = await fake({ pulls: [pull], teams: { 'acme/oracle-owners': ['carol', 'dave'] } })
    const judge = async (h: string, event = 'pull_request', action = 'synchronize') =>
      run(f, shallowClone(o, 'refs/pull/1/merge'), event, prPayload(o, h, action))
    const approvalReason = (r: ActionRun) =>
      card(r).reasons.find(x => x.rule === 'instrument-approval')

    // 1. Nobody approved: policy, naming who can.
    const none = await judge(head)
    expect(none.outputs.verdict).toBe('policy')
    expect(approvalReason(none)).toMatchObject({ level: 'failure' })
    expect(approvalReason(none)?.message).toMatch(
      /by @alice, @oracle-bot or a member of acme\/oracle-owners \(not the PR's author, not a bot\)/
    )
    expect(card(none).runs).toEqual([]) // an unapproved instrument change is not scored

    // 2. The author (a member of the team) and a listed bot approve: still policy.
    reviews.push(
      { login: 'carol', state: 'APPROVED', commit_id: head },
      { login: 'oracle-bot', type: 'Bot', state: 'APPROVED', commit_id: head },
      { login: 'mallory', state: 'APPROVED', commit_id: head } // not an approver
    )
    const selfish = await judge(head, 'pull_request_review', 'submitted')
    expect(selfish.outputs.verdict).toBe('policy')
    expect(approvalReason(selfish)?.message).toMatch(
      /no approving review on [0-9a-f]{12} by an approver/
    )

    // 3. alice approves the current head: merge, judged by the base's instrument (suite ran).
    reviews.push({ login: 'alice', state: 'APPROVED', commit_id: head })
    const ok = await judge(head, 'pull_request_review', 'submitted')
    expect(ok.outputs).toMatchObject({ verdict: 'merge', merge: 'true' })
    expect(approvalReason(ok)).toEqual({
      rule: 'instrument-approval',
      level: 'notice',
      message: `instrument change approved by @alice at ${head}: judged by the base's instrument, which the change replaces once merged`
    })
    expect(card(ok).reasons.filter(x => x.level === 'failure')).toEqual([])
    expect(card(ok).runs.map(x => x.side)).toEqual(['base', 'head'])
    expect(card(ok).votes.passed).toBe(2) // the base's two voting tests; the new one waits for the merge
    expect(f.checkRuns.at(-1)).toMatchObject({ head_sha: head, conclusion: 'success' })

    // 4. A new push: alice's review is on the old sha, so policy again.
    const head2 = pushPull(
      o,
      { 'oracle/properties/test_zero.py': NEW_ORACLE + '\n# tidied\n' },
      1,
      head
    )
    pull.headSha = head2
    pull.files = apiFiles(o, head2)
    const pushed = await judge(head2)
    expect(pushed.outputs.verdict).toBe('policy')
    expect(approvalReason(pushed)?.message).toMatch(
      new RegExp(
        `the approval by @alice is on ${head.slice(0, 12)}, not on the current head ${head2.slice(0, 12)}`
      )
    )

    // 5. A team member approves the new head: merge; then the approval is dismissed: policy.
    reviews.push({ login: 'dave', state: 'APPROVED', commit_id: head2 })
    const byTeam = await judge(head2, 'pull_request_review', 'submitted')
    expect(byTeam.outputs.verdict).toBe('merge')
    expect(approvalReason(byTeam)?.message).toMatch(/^instrument change approved by @dave at /)
    const last = reviews.at(-1) as FakeReview
    last.state = 'DISMISSED'
    const dismissed = await judge(head2, 'pull_request_review', 'dismissed')
    expect(dismissed.outputs.verdict).toBe('policy')

    // 6. Approved again, then an approver requests changes later: policy.
    reviews.push(
      { login: 'dave', state: 'APPROVED', commit_id: head2 },
      { login: 'alice', state: 'CHANGES_REQUESTED', commit_id: head2 }
    )
    const blocked = await judge(head2, 'pull_request_review', 'submitted')
    expect(blocked.outputs.verdict).toBe('policy')
    expect(approvalReason(blocked)?.message).toMatch(
      /@alice requested changes after @dave approved/
    )

    // Every judgement read the reviews through the API, and every request was valid.
    expect(f.calls(REVIEWS).length).toBe(7)
    expect(f.invalid).toEqual([])
  }, 120_000)

  it('a team the token cannot read approves nobody, and the card says so; the payload alone never approves', async () => {
    const o = origin(`instrument_approvers: [acme/secret-team]\n`)
    const head = pushPull(o, { 'oracle/properties/test_zero.py': NEW_ORACLE })
    const f = await fake({
      pulls: [
        {
          number: 1,
          baseSha: o.base,
          headSha: head,
          files: apiFiles(o, head),
          author: { login: 'carol', type: 'User' },
          reviews: [{ login: 'erin', state: 'APPROVED', commit_id: head }]
        }
      ]
    })
    // A pull_request_review payload claiming an approval does not count: the API is asked.
    const payload = {
      ...(prPayload(o, head, 'submitted') as object),
      review: { state: 'approved', user: { login: 'erin' }, commit_id: head }
    }
    const r = await run(f, shallowClone(o, 'refs/pull/1/merge'), 'pull_request_review', payload)
    expect(r.outputs.verdict).toBe('policy')
    expect(r.stdout).toMatch(/cannot read the members of team acme\/secret-team \(HTTP 404\)/)
    expect(card(r).reasons.find(x => x.rule === 'instrument-approval')?.message).toMatch(
      /the token cannot read the team\(s\) acme\/secret-team/
    )
    expect(f.invalid).toEqual([])
  })
})

describe('approvals in the fork pattern (read-only pull_request run, then report mode)', () => {
  it('the fork run reads the reviews and replays; report mode re-reads them and posts merge', async () => {
    const o = origin(APPROVERS, { 'app/calc.py': CALC_FIXED })
    const head = pushPull(o, { 'oracle/properties/test_zero.py': NEW_ORACLE })
    const pull = (): FakePull => ({
      number: 1,
      baseSha: o.base,
      headSha: head,
      headRepo: 'contributor/widget',
      files: apiFiles(o, head),
      author: { login: 'carol', type: 'User' },
      reviews: [{ login: 'alice', state: 'APPROVED', commit_id: head }]
    })
    // Part 1: read-only token (no check runs, no comments), reviews still readable.
    const fork = await fake({ pulls: [pull()], refuseCheckRuns: true })
    const payload = prPayload(o, head, 'submitted')
    const first = await run(
      fork,
      shallowClone(o, 'refs/pull/1/merge'),
      'pull_request_review',
      payload,
      {
        comment: 'always'
      }
    )
    expect(first.outputs.verdict).toBe('merge')
    expect(card(first).runs.map(x => x.side)).toEqual(['base', 'head'])
    expect(first.stdout).toMatch(/could not post the PR comment on #1 .*pull-requests: write/)
    expect(fork.comments).toEqual([])
    expect(fork.invalid).toEqual([])

    // Part 2: report mode from a checkout of the base repository, with the artifact.
    const base = mkdtempSync(join(tmpdir(), 'og-base-'))
    cleanups.push(() => rmSync(base, { recursive: true, force: true }))
    execFileSync('git', ['clone', '-q', `file://${o.repo.dir}`, base], { stdio: 'pipe' })
    const reporter = await fake({ pulls: [pull()] })
    const workflowRun = {
      action: 'completed',
      workflow_run: {
        id: 77,
        event: 'pull_request_review',
        head_sha: head,
        head_repository: { full_name: 'contributor/widget' },
        pull_requests: [],
        conclusion: 'success'
      }
    }
    const second = await run(reporter, base, 'workflow_run', workflowRun, {
      mode: 'report',
      scorecard: dirname(first.outputs.scorecard ?? '')
    })
    expect(second.outputs.verdict).toBe('merge')
    expect(card(second).reasons.find(x => x.rule === 'instrument-approval')?.message).toMatch(
      /^instrument change approved by @alice at /
    )
    expect(reporter.calls(REVIEWS)).toHaveLength(1)
    expect(reporter.checkRuns).toEqual([
      expect.objectContaining({ head_sha: head, conclusion: 'success' })
    ])

    // The approval is dismissed before the report runs: report mode re-reads it, policy.
    const dismissed = await fake({
      pulls: [{ ...pull(), reviews: [{ login: 'alice', state: 'DISMISSED', commit_id: head }] }]
    })
    const third = await run(dismissed, base, 'workflow_run', workflowRun, {
      mode: 'report',
      scorecard: dirname(first.outputs.scorecard ?? '')
    })
    expect(third.outputs.verdict).toBe('policy')
    expect(reporter.invalid).toEqual([])
    expect(dismissed.invalid).toEqual([])
  }, 120_000)
})

describe('the sticky PR comment', () => {
  it('is created once and then updated in place; a person quoting the marker is left alone', async () => {
    const o = origin()
    const head = pushPull(o, {
      'oracle/properties/test_calc.py': PROPERTIES.replace('>= 0', '>= -1000')
    })
    const f = await fake({
      pulls: [{ number: 1, baseSha: o.base, headSha: head, files: apiFiles(o, head) }],
      comments: [
        {
          issue: 1,
          body: '<!-- oracle-gate:sticky oracle-gate -->\nlooks fine to me',
          user: { login: 'mallory', type: 'User' }
        }
      ]
    })
    const ws = () => shallowClone(o, 'refs/pull/1/merge')
    const first = await run(f, ws(), 'pull_request', prPayload(o, head), { comment: 'always' })
    expect(first.outputs.verdict).toBe('policy')
    expect(f.calls(POST_COMMENT).map(x => x.status)).toEqual([201])
    const ours = f.comments.filter(c => c.user.type === 'Bot')
    expect(ours).toHaveLength(1)
    const body = ours[0]?.body ?? ''
    expect(body.startsWith('<!-- oracle-gate:sticky oracle-gate -->\n')).toBe(true)
    expect(body).toContain('oracle-gate: `policy`')
    expect(body).toContain('protected-path')
    expect(body).toContain(`(https://github.example/acme/widget/runs/${f.checkRuns[0]?.id})`)
    expect(body).not.toContain('### Write set') // the top section only

    const second = await run(f, ws(), 'pull_request', prPayload(o, head), { comment: 'always' })
    expect(second.outputs.verdict).toBe('policy')
    expect(f.calls(POST_COMMENT)).toHaveLength(1)
    expect(f.calls(PATCH_COMMENT).map(x => x.status)).toEqual([200])
    expect(f.comments.filter(c => c.user.type === 'Bot')).toHaveLength(1)
    expect(f.comments.find(c => c.user.login === 'mallory')?.body).toMatch(/looks fine to me$/)
    expect(f.invalid).toEqual([])
  })

  it('on-failure posts nothing for a merge; never (the default) posts nothing at all', async () => {
    const o = origin()
    const head = pushPull(o, { 'app/calc.py': CALC_FIXED })
    const f = await fake({
      pulls: [{ number: 1, baseSha: o.base, headSha: head, files: apiFiles(o, head) }]
    })
    const ws = () => shallowClone(o, 'refs/pull/1/merge')
    const merged = await run(f, ws(), 'pull_request', prPayload(o, head), { comment: 'on-failure' })
    expect(merged.outputs.verdict).toBe('merge')
    const plain = await run(f, ws(), 'pull_request', prPayload(o, head))
    expect(plain.outputs.verdict).toBe('merge')
    expect(f.calls(POST_COMMENT)).toEqual([])
    expect(f.comments).toEqual([])
    const bad = await run(f, ws(), 'pull_request', prPayload(o, head), { comment: 'sometimes' })
    expect(bad.outputs.verdict).toBe('error')
    expect(bad.stdout).toMatch(/input comment must be "never", "on-failure" or "always"/)
  })
})

describe('the card of each verdict', () => {
  const LIMIT = 65_535
  const NOISY = `from app import calc


def test_add_commutes():
    print("x" * 400 + "\\n" * 2 + "|" * 300)
    for i in range(3000):
        print(f"line {i}: " + "-" * 120)
    assert calc.add(1, 2) == calc.add(2, 1)


def test_abs_non_negative():
    for x in [-5, 0, 3, -250]:
        assert calc.absval(x) >= 0
`
  it.each([
    ['merge', { 'app/calc.py': CALC_FIXED }, 'oracle/properties'],
    ['product', { 'app/calc.py': CALC_BUGGY.replace('a + b', 'a - b') }, 'oracle/properties'],
    [
      'policy',
      { 'oracle/properties/test_calc.py': 'def test_x():\n    pass\n' },
      'oracle/properties'
    ],
    ['no-vote', { 'app/calc.py': CALC_FIXED }, 'oracle/nothing_here']
  ] as const)(
    '%s: summary and comment within the limits, the headline first',
    async (verdict, files, suiteDir) => {
      // The suite prints thousands of long lines; the card must still fit.
      const o = origin('', { 'oracle/properties/test_calc.py': NOISY })
      o.repo.write({
        '.github/oracle-gate.yml': policy().replace(
          'pytest oracle/properties',
          `pytest ${suiteDir}`
        )
      })
      const base = o.repo.commit('suite')
      const at = { ...o, base }
      const head = pushPull(at, files)
      const f = await fake({
        pulls: [{ number: 1, baseSha: base, headSha: head, files: apiFiles(at, head) }]
      })
      const r = await run(
        f,
        shallowClone(at, 'refs/pull/1/merge'),
        'pull_request',
        prPayload(at, head),
        { comment: 'always' }
      )
      expect(r.outputs.verdict).toBe(verdict)
      const summary = f.checkRuns[0]?.output.summary ?? ''
      expect(summary.length).toBeGreaterThan(200)
      expect(summary.length).toBeLessThanOrEqual(LIMIT)
      expect(summary.split('\n')[0]).toMatch(new RegExp(`^## .* oracle-gate: \`${verdict}\``))
      expect(f.comments[0]?.body.length).toBeLessThanOrEqual(65_536)
      expect(r.summary.length).toBeLessThanOrEqual(1_048_576)
      expect(f.invalid).toEqual([])
    },
    60_000
  )

  it('error: an invalid policy is a card too, within the limits', async () => {
    const o = origin('unknown_key: 1\n')
    const head = pushPull(o, { 'app/calc.py': CALC_FIXED })
    const f = await fake({
      pulls: [{ number: 1, baseSha: o.base, headSha: head, files: apiFiles(o, head) }]
    })
    const r = await run(
      f,
      shallowClone(o, 'refs/pull/1/merge'),
      'pull_request',
      prPayload(o, head),
      {
        comment: 'always'
      }
    )
    expect(r.outputs.verdict).toBe('error')
    const summary = f.checkRuns[0]?.output.summary ?? ''
    expect(summary.length).toBeLessThanOrEqual(LIMIT)
    expect(summary).toContain('oracle-gate: `error`')
    expect(f.comments[0]?.body).toMatch(/config-invalid[\s\S]*unknown\\?_key/)
    expect(f.invalid).toEqual([])
  })
})
