// The check run's life in the action: opened pending before judging, completed with the
// card afterwards. A 403 (a fork's read-only token) is not an error of the gate: the
// verdict still reaches the job summary, the step's annotations and the step's outcome.
import { errorMessage } from '../errors.js'
import {
  SUMMARY_MAX_CHARS,
  annotationKey,
  completeCheckRun,
  existingAnnotationKeys,
  startCheckRun,
  toAnnotations
} from '../github/checks.js'
import type { Annotation } from '../github/checks.js'
import type { GitHubClient, RepoRef } from '../github/octokit.js'
import { createClient, httpStatus, parseRepo } from '../github/octokit.js'
import { renderMarkdown, title } from '../report/markdown.js'
import type { Logger, Scorecard } from '../types.js'
import type { GitHubAccess } from './environment.js'
import { conclusion } from '../verdict/verdict.js'
import { shortSha } from '../json.js'

export type Posting =
  | { kind: 'open'; id: number; reused: boolean; priorAnnotations: number }
  /** The token may not create check runs (fork PRs, read-only tokens). */
  | { kind: 'refused'; message: string }
  /** Creation failed for another reason; completion tries once more. */
  | { kind: 'failed'; message: string }

export interface CheckRunTarget {
  client: GitHubClient
  repo: RepoRef
  name: string
  headSha: string
  detailsUrl?: string
  log: Logger
}

export async function openCheckRun(target: CheckRunTarget): Promise<Posting> {
  try {
    const ref = await startCheckRun(target.client, target.repo, {
      name: target.name,
      headSha: target.headSha,
      ...(target.detailsUrl ? { detailsUrl: target.detailsUrl } : {})
    })
    target.log.info(
      `check run "${target.name}" ${ref.reused ? 'reused (a re-run)' : 'created'} on ${shortSha(target.headSha)}: in progress`
    )
    return { kind: 'open', ...ref }
  } catch (error) {
    const message = errorMessage(error)
    if (httpStatus(error) === 403) {
      target.log.warning(
        `cannot create the check run (${message}): the token is read-only (a fork's pull_request run?). The verdict goes to the job summary and the step's outcome; post it with the workflow_run report mode (docs/github.md)`
      )
      return { kind: 'refused', message }
    }
    target.log.warning(`could not create the check run yet: ${message}`)
    return { kind: 'failed', message }
  }
}

export interface CompletionResult {
  /** null when posted; otherwise why the verdict is not on the check run. */
  problem: string | null
  refused: boolean
  requests: number
}

/**
 * Completes the check run with the card. Returns a problem instead of throwing: the card
 * must still reach the job summary and the step outcome when the API is down.
 */
export async function finishCheckRun(
  target: CheckRunTarget,
  posting: Posting,
  card: Scorecard
): Promise<CompletionResult> {
  if (posting.kind === 'refused') return { problem: posting.message, refused: true, requests: 0 }
  const current = posting.kind === 'open' ? posting : await openCheckRun(target)
  if (current.kind !== 'open') {
    return { problem: current.message, refused: current.kind === 'refused', requests: 0 }
  }
  const { annotations: all, omitted } = toAnnotations(card.reasons)
  const { annotations, stale } = await skipPosted(target, current, all)
  const notes = [
    omitted > 0
      ? `${omitted} more annotation(s) not posted (the first ${all.length} are); every reason is in the scorecard JSON.`
      : '',
    stale > 0
      ? `${stale} annotation(s) from an earlier run of this check remain on it (the Checks API cannot remove annotations); the reasons above are the current ones.`
      : ''
  ].filter(Boolean)
  const note = notes.length ? `\n\n${notes.map(n => `_${n}_`).join('\n\n')}\n` : ''
  const hint = target.detailsUrl
    ? `in the job summary and the scorecard JSON of [the workflow run](${target.detailsUrl})`
    : 'in the job summary and the scorecard JSON'
  const summary =
    renderMarkdown(card, { maxChars: SUMMARY_MAX_CHARS - note.length, fullCardHint: hint }) + note
  try {
    const requests = await completeCheckRun(target.client, target.repo, current.id, {
      conclusion: conclusion(card.verdict),
      title: title(card),
      summary,
      annotations
    })
    target.log.info(
      `check run completed: ${conclusion(card.verdict)}, ${annotations.length} new annotation(s) in ${requests} request(s)${omitted ? `, ${omitted} left to the card` : ''}${all.length > annotations.length ? `, ${all.length - annotations.length} already posted by an earlier run` : ''}`
    )
    return { problem: null, refused: false, requests }
  } catch (error) {
    return { problem: errorMessage(error), refused: httpStatus(error) === 403, requests: 0 }
  }
}

/** A re-run reuses the check run; the annotations it already carries are not posted twice. */
async function skipPosted(
  target: CheckRunTarget,
  run: { reused: boolean; priorAnnotations: number; id: number },
  annotations: Annotation[]
): Promise<{ annotations: Annotation[]; stale: number }> {
  if (!run.reused || run.priorAnnotations === 0) return { annotations, stale: 0 }
  try {
    const posted = await existingAnnotationKeys(target.client, target.repo, run.id)
    const fresh = annotations.filter(a => !posted.has(annotationKey(a)))
    return {
      annotations: fresh,
      stale: Math.max(0, posted.size - (annotations.length - fresh.length))
    }
  } catch (error) {
    target.log.warning(
      `could not list the check run's earlier annotations (${errorMessage(error)}); posting all`
    )
    return { annotations, stale: 0 }
  }
}

/**
 * The one Octokit of a run and the check run it posts on `headSha`, opened in progress at
 * once so branch protection sees the gate pending. Both modes (judge, report) start here.
 */
export async function openSession(
  options: { token: string; checkName: string; github: GitHubAccess },
  headSha: string,
  session: { headSha?: string; check?: { target: CheckRunTarget; posting: Posting } },
  log: Logger
): Promise<{ client: GitHubClient; repo: RepoRef }> {
  session.headSha = headSha
  const { github } = options
  const repo = parseRepo(github.repository)
  const client = createClient({
    token: options.token,
    log,
    timing: github.timing,
    ...(github.apiUrl ? { baseUrl: github.apiUrl } : {})
  })
  const target: CheckRunTarget = {
    client,
    repo,
    name: options.checkName,
    headSha,
    log,
    ...(github.detailsUrl ? { detailsUrl: github.detailsUrl } : {})
  }
  session.check = { target, posting: await openCheckRun(target) }
  return { client, repo }
}
