// One artifact of a workflow run, read the one way every reader of the gate's artifacts
// (the primed base, the shard scorecards) must: the run it belongs to, expiry, size, the
// download's sha256 against the digest GitHub recorded, and one file out of the zip through
// the bounded reader. Each refusal is a reason string, never an exception, so the caller
// decides whether it falls back (primed base) or fails (a missing shard).
import { createHash } from 'node:crypto'
import type { GitHubClient, RepoRef } from './octokit.js'
import { readZipEntry } from './zip.js'

/** The largest zip the gate downloads, and the largest file it inflates out of one. */
const MAX_ZIP_BYTES = 64 * 1024 * 1024
const MAX_FILE_BYTES = 128 * 1024 * 1024

export type RunArtifact = Awaited<
  ReturnType<GitHubClient['rest']['actions']['listWorkflowRunArtifacts']>
>['data']['artifacts'][number]

/** The bytes of `file` in the artifact of run `runId`, or why they cannot be trusted. */
export async function artifactFile(
  client: GitHubClient,
  repo: RepoRef,
  artifact: RunArtifact,
  { runId, file }: { runId: number; file: string }
): Promise<Buffer | string> {
  if (artifact.workflow_run?.id !== undefined && artifact.workflow_run.id !== runId)
    return `the artifact ${artifact.id} belongs to run ${artifact.workflow_run.id}, not run ${runId}`
  if (artifact.expired) return `the artifact ${artifact.id} has expired`
  if (artifact.size_in_bytes > MAX_ZIP_BYTES)
    return `the artifact is ${artifact.size_in_bytes} bytes, more than ${MAX_ZIP_BYTES}`
  const download = await client.rest.actions.downloadArtifact({
    ...repo,
    artifact_id: artifact.id,
    archive_format: 'zip'
  })
  const zip = Buffer.from(download.data as ArrayBuffer)
  const problem = digestProblem(zip, artifact.digest)
  if (problem) return problem
  return readZipEntry(zip, file, MAX_FILE_BYTES)
}

/** The artifact's sha256 digest (GitHub records one for v4 artifacts), when it has one. */
export function digestProblem(zip: Buffer, digest: string | null | undefined): string | null {
  if (zip.length > MAX_ZIP_BYTES) return `the download is ${zip.length} bytes, more than allowed`
  if (!digest) return null
  const actual = `sha256:${createHash('sha256').update(zip).digest('hex')}`
  return actual === digest
    ? null
    : `the download's digest ${actual} is not the artifact's ${digest}`
}
