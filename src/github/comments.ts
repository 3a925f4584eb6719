// The sticky PR comment: one comment per check name, found again by a hidden marker on its
// first line and edited in place, so a PR that is re-judged ten times carries one comment,
// not ten. Only a bot's comment is adopted: a person who pastes the marker into their own
// comment does not get it rewritten (GET/POST /issues/{n}/comments, PATCH /issues/comments/{id}).
import type { GitHubClient, RepoRef } from './octokit.js'

/** GitHub's limit on a comment body. */
export const COMMENT_MAX_CHARS = 65_536

export function stickyMarker(checkName: string): string {
  // "--" would end the HTML comment early: only single dashes survive.
  const name = checkName
    .replace(/[^A-Za-z0-9 ._/-]/g, '_')
    .replace(/-{2,}/g, m => '_'.repeat(m.length))
  return `<!-- oracle-gate:sticky ${name} -->`
}

export async function findSticky(
  client: GitHubClient,
  repo: RepoRef,
  number: number,
  marker: string
): Promise<number | null> {
  const comments = await client.paginate(client.rest.issues.listComments, {
    ...repo,
    issue_number: number,
    per_page: 100
  })
  const ours = comments.find(c => c.user?.type === 'Bot' && (c.body ?? '').startsWith(marker))
  return ours ? ours.id : null
}

/** Creates the comment or edits the one found; says which. */
export async function upsertSticky(
  client: GitHubClient,
  repo: RepoRef,
  number: number,
  existing: number | null,
  body: string
): Promise<'created' | 'updated'> {
  if (existing !== null) {
    await client.rest.issues.updateComment({ ...repo, comment_id: existing, body })
    return 'updated'
  }
  await client.rest.issues.createComment({ ...repo, issue_number: number, body })
  return 'created'
}
