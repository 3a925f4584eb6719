// The action's run(): inputs → event → (check run pending) → judge → publish. Every path
// ends in a card: a failure anywhere is the verdict `error`, which never passes.
import * as core from '@actions/core'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { check, reasonFromError, utcToday } from '../gate.js'
import { GateError, errorMessage } from '../errors.js'
import { Git } from '../git/git.js'
import { parseEvent } from '../github/event.js'
import type { NothingToJudge, PullRequestTarget } from '../github/event.js'
import { apiChanges } from '../github/files.js'
import { readApprovalFacts } from '../github/reviews.js'
import { DEFAULT_POLICY_PATH } from '../policy/load.js'
import type { Scorecard } from '../types.js'
import { emptyScorecard, finalize } from '../verdict/scorecard.js'
import { VERSION } from '../version.js'
import { finishCheckRun, openSession } from './checkrun.js'
import { postComment } from './comment.js'
import type { CommentMode } from './comment.js'
import { ensureCommits } from './fetch.js'
import { actionsLogger, detailsUrl, readInputs } from './inputs.js'
import type { Inputs, Session } from './inputs.js'
import { annotateStep, setOutputs, writeCardFiles, writeJobSummary } from './publish.js'
import { judgeGroup } from './queue.js'
import { report } from './report.js'

export async function run(): Promise<void> {
  const token = core.getInput('token')
  if (token) core.setSecret(token)
  const session: Session = {}
  const today = core.getInput('today') || utcToday()
  const policyPath = core.getInput('policy') || DEFAULT_POLICY_PATH
  let card: Scorecard
  let comment: CommentMode = 'never'
  try {
    const inputs = readInputs()
    comment = inputs.comment
    card = await decide(inputs, session)
  } catch (error) {
    card = finalize(emptyScorecard({ version: VERSION, today, policyPath }), [
      reasonFromError(error)
    ])
    if (session.headSha) card.head = session.headSha
  }
  await finish(card, session, comment)
}

async function decide(inputs: Inputs, session: Session): Promise<Scorecard> {
  // The event's name first: without one there is no GitHub event at all, whatever the path.
  const name = process.env.GITHUB_EVENT_NAME
  const event = parseEvent(name, name ? await readPayload() : undefined)
  if (inputs.mode === 'report') return report(event, inputs, session, actionsLogger)
  switch (event.kind) {
    case 'nothing':
      return nothingToJudge(event, inputs)
    case 'workflow_run':
      throw new GateError(
        'a workflow_run event is only handled with mode: report (see docs/github.md, "forks")',
        { rule: 'config-invalid' }
      )
    case 'pull_request':
      return judge(event, inputs, session)
    case 'merge_group':
      return judgeGroup(event, inputs, session, actionsLogger)
  }
}

async function readPayload(): Promise<unknown> {
  const path = process.env.GITHUB_EVENT_PATH
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
  inputs: Inputs,
  session: Session
): Promise<Scorecard> {
  const log = actionsLogger
  session.pullNumber = event.number
  const { client, repo } = await openSession(
    { token: inputs.token, checkName: inputs.checkName, detailsUrl: detailsUrl() },
    event.headSha,
    session,
    log
  )
  log.info(
    `${event.event} #${event.number}: base ${event.baseSha.slice(0, 12)}, head ${event.headSha.slice(0, 12)}${event.headRepo ? ` (${event.headRepo})` : ''}`
  )
  await log.group('fetch commits', () =>
    ensureCommits(
      new Git(inputs.workdir),
      { baseSha: event.baseSha, headSha: event.headSha, pullNumber: event.number },
      log
    )
  )
  const card = await check({
    repoDir: inputs.workdir,
    base: event.baseSha,
    head: event.headSha,
    policyPath: inputs.policyPath,
    today: inputs.today,
    log,
    secrets: inputs.token ? [inputs.token] : [],
    changes: () =>
      apiChanges(
        client,
        repo,
        { number: event.number, baseSha: event.baseSha, headSha: event.headSha },
        log
      ),
    approval: approvers => readApprovalFacts(client, repo, event.number, approvers, log)
  })
  return { ...card, pull_requests: [event.number] }
}

/** push / workflow_dispatch: no PR, so no verdict can be earned; the card says no-vote. */
function nothingToJudge(event: NothingToJudge, inputs: Inputs): Scorecard {
  core.notice(event.message, { title: 'oracle-gate: nothing to judge' })
  return finalize(
    emptyScorecard({ version: VERSION, today: inputs.today, policyPath: inputs.policyPath }),
    [{ rule: 'empty-vote', message: event.message, level: 'failure' }]
  )
}

async function finish(card: Scorecard, session: Session, comment: CommentMode): Promise<void> {
  const dir = join(process.env.RUNNER_TEMP || tmpdir(), 'oracle-gate')
  let scorecardPath = join(dir, 'scorecard.json')
  try {
    scorecardPath = (await writeCardFiles(card, dir, process.env.GITHUB_EVENT_PATH)).scorecard
  } catch (error) {
    core.warning(`could not write the scorecard to ${dir}: ${errorMessage(error)}`)
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
  setOutputs(card, scorecardPath)
  await commentOnPull(card, session, comment, problem === null)
  try {
    await writeJobSummary(card, note, scorecardPath)
  } catch (error) {
    core.warning(`could not write the job summary: ${errorMessage(error)}`)
  }
  // Without a check run the step is the only place the reasons show up in the PR.
  if (problem || !session.check) annotateStep(card)
  const unposted =
    problem && !refused
      ? `the check run "${session.check?.target.name}" could not be posted: ${problem}`
      : ''
  if (!card.merge) {
    const first = card.reasons[0] ? ` (${card.reasons[0].rule}: ${card.reasons[0].message})` : ''
    core.setFailed(`oracle-gate verdict: ${card.verdict}${first}${unposted ? `; ${unposted}` : ''}`)
  } else if (unposted) {
    // Fail closed: a merge nobody can see on the commit must not look like a green step.
    core.setFailed(`oracle-gate verdict: merge, but ${unposted}`)
  }
}

/** The sticky PR comment, when asked for and there is a PR (never for a queue's group). */
async function commentOnPull(
  card: Scorecard,
  session: Session,
  mode: CommentMode,
  posted: boolean
): Promise<void> {
  const check = session.check
  if (mode === 'never' || !check || session.pullNumber === undefined) return
  const { client, repo, name } = check.target
  const server = process.env.GITHUB_SERVER_URL || 'https://github.com'
  const checkRunUrl =
    posted && check.posting.kind === 'open'
      ? `${server}/${repo.owner}/${repo.repo}/runs/${check.posting.id}`
      : undefined
  await postComment(mode, card, {
    client,
    repo,
    number: session.pullNumber,
    checkName: name,
    log: actionsLogger,
    ...(checkRunUrl ? { checkRunUrl } : {})
  })
}
