// The action's run(): inputs → event → judge → report. Issue 7 extends this with the REST
// API (PR files, check runs, report mode); everything here must fail closed.
import * as core from '@actions/core'
import { readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { check, reasonFromError, utcToday } from '../gate.js'
import { GateError } from '../errors.js'
import { renderMarkdown } from '../report/markdown.js'
import type { Logger, Scorecard } from '../types.js'
import { emptyScorecard, finalize } from '../verdict/scorecard.js'
import { VERSION } from '../version.js'

export const actionsLogger: Logger = {
  info: message => core.info(message),
  warning: message => core.warning(message),
  group: (name, fn) => core.group(name, fn)
}

interface PullRequestEvent {
  pull_request?: { base?: { sha?: string }; head?: { sha?: string }; number?: number }
}

export async function run(): Promise<void> {
  const today = core.getInput('today') || utcToday()
  const policyPath = core.getInput('policy') || '.github/oracle-gate.yml'
  const workdir = resolve(
    process.env.GITHUB_WORKSPACE ?? process.cwd(),
    core.getInput('working-directory') || '.'
  )
  let card: Scorecard
  try {
    const token = core.getInput('token')
    if (token) core.setSecret(token)
    const { base, head } = await pullRequestShas()
    card = await check({
      repoDir: workdir,
      base,
      head,
      policyPath,
      today,
      log: actionsLogger,
      secrets: token ? [token] : []
    })
  } catch (error) {
    card = finalize(emptyScorecard({ version: VERSION, today, policyPath }), [
      reasonFromError(error)
    ])
  }
  await publish(card)
}

async function pullRequestShas(): Promise<{ base: string; head: string }> {
  const eventName = process.env.GITHUB_EVENT_NAME
  const eventPath = process.env.GITHUB_EVENT_PATH
  if (!eventName || !eventPath) {
    throw new GateError(
      'no GitHub event: GITHUB_EVENT_NAME and GITHUB_EVENT_PATH are not set (run the CLI outside Actions: oracle-gate check --base REF)',
      {
        rule: 'config-invalid'
      }
    )
  }
  if (eventName !== 'pull_request' && eventName !== 'pull_request_target') {
    throw new GateError(
      `event "${eventName}" has no pull request to judge; run on pull_request or pull_request_target`,
      { rule: 'config-invalid' }
    )
  }
  const payload = JSON.parse(await readFile(eventPath, 'utf8')) as PullRequestEvent
  const base = payload.pull_request?.base?.sha
  const head = payload.pull_request?.head?.sha
  if (!base || !head)
    throw new GateError(`event payload ${eventPath} has no pull_request.base.sha / head.sha`, {
      rule: 'config-invalid'
    })
  return { base, head }
}

async function publish(card: Scorecard): Promise<void> {
  const dir = process.env.RUNNER_TEMP ?? tmpdir()
  const path = join(
    dir,
    `oracle-gate-scorecard-${card.head ? card.head.slice(0, 12) : 'error'}.json`
  )
  try {
    await writeFile(path, JSON.stringify(card, null, 2) + '\n')
  } catch (error) {
    core.warning(`could not write the scorecard to ${path}: ${String(error)}`)
  }
  core.setOutput('verdict', card.verdict)
  core.setOutput('merge', card.merge ? 'true' : 'false')
  core.setOutput(
    'oracle-hits',
    String(card.seeds.oracle_hits + card.transitions.fail_to_pass.length)
  )
  core.setOutput('scorecard', path)
  const markdown = renderMarkdown(card, { maxChars: 1_000_000, fullCardHint: path })
  if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(markdown).write()
  for (const r of card.reasons.filter(r => r.level === 'failure').slice(0, 10)) {
    core.error(r.message, {
      title: r.rule,
      ...(r.path ? { file: r.path } : {}),
      ...(r.line ? { startLine: r.line } : {})
    })
  }
  if (!card.merge) core.setFailed(`oracle-gate verdict: ${card.verdict}`)
}
