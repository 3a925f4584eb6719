// primed-base: auto in judge mode: the base seam that looks for the merge base's primed
// result on GitHub (src/github/primed.ts) and otherwise lets the base side run as usual,
// with the reason logged and on the card (src/prime/source.ts). Off: no seam at all.
import type { GitHubClient, RepoRef } from '../github/octokit.js'
import { fetchPrimed } from '../github/primed.js'
import { primedBase, type BaseSource } from '../prime/source.js'
import type { CheckOptions } from '../gate.js'
import type { Logger } from '../types.js'
import type { RunnerEnvironment } from './environment.js'
import { judgeOptions, type Inputs } from './inputs.js'

/**
 * judgeOptions() for an event the job judges itself (a PR's judge, a merge queue's group):
 * its base and head, with the primed-base seam when the input asks for it.
 */
export function eventJudgeOptions(
  environment: RunnerEnvironment,
  inputs: Inputs,
  api: { client: GitHubClient; repo: RepoRef },
  event: { baseSha: string; headSha: string; defaultBranch?: string | undefined },
  log: Logger
): CheckOptions {
  return {
    ...judgeOptions(inputs, environment.env, log, { base: event.baseSha, head: event.headSha }),
    ...githubPrimedBase(environment, inputs, { ...api, defaultBranch: event.defaultBranch }, log)
  }
}

function githubPrimedBase(
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
