// The action's inputs and the little state a run carries between opening the check run
// and completing it.
import * as core from '@actions/core'
import { resolve } from 'node:path'
import type { CheckRunTarget, Posting } from './checkrun.js'
import { commentMode } from './comment.js'
import type { CommentMode } from './comment.js'
import { GateError } from '../errors.js'
import { utcToday } from '../gate.js'
import { DEFAULT_POLICY_PATH } from '../policy/load.js'
import type { Logger } from '../types.js'

export const actionsLogger: Logger = {
  info: message => core.info(message),
  warning: message => core.warning(message),
  group: (name, fn) => core.group(name, fn)
}

export interface Inputs {
  token: string
  policyPath: string
  checkName: string
  today: string
  workdir: string
  mode: 'judge' | 'report'
  /** Report mode: the downloaded artifact (scorecard.json, or the folder holding it). */
  scorecard: string
  /** The sticky PR comment: never (default), on-failure, always. */
  comment: CommentMode
}

/** What the run has opened so far, so that a failure can still complete the check run. */
export interface Session {
  headSha?: string
  /** The PR the run judged or reports on (none for a merge queue's group). */
  pullNumber?: number
  check?: { target: CheckRunTarget; posting: Posting }
}

export function readInputs(): Inputs {
  const workspace = process.env.GITHUB_WORKSPACE ?? process.cwd()
  const mode = core.getInput('mode') || 'judge'
  if (mode !== 'judge' && mode !== 'report') {
    throw new GateError(`input mode must be "judge" or "report", got "${mode}"`, {
      rule: 'config-invalid'
    })
  }
  return {
    token: core.getInput('token'),
    policyPath: core.getInput('policy') || DEFAULT_POLICY_PATH,
    checkName: core.getInput('check-name') || 'oracle-gate',
    today: core.getInput('today') || utcToday(),
    workdir: resolve(workspace, core.getInput('working-directory') || '.'),
    mode,
    scorecard: core.getInput('scorecard') ? resolve(workspace, core.getInput('scorecard')) : '',
    comment: commentMode(core.getInput('comment'))
  }
}

export function detailsUrl(): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: runId } = process.env
  return server && repo && runId ? `${server}/${repo}/actions/runs/${runId}` : undefined
}
