// The pipeline, in the order the gate trusts things:
//   policy → write set → instrument → ledger → lints → replay → verdict → report
// (policy and everything trust-relevant from the merge base; the verdict is finalize's, the
// report is the callers': the CLI and the action). Each stage is a function of the context;
// this file only sequences them, times them and makes sure that whatever goes wrong ends as
// a card with verdict `error`, never a pass.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runFacts, type GateContext, type RunFacts } from './context.js'
import { utcToday } from './clock.js'
import { GateError, errorMessage, reasonFromError } from './errors.js'
import { childEnv } from './exec/env.js'
import { isCalendarDate } from './ledger/dates.js'
import { Git } from './git/git.js'
import { checkInstrument, instrumentTouched, type InstrumentResult } from './instrument/index.js'
import { shortSha } from './json.js'
import { loadLedger } from './ledger/index.js'
import { runLints } from './lints/index.js'
import { DEFAULT_POLICY_PATH, parsePolicy } from './policy/load.js'
import type { Policy } from './policy/types.js'
import { readJudgingPolicy } from './policy/union.js'
import { requireGitVersion } from './git/version.js'
import { replay, type BaseSide } from './replay/index.js'
import type { BaseSource } from './prime/source.js'
import type { ShardSpec } from './shard/split.js'
import type { LedgerState } from './ledger/types.js'
import type { Change, Logger, Reason, Scorecard } from './types.js'
import { approvedInstrument } from './verdict/approval-stage.js'
import type { ApprovalSource } from './verdict/approval.js'
import { emptyScorecard, finalize } from './verdict/scorecard.js'
import { VERSION } from './version.js'
import { buildWriteSet, publicRow, type ClassifiedRow } from './writeset/index.js'

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
  /** Primed base results: prime (store the base side) or judge (reuse it); src/prime/. */
  baseSource?: BaseSource
  /**
   * Measure the base side only (a prime): the head is not run, and the card is no verdict
   * (replay/index.ts ReplayMode).
   */
  baseOnly?: boolean
  /**
   * The action's reviews of the PR, read when the instrument was touched and the base's
   * policy names instrument_approvers (src/verdict/approval.ts). The CLI has none.
   */
  approval?: ApprovalSource
  /** One shard of a sharded replay (`check --shard I/N`, src/shard/): its voting files only. */
  shard?: ShardSpec
}

export async function check(options: CheckOptions): Promise<Scorecard> {
  const policyPath = normalisePolicyPath(options.policyPath ?? DEFAULT_POLICY_PATH)
  const card = emptyScorecard({ version: VERSION, today: options.today ?? utcToday(), policyPath })
  const env = options.env ?? process.env
  const tempDir = await mkdtemp(join(tmpdir(), 'tmp.'))
  // The run's git: its long-lived readers (git/batch.ts) end with the run, in every outcome.
  const git = new Git(options.repoDir, env)
  try {
    await pipeline({ ...options, env }, git, card, tempDir)
  } catch (error) {
    card.reasons.push(reasonFromError(error))
    options.log.warning(`gate error: ${errorMessage(error)}`)
  } finally {
    // Independent ends, awaited together: the readers' exit and the temp dir's removal.
    await Promise.all([
      git.close(),
      rm(tempDir, { recursive: true, force: true }).catch(() => undefined)
    ])
  }
  return finalize(card)
}

/**
 * One line per stage, in the order above; each stage writes its part of the card. All
 * that reads the head's objects (write set, instrument, lints) is done before any of the
 * head's code runs; the lints run beside the base's first run where that is safe
 * (overlapLints).
 */
