// The pipeline, in the order the gate trusts things:
//   policy (base) → write set → instrument → ledger → lints → replay → verdict.
// Each stage is a function of the context; this file only sequences them, times them and
// makes sure that whatever goes wrong ends as a card with verdict `error`, never a pass.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runFacts, type GateContext } from './context.js'
import { GateError, errorMessage } from './errors.js'
import { childEnv } from './exec/env.js'
import { isCalendarDate } from './ledger/dates.js'
import { Git } from './git/git.js'
import { checkInstrument, instrumentTouched } from './instrument/index.js'
import { shortSha } from './json.js'
import { loadLedger } from './ledger/index.js'
import { runLints } from './lints/index.js'
import { DEFAULT_POLICY_PATH, parsePolicy } from './policy/load.js'
import type { Policy } from './policy/types.js'
import { readJudgingPolicy } from './policy/union.js'
import { replay } from './replay/index.js'
import type { Change, Logger, Reason, Scorecard } from './types.js'
import { approvedInstrument } from './verdict/approval-stage.js'
import type { ApprovalSource } from './verdict/approval.js'
import { emptyScorecard, finalize } from './verdict/scorecard.js'
import { VERSION } from './version.js'
import { buildWriteSet, publicRow } from './writeset/index.js'

export interface CheckOptions {
  repoDir: string
  /** Base ref or sha (the branch the PR targets). */
  base: string
  /** Head ref or sha; default HEAD. */
  head?: string
  policyPath?: string
  /** YYYY-MM-DD; default the UTC date. */
  today?: string
  log: Logger
  /** Environment the children inherit (credentials are removed); default process.env. */
  env?: NodeJS.ProcessEnv
  /** Secret values (the token) that must reach no child, whatever variable holds them. */
  secrets?: readonly string[]
  /**
   * The changed files as another source reports them (the PR files API), or null when that
   * source is capped or unavailable and git must be used.
   */
  changes?: (mergeBase: string, head: string) => Promise<Change[] | null>
  /**
   * Replaces the replay stage (the action's report mode: test results come from the
   * artifact of a run that executed the patch; everything before replay is re-derived here).
   */
  replay?: typeof replay
  /**
   * The action's reviews of the PR, read when the instrument was touched and the base's
   * policy names instrument_approvers (src/verdict/approval.ts). The CLI has none.
   */
  approval?: ApprovalSource
}

export function utcToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10)
}

export async function check(options: CheckOptions): Promise<Scorecard> {
  const policyPath = normalisePolicyPath(options.policyPath ?? DEFAULT_POLICY_PATH)
  const card = emptyScorecard({ version: VERSION, today: options.today ?? utcToday(), policyPath })
  const tempDir = await mkdtemp(join(tmpdir(), 'oracle-gate-'))
  try {
    await pipeline(options, card, tempDir)
  } catch (error) {
    card.reasons.push(reasonFromError(error))
    options.log.warning(`gate error: ${errorMessage(error)}`)
  } finally {
    await rm(tempDir, { recursive: true, force: true }).catch(() => undefined)
  }
  return finalize(card)
}

async function pipeline(options: CheckOptions, card: Scorecard, tempDir: string): Promise<void> {
  const { log } = options
  const git = new Git(options.repoDir)
  const time = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const started = Date.now()
    try {
      return await log.group(name, fn)
    } finally {
      card.timings_ms[name] = Date.now() - started
    }
  }

  if (options.today !== undefined && !isCalendarDate(options.today)) {
    throw new GateError(`--today must be a calendar date YYYY-MM-DD, got "${options.today}"`, {
      rule: 'config-invalid'
    })
  }

  const { mergeBase, head, baseTip } = await time('resolve commits', async () => {
    const baseTip = await git.resolveCommit(options.base)
    const head = await git.resolveCommit(options.head ?? 'HEAD')
    const mergeBase = await git.mergeBase(baseTip, head)
    log.info(`base ${options.base} = ${baseTip}; head ${head}; merge base ${mergeBase}`)
    return { mergeBase, head, baseTip }
  })
  card.base = mergeBase
  card.head = head
  card.base_ref = baseTip
  if (options.head !== undefined) card.head_ref = options.head

  const { policy, notice } = await time('policy (from the merge base)', () =>
    readJudgingPolicy(
      git,
      { mergeBase, baseTip },
      card.policy_path,
      () => readPolicy(git, mergeBase, card.policy_path, log),
      log
    )
  )
  card.reasons.push(notice)
  card.campaign = { ...policy.campaign }
  const facts = runFacts(git, policy)

  const writeSet = await time('write set', async () => {
    const api = options.changes ? await options.changes(mergeBase, head) : null
    const rows = await buildWriteSet(git, mergeBase, head, policy, api, facts)
    log.info(`${rows.length} path(s) written${api ? ' (from the API list)' : ' (from git)'}`)
    return rows
  })
  card.write_set = writeSet.map(publicRow)

  const ctx: GateContext = {
    ...facts,
    repoDir: options.repoDir,
    git,
    policy,
    mergeBase,
    head,
    today: card.today,
    log,
    writeSet,
    childEnv: childEnv(options.env ?? process.env, {}, options.secrets ?? []),
    tempDir
  }

  const checked = await time('instrument', () => checkInstrument(ctx))
  card.oracle = checked.oracle
  const instrument = {
    ...checked,
    reasons: await approvedInstrument(checked.reasons, policy, head, options.approval, log)
  }
  card.reasons.push(...instrument.reasons)

  const ledger = await time('ledger', () => loadLedger(ctx))
  card.reasons.push(...ledger.reasons)
  card.freeze_debt = ledger.freeze_debt

  card.reasons.push(...(await time('lints', () => runLints(ctx, ledger))))

  // A patch that touched the instrument is not scored: unscored is not passed, and running
  // a suite whose instrument the patch rewrote would only produce a number to argue with.
  if (instrumentTouched(instrument.reasons)) {
    log.info('the instrument was touched: the suite is not run')
    return
  }

  const replayCtx: GateContext = { ...ctx, instrument: instrument.view }
  const result = await time('replay', () => (options.replay ?? replay)(replayCtx, ledger))
  card.reasons.push(...result.reasons)
  card.votes = result.votes
  card.transitions = result.transitions
  card.seeds = result.seeds
  card.flakes = result.flakes
  card.runs = result.runs
  card.diagnostics = result.diagnostics
}

async function readPolicy(git: Git, mergeBase: string, path: string, log: Logger): Promise<Policy> {
  const text = await git.showText(mergeBase, path)
  if (text === null) {
    throw new GateError(
      `policy file ${path} does not exist at the merge base ${shortSha(mergeBase)}; add it in a PR of its own first (oracle-gate init writes a starter)`,
      { rule: 'config-invalid', path }
    )
  }
  const policy = parsePolicy(text, path)
  log.info(
    `policy ${path}: ${policy.protected.length} protected glob(s), ${policy.planes.voting.length} voting glob(s)`
  )
  return policy
}

function normalisePolicyPath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^(\.\/)+/, '')
}

export function reasonFromError(error: unknown): Reason {
  if (error instanceof GateError) {
    const reason: Reason = { rule: error.rule, message: error.message, level: 'failure' }
    if (error.path !== undefined) reason.path = error.path
    if (error.line !== undefined) reason.line = error.line
    return reason
  }
  return { rule: 'gate-error', message: `internal error: ${errorMessage(error)}`, level: 'failure' }
}
