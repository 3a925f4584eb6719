// What the triggering event asks the gate to do. Pure parsing of the webhook payload: which
// commits to judge (pull_request*, pull_request_review, merge_group), nothing (push,
// workflow_dispatch), or which PR to report on (workflow_run). Anything else is a
// configuration error, never a silent pass.
import { GateError } from '../errors.js'

export interface PullRequestTarget {
  kind: 'pull_request'
  event: string
  number: number
  /** Tip of the base branch when the event fired; the gate judges from its merge base. */
  baseSha: string
  headSha: string
  /** owner/name the head commit lives in (a fork's name for fork PRs). */
  headRepo?: string
  /** repository.default_branch: where a trusted primed base result comes from. */
  defaultBranch?: string
}

/** mode: prime on push: the pushed commit, and whether the push was to the default branch. */
export interface PushTarget {
  kind: 'push'
  /** refs/heads/<branch> that was pushed. */
  ref: string
  /** The pushed commit (payload `after`). */
  sha: string
  defaultBranch?: string
}

export interface NothingToJudge {
  kind: 'nothing'
  event: string
  message: string
}

export interface WorkflowRunTarget {
  kind: 'workflow_run'
  event: 'workflow_run'
  runId: number
  /** The head sha the triggering run judged: set by GitHub, not by the run's code. */
  headSha: string
  headRepo?: string
  /** Event that triggered the judged run (pull_request for the fork pattern). */
  triggeringEvent: string
  /** Empty for fork PRs, which is why report mode also reads the artifact's event file. */
  pullNumbers: number[]
}

/** A merge queue's group: the commit GitHub built from the base tip and the queued PR(s). */
export interface MergeGroupTarget {
  kind: 'merge_group'
  event: 'merge_group'
  /** Tip of the base branch the group was built on. */
  baseSha: string
  /** The group's commit: the check run the queue waits for is on this sha. */
  headSha: string
  /** refs/heads/gh-readonly-queue/<base>/pr-<N>-<sha>: where the group's commit lives. */
  headRef: string
  baseRef?: string
  /** The PR(s) the head ref names (the queue names the newest entry of the group). */
  pullNumbers: number[]
  defaultBranch?: string
}

export type GateEvent = PullRequestTarget | NothingToJudge | WorkflowRunTarget | MergeGroupTarget

const NOTHING = new Set(['push', 'workflow_dispatch', 'schedule'])

/** Events whose payload carries pull_request { number, base.sha, head.sha }. */
const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target', 'pull_request_review'])

type Json = Record<string, unknown>