async function pipeline(
  options: CheckOptions & { env: NodeJS.ProcessEnv },
  git: Git,
  card: Scorecard,
  tempDir: string
): Promise<void> {
  const { log } = options
  const time = stageTimer(card, log)
  checkToday(options.today)
  await requireGitVersion(git)

  const commits = await time('resolve commits', () => resolveCommits(git, options, card))
  prefetch(git, commits, options)
  const policy = await time('policy (from the merge base)', () =>
    policyStage(git, commits, card, log)
  )
  const facts = runFacts(git, policy)
  const writeSet = await time('write set', () =>
    writeSetStage(git, commits, policy, facts, options, card)
  )
  const ctx: GateContext = {
    ...facts,
    repoDir: options.repoDir,
    git,
    policy,
    mergeBase: commits.mergeBase,
    head: commits.head,
    today: card.today,
    log,
    writeSet,
    childEnv: childEnv(options.env, {}, options.secrets ?? []),
    tempDir
  }
  // The instrument and the ledger read only objects (both trees; the ledger at the merge
  // base) and the PR's reviews, so they run at once; each writes the card only after both
  // have settled, in the order above, and the first failure in that order is the one raised.
  const [instrument, ledger] = await bothSettled(
    time('instrument', () => instrumentStage(ctx, options)),
    untimedStage(card, log, 'ledger', () => loadLedger(ctx), 'beside the instrument stage')
  )
  writeInstrument(card, instrument)
  writeLedger(card, ledger)
  // Every stage after this one reads the instrument stage's view of both trees.
  ctx.instrument = instrument.view
  // A patch that touched the instrument is not scored: unscored is not passed, and running
  // a suite whose instrument the patch rewrote would only produce a number to argue with.
  // The verdict is policy on what the patch wrote, so neither are the lints run (a
  // 20,000-file patch would be parsed for reasons that cannot change the verdict).
  if (instrumentTouched(instrument.reasons)) {
    log.info('the instrument was touched: the lints and the suite are not run')
    card.reasons.push(notRunReason())
    return
  }
  await lintsAndReplay(ctx, ledger, options, card, time)
}

/** The lints, then the replay; where it is safe (overlapLints), the lints beside the base. */
async function lintsAndReplay(
  ctx: GateContext,
  ledger: LedgerState,
  options: CheckOptions,
  card: Scorecard,
  time: StageTimer
): Promise<void> {
  if (!overlapLints(ctx.policy, options)) {
    await time('lints', () => lintsStage(ctx, ledger, card))
    await time('replay', () => replayStage(ctx, ledger, options, card))
    return
  }
  // Started as the base's first run starts (or as the base side ends, or the replay, when
  // that run never starts: a primed base, a base stopped early): the lints' parsing holds
  // the event loop, and started first it held back the replay's own set-up (worktrees, the
  // sandbox probe) until it was over, about 0.2 s in series before the base ran.
  let start: () => void = () => undefined
  const begun = new Promise<void>(resolve => (start = resolve))
  const linted = begun.then(() =>
    untimedStage(
      card,
      ctx.log,
      'lints',
      async () => {
        card.reasons.push(...(await runLints(ctx, ledger)))
      },
      "beside the base's first run"
    )
  )
  // Observed at once: a lint that fails while the base still runs is not an unhandled
  // rejection (which would end the process without a card); the seam below rethrows it.
  linted.catch(() => undefined)
  try {
    const afterLints = lintsBeforeHead(linted, start, options.baseSource?.side)
    await time('replay', () => replayStage(ctx, ledger, options, card, afterLints, start))
  } finally {
    // Whatever happened to the replay, the lints run, and no lint is left reading when the
    // run's git closes.
    start()
    await linted.catch(() => undefined)
  }
  await linted
}

/**
 * Starts the reads the write set and the instrument make first (the diff, both trees) so
 * that git answers them while the policy is parsed and validated in this process; the
 * stages then find them kept (git.ts keeps listings of object ids for the run). A failure
 * is left for the stage that reads it, which meets the same kept error.
 */
function prefetch(git: Git, commits: Commits, options: CheckOptions): void {
  const reads: Promise<unknown>[] = [git.lsTree(commits.mergeBase), git.lsTree(commits.head)]
  if (options.changes === undefined) reads.push(git.diffRaw(commits.mergeBase, commits.head))
  for (const read of reads) void read.catch(() => undefined)
}

