// The action's inputs and the little state a run carries between opening the check run
// and completing it.
import { resolve } from 'node:path'
import type { CheckRunTarget, Posting } from './checkrun.js'
import { commentMode } from './comment.js'
import type { CommentMode } from './comment.js'
import { GateError } from '../errors.js'
import { utcToday } from '../clock.js'
import type { CheckOptions } from '../gate.js'
import { DEFAULT_POLICY_PATH } from '../policy/load.js'
import { parseShard, type ShardSpec } from '../shard/split.js'
import type { Logger } from '../types.js'

export interface Inputs {
  token: string
  policyPath: string
  checkName: string
  today: string
  workdir: string
  mode: 'judge' | 'report' | 'prime' | 'shard' | 'merge'
  /** Shard mode: which shard of how many (input shard, `I/N`). */
  shard?: ShardSpec
  /** Judge mode: take the base side from a trusted push run's artifact (auto) or never (off). */
  primedBase: 'off' | 'auto'
  /** Report mode: the downloaded artifact (scorecard.json, or the folder holding it). */
  scorecard: string
  /** The sticky PR comment: never (default), on-failure, always. */
  comment: CommentMode
}

/**
 * What every judgement of the action passes to check(), whatever the event: the commits,
 * the checkout, the policy and date from the inputs, the token as a secret no child may
 * see, and the environment the children inherit. Callers add the write-set source, the
 * approval source and (report mode) the replay.
 */
export function judgeOptions(
  inputs: Inputs,
  env: NodeJS.ProcessEnv,
  log: Logger,
  commits: { base: string; head: string }
): CheckOptions {
  return {
    repoDir: inputs.workdir,
    ...commits,
    policyPath: inputs.policyPath,
    today: inputs.today,
    log,
    secrets: inputs.token ? [inputs.token] : [],
    env
  }
}

/** What the run has opened so far, so that a failure can still complete the check run. */
export interface Session {
  headSha?: string
  /** The PR the run judged or reports on (none for a merge queue's group). */
  pullNumber?: number
  check?: { target: CheckRunTarget; posting: Posting }
}

const MODES: readonly Inputs['mode'][] = ['judge', 'report', 'prime', 'shard', 'merge']

/** The inputs from their raw values (`input(name)` as core.getInput gives them). */
export function readInputs(input: (name: string) => string, workspace: string): Inputs {
  const mode = input('mode') || 'judge'
  if (!MODES.includes(mode as Inputs['mode'])) {
    throw new GateError(
      `input mode must be "judge", "report", "prime", "shard" or "merge", got "${mode}"`,
      { rule: 'config-invalid' }
    )
  }
  const primedBase = input('primed-base') || 'off'
  if (primedBase !== 'off' && primedBase !== 'auto') {
    throw new GateError(`input primed-base must be "off" or "auto", got "${primedBase}"`, {
      rule: 'config-invalid'
    })
  }
  const shard = mode === 'shard' ? parseShard(input('shard')) : undefined
  if (typeof shard === 'string')
    throw new GateError(`input shard (mode: shard): ${shard}`, { rule: 'config-invalid' })
  return {
    ...(shard ? { shard } : {}),
    token: input('token'),
    policyPath: input('policy') || DEFAULT_POLICY_PATH,
    checkName: input('check-name') || 'oracle-gate',
    today: input('today') || utcToday(),
    workdir: resolve(workspace, input('working-directory') || '.'),
    mode: mode as Inputs['mode'],
    primedBase,
    scorecard: input('scorecard') ? resolve(workspace, input('scorecard')) : '',
    comment: commentMode(input('comment'))
  }
}
