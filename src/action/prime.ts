// mode: prime, on push to the default branch: measures the pushed commit's base side with
// its own instrument and writes it to RUNNER_TEMP/oracle-gate/primed-base.json, for the
// workflow's actions/upload-artifact step to store as `oracle-gate-primed-<sha>` (outputs
// `primed` and `primed-artifact`). Pull-request runs of the same workflow then find it with
// primed-base: auto (src/github/primed.ts). No check run, no verdict: a prime that cannot
// measure the commit fails the step and leaves no file; a push to another branch primes
// nothing (its results would never be trusted) and says so.
import { join } from 'node:path'
import { GateError, errorMessage } from '../errors.js'
import { Git } from '../git/git.js'
import { pushFrom, type PushTarget } from '../github/event.js'
import { PRIMED_FILE, primedArtifactName } from '../github/primed.js'
import { shortSha } from '../json.js'
import { primeCommit } from '../prime/prime.js'
import { logText, mdText } from '../report/sanitize.js'
import type { Scorecard } from '../types.js'
import { toolkitLogger, type RunnerEnvironment } from './environment.js'
import { copyFileCommands, restoreFileCommands } from './file-commands.js'
import { ensureCommits } from './fetch.js'
import { judgeOptions, type Inputs } from './inputs.js'

type Primed =
  | { kind: 'written'; sha: string; path: string; card: Scorecard }
  | { kind: 'skipped'; why: string }
  | { kind: 'failed'; why: string }

/** The whole step in prime mode (run() hands over before any card machinery). */
export async function primeStep(
  environment: RunnerEnvironment,
  inputs: Inputs,
  payload: () => Promise<unknown>
): Promise<void> {
  const fileCommands = await copyFileCommands(environment.env)
  let primed: Primed
  try {
    primed = await primeOnPush(environment, inputs, await payload())
  } catch (error) {
    primed = { kind: 'failed', why: errorMessage(error) }
  }
  const tampered = await restoreFileCommands(fileCommands)
  if (tampered.length > 0 && primed.kind === 'written')
    primed = { kind: 'failed', why: tampered.map(r => r.message).join('; ') }
  await publishPrime(environment, primed)
}

async function primeOnPush(
  environment: RunnerEnvironment,
  inputs: Inputs,
  payload: unknown
): Promise<Primed> {
  if (environment.event.name !== 'push')
    throw new GateError(
      `mode: prime runs on push to the default branch, not on ${environment.event.name ?? 'no event'} (docs/workflows/oracle-gate-primed.yml)`,
      { rule: 'config-invalid' }
    )
  const push = pushFrom(payload)
  const branch = push.ref.replace(/^refs\/heads\//, '')
  if (!push.defaultBranch || branch !== push.defaultBranch || !push.ref.startsWith('refs/heads/'))
    return {
      kind: 'skipped',
      why: `${push.ref} is not the default branch (${push.defaultBranch ?? 'unknown'}): nothing primed, since judges trust only results primed there`
    }
  return primeThePush(environment, inputs, push, branch)
}

async function primeThePush(
  environment: RunnerEnvironment,
  inputs: Inputs,
  push: PushTarget,
  branch: string
): Promise<Primed> {
  const log = toolkitLogger(environment.toolkit)
  const git = new Git(inputs.workdir, environment.env)
  await log.group('fetch commits', () =>
    ensureCommits(git, { baseSha: push.sha, headSha: push.sha }, log)
  )
  const path = join(environment.paths.runnerTemp, 'oracle-gate', PRIMED_FILE)
  const url = environment.github.detailsUrl
  const label = `the push to ${branch} at ${shortSha(push.sha)}${url ? ` (${url})` : ''}`
  const options = judgeOptions(inputs, environment.env, log, { base: push.sha, head: push.sha })
  const result = await primeCommit({ ...options, env: environment.env }, path, {
    kind: 'github',
    label,
    ...(url ? { run_url: url } : {})
  })
  return result.written
    ? { kind: 'written', sha: push.sha, path, card: result.card }
    : { kind: 'failed', why: result.why }
}

async function publishPrime(environment: RunnerEnvironment, primed: Primed): Promise<void> {
  const { toolkit } = environment
  if (primed.kind === 'written') {
    const run = primed.card.runs[0]
    const artifact = primedArtifactName(primed.sha)
    toolkit.setOutput('primed', primed.path)
    toolkit.setOutput('primed-artifact', artifact)
    toolkit.info(
      `primed base result for ${shortSha(primed.sha)}: ${run?.tests ?? 0} test(s) measured; upload ${logText(primed.path)} as the artifact ${artifact}`
    )
    await summary(
      environment,
      `### oracle-gate: primed base result\n\nCommit \`${primed.sha}\`: ${run?.tests ?? 0} test(s) measured in ${Math.round((run?.duration_ms ?? 0) / 1000)} s, written to \`${mdText(primed.path, { cell: false })}\` for the artifact \`${artifact}\`. Pull requests whose merge base is this commit take their base side from it (input primed-base: auto).\n`
    )
    return
  }
  toolkit.setOutput('primed', '')
  toolkit.setOutput('primed-artifact', '')
  if (primed.kind === 'skipped') {
    toolkit.notice(primed.why, { title: 'oracle-gate: nothing primed' })
    return
  }
  await summary(
    environment,
    `### oracle-gate: no primed base result\n\n${mdText(primed.why, { cell: false })}\n`
  )
  toolkit.setFailed(`oracle-gate prime: no primed result written: ${primed.why}`)
}

async function summary(environment: RunnerEnvironment, markdown: string): Promise<void> {
  if (!environment.paths.stepSummary) return
  try {
    await environment.toolkit.writeSummary(markdown)
  } catch (error) {
    environment.toolkit.warning(`could not write the job summary: ${errorMessage(error)}`)
  }
}
