// GET /repos/{owner}/{repo}/pulls/{pull_number}: the PR as GitHub sees it now, which may
// have moved on since the event fired (a new push, a new base tip).
import type { GitHubClient, RepoRef } from './octokit.js'

export interface PullInfo {
  number: number
  state: string
  headSha: string
  baseSha: string
  baseRef: string
  /** owner/name of the head repository (null when the fork was deleted). */
  headRepo: string | null
  /** How many files the PR changes: the figure the files list is checked against. */
  changedFiles: number
}

export async function getPull(
  client: GitHubClient,
  repo: RepoRef,
  number: number
): Promise<PullInfo> {
  const { data } = await client.rest.pulls.get({ ...repo, pull_number: number })
  return {
    number: data.number,
    state: data.state,
    headSha: data.head.sha,
    baseSha: data.base.sha,
    baseRef: data.base.ref,
    headRepo: data.head.repo?.full_name ?? null,
    changedFiles: data.changed_files
  }
}
