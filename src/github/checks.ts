// The check run that carries the verdict on the head commit: created in_progress at the
// start (so branch protection sees it pending), completed with the conclusion, the scorecard
// as summary and annotations 50 per request. A re-run of the workflow finds the run it
// posted before (same name, same external_id, same sha) and updates it instead of adding one.
import { plainText } from '../report/sanitize.js'
import type { Level, Reason } from '../types.js'
import type { GitHubClient, RepoRef } from './octokit.js'

/** Checks API limits. */
export const ANNOTATIONS_PER_REQUEST = 50
export const SUMMARY_MAX_CHARS = 65_535
/** More annotations than this only bury the first ones; the card has the rest. */
export const MAX_ANNOTATIONS = 500
const ANNOTATION_MESSAGE_MAX = 4_000
const TITLE_MAX = 255

/**
 * Marks the check runs this action owns. A job named like the check also has a check run
 * of that name on the sha (owned by the same Actions app): the external_id keeps the
 * action from ever adopting and rewriting it.
 */
export const EXTERNAL_ID = 'oracle-gate'

export interface Annotation {
  path: string
  start_line: number
  end_line: number
  annotation_level: 'failure' | 'warning' | 'notice'
  message: string
  title: string
}

const LEVEL: Readonly<Record<Level, Annotation['annotation_level']>> = {
  failure: 'failure',
  warning: 'warning',
  notice: 'notice'
}

/** Annotations for the reasons that name a file, in the card's order (failures first), capped. */
export function toAnnotations(
  reasons: readonly Reason[],
  cap = MAX_ANNOTATIONS
): { annotations: Annotation[]; omitted: number } {
  const withPath = reasons.filter(r => r.path)
  const annotations = withPath.slice(0, cap).map(r => {
    const line = r.line && r.line > 0 ? r.line : 1
    return {
      path: r.path as string,
      start_line: line,
      end_line: line,
      annotation_level: LEVEL[r.level],
      message: clip(plainText(r.message), ANNOTATION_MESSAGE_MAX),
      title: clip(`oracle-gate: ${r.rule}`, TITLE_MAX)
    }
  })
  return { annotations, omitted: withPath.length - annotations.length }
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}

export interface CheckRunRef {
  id: number
  /** True when an earlier run's check run was found and reused. */
  reused: boolean
  /** Annotations an earlier run left on it (the API appends; it cannot delete them). */
  priorAnnotations: number
}

export interface StartRequest {
  name: string
  headSha: string
  detailsUrl?: string
}

/** Our earlier check run of this name on this sha, if any. */
export async function findCheckRun(
  client: GitHubClient,
  repo: RepoRef,
  name: string,
  headSha: string
): Promise<{ id: number; annotations: number } | null> {
  const runs = await client.paginate(client.rest.checks.listForRef, {
    ...repo,
    ref: headSha,
    check_name: name,
    filter: 'all',
    per_page: 100
  })
  const ours = runs.filter(
    r => r.name === name && r.head_sha === headSha && r.external_id === EXTERNAL_ID
  )
  // The newest one wins when several exist (runs posted before this action reused them).
  ours.sort((a, b) => b.id - a.id)
  const newest = ours[0]
  return newest ? { id: newest.id, annotations: newest.output.annotations_count } : null
}

/** Identity of an annotation, to avoid posting one a re-run already posted. */
export function annotationKey(
  a: Pick<Annotation, 'path' | 'start_line' | 'annotation_level' | 'message'>
): string {
  return JSON.stringify([a.path, a.start_line, a.annotation_level, a.message])
}

/** Keys of the annotations already on a check run. */
export async function existingAnnotationKeys(
  client: GitHubClient,
  repo: RepoRef,
  id: number
): Promise<Set<string>> {
  const existing = await client.paginate(client.rest.checks.listAnnotations, {
    ...repo,
    check_run_id: id,
    per_page: 100
  })
  return new Set(
    existing.map(a =>
      annotationKey({
        path: a.path,
        start_line: a.start_line,
        annotation_level: (a.annotation_level ?? 'notice') as Annotation['annotation_level'],
        message: a.message ?? ''
      })
    )
  )
}

/** Creates the pending check run, or puts our existing one back in progress (a re-run). */
export async function startCheckRun(
  client: GitHubClient,
  repo: RepoRef,
  request: StartRequest
): Promise<CheckRunRef> {
  const now = new Date().toISOString()
  const output = {
    title: 'judging…',
    summary: 'oracle-gate is replaying the locked suite on the merge base and the head.'
  }
  const existing = await findCheckRun(client, repo, request.name, request.headSha)
  const common = {
    status: 'in_progress' as const,
    started_at: now,
    output,
    ...(request.detailsUrl ? { details_url: request.detailsUrl } : {})
  }
  if (existing !== null) {
    await client.rest.checks.update({ ...repo, check_run_id: existing.id, ...common })
    return { id: existing.id, reused: true, priorAnnotations: existing.annotations }
  }
  const { data } = await client.rest.checks.create({
    ...repo,
    name: request.name,
    head_sha: request.headSha,
    external_id: EXTERNAL_ID,
    ...common
  })
  return { id: data.id, reused: false, priorAnnotations: 0 }
}

export interface CompleteRequest {
  conclusion: 'success' | 'failure'
  title: string
  /** Must already fit SUMMARY_MAX_CHARS. */
  summary: string
  annotations: readonly Annotation[]
}

/**
 * Completes the run: the first request carries the conclusion and the first 50 annotations
 * (so the verdict lands even if a later request fails); follow-up updates append the rest.
 * Returns how many requests it made.
 */
export async function completeCheckRun(
  client: GitHubClient,
  repo: RepoRef,
  id: number,
  request: CompleteRequest
): Promise<number> {
  if (request.summary.length > SUMMARY_MAX_CHARS)
    throw new Error(
      `check-run summary is ${request.summary.length} characters; the limit is ${SUMMARY_MAX_CHARS}`
    )
  const title = clip(request.title, TITLE_MAX)
  const batches = chunk(request.annotations, ANNOTATIONS_PER_REQUEST)
  const [first = [], ...rest] = batches
  await client.rest.checks.update({
    ...repo,
    check_run_id: id,
    status: 'completed',
    conclusion: request.conclusion,
    completed_at: new Date().toISOString(),
    output: { title, summary: request.summary, ...(first.length ? { annotations: first } : {}) }
  })
  for (const batch of rest) {
    await client.rest.checks.update({
      ...repo,
      check_run_id: id,
      output: { title, summary: request.summary, annotations: batch }
    })
  }
  return 1 + rest.length
}