/**
 * Whether the lints run beside the base side: only when the head's first run cannot start
 * before the base's seam returns (serial sides: suite.parallel starts both at once, and
 * suite.jobs ≥ 2 starts the head inside the base's seam, replay/index.ts), so the head's
 * code never runs while a lint still reads the head's objects (that code could rewrite
 * loose objects in the repository); the base's code is the merge base's, trusted. A
 * replaced replay (the action's report mode) keeps the plain order.
 */
function overlapLints(policy: Policy, options: CheckOptions): boolean {
  const { parallel, jobs } = policy.suite
  return !parallel && jobs < 2 && options.replay === undefined
}

/**
 * The base seam (replay/index.ts BaseSide) that hands the base side back only once the
 * lints are over (started now if the base's first run never started them), so the head's
 * side (which starts after it, serially) runs no code before then; a lint's error stops
 * the replay there, before the head.
 */
function lintsBeforeHead(
  lints: Promise<void>,
  start: () => void,
  inner: BaseSide | undefined
): BaseSide {
  return async (ctx, run) => {
    const side = await (inner ? inner(ctx, run) : run())
    start()
    await lints
    return side
  }
}

function notRunReason(): Reason {
  // No path: a notice on the policy file would annotate a file the patch did not write.
  return {
    rule: 'diagnostic',
    level: 'notice',
    message:
      'the lints and the suite were not run: the patch touched the instrument, so the verdict is policy whatever they would find; once the instrument change is gone (or approved), the next run lints and replays the patch'
  }
}

/**
 * A stage that runs beside another (the lints beside the base's first run, the ledger
 * beside the instrument stage): no log group of its own (two open groups would
 * interleave), its wall time on the card and in one line saying `beside` what, and an
 * unexpected failure named as stageTimer names it.
 */
async function untimedStage<T>(
  card: Scorecard,
  log: Logger,
  name: string,
  fn: () => Promise<T>,
  beside: string
): Promise<T> {
  const started = Date.now()
  try {
    return await fn()
  } catch (error) {
    if (error instanceof GateError) throw error
    throw new GateError(`internal error in "${name}": ${errorMessage(error)}`, { cause: error })
  } finally {
    card.timings_ms[name] = Date.now() - started
    log.info(`${name}: ${card.timings_ms[name]} ms, ${beside}`)
  }
}

/**
 * Two stages run at once: their values once both have settled (neither is left running or
 * unobserved), else the first one's failure, else the second's.
 */
async function bothSettled<A, B>(first: Promise<A>, second: Promise<B>): Promise<[A, B]> {
  const [a, b] = await Promise.allSettled([first, second])
  if (a.status === 'rejected') throw a.reason
  if (b.status === 'rejected') throw b.reason
  return [a.value, b.value]
}

type StageTimer = <T>(name: string, fn: () => Promise<T>) => Promise<T>

/** Runs a stage inside a log group and records its wall time on the card. */
function stageTimer(card: Scorecard, log: Logger): StageTimer {
  return async (name, fn) => {
    const started = Date.now()
    try {
      return await log.group(name, fn)
    } catch (error) {
      // An unexpected failure still says where it happened (and so which input caused it).
      if (error instanceof GateError) throw error
      throw new GateError(`internal error in "${name}": ${errorMessage(error)}`, { cause: error })
    } finally {
      card.timings_ms[name] = Date.now() - started
    }
  }
}

function checkToday(today: string | undefined): void {
  if (today !== undefined && !isCalendarDate(today)) {
    throw new GateError(`--today must be a calendar date YYYY-MM-DD, got "${today}"`, {
      rule: 'config-invalid'
    })
  }
}

interface Commits {
  baseTip: string
  head: string
  mergeBase: string
}

