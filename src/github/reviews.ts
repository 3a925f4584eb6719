// The facts behind an instrument approval, read through the REST API at judge time (never
// from the event payload, which a re-run replays unchanged): the PR's author and current
// head (GET /pulls/{n}), every review (GET /pulls/{n}/reviews, all pages), and the members
// of each `org/team` approver (GET /orgs/{org}/teams/{slug}/members; null when the token
// cannot read the team, which the card then says).
import type { ApprovalFacts, ReviewFact } from '../verdict/approval.js'
import type { Logger } from '../types.js'
import type { GitHubClient, RepoRef } from './octokit.js'
import { httpStatus } from './octokit.js'
import { shortSha } from '../json.js'

export async function readApprovalFacts(
  client: GitHubClient,
  repo: RepoRef,
  number: number,
  approvers: readonly string[],
  log: Logger
): Promise<ApprovalFacts> {
  const { data: pull } = await client.rest.pulls.get({ ...repo, pull_number: number })
  const reviews = await client.paginate(client.rest.pulls.listReviews, {
    ...repo,
    pull_number: number,
    per_page: 100
  })
  const teams: Record<string, string[] | null> = {}
  for (const entry of approvers.filter(a => a.includes('/')))
    teams[entry] = await teamMembers(client, entry, log)
  log.info(
    `PR #${number} by @${pull.user.login}: ${reviews.length} review(s); head ${shortSha(pull.head.sha)}`
  )
  return {
    pull: number,
    author: pull.user.login,
    currentHead: pull.head.sha,
    reviews: reviews.map((r): ReviewFact => ({
      id: r.id,
      login: r.user?.login ?? '',
      bot: r.user?.type === 'Bot',
      state: r.state,
      commit_id: r.commit_id,
      submitted_at: r.submitted_at ?? null
    })),
    teams
  }
}

async function teamMembers(
  client: GitHubClient,
  entry: string,
  log: Logger
): Promise<string[] | null> {
  const [org = '', slug = ''] = entry.split('/')
  try {
    const members = await client.paginate(client.rest.teams.listMembersInOrg, {
      org,
      team_slug: slug,
      per_page: 100
    })
    return members.map(m => m.login)
  } catch (error) {
    const status = httpStatus(error)
    if (status !== 403 && status !== 404) throw error
    log.warning(
      `cannot read the members of team ${entry} (HTTP ${status}): its members cannot approve with this token (docs/github.md, "People's instrument changes")`
    )
    return null
  }
}
