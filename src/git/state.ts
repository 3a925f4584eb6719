// The checkout's git state, kept whatever the judged code does. The worktrees the suite
// runs in share the checkout's git directory, so a setup or suite that runs
// `git config core.hooksPath …` (husky does), or writes into .git/hooks, would change the
// checkout the rest of the workflow uses, and every later git command there. A snapshot of
// the files that configure git (config, config.worktree, hooks/, info/) is taken before a
// side's children run; afterwards every change is put back and named: for the head it is
// `runner-tampered`, for the base a gate error (the base's own setup must not do it).
import {
  chmod,
  lstat,
  mkdir,
  readdir,
  readFile,
  readlink,
  rm,
  symlink,
  writeFile
} from 'node:fs/promises'
import { join, relative } from 'node:path'
import { GateError } from '../errors.js'
import type { Git } from './git.js'

/** Top-level entries of the common git directory that configure git. */
const WATCHED = ['config', 'config.worktree', 'hooks', 'info'] as const

type Entry =
  | { kind: 'file'; bytes: Buffer; mode: number }
  | { kind: 'dir' }
  | { kind: 'symlink'; target: string }

export interface GitStateSnapshot {
  /** The common git directory. */
  root: string
  /** Path below root → what was there. */
  entries: Map<string, Entry>
}

export async function snapshotGitState(git: Git): Promise<GitStateSnapshot> {
  const root = await git.commonDir()
  const entries = new Map<string, Entry>()
  for (const name of WATCHED) await collect(root, name, entries)
  return { root, entries }
}

/**
 * Puts the watched files back as the snapshot had them; returns the paths (below the git
 * directory, sorted) that had changed, appeared or gone.
 */
export async function restoreGitState(snapshot: GitStateSnapshot): Promise<string[]> {
  const now = new Map<string, Entry>()
  for (const name of WATCHED) await collect(snapshot.root, name, now)
  const changed = new Set<string>()
  for (const [path, entry] of now) {
    const before = snapshot.entries.get(path)
    if (before === undefined || !sameEntry(before, entry)) changed.add(path)
  }
  for (const path of snapshot.entries.keys()) if (!now.has(path)) changed.add(path)
  if (changed.size === 0) return []
  // Whatever the children left under a watched name goes; the snapshot is written anew.
  for (const name of WATCHED) {
    if ([...changed].some(p => p === name || p.startsWith(`${name}/`))) {
      await rm(join(snapshot.root, name), { recursive: true, force: true })
      await write(snapshot, name)
    }
  }
  return [...changed].sort()
}

/** What ran under a guard: named in the message; whether any of it was the patch's code. */
export interface GuardedRun {
  /** "the head side", "the base side", … */
  what: string
  patchCode: boolean
}

/**
 * Runs one side's children (setup, suite, reruns, seeds) and keeps the checkout's git state:
 * a change is undone and fails the run, as `runner-tampered` when the patch's code ran, as
 * a gate error when only the base's did.
 */
export async function guardGitState<T>(
  git: Git,
  during: GuardedRun,
  fn: () => Promise<T>
): Promise<T> {
  const snapshot = await snapshotGitState(git)
  let outcome: { ok: true; value: T } | { ok: false; error: unknown }
  try {
    outcome = { ok: true, value: await fn() }
  } catch (error) {
    outcome = { ok: false, error }
  }
  // A change outweighs whatever else went wrong: it is the finding, and it is undone.
  const changed = await restoreGitState(snapshot)
  if (changed.length > 0) throw tampered(git, snapshot, during, changed)
  if (!outcome.ok) throw outcome.error
  return outcome.value
}

function tampered(
  git: Git,
  snapshot: GitStateSnapshot,
  during: GuardedRun,
  changed: readonly string[]
): GateError {
  const shown = changed.map(p => shownPath(git.cwd, join(snapshot.root, p)))
  const list = `${shown.slice(0, 5).join(', ')}${shown.length > 5 ? ` and ${shown.length - 5} more` : ''}`
  const what = `the checkout's git configuration changed while ${during.what} ran (${list}); it was put back`
  if (!during.patchCode) {
    return new GateError(
      `${what}. The base's own setup or suite writes git configuration (a hook installer such as husky?): make it not do so in the gate's worktrees`,
      { path: shown[0] ?? '' }
    )
  }
  return new GateError(
    `${what}. Code the patch controls may not change the git configuration or hooks of the checkout`,
    { rule: 'runner-tampered', path: shown[0] ?? '' }
  )
}

function shownPath(repoDir: string, path: string): string {
  const rel = relative(repoDir, path)
  return rel.startsWith('..') ? path : rel
}

async function collect(root: string, path: string, into: Map<string, Entry>): Promise<void> {
  const full = join(root, path)
  const info = await lstat(full).catch(() => null)
  if (info === null) return
  if (info.isSymbolicLink()) {
    into.set(path, { kind: 'symlink', target: await readlink(full) })
  } else if (info.isDirectory()) {
    into.set(path, { kind: 'dir' })
    for (const name of (await readdir(full)).sort()) await collect(root, `${path}/${name}`, into)
  } else {
    // A fifo or socket is recorded as an empty file, so its appearance still shows.
    const bytes = info.isFile() ? await readFile(full) : Buffer.alloc(0)
    into.set(path, { kind: 'file', bytes, mode: info.mode & 0o777 })
  }
}

function sameEntry(a: Entry, b: Entry): boolean {
  if (a.kind === 'file' && b.kind === 'file') return a.mode === b.mode && a.bytes.equals(b.bytes)
  if (a.kind === 'symlink' && b.kind === 'symlink') return a.target === b.target
  return a.kind === 'dir' && b.kind === 'dir'
}

/** Writes the snapshot's entries at and below `name`, parents first (the map is in order). */
async function write(snapshot: GitStateSnapshot, name: string): Promise<void> {
  for (const [path, entry] of snapshot.entries) {
    if (path !== name && !path.startsWith(`${name}/`)) continue
    const full = join(snapshot.root, path)
    if (entry.kind === 'dir') await mkdir(full, { recursive: true })
    else if (entry.kind === 'symlink') await symlink(entry.target, full)
    else {
      await writeFile(full, entry.bytes)
      await chmod(full, entry.mode)
    }
  }
}
