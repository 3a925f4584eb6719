// merge_group: the queue waits for the required check on the group's commit, which GitHub
// built from the base tip and the queued PR(s). The gate judges base_sha…head_sha, posts on
// head_sha, and names the PR(s) the queue branch (gh-readonly-queue/<base>/pr-<N>-<sha>)
// carries. An instrument approval carries over only when the group's commit is the merge
// of the base tip and exactly the approved head of the one PR it names.
import { check } from '../gate.js'
import { Git } from '../git/git.js'
import type { MergeGroupTarget } from '../github/event.js'
import type { GitHubClient, RepoRef } from '../github/octokit.js'
import { readApprovalFacts } from '../github/reviews.js'
import type { Logger, Scorecard } from '../types.js'
import type { ApprovalSource } from '../verdict/approval.js'
import { openSession } from './checkrun.js'
import { ensureCommits } from './fetch.js'
import { toolkitLogger } from './environment.js'
import type { RunnerEnvironment } from './environment.js'
import type { Inputs, Session } from './inputs.js'
import { eventJudgeOptions } from './primed-base.js'
import { shortSha } from '../json.js'

export async function judgeGroup(
  environment: RunnerEnvironment,
  event: MergeGroupTarget,
  inputs: Inputs,
  session: Session
): Promise<Scorecard> {
  const log = toolkitLogger(environment.toolkit)
  const { client, repo } = await openSession(
    { token: inputs.token, checkName: inputs.checkName, github: environment.github },
    event.headSha,
    session,
    log
  )
  const prs = event.pullNumbers.map(n => `#${n}`).join(', ') || 'no PR number in the ref'
  log.info(
    `merge_group ${event.headRef} (${prs}): base ${shortSha(event.baseSha)}, group ${shortSha(event.headSha)}`
  )
  const git = new Git(inputs.workdir, environment.env)
  await log.group('fetch commits', () =>
    ensureCommits(
      git,
      {
        baseSha: event.baseSha,
        headSha: event.headSha,
        refs: [event.headRef, ...(event.baseRef ? [event.baseRef] : [])]
      },
      log
    )
  )
  const card = await check({
    ...eventJudgeOptions(environment, inputs, { client, repo }, event, log),
    // No PR files list describes a group: the write set comes from git.
    approval: groupApproval(event, git, client, repo, log)
  })
  return { ...card, event: 'merge_group', pull_requests: event.pullNumbers }
}

function groupApproval(
  event: MergeGroupTarget,
  git: Git,
  client: GitHubClient,
  repo: RepoRef,
  log: Logger
): ApprovalSource {
  return async approvers => {
    const [number] = event.pullNumbers
    if (event.pullNumbers.length !== 1 || number === undefined)
      return {
        unavailable: `the merge queue ref ${event.headRef} does not name exactly one PR, so no approval can be attributed`
      }
    const facts = await readApprovalFacts(client, repo, number, approvers, log)
    const parents = await git.parents(event.headSha)
    const exact =
      parents.length === 2 && parents[0] === event.baseSha && parents[1] === facts.currentHead
    if (!exact)
      log.info(
        `the group's commit ${shortSha(event.headSha)} is not the merge of ${shortSha(event.baseSha)} and PR #${number}'s head ${shortSha(facts.currentHead)}: the PR's approval does not carry over`
      )
    return exact ? { ...facts, judged: event.headSha } : facts
  }
}
