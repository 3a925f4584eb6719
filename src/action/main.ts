// The action's run(): inputs → event → (check run pending) → judge → publish. Every path
// ends in a card: a failure anywhere is the verdict `error`, which never passes.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { check } from '../gate.js'
import { GateError, errorMessage, reasonFromError } from '../errors.js'
import { parseEvent } from '../github/event.js'
import type { NothingToJudge, PullRequestTarget } from '../github/event.js'
import type { Scorecard } from '../types.js'
import { emptyScorecard, finalize } from '../verdict/scorecard.js'
import { VERSION } from '../version.js'
import { finishCheckRun } from './checkrun.js'
import { postComment } from './comment.js'
import { copyFileCommands, restoreFileCommands } from './file-commands.js'
import { openPullRequest, pullRequestSources, type OpenedPull } from './pull.js'
import { toolkitLogger } from './environment.js'
import type { RunnerEnvironment } from './environment.js'
import type { Inputs, Session } from './inputs.js'
import { annotateStep, setOutputs, writeCardFiles, writeJobSummary } from './publish.js'
import { judgeGroup } from './queue.js'
import { primeStep } from './prime.js'
import { eventJudgeOptions } from './primed-base.js'
import { report } from './report.js'
import { mergeJudge } from './merge.js'
import { shardStep } from './shard.js'
import { writeAttestation } from './attestation.js'
import { shortSha } from '../json.js'

/** The runner environment is read once by the caller (src/index.ts: readEnvironment()). */
export async function run(environment: RunnerEnvironment): Promise<void> {
  for (const secret of environment.secrets) environment.toolkit.setSecret(secret)
  const { inputs } = environment
  if (!(inputs instanceof GateError) && inputs.mode === 'prime')
    return primeStep(environment, inputs, () => readPayload(environment.event.path))
  if (!(inputs instanceof GateError) && inputs.mode === 'shard')
    return shardStep(environment, inputs, () => readPayload(environment.event.path))
  const session: Session = {}
  let card: Scorecard
  const fileCommands = await copyFileCommands(environment.env)
  try {
    if (environment.inputs instanceof GateError) throw environment.inputs
    card = await decide(environment, environment.inputs, session)
  } catch (error) {
    card = finalize(emptyScorecard({ version: VERSION, ...environment.fallback }), [
      reasonFromError(error)
    ])
    if (session.headSha) card.head = session.headSha
  }
  // Before the step writes its own outputs and summary: whatever the patch wrote goes.
  card = finalize(card, await restoreFileCommands(fileCommands))
  await finish(environment, card, session)
}

async function decide(
  environment: RunnerEnvironment,
  inputs: Inputs,
  session: Session
): Promise<Scorecard> {
  // The event's name first: without one there is no GitHub event at all, whatever the path.
  const { name, path } = environment.event
  const event = parseEvent(name, name ? await readPayload(path) : undefined)
  if (inputs.mode === 'report') return report(environment, event, inputs, session)
  if (inputs.mode === 'merge' && event.kind === 'pull_request')
    return mergeJudge(
      environment,
      event,
      inputs,
      await openPullRequest(environment, event, inputs, session)
    )
  if (inputs.mode === 'merge')
    throw new GateError(`mode: merge judges a pull request, not a ${event.kind} event`, {
      rule: 'config-invalid'
    })
  switch (event.kind) {
    case 'nothing':
      return nothingToJudge(environment, event, inputs)
    case 'workflow_run':
      throw new GateError(
        'a workflow_run event is only handled with mode: report (see docs/github.md, "forks")',
        { rule: 'config-invalid' }
      )
    case 'pull_request':
      return judge(event, await openPullRequest(environment, event, inputs, session), {
        environment,
        inputs
      })
    case 'merge_group':
      return judgeGroup(environment, event, inputs, session)
  }
}

async function readPayload(path: string | undefined): Promise<unknown> {
  if (!path)
    throw new GateError('GITHUB_EVENT_PATH is not set: no event payload to read', {
      rule: 'config-invalid'
    })
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown
  } catch (error) {
    throw new GateError(`cannot read the event payload ${path}: ${errorMessage(error)}`, {
      rule: 'config-invalid',
      path
    })
  }
}

