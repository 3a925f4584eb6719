// mode: merge, the job after the shard matrix (needs: on it): reads the shard scorecards
// as artifacts of this workflow run through the API (src/github/shards.ts), checks and
// merges them (src/shard/) and judges like mode: judge — one check run, one card, the
// outputs, plus the in-toto Statement (output attestation, written by main.ts's finish).
import { GateError } from '../errors.js'
import type { PullRequestTarget } from '../github/event.js'
import { fetchShards } from '../github/shards.js'
import { shortSha } from '../json.js'
import { mergeShards } from '../shard/merge.js'
import { loadShards } from '../shard/shards.js'
import type { Scorecard } from '../types.js'
import type { RunnerEnvironment } from './environment.js'
import { pullRequestSources, type OpenedPull } from './pull.js'
import { judgeOptions, type Inputs } from './inputs.js'

export async function mergeJudge(
  environment: RunnerEnvironment,
  event: PullRequestTarget,
  inputs: Inputs,
  { client, repo, log }: OpenedPull
): Promise<Scorecard> {
  const runId = environment.github.runId
  if (runId === undefined)
    throw new GateError('mode: merge needs GITHUB_RUN_ID (the run whose shard artifacts it reads)')
  log.info(`merge of #${event.number}: head ${shortSha(event.headSha)}, shards of run ${runId}`)
  const files = await log.group('shard artifacts', () => fetchShards(client, repo, runId, log))
  const shards = loadShards(files)
  const fp = shards[0]?.block.fingerprint
  if (
    fp?.head !== event.headSha ||
    fp.base_ref !== event.baseSha ||
    fp.policy_path !== inputs.policyPath
  )
    throw new GateError(
      `merge: the shards judged ${shortSha(fp?.head ?? '')} against ${shortSha(fp?.base_ref ?? '')}, this event ${shortSha(event.headSha)} against ${shortSha(event.baseSha)}`
    )
  const {
    base: _base,
    head: _head,
    today: _today,
    policyPath: _policy,
    ...rest
  } = judgeOptions(inputs, environment.env, log, { base: event.baseSha, head: event.headSha })
  const card = await mergeShards(shards, {
    ...rest,
    ...pullRequestSources(client, repo, event, log)
  })
  return { ...card, pull_requests: [event.number] }
}
