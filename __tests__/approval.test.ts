// The pure parts of issue 17: who may approve an instrument change and when the approval
// counts (judgeApproval / applyApproval), the merge queue's event and ref parsing, the
// fetch fallbacks, and the sticky comment's body.
import { describe, expect, it } from 'vitest'
import { commentBody, commentMode } from '../src/action/comment.js'
import { fallbackRefspecs } from '../src/action/fetch.js'
import { GateError } from '../src/errors.js'
import { COMMENT_MAX_CHARS, stickyMarker } from '../src/github/comments.js'
import { parseEvent, queuedPullNumbers } from '../src/github/event.js'
import { parsePolicy } from '../src/policy/load.js'
import { unitePolicies } from '../src/policy/union.js'
import type { Reason } from '../src/types.js'
import { applyApproval, judgeApproval } from '../src/verdict/approval.js'
import { approvedInstrument } from '../src/verdict/approval-stage.js'
import { memoryLogger } from './helpers/logger.js'
import type { ApprovalFacts, ReviewFact } from '../src/verdict/approval.js'
import { decide } from '../src/verdict/verdict.js'
import { emptyScorecard, finalize } from '../src/verdict/scorecard.js'
import { policyYaml } from './helpers/repo.js'

const H = 'a'.repeat(40)
const OLD = 'b'.repeat(40)
const APPROVERS = ['alice', 'acme/owners']
let nextId = 1
const review = (login: string, state: string, commit = H, extra: Partial<ReviewFact> = {}) => ({
  id: nextId++,
  login,
  bot: false,
  state,
  commit_id: commit,
  submitted_at: `2026-06-01T00:00:${String(nextId).padStart(2, '0')}Z`,
  ...extra
})
const facts = (reviews: ReviewFact[], extra: Partial<ApprovalFacts> = {}): ApprovalFacts => ({
  pull: 3,
  author: 'carol',
  currentHead: H,
  reviews,
  teams: { 'acme/owners': ['dave', 'Carol'] },
  ...extra
})
const INSTRUMENT: Reason[] = [
  { rule: 'protected-path', level: 'failure', path: 'oracle/t.py', message: 'protected' },
  { rule: 'ungoverned-test', level: 'warning', path: 'x_test.py', message: 'ungoverned' }
]