async function judge(
  event: PullRequestTarget,
  { client, repo, log }: OpenedPull,
  { environment, inputs }: { environment: RunnerEnvironment; inputs: Inputs }
): Promise<Scorecard> {
  log.info(
    `${event.event} #${event.number}: base ${shortSha(event.baseSha)}, head ${shortSha(event.headSha)}${event.headRepo ? ` (${event.headRepo})` : ''}`
  )
  const card = await check({
    ...eventJudgeOptions(environment, inputs, { client, repo }, event, log),
    ...pullRequestSources(client, repo, event, log)
  })
  return { ...card, pull_requests: [event.number] }
}

/** push / workflow_dispatch: no PR, so no verdict can be earned; the card says no-vote. */
function nothingToJudge(
  environment: RunnerEnvironment,
  event: NothingToJudge,
  inputs: Inputs
): Scorecard {
  environment.toolkit.notice(event.message, { title: 'oracle-gate: nothing to judge' })
  return finalize(
    emptyScorecard({ version: VERSION, today: inputs.today, policyPath: inputs.policyPath }),
    [{ rule: 'empty-vote', message: event.message, level: 'failure' }]
  )
}

async function finish(
  environment: RunnerEnvironment,
  card: Scorecard,
  session: Session
): Promise<void> {
  const { toolkit } = environment
  const dir = join(environment.paths.runnerTemp, 'oracle-gate')
  let scorecardPath = join(dir, 'scorecard.json')
  try {
    scorecardPath = (await writeCardFiles(toolkit, card, dir, environment.event.path)).scorecard
  } catch (error) {
    toolkit.warning(`could not write the scorecard to ${dir}: ${errorMessage(error)}`)
  }
  let problem: string | null = null
  let refused = false
  if (session.check) {
    const done = await finishCheckRun(session.check.target, session.check.posting, card)
    problem = done.problem
    refused = done.refused
  }
  const note = problem
    ? refused
      ? `The check run could not be posted (${problem}): this token is read-only. The verdict below stands; see docs/github.md for the workflow_run report mode.`
      : `The check run could not be posted (${problem}); branch protection bound to it stays pending.`
    : null
  setOutputs(toolkit, card, scorecardPath)
  toolkit.setOutput('attestation', await writeAttestation(environment, card, scorecardPath))
  await commentOnPull(environment, card, session, problem === null)
  try {
    await writeJobSummary(environment, card, note, scorecardPath)
  } catch (error) {
    toolkit.warning(`could not write the job summary: ${errorMessage(error)}`)
  }
  // Without a check run the step is the only place the reasons show up in the PR.
  if (problem || !session.check) annotateStep(toolkit, card)
  const unposted =
    problem && !refused
      ? `the check run "${session.check?.target.name}" could not be posted: ${problem}`
      : ''
  if (!card.merge) {
    const first = card.reasons[0] ? ` (${card.reasons[0].rule}: ${card.reasons[0].message})` : ''
    toolkit.setFailed(
      `oracle-gate verdict: ${card.verdict}${first}${unposted ? `; ${unposted}` : ''}`
    )
  } else if (unposted) {
    // Fail closed: a merge nobody can see on the commit must not look like a green step.
    toolkit.setFailed(`oracle-gate verdict: merge, but ${unposted}`)
  }
}

/** The sticky PR comment, when asked for and there is a PR (never for a queue's group). */
async function commentOnPull(
  environment: RunnerEnvironment,
  card: Scorecard,
  session: Session,
  posted: boolean
): Promise<void> {
  const inputs = environment.inputs
  const check = session.check
  if (inputs instanceof GateError || inputs.comment === 'never') return
  if (!check || session.pullNumber === undefined) return
  const { client, repo, name } = check.target
  const server = environment.github.serverUrl ?? 'https://github.com'
  const checkRunUrl =
    posted && check.posting.kind === 'open'
      ? `${server}/${repo.owner}/${repo.repo}/runs/${check.posting.id}`
      : undefined
  await postComment(inputs.comment, card, {
    client,
    repo,
    number: session.pullNumber,
    checkName: name,
    log: toolkitLogger(environment.toolkit),
    ...(checkRunUrl ? { checkRunUrl } : {})
  })
}
