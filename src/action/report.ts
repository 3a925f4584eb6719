// mode: report, the second half of the fork pattern. It runs on workflow_run in the base
// repository with checks: write and never executes the patch. From GitHub it takes the
// commit the test run judged (workflow_run.head_sha) and the PR (number from the artifact's
// event file when workflow_run.pull_requests is empty, as it is for forks; verified against
// the API). It re-derives policy, write set, instrument, ledger and lints from a checkout of
// the base plus the fetched head objects, and takes only test results from the artifact.
import { check } from '../gate.js'
import { GateError } from '../errors.js'
import { Git } from '../git/git.js'
import { pullRequestFrom } from '../github/event.js'
import type { GateEvent, WorkflowRunTarget } from '../github/event.js'
import { getPull } from '../github/pulls.js'
import type { Scorecard } from '../types.js'
import { readArtifact, replayFromArtifact } from './artifact.js'
import { openSession } from './checkrun.js'
import { ensureCommits } from './fetch.js'
import { pullRequestSources } from './pull.js'
import { toolkitLogger } from './environment.js'
import type { RunnerEnvironment } from './environment.js'
import { judgeOptions, type Inputs, type Session } from './inputs.js'
import { shortSha } from '../json.js'

export async function report(
  environment: RunnerEnvironment,
  event: GateEvent,
  inputs: Inputs,
  session: Session
): Promise<Scorecard> {
  const log = toolkitLogger(environment.toolkit)
  if (event.kind !== 'workflow_run') {
    throw new GateError(
      `mode: report runs on workflow_run events, not ${event.event} (see docs/github.md, "forks")`,
      { rule: 'config-invalid' }
    )
  }
  // The commit comes from GitHub's own payload, so even a forged artifact can only ever
  // put a verdict on the commit that was actually tested.
  const { client, repo } = await openSession(
    { token: inputs.token, checkName: inputs.checkName, github: environment.github },
    event.headSha,
    session,
    log
  )

  const artifact = await readArtifact(inputs.scorecard)
  const number = pullNumber(event, artifact.event)
  session.pullNumber = number
  const pull = await getPull(client, repo, number)
  // A forged PR number must not lend another PR's base (and policy) to this commit.
  if (pull.headSha !== event.headSha) {
    throw new GateError(
      `PR #${number} is at ${shortSha(pull.headSha)}, not at the tested commit ${shortSha(event.headSha)}: the PR moved on (its newer run reports) or the artifact names another PR`
    )
  }
  if (event.headRepo && pull.headRepo && pull.headRepo !== event.headRepo) {
    throw new GateError(
      `PR #${number} comes from ${pull.headRepo}, but the tested run came from ${event.headRepo}`
    )
  }
  log.info(
    `report for PR #${number}: base ${pull.baseRef} at ${shortSha(pull.baseSha)}, head ${shortSha(event.headSha)}`
  )
  await log.group('fetch commits', () =>
    ensureCommits(
      new Git(inputs.workdir, environment.env),
      { baseSha: pull.baseSha, headSha: event.headSha, pullNumber: number },
      log
    )
  )
  const card = await check({
    ...judgeOptions(inputs, environment.env, log, { base: pull.baseSha, head: event.headSha }),
    ...pullRequestSources(
      client,
      repo,
      { number, baseSha: pull.baseSha, headSha: event.headSha },
      log
    ),
    replay: replayFromArtifact(artifact)
  })
  return { ...card, pull_requests: [number] }
}

/** The PR number: GitHub's list when it has one, else the artifact's event file. */
export function pullNumber(event: WorkflowRunTarget, artifactEvent: unknown): number {
  const fromArtifact =
    artifactEvent === null
      ? undefined
      : pullRequestFrom('artifact event.json', artifactEvent).number
  const [fromGitHub] = event.pullNumbers
  if (fromGitHub !== undefined && fromArtifact !== undefined && fromGitHub !== fromArtifact) {
    throw new GateError(
      `the workflow_run names PR #${fromGitHub} but the artifact's event file names #${fromArtifact}`
    )
  }
  const number = fromGitHub ?? fromArtifact
  if (number === undefined) {
    throw new GateError(
      'no PR to report on: workflow_run.pull_requests is empty and the artifact has no event.json',
      { rule: 'config-invalid' }
    )
  }
  return number
}
