// Clean, detached worktrees of the merge base and the head, and the overlay that gives the
// head the base's instrument. Worktrees live in the run's temp dir under random, neutral
// names (nothing says which side, or that a gate made them) and are removed (and pruned
// from the repository's bookkeeping) whatever happens. Without a sandbox, a side's worktree
// is moved to the one run path while it runs (`stage`), so both sides run at one path.
import { existsSync } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { GateContext } from '../context.js'
import { GateError } from '../errors.js'
import { neutralName } from '../exec/sandbox.js'
import { normalisePath } from '../writeset/planes.js'
import { cleanupWorktree } from './setup.js'
import { newSetupShare, type SetupShare } from './share.js'

export interface Worktrees {
  /**
   * The merge base's worktree, created on the first call: a base side taken from a primed
   * result never runs, and then no worktree of the merge base is made.
   */
  base(): Promise<string>
  /** The head's worktree, created on the first call (a prime runs the base side only). */
  head(): Promise<string>
  /**
   * Adds one more detached worktree (a diagnostics run's own tree) under the run's temp
   * dir; it is removed with the others.
   */
  add(name: string, rev: string): Promise<string>
  /** Records links setup made in a worktree, so removal unlinks them first. */
  track(dir: string, links: readonly string[]): void
  /**
   * The path a run in `dir` has: `dir` itself under a sandbox (it mounts the worktree at the
   * run path), else the run path, `dir` moved there (and the worktree there before moved
   * back). Sides run one after the other without a sandbox, so one is there at a time.
   */
  stage(dir: string): Promise<string>
  /** The base's setup, offered to worktrees with the same dependency fingerprint (share.ts). */
  share: SetupShare
}

/**
 * Runs `fn` with the base and head worktrees (each made when first asked for) and removes
 * every worktree made, in all cases.
 */
export async function withWorktrees<T>(
  ctx: GateContext,
  fn: (wt: Worktrees) => Promise<T>
): Promise<T> {
  // Per run, never module-level: what each worktree holds, for its removal.
  const created = new Map<string, string[]>()
  const names = new Set<string>()
  // Per run: worktrees still being made, awaited before any removal. Made one after another:
  // two `git worktree add` at once in one repository race on .git/worktrees ("failed to
  // read .git/worktrees/<name>"), seen as an intermittent gate error under load.
  const making = new Set<Promise<void>>()
  let queue: Promise<void> = Promise.resolve()
  const add = async (name: string, rev: string): Promise<string> => {
    if (names.has(name)) throw new GateError(`worktree ${name} exists already`)
    names.add(name)
    const dir = join(ctx.tempDir, neutralName())
    created.set(dir, [])
    const made = queue.then(() => createWorktree(ctx, dir, rev))
    queue = made.catch(() => undefined)
    making.add(made)
    try {
      await made
    } finally {
      making.delete(made)
    }
    return dir
  }
  // Per run: the worktree now at the run path (no sandbox), and moving it back.
  let staged: string | null = null
  const unstage = async (): Promise<void> => {
    const at = ctx.containment?.at
    if (staged === null || at === undefined) return
    await rename(at, staged)
    staged = null
  }
  const stage = async (dir: string): Promise<string> => {
    const c = ctx.containment
    if (c === undefined || c.bin !== null) return dir
    if (staged === dir) return c.at
    await unstage()
    await rename(dir, c.at)
    staged = dir
    return c.at
  }
  // Per run: the base's install, set aside for the others; removed with the worktrees.
  const share = newSetupShare()
  // Per run: each side's worktree, once asked for.
  let base: Promise<string> | undefined
  let head: Promise<string> | undefined
  try {
    const wt: Worktrees = {
      base: () => (base ??= add('base', ctx.mergeBase)),
      head: () => (head ??= add('head', ctx.head)),
      add,
      track: (dir, links) => void created.get(dir)?.push(...links),
      stage,
      share
    }
    return await fn(wt)
  } finally {
    // A worktree still being made (beside one that failed) is removed once it is there.
    await Promise.allSettled([...making])
    // A side that removed or replaced the run path leaves nothing to move back.
    await unstage().catch(() => undefined)
    await removeWorktrees(ctx, created)
    if (share.offer !== null) await rm(share.offer.stash, { recursive: true, force: true })
  }
}

/** The one place a worktree is created: detached, at `rev`, in `dir`. */
async function createWorktree(ctx: GateContext, dir: string, rev: string): Promise<void> {
  await ctx.git.addWorktree(dir, rev)
}

/**
 * Every worktree's folder deleted (all at once), then one `git worktree prune` drops the
 * bookkeeping of each: the same end state as a `git worktree remove` per worktree, with one
 * git process instead of one per worktree plus the prune.
 */
async function removeWorktrees(
  ctx: GateContext,
  created: ReadonlyMap<string, readonly string[]>
): Promise<void> {
  const remove = async (dir: string, links: readonly string[]): Promise<void> => {
    // Links setup made into the checkout go first, so removal cannot reach through them.
    await cleanupWorktree(links).catch(() => undefined)
    await rm(dir, { recursive: true, force: true }).catch(() => undefined)
  }
  await Promise.all([...created].map(([dir, links]) => remove(dir, links)))
  await ctx.git.pruneWorktrees()
}

/**
 * Gives the head worktree the merge base's instrument: `restore` paths are replaced by
 * their merge-base content (files the head added inside a restored directory go too),
 * `remove` paths are deleted. Runs in the worktree's own index, never the user's.
 */
export async function applyOverlay(
  ctx: GateContext,
  worktree: string,
  overlay: { restore: readonly string[]; remove: readonly string[] }
): Promise<void> {
  const restore = overlay.restore.map(p => safePath(p))
  for (const path of [...restore, ...overlay.remove.map(p => safePath(p))]) {
    await rm(join(worktree, path), { recursive: true, force: true })
  }
  const present: string[] = []
  for (const path of restore) {
    if ((await ctx.git.objectId(ctx.mergeBase, path)) !== null) present.push(path)
  }
  if (present.length === 0) return
  await ctx.git.checkoutPaths(worktree, ctx.mergeBase, present)
}

function safePath(path: string): string {
  const p = normalisePath(path)
  if (p === '' || p === '..' || p.startsWith('../')) {
    throw new GateError(`instrument overlay path "${path}" is outside the repository`, { path })
  }
  return p
}

/** Files of a worktree (tracked and still present), for mapping report names to files. */
export async function worktreeFiles(ctx: GateContext, worktree: string): Promise<string[]> {
  return (await ctx.git.indexFiles(worktree)).filter(f => existsSync(join(worktree, f)))
}