function obj(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : undefined
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/

/** repository.default_branch of a payload, when it names one. */
function defaultBranchOf(payload: unknown): { defaultBranch?: string } {
  const branch = str(obj(obj(payload)?.repository)?.default_branch)
  return branch ? { defaultBranch: branch } : {}
}

/** The push a prime-mode run measures: a branch push that left a commit (not a deletion). */
export function pushFrom(payload: unknown): PushTarget {
  const p = obj(payload)
  const ref = str(p?.ref)
  const sha = str(p?.after)
  if (!ref || !sha || !SHA.test(sha) || /^0+$/.test(sha) || p?.deleted === true) {
    throw new GateError('the push payload has no ref / after commit (a deleted branch?)', {
      rule: 'config-invalid'
    })
  }
  return { kind: 'push', ref, sha, ...defaultBranchOf(payload) }
}

export function parseEvent(name: string | undefined, payload: unknown): GateEvent {
  if (!name) {
    throw new GateError(
      'no GitHub event: GITHUB_EVENT_NAME is not set (outside Actions use the CLI: oracle-gate check --base REF)',
      {
        rule: 'config-invalid'
      }
    )
  }
  if (PULL_REQUEST_EVENTS.has(name)) return pullRequestFrom(name, payload)
  if (name === 'merge_group') return mergeGroupFrom(payload)
  if (name === 'workflow_run') return workflowRunFrom(payload)
  if (NOTHING.has(name)) {
    return {
      kind: 'nothing',
      event: name,
      message: `nothing to judge: a ${name} event carries no pull request. oracle-gate judges pull_request, pull_request_target, pull_request_review and merge_group events (or reports on workflow_run with mode: report); the verdict is no-vote and nothing is claimed mergeable`
    }
  }
  throw new GateError(
    `event "${name}" is not supported: run oracle-gate on pull_request, pull_request_target, pull_request_review or merge_group, or on workflow_run with mode: report`,
    { rule: 'config-invalid' }
  )
}

/** A pull_request-shaped payload (the live event, or the event file of a report artifact). */
export function pullRequestFrom(event: string, payload: unknown): PullRequestTarget {
  const pr = obj(obj(payload)?.pull_request)
  const number = pr?.number
  const baseSha = str(obj(pr?.base)?.sha)
  const headSha = str(obj(pr?.head)?.sha)
  if (
    typeof number !== 'number' ||
    !Number.isInteger(number) ||
    number < 1 ||
    !baseSha ||
    !headSha
  ) {
    throw new GateError(`the ${event} payload has no pull_request.number / base.sha / head.sha`, {
      rule: 'config-invalid'
    })
  }
  if (!SHA.test(baseSha) || !SHA.test(headSha)) {
    throw new GateError(
      `the ${event} payload's base/head are not commit shas (${baseSha}, ${headSha})`,
      { rule: 'config-invalid' }
    )
  }
  const headRepo = str(obj(obj(obj(pr)?.head)?.repo)?.full_name)
  return {
    kind: 'pull_request',
    event,
    number,
    baseSha,
    headSha,
    ...(headRepo ? { headRepo } : {}),
    ...defaultBranchOf(payload)
  }
}

/** gh-readonly-queue/<base>/pr-<N>-<sha>: the PR numbers a merge queue ref names. */
export function queuedPullNumbers(headRef: string): number[] {
  const branch = headRef.replace(/^refs\/heads\//, '')
  if (!branch.startsWith('gh-readonly-queue/')) return []
  const numbers = [...branch.matchAll(/(?:^|\/)pr-(\d+)-[0-9a-f]{7,64}(?=$|\/)/g)].map(m =>
    Number(m[1])
  )
  return [...new Set(numbers)].filter(n => Number.isSafeInteger(n) && n > 0)
}

function mergeGroupFrom(payload: unknown): MergeGroupTarget {
  const group = obj(obj(payload)?.merge_group)
  const baseSha = str(group?.base_sha)
  const headSha = str(group?.head_sha)
  const headRef = str(group?.head_ref)
  if (!baseSha || !headSha || !headRef || !SHA.test(baseSha) || !SHA.test(headSha)) {
    throw new GateError(
      'the merge_group payload has no merge_group.base_sha / head_sha / head_ref (commit shas)',
      { rule: 'config-invalid' }
    )
  }
  const baseRef = str(group?.base_ref)
  return {
    kind: 'merge_group',
    event: 'merge_group',
    baseSha,
    headSha,
    headRef,
    ...(baseRef ? { baseRef } : {}),
    pullNumbers: queuedPullNumbers(headRef),
    ...defaultBranchOf(payload)
  }
}

function workflowRunFrom(payload: unknown): WorkflowRunTarget {
  const run = obj(obj(payload)?.workflow_run)
  const runId = run?.id
  const headSha = str(run?.head_sha)
  if (typeof runId !== 'number' || !headSha || !SHA.test(headSha)) {
    throw new GateError('the workflow_run payload has no workflow_run.id / head_sha', {
      rule: 'config-invalid'
    })
  }
  const pulls = Array.isArray(run?.pull_requests) ? run.pull_requests : []
  const pullNumbers = pulls
    .map(p => obj(p)?.number)
    .filter((n): n is number => typeof n === 'number')
  const headRepo = str(obj(run?.head_repository)?.full_name)
  return {
    kind: 'workflow_run',
    event: 'workflow_run',
    runId,
    headSha,
    triggeringEvent: str(run?.event) ?? '',
    pullNumbers,
    ...(headRepo ? { headRepo } : {})
  }
}
