// mode: merge reads the shard scorecards as artifacts of this same workflow run (its
// matrix's `oracle-gate-shard-<I>-of-<N>` uploads), through the API by run id: never an
// artifact of another run, whoever made it. Each is checked the way a primed artifact is
// (src/github/primed.ts): it names this run, it has not expired, its size is bounded, the
// download's sha256 is the artifact's digest, and the zip holds exactly one shard.json
// (zip.ts). Any problem is a gate error naming the artifact: a shard that cannot be read is
// never just left out (the merge would then also refuse it as missing).
import { GateError } from '../errors.js'
import { logText } from '../report/sanitize.js'
import type { ShardFile } from '../shard/shards.js'
import type { Logger } from '../types.js'
import type { GitHubClient, RepoRef } from './octokit.js'
import { artifactFile, type RunArtifact } from './artifacts.js'

/** The file inside each shard artifact (mode: shard writes it). */
export const SHARD_FILE = 'shard.json'
const NAME = /^oracle-gate-shard-(\d{1,3})-of-(\d{1,3})$/

export function shardArtifactName(index: number, total: number): string {
  return `oracle-gate-shard-${index}-of-${total}`
}

/** The shard files of run `runId`, one per shard artifact, named by artifact. */
export async function fetchShards(
  client: GitHubClient,
  repo: RepoRef,
  runId: number,
  log: Logger
): Promise<ShardFile[]> {
  const artifacts = await listArtifacts(client, repo, runId)
  const shards = artifacts.filter(a => NAME.test(a.name))
  log.info(`workflow run ${runId}: ${shards.length} shard artifact(s) of ${artifacts.length}`)
  const files: ShardFile[] = []
  for (const artifact of shards) {
    const text = await shardOf(client, repo, runId, artifact)
    if (typeof text === 'string') files.push({ name: artifact.name, text })
    else throw new GateError(`merge: artifact ${logText(artifact.name)}: ${text.why}`)
  }
  return files
}

type ApiArtifact = RunArtifact

async function listArtifacts(
  client: GitHubClient,
  repo: RepoRef,
  runId: number
): Promise<ApiArtifact[]> {
  const out: ApiArtifact[] = []
  // A matrix has at most 256 jobs: three pages of 100 hold every artifact that can matter.
  for (let page = 1; page <= 3; page++) {
    const { data } = await client.rest.actions.listWorkflowRunArtifacts({
      ...repo,
      run_id: runId,
      per_page: 100,
      page
    })
    out.push(...data.artifacts)
    if (data.artifacts.length < 100) break
  }
  return out
}

async function shardOf(
  client: GitHubClient,
  repo: RepoRef,
  runId: number,
  artifact: ApiArtifact
): Promise<string | { why: string }> {
  if (artifact.workflow_run?.id !== runId)
    return {
      why: `the artifact ${artifact.id} belongs to run ${artifact.workflow_run?.id ?? 'unknown'}, not this run ${runId}`
    }
  const bytes = await artifactFile(client, repo, artifact, { runId, file: SHARD_FILE })
  if (typeof bytes === 'string') return { why: bytes }
  return bytes.toString('utf8')
}
