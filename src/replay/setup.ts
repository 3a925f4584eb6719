// Per-worktree setup: make a fresh worktree ready for the suite and the seeds command,
// either by linking dependency directories from the checkout (`suite.reuse`, only when
// provably equivalent, see reuse.ts), by copying what the base's setup installed when the
// dependency fingerprint is the same (`suite.share_setup`, see share.ts), or by running
// `suite.setup` in it.
//
// Links, not copies: a copy would cost seconds to minutes for a large node_modules and buy
// no isolation, because the suite is not sandboxed and the head's code can write anywhere
// the runner user can (the checkout included) whether or not a link exists. What a link
// must not do is survive the worktree or drag the checkout's directory down with it:
// prepareWorktree returns the links it made, and the owner of the worktree hands them to
// cleanupWorktree before the worktree is removed (a value passed along, not a cache).
import { lstat, symlink, unlink } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { GateContext } from '../context.js'
import { childEnv } from '../exec/env.js'
import { runShell } from '../exec/process.js'
import { decideReuse } from './reuse.js'
import { placement } from './run.js'
import {
  fingerprint,
  makeOffer,
  manifestDigests,
  snapshotTree,
  takeOffer,
  type ChangedBlob,
  type SetupShare
} from './share.js'

export interface SetupOutcome {
  /**
   * reused: dependencies linked from the checkout; shared: the base's setup copied (same
   * dependency fingerprint); ran: setup ran; none: nothing configured.
   */
  mode: 'reused' | 'shared' | 'ran' | 'none'
  /** Why this mode (for the log and the card), and why it failed when it did. */
  reason: string
  ok: boolean
  timedOut: boolean
  durationMs: number
  tail?: string
  /** Exit code of the setup command, when it ran. */
  exitCode?: number | null
  /** Links created in the worktree (absolute paths); cleanupWorktree removes them. */
  links?: string[]
}

/**
 * Makes a fresh worktree ready for the suite (and the seeds command): reuses directories
 * from the checkout or runs `suite.setup`. Called once per side, after the instrument
 * overlay, before the suite. Never throws for a failing setup (the caller turns `ok:
 * false` into an error on base and a red vote on head); throws GateError for a policy
 * mistake (a reuse path outside the repository). With `share` (the run's, from the
 * Worktrees), the first base setup offers its install and later worktrees take it.
 */
export async function prepareWorktree(
  ctx: GateContext,
  side: 'base' | 'head',
  worktree: string,
  logFile: string,
  share?: SetupShare
): Promise<SetupOutcome> {
  const started = Date.now()
  const { setup, reuse, reuse_key } = ctx.policy.suite
  let why = 'suite.reuse is not configured'
  if (reuse.length > 0) {
    const decision = await decideReuse({
      git: ctx.git,
      checkoutDir: ctx.repoDir,
      worktree,
      dirs: reuse,
      keys: reuse_key,
      policyPath: ctx.policy.path
    })
    if (decision.reuse) {
      const links = await linkAll(ctx.repoDir, worktree, reuse)
      const reason = `reused ${reuse.join(', ')} from the checkout: ${decision.reason}`
      ctx.log.info(`${side}: ${reason}`)
      return {
        mode: 'reused',
        reason,
        ok: true,
        timedOut: false,
        durationMs: Date.now() - started,
        links
      }
    }
    why = `cannot reuse ${reuse.join(', ')}: ${decision.reason}`
    if (setup === undefined) {
      // The policy promised dependencies and cannot deliver them; running the suite bare
      // would blame the product for a missing install.
      const reason = `${why}, and no suite.setup is configured to install them`
      ctx.log.warning(`${side}: ${reason}`)
      return { mode: 'none', reason, ok: false, timedOut: false, durationMs: Date.now() - started }
    }
  }
  if (setup === undefined)
    return {
      mode: 'none',
      reason: 'no suite.setup configured',
      ok: true,
      timedOut: false,
      durationMs: 0
    }

  // Contained like every run of the patch's code, with the network to install (run.ts).
  const place = placement(ctx, worktree, { setup: true })
  const sharing =
    share !== undefined &&
    ctx.policy.suite.share_setup &&
    (share.offer !== null || side === 'head' || !share.tried)
  const mine = sharing ? await dependencyState(ctx, worktree, setup) : null
  if (share !== undefined && mine !== null && (share.offer !== null || side === 'head')) {
    const taken = await takeShare(ctx, side, share, mine, worktree, place.at, logFile, started)
    if (typeof taken !== 'string') return taken
    why = `${why}; not shared: ${taken}`
  }
  ctx.log.info(`${side}: running suite.setup (${why})`)
  const env = childEnv(ctx.childEnv, {
    // See docs/replay.md (python_safe_path): no implicit cwd on sys.path for setup either.
    ...(ctx.policy.suite.python_safe_path ? { PYTHONSAFEPATH: '1' } : {}),
    ...ctx.policy.suite.env,
    ORACLE_GATE_SIDE: side,
    ORACLE_GATE_WORKTREE: place.at,
    ORACLE_GATE_CHECKOUT: ctx.repoDir
  })
  const run = await runShell({
    command: setup,
    cwd: place.cwd,
    env,
    ...(place.wrap ? { wrap: place.wrap } : {}),
    timeoutSec: ctx.policy.suite.setup_timeout,
    logFile
  })
  const ok = run.exitCode === 0 && !run.timedOut
  const result = run.timedOut
    ? `suite.setup timed out after ${ctx.policy.suite.setup_timeout}s`
    : run.exitCode === 0
      ? 'suite.setup succeeded'
      : `suite.setup failed (${run.exitCode === null ? `signal ${run.signal ?? '?'}` : `exit ${run.exitCode}`})`
  const reason = `ran setup (${why}): ${result}`
  if (ok) ctx.log.info(`${side}: ${result} in ${run.durationMs} ms`)
  else ctx.log.warning(`${side}: ${result}; log ${logFile}`)
  if (ok && side === 'base' && share !== undefined && mine !== null && !share.tried) {
    await offerShare(ctx, share, mine, worktree, place.at, logFile)
  }
  return {
    mode: 'ran',
    reason,
    ok,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    tail: run.tail,
    exitCode: run.exitCode
  }
}

