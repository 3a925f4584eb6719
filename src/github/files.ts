// GET /repos/{owner}/{repo}/pulls/{pull_number}/files: the PR's changed files, 100 a page.
// The API stops at 3000 files (later pages come back empty), so a list shorter than the
// PR's changed_files is not the write set: the caller falls back to git, which has no cap.
import type { Change, ChangeStatus, Logger } from '../types.js'
import type { GitHubClient, RepoRef } from './octokit.js'
import { getPull } from './pulls.js'
import { shortSha } from '../json.js'

export const FILES_PER_PAGE = 100
/** Documented cap of the files endpoint; pages past it are empty. */
export const FILES_API_CAP = 3000
/** A server that keeps offering "next" links past the cap is not followed forever. */
const MAX_PAGES = Math.ceil(FILES_API_CAP / FILES_PER_PAGE) + 5

export interface ApiFile {
  filename: string
  status: string
  previous_filename?: string
}

const STATUS: Readonly<Record<string, ChangeStatus>> = {
  added: 'added',
  modified: 'modified',
  removed: 'deleted',
  renamed: 'renamed',
  copied: 'copied',
  // "changed" is a mode change and "unchanged" a rename/copy leftover; both are still
  // paths the patch wrote, so they stay in the write set as modifications.
  changed: 'modified',
  unchanged: 'modified'
}

/** One API file → one write-set change. An unknown status is kept (as modified), never dropped. */
export function toChange(file: ApiFile): Change {
  const change: Change = { path: file.filename, status: STATUS[file.status] ?? 'modified' }
  if (file.previous_filename && file.previous_filename !== file.filename)
    change.previous_path = file.previous_filename
  return change
}

/** Every page of the files list, stopping at the first empty page (the cap) or the last link. */
export async function listPullFiles(
  client: GitHubClient,
  repo: RepoRef,
  number: number
): Promise<ApiFile[]> {
  const files: ApiFile[] = []
  let pages = 0
  const iterator = client.paginate.iterator(client.rest.pulls.listFiles, {
    ...repo,
    pull_number: number,
    per_page: FILES_PER_PAGE
  })
  for await (const page of iterator) {
    pages += 1
    if (page.data.length === 0 || pages > MAX_PAGES) break
    for (const f of page.data) {
      files.push({
        filename: f.filename,
        status: f.status,
        ...(f.previous_filename ? { previous_filename: f.previous_filename } : {})
      })
    }
  }
  return files
}

export interface ApiChangesRequest {
  number: number
  /** The base tip and head the gate judges; the API list only counts when the PR still has them. */
  baseSha: string
  headSha: string
}

/**
 * The PR's changed files from the API, or null when git must be used instead: the list is
 * capped, or the PR moved (new head or base tip) since the commits being judged, so the API
 * would describe another diff. Request failures (after retries) propagate: a gate error.
 */
export async function apiChanges(
  client: GitHubClient,
  repo: RepoRef,
  request: ApiChangesRequest,
  log: Logger
): Promise<Change[] | null> {
  const pull = await getPull(client, repo, request.number)
  if (pull.headSha !== request.headSha) {
    log.info(
      `PR #${request.number} head moved to ${shortSha(pull.headSha)} since ${shortSha(request.headSha)}: the write set comes from git`
    )
    return null
  }
  if (pull.baseSha !== request.baseSha) {
    log.info(
      `PR #${request.number} base moved to ${shortSha(pull.baseSha)} since ${shortSha(request.baseSha)}: the write set comes from git`
    )
    return null
  }
  const files = await listPullFiles(client, repo, request.number)
  if (files.length !== pull.changedFiles) {
    const why =
      files.length < pull.changedFiles && files.length >= FILES_API_CAP
        ? ` (the files API stops at ${FILES_API_CAP})`
        : ''
    log.warning(
      `the API listed ${files.length} of the PR's ${pull.changedFiles} changed files${why}: the write set comes from git`
    )
    return null
  }
  log.info(`${files.length} changed file(s) from the PR files API`)
  return files.map(toChange)
}
