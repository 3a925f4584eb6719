// primed-base: auto in judge mode: the base seam that looks for the merge base's primed
// result on GitHub (src/github/primed.ts) and otherwise lets the base side run as usual,
// with the reason logged and on the card (src/prime/source.ts). Off: no seam at all.
import type { GitHubClient, RepoRef } from '../github/octokit.js'
import { fetchPrimed } from '../github/primed.js'
import { primedBase, type BaseSource } from '../prime/source.js'
import type { Logger } from '../types.js'
import type { RunnerEnvironment } from './environment.js'
import type { Inputs } from './inputs.js'

export function githubPrimedBase(
  environment: RunnerEnvironment,
  inputs: Inputs,
  api: { client: GitHubClient; repo: RepoRef; defaultBranch: string | undefined },
  log: Logger
): { baseSource?: BaseSource } {
  if (inputs.primedBase !== 'auto') return {}
  const lookup = {
    repository: `${api.repo.owner}/${api.repo.repo}`,
    defaultBranch: api.defaultBranch,
    workflowPath: environment.github.workflowPath
  }
  const load = (mergeBase: string): ReturnType<typeof fetchPrimed> =>
    log.group('primed base result', () => fetchPrimed(api.client, api.repo, lookup, mergeBase, log))
  return { baseSource: primedBase(load, environment.env) }
}
