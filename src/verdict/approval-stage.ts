// The approval step of the pipeline: asks the action's source for the reviews only when the
// instrument was touched and the base's policy names approvers, then lets approval.ts
// decide. Without a source (the CLI) an instrument change stays policy, with a note saying
// approvals are read by the action.
import { instrumentTouched } from '../instrument/index.js'
import type { Policy } from '../policy/types.js'
import type { Logger, Reason } from '../types.js'
import { applyApproval, approverList, judgeApproval } from './approval.js'
import type { ApprovalSource } from './approval.js'
import { shortSha } from '../json.js'

export async function approvedInstrument(
  reasons: readonly Reason[],
  policy: Policy,
  head: string,
  source: ApprovalSource | undefined,
  log: Logger
): Promise<Reason[]> {
  const approvers = policy.instrument_approvers
  if (approvers.length === 0 || !instrumentTouched(reasons)) return [...reasons]
  if (!source) {
    return applyApproval(reasons, approvers, {
      approved: false,
      why: 'approvals are read from pull request reviews by the action; this run has none'
    })
  }
  // A request that fails (after retries) is a gate error, as every API failure is.
  const facts = await source(approvers)
  if ('unavailable' in facts)
    return applyApproval(reasons, approvers, { approved: false, why: facts.unavailable })
  const decision = judgeApproval(approvers, facts, head)
  const unreadable = Object.entries(facts.teams)
    .filter(([, members]) => members === null)
    .map(([team]) => team)
  log.info(
    decision.approved
      ? `instrument change approved by @${decision.by} at ${shortSha(decision.sha)}`
      : `instrument change not approved (${decision.why}); approvers: ${approverList(approvers)}`
  )
  return applyApproval(reasons, approvers, decision, unreadable)
}
