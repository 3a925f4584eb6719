// The primed base result of a merge base, found on GitHub (input primed-base: auto): the
// artifact `oracle-gate-primed-<sha>` of a successful push run of this same workflow file
// on the default branch at exactly the merge base. Pull-request runs executed the patch's
// code, so nothing they uploaded is read: the search asks for push runs, and every run it
// returns is verified again on its own fields (prime/provenance.ts) before its artifact is
// looked at. Any failure or doubt is a reason string: the base side then simply runs.
import { basename } from 'node:path'
import { errorMessage } from '../errors.js'
import { shortSha } from '../json.js'
import { provenanceProblems, runLabel, type WorkflowRunFacts } from '../prime/provenance.js'
import { parsePrimed, type PrimedFile } from '../prime/store.js'
import type { Logger } from '../types.js'
import type { GitHubClient, RepoRef } from './octokit.js'
import { artifactFile } from './artifacts.js'

/** The file inside the artifact (the name `oracle-gate prime --out` and mode: prime write). */
export const PRIMED_FILE = 'primed-base.json'
/** Largest artifact downloaded, and largest primed file read out of it. */
/** Push runs at one sha tried at most (re-pushes of the same commit make more than one). */
const MAX_RUNS = 5

export function primedArtifactName(sha: string): string {
  return `oracle-gate-primed-${sha}`
}

/** What the lookup needs besides the merge base: where a trusted producing run lives. */
export interface PrimedLookup {
  /** owner/name of this repository. */
  repository: string
  /** From the event payload (repository.default_branch); unknown means no lookup. */
  defaultBranch: string | undefined
  /** This run's workflow file, `.github/workflows/gate.yml` (from GITHUB_WORKFLOW_REF). */
  workflowPath: string | undefined
}

/** The primed file of `mergeBase`, labelled with the verified run, or why there is none. */
export async function fetchPrimed(
  client: GitHubClient,
  repo: RepoRef,
  lookup: PrimedLookup,
  mergeBase: string,
  log: Logger
): Promise<PrimedFile | string> {
  const { defaultBranch, workflowPath } = lookup
  if (!defaultBranch) return 'the event payload names no default branch'
  if (!workflowPath) return 'GITHUB_WORKFLOW_REF does not name this workflow file'
  const want = { defaultBranch, mergeBase, workflowPath, repository: lookup.repository }
  try {
    const runs = await trustedRuns(client, repo, want, log)
    if (typeof runs === 'string') return runs
    const misses: string[] = []
    for (const run of runs) {
      const file = await primedOfRun(client, repo, run, mergeBase)
      if (typeof file !== 'string') return file
      log.info(`workflow run ${run.id}: ${file}`)
      misses.push(`run ${run.id}: ${file}`)
    }
    return misses.join('; ')
  } catch (error) {
    return `the Actions API could not be read (${errorMessage(error)}; the workflow needs permissions: actions: read)`
  }
}

/** Successful push runs of the workflow at the merge base that pass every provenance check. */
async function trustedRuns(
  client: GitHubClient,
  repo: RepoRef,
  want: Parameters<typeof provenanceProblems>[1],
  log: Logger
): Promise<WorkflowRunFacts[] | string> {
  const { data } = await client.rest.actions.listWorkflowRuns({
    ...repo,
    workflow_id: basename(want.workflowPath),
    event: 'push',
    branch: want.defaultBranch,
    head_sha: want.mergeBase,
    status: 'success',
    per_page: 20
  })
  const trusted: WorkflowRunFacts[] = []
  for (const run of data.workflow_runs.map(runFacts).sort((a, b) => b.id - a.id)) {
    const problems = provenanceProblems(run, want)
    if (problems.length === 0) trusted.push(run)
    else log.info(`workflow run ${run.id} is not a trusted producer: ${problems.join('; ')}`)
  }
  if (trusted.length === 0)
    return `no successful push run of ${want.workflowPath} on ${want.defaultBranch} at ${shortSha(want.mergeBase)} (${data.workflow_runs.length} run(s) returned, none trusted)`
  return trusted.slice(0, MAX_RUNS)
}

type ApiRun = Awaited<
  ReturnType<GitHubClient['rest']['actions']['listWorkflowRuns']>
>['data']['workflow_runs'][number]

function runFacts(run: ApiRun): WorkflowRunFacts {
  return {
    id: run.id,
    event: run.event,
    head_branch: run.head_branch,
    head_sha: run.head_sha,
    path: run.path,
    status: run.status,
    conclusion: run.conclusion,
    head_repository_full_name: run.head_repository?.full_name ?? null,
    html_url: run.html_url
  }
}

/** The run's artifact for the merge base, downloaded, checked and parsed. */
async function primedOfRun(
  client: GitHubClient,
  repo: RepoRef,
  run: WorkflowRunFacts,
  mergeBase: string
): Promise<PrimedFile | string> {
  const name = primedArtifactName(mergeBase)
  const { data } = await client.rest.actions.listWorkflowRunArtifacts({
    ...repo,
    run_id: run.id,
    name,
    per_page: 10
  })
  const artifact = data.artifacts.find(a => a.name === name)
  if (!artifact) return `no artifact named ${name}`
  const bytes = await artifactFile(client, repo, artifact, { runId: run.id, file: PRIMED_FILE })
  if (typeof bytes === 'string') return bytes
  const file = parsePrimed(bytes.toString('utf8'))
  if (typeof file === 'string') return file
  // The card names the run the API vouched for, not whatever label the file carries.
  return { ...file, produced_by: { kind: 'github', label: runLabel(run), run_url: run.html_url } }
}