/** A worktree's tree and dependency fingerprint before setup (null: too large to compare). */
async function dependencyState(ctx: GateContext, worktree: string, setup: string) {
  const snap = await snapshotTree(worktree)
  if (snap === null) return null
  const manifests = await manifestDigests(worktree, snap)
  return { snap, manifests, digest: fingerprint(setup, ctx.policy.suite.env, manifests) }
}

type DependencyState = NonNullable<Awaited<ReturnType<typeof dependencyState>>>

/** The base's install copied in (an outcome), or why not (a string, setup runs). */
async function takeShare(
  ctx: GateContext,
  side: 'base' | 'head',
  share: SetupShare,
  mine: DependencyState,
  worktree: string,
  at: string,
  logFile: string,
  started: number
): Promise<SetupOutcome | string> {
  if (share.offer === null) return share.why
  const taken = await takeOffer(share.offer, { worktree, at, logFile, ...mine })
  if (typeof taken === 'string') return taken
  const reason = `shared the base's setup (${taken.dirs.join(', ')} copied): dependency fingerprint ${mine.digest.slice(0, 12)} (suite.setup, suite.env and ${mine.manifests.size} manifest(s)) identical to the base's`
  ctx.log.info(`${side}: ${reason}`)
  return { mode: 'shared', reason, ok: true, timedOut: false, durationMs: Date.now() - started }
}

/** After the base's setup: its install set aside for later worktrees, or why not (logged). */
async function offerShare(
  ctx: GateContext,
  share: SetupShare,
  before: DependencyState,
  worktree: string,
  at: string,
  logFile: string
): Promise<void> {
  share.tried = true
  const changed = await changedBlobs(ctx)
  if (typeof changed === 'string') {
    share.why = `the base's setup cannot be shared: ${changed}`
    ctx.log.info(`base: ${share.why}`)
    return
  }
  const offer = await makeOffer({
    worktree,
    changed,
    at,
    before: before.snap,
    manifests: before.manifests,
    digest: before.digest,
    tempDir: ctx.tempDir,
    logFile
  })
  if (typeof offer === 'string') {
    share.why = `the base's setup cannot be shared: ${offer}`
    ctx.log.info(`base: ${share.why}`)
    return
  }
  share.offer = offer
  ctx.log.info(
    `base: ${offer.dirs.join(', ')} kept for worktrees with the same dependency fingerprint`
  )
}

/** More changed files than this are not checked for copies: no share, setup runs. */
const MAX_CHANGED = 5000

/** The merge base's versions of the files the head changed (what a copy would match). */
async function changedBlobs(ctx: GateContext): Promise<ChangedBlob[] | string> {
  const rows = ctx.writeSet.filter(r => r.status !== 'added')
  if (rows.length > MAX_CHANGED) return `the head changed more than ${MAX_CHANGED} files`
  const out: ChangedBlob[] = []
  for (const row of rows) {
    const path = row.previous_path ?? row.path
    const info = await ctx.git.objectInfo(`${ctx.mergeBase}:${path}`)
    if (info?.type === 'blob') out.push({ path, oid: info.oid, size: info.size })
  }
  return out
}

async function linkAll(
  checkoutDir: string,
  worktree: string,
  dirs: readonly string[]
): Promise<string[]> {
  const key = resolve(worktree)
  const links: string[] = []
  try {
    for (const dir of dirs) {
      const at = join(key, dir)
      // An absolute target: the worktree lives in a temp dir, far from the checkout.
      await symlink(resolve(checkoutDir, dir), at, 'dir')
      links.push(at)
    }
  } catch (error) {
    // Nobody else knows these links yet: undo them before reporting the failure.
    await cleanupWorktree(links)
    throw error
  }
  return links
}

/**
 * Removes the links prepareWorktree made (its outcome's `links`), so that removing the worktree
 * afterwards cannot reach the checkout's directories whatever tool removes it (rm -rf,
 * fs.rm and `git worktree remove` do not follow links, but a copy-then-delete or a
 * careless walker would). Call it before removing the worktree; it is idempotent and
 * removes only symlinks, never what they point at. Returns the paths it unlinked.
 */
export async function cleanupWorktree(links: readonly string[]): Promise<string[]> {
  const removed: string[] = []
  for (const link of links) {
    const info = await lstat(link).catch(() => null)
    if (info?.isSymbolicLink()) {
      await unlink(link)
      removed.push(link)
    }
  }
  return removed
}