async function resolveCommits(git: Git, options: CheckOptions, card: Scorecard): Promise<Commits> {
  // Both refs at once; a failure of the base's is the one raised when both fail.
  const [baseTip, head] = await bothSettled(
    git.resolveCommit(options.base),
    git.resolveCommit(options.head ?? 'HEAD')
  )
  const mergeBase = await git.mergeBase(baseTip, head)
  options.log.info(`base ${options.base} = ${baseTip}; head ${head}; merge base ${mergeBase}`)
  card.base = mergeBase
  card.head = head
  card.base_ref = baseTip
  if (options.head !== undefined) card.head_ref = options.head
  return { baseTip, head, mergeBase }
}

/** The policy the head is judged by: the merge base's, joined with the base tip's. */
async function policyStage(
  git: Git,
  commits: Commits,
  card: Scorecard,
  log: Logger
): Promise<Policy> {
  const { mergeBase, baseTip } = commits
  const { policy, notice } = await readJudgingPolicy(
    git,
    { mergeBase, baseTip },
    card.policy_path,
    () => readPolicy(git, mergeBase, card.policy_path, log),
    log
  )
  card.reasons.push(notice)
  card.campaign = { ...policy.campaign }
  return policy
}

async function writeSetStage(
  git: Git,
  commits: Commits,
  policy: Policy,
  facts: RunFacts,
  options: CheckOptions,
  card: Scorecard
): Promise<ClassifiedRow[]> {
  const { mergeBase, head } = commits
  const api = options.changes ? await options.changes(mergeBase, head) : null
  const rows = await buildWriteSet(git, mergeBase, head, policy, api, facts)
  options.log.info(`${rows.length} path(s) written${api ? ' (from the API list)' : ' (from git)'}`)
  card.write_set = rows.map(publicRow)
  return rows
}

/** The instrument checks, with the reasons an approval of the instrument change lifts. */
async function instrumentStage(ctx: GateContext, options: CheckOptions): Promise<InstrumentResult> {
  const checked = await checkInstrument(ctx)
  const reasons = await approvedInstrument(
    checked.reasons,
    ctx.policy,
    ctx.head,
    options.approval,
    ctx.log
  )
  return { ...checked, reasons }
}

function writeInstrument(card: Scorecard, instrument: InstrumentResult): void {
  card.oracle = instrument.oracle
  card.reasons.push(...instrument.reasons)
}

function writeLedger(card: Scorecard, ledger: LedgerState): void {
  card.reasons.push(...ledger.reasons)
  card.freeze_debt = ledger.freeze_debt
}

async function lintsStage(ctx: GateContext, ledger: LedgerState, card: Scorecard): Promise<void> {
  card.reasons.push(...(await runLints(ctx, ledger)))
}

/** Before any lint reads a byte: a file too large to read is an error naming the limit. */
async function replayStage(
  ctx: GateContext,
  ledger: LedgerState,
  options: CheckOptions,
  card: Scorecard,
  baseSide: BaseSide | undefined = options.baseSource?.side,
  onBaseRun?: () => void
): Promise<void> {
  const mode = {
    baseOnly: options.baseOnly ?? false,
    baseRuns: options.baseSource === undefined,
    ...(options.shard ? { shard: options.shard } : {}),
    ...(onBaseRun ? { onBaseRun } : {})
  }
  const result = await (options.replay ?? replay)(ctx, ledger, baseSide, mode)
  card.reasons.push(...(options.baseSource?.reasons ?? []))
  card.reasons.push(...result.reasons)
  card.votes = result.votes
  card.transitions = result.transitions
  card.seeds = result.seeds
  card.flakes = result.flakes
  card.runs = result.runs
  card.diagnostics = result.diagnostics
  if (result.unmeasured !== undefined) card.unmeasured = result.unmeasured
  if (result.shard) card.shard = result.shard
  if (result.sandbox) card.sandbox = result.sandbox
  if (result.evidence) card.evidence = result.evidence
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
