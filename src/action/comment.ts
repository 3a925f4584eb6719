// The PR comment (input `comment: never | on-failure | always`): the card's top section and
// a link to the check run, in one sticky comment. It is a convenience: the check run carries
// the verdict, so a comment that cannot be posted (a fork's read-only token, an API outage)
// is a warning, never a change of verdict or of the step's outcome.
import { GateError, errorMessage } from '../errors.js'
import { COMMENT_MAX_CHARS, findSticky, stickyMarker, upsertSticky } from '../github/comments.js'
import type { GitHubClient, RepoRef } from '../github/octokit.js'
import { renderTop } from '../report/markdown.js'
import type { Logger, Scorecard } from '../types.js'

export type CommentMode = 'never' | 'on-failure' | 'always'

export function commentMode(raw: string): CommentMode {
  const mode = raw || 'never'
  if (mode !== 'never' && mode !== 'on-failure' && mode !== 'always')
    throw new GateError(`input comment must be "never", "on-failure" or "always", got "${raw}"`, {
      rule: 'config-invalid'
    })
  return mode
}

export interface CommentTarget {
  client: GitHubClient
  repo: RepoRef
  number: number
  checkName: string
  /** The check run's page, when it was posted. */
  checkRunUrl?: string
  log: Logger
}

/** The comment's body: marker, the card's top, the link; within GitHub's limit. */
export function commentBody(card: Scorecard, marker: string, checkRunUrl?: string): string {
  const link = checkRunUrl
    ? `\n\n[Full scorecard in the check run](${checkRunUrl})`
    : '\n\n_The check run could not be posted; the full scorecard is in the job summary._'
  const room = COMMENT_MAX_CHARS - marker.length - link.length - 2
  return `${marker}\n${renderTop(card, { maxChars: room })}${link}\n`
}

export async function postComment(
  mode: CommentMode,
  card: Scorecard,
  target: CommentTarget
): Promise<void> {
  if (mode === 'never') return
  const { client, repo, number, log } = target
  const marker = stickyMarker(target.checkName)
  try {
    const existing = await findSticky(client, repo, number, marker)
    // on-failure: a new comment only for a failure, but an existing one always follows the
    // verdict, so a fixed PR does not keep showing its old failure.
    if (mode === 'on-failure' && card.merge && existing === null) return
    const done = await upsertSticky(
      client,
      repo,
      number,
      existing,
      commentBody(card, marker, target.checkRunUrl)
    )
    log.info(`PR comment ${done} on #${number}`)
  } catch (error) {
    log.warning(
      `could not post the PR comment on #${number} (${errorMessage(error)}); it needs pull-requests: write. The verdict stands on the check run.`
    )
  }
}
