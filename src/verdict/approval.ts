// People's instrument changes: a PR that touches the instrument (the failing tests that
// specify a bug, a fixture, a ledger row) may merge when a person the base's policy names in
// `instrument_approvers` approved exactly the commit being judged. Pure: the action reads
// the reviews through the REST API and hands them in as facts; this file only decides, and
// rewrites the instrument reasons accordingly. Without facts (the CLI) nothing changes.
import type { Reason } from '../types.js'
import { shortSha } from '../json.js'
import { instrumentTouched, isInstrumentFailure } from '../instrument/rules.js'

/** One review as the REST API lists it (GET /repos/{o}/{r}/pulls/{n}/reviews). */
export interface ReviewFact {
  id: number
  login: string
  /** user.type === 'Bot' or a "[bot]" login: never an approver. */
  bot: boolean
  /** APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED, PENDING. */
  state: string
  /** The commit the review was submitted on. */
  commit_id: string | null
  submitted_at: string | null
}

/** What the action read from the API at judge time. */
export interface ApprovalFacts {
  pull: number
  /** The PR's author: never their own approver. */
  author: string
  /** The PR's head as the API sees it now: an approval only counts on the current head. */
  currentHead: string
  /**
   * The commit judged in its stead, when that is not the head itself: a merge queue's group
   * commit whose parents are the base tip and exactly this head. Default: currentHead.
   */
  judged?: string
  reviews: readonly ReviewFact[]
  /** Members of each `org/team` approver; null when the token cannot read the team. */
  teams: Readonly<Record<string, readonly string[] | null>>
}

/** Reads the facts for the given approver list (only called when the instrument was touched). */
export type ApprovalSource = (
  approvers: readonly string[]
) => Promise<ApprovalFacts | { unavailable: string }>

export type ApprovalDecision =
  { approved: true; by: string; sha: string; review: number } | { approved: false; why: string }

const isTeam = (entry: string): boolean => entry.includes('/')
const lower = (s: string): string => s.toLowerCase()

/** Who the approver list names, resolved against the readable teams. */
function eligible(approvers: readonly string[], facts: ApprovalFacts): Set<string> {
  const out = new Set<string>()
  for (const entry of approvers) {
    if (!isTeam(entry)) out.add(lower(entry.replace(/^@/, '')))
    else for (const login of facts.teams[entry] ?? []) out.add(lower(login))
  }
  return out
}

function time(review: ReviewFact): number {
  const t = review.submitted_at ? Date.parse(review.submitted_at) : NaN
  return Number.isNaN(t) ? 0 : t
}

/** Later first: by submission time, then by id (GitHub's ids grow). */
function newestFirst(a: ReviewFact, b: ReviewFact): number {
  return time(b) - time(a) || b.id - a.id
}

/**
 * The decision for the judged head: an APPROVED review on exactly that sha, by a listed
 * approver who is neither the author nor a bot, whose own latest decisive review it is, and
 * no CHANGES_REQUESTED review by an approver after it. DISMISSED reviews count for nothing.
 */
export function judgeApproval(
  approvers: readonly string[],
  facts: ApprovalFacts,
  head: string
): ApprovalDecision {
  if ((facts.judged ?? facts.currentHead) !== head) {
    return {
      approved: false,
      why: `PR #${facts.pull} is now at ${shortSha(facts.currentHead)}, not at the judged ${shortSha(head)}`
    }
  }
  const sha = facts.currentHead
  const names = eligible(approvers, facts)
  const author = lower(facts.author)
  const counted = facts.reviews
    .filter(r => !r.bot && !/\[bot\]$/i.test(r.login) && lower(r.login) !== author)
    .filter(r => names.has(lower(r.login)))
    .filter(r => r.state === 'APPROVED' || r.state === 'CHANGES_REQUESTED')
    .sort(newestFirst)
  const latestOf = new Map<string, ReviewFact>()
  for (const r of counted) if (!latestOf.has(lower(r.login))) latestOf.set(lower(r.login), r)
  const approval = counted.find(
    r => r.state === 'APPROVED' && r.commit_id === sha && latestOf.get(lower(r.login)) === r
  )
  if (!approval) {
    const older = counted.find(r => r.state === 'APPROVED')
    return {
      approved: false,
      why: older
        ? `the approval by @${older.login} is on ${shortSha(String(older.commit_id))}, not on the current head ${shortSha(sha)} (or was superseded)`
        : `no approving review on ${shortSha(sha)} by an approver`
    }
  }
  const blocker = counted.find(r => r.state === 'CHANGES_REQUESTED' && newestFirst(r, approval) < 0)
  if (blocker) {
    return {
      approved: false,
      why: `@${blocker.login} requested changes after @${approval.login} approved`
    }
  }
  return { approved: true, by: approval.login, sha, review: approval.id }
}

/** "@alice, @bob or a member of acme/oracle-owners (not the PR's author, not a bot)". */
export function approverList(approvers: readonly string[]): string {
  const names = approvers.map(a => (isTeam(a) ? `a member of ${a}` : `@${a.replace(/^@/, '')}`))
  const joined =
    names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`
  return `${joined} (not the PR's author, not a bot)`
}

/**
 * The instrument reasons after the decision. Approved: every failing instrument reason
 * becomes a notice (still on the card, no longer deciding) and one notice says who approved
 * which sha. Not approved: the reasons stay, and one failure says who can approve.
 */
export function applyApproval(
  reasons: readonly Reason[],
  approvers: readonly string[],
  decision: ApprovalDecision,
  unreadableTeams: readonly string[] = []
): Reason[] {
  if (!instrumentTouched(reasons) || approvers.length === 0) return [...reasons]
  if (decision.approved) {
    return [
      ...reasons.map(r =>
        isInstrumentFailure(r)
          ? { ...r, level: 'notice' as const, message: `${r.message} (approved)` }
          : r
      ),
      {
        rule: 'instrument-approval',
        level: 'notice',
        message: `instrument change approved by @${decision.by} at ${decision.sha}: judged by the base's instrument, which the change replaces once merged`
      }
    ]
  }
  const teams = unreadableTeams.length
    ? `; the token cannot read the team(s) ${unreadableTeams.join(', ')}`
    : ''
  return [
    ...reasons,
    {
      rule: 'instrument-approval',
      level: 'failure',
      message: `the instrument was changed without an approval of this commit: ${decision.why}. An approving review on the current head by ${approverList(approvers)} makes it mergeable${teams}`
    }
  ]
}
