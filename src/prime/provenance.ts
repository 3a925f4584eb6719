// Whether a workflow run may have produced a primed base result the gate trusts. Only a
// successful `push` run of the same workflow file on the default branch, at exactly the
// merge base, qualifies: a pull-request run (or any run on another branch) executed the
// patch's code, so anything it uploaded may be forged. Pure: the caller (src/github/primed.ts)
// passes the fields of each run the API returned.

import { shortSha } from '../json.js'

/** The fields of a workflow run object (REST API) this check reads. */
export interface WorkflowRunFacts {
  id: number
  event: string
  head_branch: string | null
  head_sha: string
  /** ".github/workflows/gate.yml", sometimes with "@refs/heads/main" appended. */
  path: string
  status: string | null
  conclusion: string | null
  /** owner/name of the repository the run's head came from. */
  head_repository_full_name: string | null
  html_url: string
}

export interface Expected {
  defaultBranch: string
  mergeBase: string
  /** This run's workflow file (GITHUB_WORKFLOW_REF without the repo and ref). */
  workflowPath: string
  /** owner/name of this repository. */
  repository: string
}

/** Every reason the run does not qualify; [] means it does. */
export function provenanceProblems(run: WorkflowRunFacts, want: Expected): string[] {
  const problems: string[] = []
  const field = (name: string, got: unknown, expected: unknown): void => {
    if (got !== expected)
      problems.push(`${name} is ${JSON.stringify(got)}, not ${JSON.stringify(expected)}`)
  }
  field('event', run.event, 'push')
  field('branch', run.head_branch, want.defaultBranch)
  field('head sha', run.head_sha, want.mergeBase)
  field('workflow path', run.path.replace(/@.*$/, ''), want.workflowPath)
  field('status', run.status, 'completed')
  field('conclusion', run.conclusion, 'success')
  field('head repository', run.head_repository_full_name, want.repository)
  return problems
}

/** The label the card names the producing run by. */
export function runLabel(run: WorkflowRunFacts): string {
  return `workflow run ${run.id} (push to ${run.head_branch ?? '?'} at ${shortSha(run.head_sha)}) ${run.html_url}`
}