describe('judgeApproval', () => {
  it('an approver approving the current head approves; a listed user or a team member', () => {
    expect(judgeApproval(APPROVERS, facts([review('alice', 'APPROVED')]), H)).toMatchObject({
      approved: true,
      by: 'alice',
      sha: H
    })
    expect(judgeApproval(APPROVERS, facts([review('Dave', 'APPROVED')]), H)).toMatchObject({
      approved: true,
      by: 'Dave'
    })
  })

  it('never the author (even in the team), a bot, an unlisted user, or a comment', () => {
    for (const r of [
      review('carol', 'APPROVED'),
      review('alice', 'APPROVED', H, { bot: true }),
      review('renovate[bot]', 'APPROVED'),
      review('mallory', 'APPROVED'),
      review('alice', 'COMMENTED'),
      review('alice', 'DISMISSED'),
      review('alice', 'PENDING')
    ]) {
      const who = r.login === 'renovate[bot]' ? ['renovate[bot]', ...APPROVERS] : APPROVERS
      expect(judgeApproval(who, facts([r]), H).approved, `${r.login} ${r.state}`).toBe(false)
    }
  })

  it('only on the current head: an older sha, or a PR that moved on, approves nothing', () => {
    expect(judgeApproval(APPROVERS, facts([review('alice', 'APPROVED', OLD)]), H)).toMatchObject({
      approved: false,
      why: expect.stringMatching(/approval by @alice is on bbbbbbbbbbbb, not on the current head/)
    })
    expect(
      judgeApproval(APPROVERS, facts([review('alice', 'APPROVED')], { currentHead: OLD }), H)
    ).toMatchObject({ approved: false, why: expect.stringMatching(/PR #3 is now at bbbb/) })
  })

  it('a later changes-requested review by an approver blocks; an earlier one does not', () => {
    const later = [review('alice', 'APPROVED'), review('dave', 'CHANGES_REQUESTED', OLD)]
    expect(judgeApproval(APPROVERS, facts(later), H)).toMatchObject({
      approved: false,
      why: '@dave requested changes after @alice approved'
    })
    const earlier = [review('dave', 'CHANGES_REQUESTED', OLD), review('alice', 'APPROVED')]
    expect(judgeApproval(APPROVERS, facts(earlier), H).approved).toBe(true)
    // An approver's own later change of mind supersedes their approval.
    const changed = [review('alice', 'APPROVED'), review('alice', 'CHANGES_REQUESTED')]
    expect(judgeApproval(APPROVERS, facts(changed), H).approved).toBe(false)
    // A non-approver's request for changes does not block.
    const outsider = [review('alice', 'APPROVED'), review('mallory', 'CHANGES_REQUESTED')]
    expect(judgeApproval(APPROVERS, facts(outsider), H).approved).toBe(true)
  })

  it('an unreadable team (null) approves nobody', () => {
    const f = facts([review('dave', 'APPROVED')], { teams: { 'acme/owners': null } })
    expect(judgeApproval(APPROVERS, f, H).approved).toBe(false)
  })

  it('a merge group stands in for the approved head only when the source says so (judged)', () => {
    const G = 'c'.repeat(40)
    expect(judgeApproval(APPROVERS, facts([review('alice', 'APPROVED')]), G).approved).toBe(false)
    expect(
      judgeApproval(APPROVERS, facts([review('alice', 'APPROVED')], { judged: G }), G)
    ).toMatchObject({ approved: true, sha: H })
  })
})

describe('applyApproval', () => {
  const verdict = (reasons: Reason[]) =>
    finalize(emptyScorecard({ version: 't', today: '2026-06-01', policyPath: 'p' }), reasons)
      .verdict
  it('approved: instrument failures become notices and one notice names who and which sha', () => {
    const out = applyApproval(INSTRUMENT, APPROVERS, {
      approved: true,
      by: 'alice',
      sha: H,
      review: 1
    })
    expect(decide(out)).toBe('merge')
    expect(out.find(r => r.rule === 'protected-path')?.level).toBe('notice')
    expect(out.at(-1)?.message).toMatch(new RegExp(`^instrument change approved by @alice at ${H}`))
  })
  it('not approved: the failures stay and a policy failure names the approvers', () => {
    const out = applyApproval(INSTRUMENT, APPROVERS, { approved: false, why: 'none' }, [
      'acme/owners'
    ])
    expect(verdict(out)).toBe('policy')
    expect(out.at(-1)).toMatchObject({ rule: 'instrument-approval', level: 'failure' })
    expect(out.at(-1)?.message).toMatch(
      /@alice or a member of acme\/owners \(not the PR's author, not a bot\).*cannot read the team\(s\) acme\/owners/
    )
  })
  it('nothing to approve, or no approvers configured: the reasons are unchanged', () => {
    const other: Reason[] = [{ rule: 'regression', level: 'failure', message: 'x' }]
    expect(applyApproval(other, APPROVERS, { approved: true, by: 'a', sha: H, review: 1 })).toEqual(
      other
    )
    expect(applyApproval(INSTRUMENT, [], { approved: false, why: 'x' })).toEqual(INSTRUMENT)
  })
})

describe('merge_group events', () => {
  const B = '1'.repeat(40)
  const G = '2'.repeat(40)
  it('parses base, head and the PR number the queue ref names', () => {
    const ref = `refs/heads/gh-readonly-queue/main/pr-42-${'f'.repeat(40)}`
    expect(
      parseEvent('merge_group', {
        merge_group: { base_sha: B, head_sha: G, head_ref: ref, base_ref: 'refs/heads/main' }
      })
    ).toEqual({
      kind: 'merge_group',
      event: 'merge_group',
      baseSha: B,
      headSha: G,
      headRef: ref,
      baseRef: 'refs/heads/main',
      pullNumbers: [42]
    })
    expect(() => parseEvent('merge_group', { merge_group: { base_sha: B } })).toThrow(GateError)
  })
  it('queue refs: a base branch with slashes; anything else names no PR', () => {
    expect(queuedPullNumbers(`gh-readonly-queue/release/2.x/pr-7-${'a'.repeat(40)}`)).toEqual([7])
    expect(queuedPullNumbers('refs/heads/feature/pr-7-abcdef0')).toEqual([])
    expect(queuedPullNumbers('gh-readonly-queue/main/pr-x-abc')).toEqual([])
  })
  it('pull_request_review is judged like pull_request', () => {
    const pr = { pull_request: { number: 5, base: { sha: B }, head: { sha: G } } }
    expect(parseEvent('pull_request_review', pr)).toMatchObject({
      kind: 'pull_request',
      event: 'pull_request_review',
      number: 5,
      headSha: G
    })
  })
  it('fetch fallbacks: the PR ref and plain queue refs, never option-like or odd refspecs', () => {
    expect(
      fallbackRefspecs({
        baseSha: B,
        headSha: G,
        pullNumber: 3,
        refs: [
          'refs/heads/gh-readonly-queue/main/pr-3-abc',
          'main',
          '--upload-pack=x',
          'a..b',
          'x:y'
        ]
      })
    ).toEqual([
      '+refs/pull/3/head:refs/remotes/origin/oracle-gate/pull-3',
      '+refs/heads/gh-readonly-queue/main/pr-3-abc:refs/remotes/origin/oracle-gate/heads/gh-readonly-queue/main/pr-3-abc',
      '+refs/heads/main:refs/remotes/origin/oracle-gate/heads/main'
    ])
  })
})

describe('the sticky comment', () => {
  it('starts with the marker and fits GitHub limit whatever the card holds', () => {
    const card = finalize(
      emptyScorecard({ version: 't', today: '2026-06-01', policyPath: 'p' }),
      Array.from({ length: 3000 }, (_, i) => ({
        rule: 'protected-path' as const,
        level: 'failure' as const,
        path: `oracle/${i}.py`,
        message: 'm'.repeat(200)
      }))
    )
    const marker = stickyMarker('oracle-gate')
    const body = commentBody(card, marker, 'https://github.example/acme/widget/runs/9')
    expect(body.startsWith(`${marker}\n`)).toBe(true)
    expect(body.length).toBeLessThanOrEqual(COMMENT_MAX_CHARS)
    expect(body).toContain('(https://github.example/acme/widget/runs/9)')
    expect(stickyMarker('x --> <b>')).toBe('<!-- oracle-gate:sticky x ___ _b_ -->')
  })
  it('the input accepts never, on-failure and always only', () => {
    expect(commentMode('')).toBe('never')
    expect(commentMode('on-failure')).toBe('on-failure')
    expect(() => commentMode('yes')).toThrow(/never", "on-failure" or "always"/)
  })
})

describe('instrument_approvers across the merge base and the base tip', () => {
  it('only approvers both policies name may approve (a permission is intersected, not united)', () => {
    const at = (list: string) =>
      parsePolicy(policyYaml(`instrument_approvers: [${list}]\n`), '.github/oracle-gate.yml')
    const united = unitePolicies(at('alice, bob, acme/owners'), at('Alice, acme/owners, carol'))
    expect(united.policy.instrument_approvers).toEqual(['alice', 'acme/owners'])
    expect(unitePolicies(at('alice'), at('bob')).policy.instrument_approvers).toEqual([])
  })
})

describe('approvedInstrument (the pipeline step)', () => {
  const policy = parsePolicy(
    policyYaml('instrument_approvers: [alice]\n'),
    '.github/oracle-gate.yml'
  )
  it("the CLI has no reviews: an instrument change stays policy and says approvals are the action's", async () => {
    const out = await approvedInstrument(INSTRUMENT, policy, H, undefined, memoryLogger())
    expect(decide(out)).toBe('policy')
    expect(out.at(-1)?.message).toMatch(
      /approvals are read from pull request reviews by the action/
    )
  })
  it('asks the source only when the instrument was touched', async () => {
    let asked = 0
    const source = async () => {
      asked++
      return facts([review('alice', 'APPROVED')])
    }
    const other: Reason[] = [{ rule: 'regression', level: 'failure', message: 'r' }]
    expect(await approvedInstrument(other, policy, H, source, memoryLogger())).toEqual(other)
    expect(asked).toBe(0)
    expect(decide(await approvedInstrument(INSTRUMENT, policy, H, source, memoryLogger()))).toBe(
      'merge'
    )
    expect(asked).toBe(1)
  })
})
