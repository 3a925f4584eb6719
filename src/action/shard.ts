// mode: shard (input shard: I/N), one job of a matrix on pull_request: the gate with the
// replay restricted to shard I's voting files (src/shard/), its shard scorecard written to
// RUNNER_TEMP/oracle-gate/shard.json for the workflow's actions/upload-artifact step
// (artifact oracle-gate-shard-<I>-of-<N>; outputs `shard` and `shard-artifact`). It posts
// no check run, needs no token (the write set comes from git) and uploads nothing itself:
// the merge job (mode: merge) judges. The step fails only when the shard ended in error.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { GateError, errorMessage } from '../errors.js'
import { Git } from '../git/git.js'
import { parseEvent } from '../github/event.js'
import { SHARD_FILE, shardArtifactName } from '../github/shards.js'
import { shortSha } from '../json.js'
import { logText } from '../report/sanitize.js'
import { checkShard } from '../shard/run.js'
import { toolkitLogger, type RunnerEnvironment } from './environment.js'
import { copyFileCommands, restoreFileCommands } from './file-commands.js'
import { ensureCommits } from './fetch.js'
import { judgeOptions, type Inputs } from './inputs.js'

export async function shardStep(
  environment: RunnerEnvironment,
  inputs: Inputs,
  payload: () => Promise<unknown>
): Promise<void> {
  const { toolkit } = environment
  const fileCommands = await copyFileCommands(environment.env)
  let outcome: { path: string; artifact: string; verdict: string } | { why: string }
  try {
    outcome = await runShard(environment, inputs, await payload())
  } catch (error) {
    outcome = { why: errorMessage(error) }
  }
  const tampered = await restoreFileCommands(fileCommands)
  if (tampered.length > 0) outcome = { why: tampered.map(r => r.message).join('; ') }
  if ('why' in outcome) {
    toolkit.setOutput('shard', '')
    toolkit.setOutput('shard-artifact', '')
    toolkit.setFailed(`oracle-gate shard: ${outcome.why}`)
    return
  }
  toolkit.setOutput('shard', outcome.path)
  toolkit.setOutput('shard-artifact', outcome.artifact)
  toolkit.info(
    `shard scorecard written to ${logText(outcome.path)} (this shard alone: ${outcome.verdict}, which is no verdict); upload it as the artifact ${outcome.artifact}`
  )
}

async function runShard(
  environment: RunnerEnvironment,
  inputs: Inputs,
  payload: unknown
): Promise<{ path: string; artifact: string; verdict: string } | { why: string }> {
  const shard = inputs.shard
  if (!shard)
    throw new GateError('mode: shard needs the input shard: I/N', { rule: 'config-invalid' })
  const event = parseEvent(environment.event.name, payload)
  if (event.kind !== 'pull_request')
    throw new GateError(`mode: shard judges a pull request, not a ${event.kind} event`, {
      rule: 'config-invalid'
    })
  const log = toolkitLogger(environment.toolkit)
  log.info(
    `shard ${shard.index}/${shard.total} of #${event.number}: head ${shortSha(event.headSha)}`
  )
  await log.group('fetch commits', () =>
    ensureCommits(
      new Git(inputs.workdir, environment.env),
      { baseSha: event.baseSha, headSha: event.headSha, pullNumber: event.number },
      log
    )
  )
  const commits = { base: event.baseSha, head: event.headSha }
  const card = await checkShard({ ...judgeOptions(inputs, environment.env, log, commits), shard })
  const dir = join(environment.paths.runnerTemp, 'oracle-gate')
  await mkdir(dir, { recursive: true })
  const path = join(dir, SHARD_FILE)
  await writeFile(path, JSON.stringify({ ...card, pull_requests: [event.number] }, null, 2) + '\n')
  if (card.verdict === 'error') {
    const first = card.reasons.find(r => r.level === 'failure')?.message ?? 'unknown'
    return {
      why: `shard ${shard.index}/${shard.total} ended in error: ${first} (written to ${path})`
    }
  }
  return { path, artifact: shardArtifactName(shard.index, shard.total), verdict: card.verdict }
}
