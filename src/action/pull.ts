// The start every judging of a pull-request event shares (the judge and the shard merge):
// the check-run session on the head and the commits fetched into the checkout, then the
// PR's files list and reviews as the write-set and approval sources.
import type { PullRequestTarget } from '../github/event.js'
import { Git } from '../git/git.js'
import { apiChanges } from '../github/files.js'
import type { GitHubClient, RepoRef } from '../github/octokit.js'
import { readApprovalFacts } from '../github/reviews.js'
import type { CheckOptions } from '../gate.js'
import type { Logger } from '../types.js'
import { openSession } from './checkrun.js'
import { toolkitLogger, type RunnerEnvironment } from './environment.js'
import { ensureCommits } from './fetch.js'
import type { Inputs, Session } from './inputs.js'

/**
 * What every judging of a pull-request event does first: the check-run session opened on
 * the head, the client for it, and the commits the gate needs fetched into the checkout.
 */
/** A pull request opened for judging: the API client for its repository, and the log. */
export interface OpenedPull {
  client: GitHubClient
  repo: RepoRef
  log: Logger
}

export async function openPullRequest(
  environment: RunnerEnvironment,
  event: PullRequestTarget,
  inputs: Inputs,
  session: Session
): Promise<OpenedPull> {
  const log = toolkitLogger(environment.toolkit)
  session.pullNumber = event.number
  const { client, repo } = await openSession(
    { token: inputs.token, checkName: inputs.checkName, github: environment.github },
    event.headSha,
    session,
    log
  )
  await log.group('fetch commits', () =>
    ensureCommits(
      new Git(inputs.workdir, environment.env),
      { baseSha: event.baseSha, headSha: event.headSha, pullNumber: event.number },
      log
    )
  )
  return { client, repo, log }
}

/**
 * The PR's own sources for check(): its files list through the API (the write set) and
 * its reviews, read at judge time, never from the payload (a re-run replays the payload
 * unchanged).
 */
export function pullRequestSources(
  client: GitHubClient,
  repo: RepoRef,
  pull: { number: number; baseSha: string; headSha: string },
  log: Logger
): Required<Pick<CheckOptions, 'changes' | 'approval'>> {
  const { number, baseSha, headSha } = pull
  return {
    changes: () => apiChanges(client, repo, { number, baseSha, headSha }, log),
    approval: approvers => readApprovalFacts(client, repo, number, approvers, log)
  }
}
