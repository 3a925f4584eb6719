// Deciding whether a worktree may borrow dependency directories (node_modules, .venv) from
// the checkout the gate runs in, instead of running `suite.setup`.
//
// Reuse is an optimisation that must never change what is measured, so it is allowed only
// when it is provably equivalent to running setup: every reuse_key file (the lockfiles) is
// byte-identical between the checkout's working tree and the worktree, and every reuse
// directory is untracked in the checkout. A tracked directory is refused because the
// checkout is usually the pull request's own head (or merge) commit: linking a tracked
// directory would carry the head's files into the base's measurement, and into the head
// worktree past the base-instrument overlay.
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises'
import { dirname, join, posix, resolve, sep } from 'node:path'
import { GateError } from '../errors.js'
import type { Git } from '../git/git.js'

/** Lockfile names that make up the default reuse_key (when they exist on either side). */
export const DEFAULT_KEY_FILES: readonly string[] = [
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'bun.lock',
  'poetry.lock',
  'uv.lock'
]
/** requirements*.txt at the root are key files too (requirements.txt, requirements-dev.txt). */
const REQUIREMENTS = /^requirements.*\.txt$/

export interface ReuseDecision {
  reuse: boolean
  /** One sentence for the log and the card. */
  reason: string
  /** The key files compared (relative paths). */
  keys: string[]
}

/**
 * Checks that a policy path (a reuse directory or a key file) is a plain relative path
 * inside the repository. Anything else is a policy error: `..` or an absolute path would
 * let the policy link or compare files outside both trees.
 */
export function normaliseRepoPath(raw: string, key: string, policyPath: string): string {
  const path = posix.normalize(raw.replace(/\\/g, '/')).replace(/\/+$/, '')
  const bad =
    path === '' ||
    path === '.' ||
    path.startsWith('/') ||
    /^[A-Za-z]:/.test(path) ||
    path.split('/').some(s => s === '..' || s === '.git')
  if (bad) {
    throw new GateError(
      `${key}: "${raw}" must be a relative path inside the repository (no "..", no absolute path, not .git)`,
      { rule: 'config-invalid', path: policyPath }
    )
  }
  return path
}

/** The default key: the known lockfiles present at the root of either tree. */
export async function defaultKeyFiles(checkoutDir: string, worktree: string): Promise<string[]> {
  const found = new Set<string>()
  for (const dir of [checkoutDir, worktree]) {
    const names = await readdir(dir).catch(() => [] as string[])
    for (const name of names) {
      if (DEFAULT_KEY_FILES.includes(name) || REQUIREMENTS.test(name)) found.add(name)
    }
  }
  return [...found].sort()
}

/** Bytes of a regular file, 'absent', or 'not-a-file' (symlinks are not followed). */
async function keyBytes(root: string, path: string): Promise<Buffer | 'absent' | 'not-a-file'> {
  const full = join(root, path)
  const info = await lstat(full).catch(() => null)
  if (info === null) return 'absent'
  // A symlinked lockfile could point anywhere (even at the other tree's copy); only a
  // regular file, as checked out, can be compared honestly.
  if (!info.isFile()) return 'not-a-file'
  return readFile(full)
}

/**
 * Why the key files do not match (the first that differs), or null when every key file is
 * byte-identical and at least one exists. The worktree's files are compared as they stand
 * after checkout and the instrument overlay, i.e. the bytes `suite.setup` would install
 * from; the checkout's as its working tree holds them, i.e. what its directories were
 * installed from.
 */
export async function keyMismatch(
  checkoutDir: string,
  worktree: string,
  keys: readonly string[]
): Promise<string | null> {
  let compared = 0
  for (const key of keys) {
    const [mine, theirs] = await Promise.all([keyBytes(checkoutDir, key), keyBytes(worktree, key)])
    if (mine === 'not-a-file' || theirs === 'not-a-file') {
      return `${key} is not a regular file in the ${mine === 'not-a-file' ? 'checkout' : 'worktree'}`
    }
    if (mine === 'absent' && theirs === 'absent') continue
    if (mine === 'absent') return `${key} exists in the worktree but not in the checkout`
    if (theirs === 'absent') return `${key} exists in the checkout but not in the worktree`
    if (!mine.equals(theirs)) return `${key} differs between the checkout and the worktree`
    compared++
  }
  // Keys absent on both sides prove nothing: with none present there is no evidence that
  // the checkout's directories fit this commit.
  return compared === 0
    ? `none of the reuse_key files (${keys.join(', ')}) exists, so nothing proves the dependencies match`
    : null
}

/** Why a reuse directory cannot be linked from the checkout into the worktree, or null. */
export async function linkObstacle(
  git: Git,
  checkoutDir: string,
  worktree: string,
  dir: string
): Promise<string | null> {
  const listed = await git.trackedPaths(dir)
  // git refuses a pathspec beyond a symlink; whatever it refuses is not provably untracked.
  if ('refused' in listed) return `cannot tell whether ${dir} is tracked: ${listed.refused}`
  if (listed.paths.length > 0) {
    return `${dir} is tracked in the checkout; only ignored or untracked directories are reused (a tracked one would carry the checkout's files into the worktree)`
  }
  const source = await stat(join(checkoutDir, dir)).catch(() => null)
  if (source === null || !source.isDirectory())
    return `${dir} does not exist in the checkout (run the install there first)`
  if ((await lstat(join(worktree, dir)).catch(() => null)) !== null) {
    return `${dir} already exists in the worktree (tracked at this commit?)`
  }
  const borrowed = await pointsBackIntoCheckout(checkoutDir, dir)
  if (borrowed !== null) return borrowed
  // The link's parent must be a real directory inside the worktree: a symlinked parent
  // committed by the head would make the link land outside it.
  const parent = dirname(join(worktree, dir))
  const [realParent, realWorktree] = await Promise.all([
    realpath(parent).catch(() => null),
    realpath(worktree)
  ])
  if (realParent === null) return `${posix.dirname(dir)} does not exist in the worktree`
  if (realParent !== realWorktree && !realParent.startsWith(realWorktree + sep)) {
    return `${posix.dirname(dir)} leads outside the worktree`
  }
  return null
}

/** Decides reuse for one worktree: every directory linkable and every key file identical. */
export async function decideReuse(options: {
  git: Git
  checkoutDir: string
  worktree: string
  dirs: readonly string[]
  keys: readonly string[] | undefined
  policyPath: string
}): Promise<ReuseDecision> {
  const { git, checkoutDir, worktree, policyPath } = options
  const dirs = options.dirs.map(d => normaliseRepoPath(d, 'suite.reuse', policyPath))
  const keys =
    options.keys === undefined
      ? await defaultKeyFiles(checkoutDir, worktree)
      : options.keys.map(k => normaliseRepoPath(k, 'suite.reuse_key', policyPath))
  if (keys.length === 0) {
    return {
      reuse: false,
      keys,
      reason:
        'no reuse_key file (lockfile) exists in the checkout or the worktree, so nothing proves the dependencies match'
    }
  }
  const difference = await keyMismatch(checkoutDir, worktree, keys)
  if (difference !== null) return { reuse: false, keys, reason: difference }
  for (const dir of dirs) {
    const obstacle = await linkObstacle(git, checkoutDir, worktree, dir)
    if (obstacle !== null) return { reuse: false, keys, reason: obstacle }
  }
  return { reuse: true, keys, reason: `${keys.join(', ')} identical to the checkout's` }
}

const inside = (path: string, root: string): boolean => path === root || path.startsWith(root + sep)

/**
 * Why a dependency directory would make the worktree run the checkout's own code, or null.
 * Workspace packages are symlinks in node_modules that point back into the checkout, and
 * an editable Python install is a .pth (or __editable__ finder) naming the checkout's
 * source folder: through a reused directory the suite would import those, and measure the
 * checkout instead of the commit under judgement.
 */
export async function pointsBackIntoCheckout(
  checkoutDir: string,
  dir: string
): Promise<string | null> {
  const checkout = await realpath(checkoutDir)
  const source = await realpath(join(checkoutDir, dir))
  const entries = await readdir(source, { withFileTypes: true }).catch(() => [])
  const candidates = entries.map(e => e.name)
  for (const scope of candidates.filter(n => n.startsWith('@'))) {
    const scoped = await readdir(join(source, scope)).catch(() => [] as string[])
    candidates.push(...scoped.map(n => `${scope}/${n}`))
  }
  for (const name of candidates) {
    const full = join(source, name)
    if (!(await lstat(full)).isSymbolicLink()) continue
    const target = await realpath(full).catch(() => null)
    if (target !== null && inside(target, checkout) && !inside(target, source)) {
      return `${dir}/${name} links to ${target.slice(checkout.length + 1)} in the checkout (a workspace package): the worktree would run the checkout's copy`
    }
  }
  for (const lib of ['lib', 'lib64']) {
    const pythons = await readdir(join(source, lib)).catch(() => [] as string[])
    for (const python of pythons) {
      const site = join(source, lib, python, 'site-packages')
      for (const name of await readdir(site).catch(() => [] as string[])) {
        if (!name.endsWith('.pth') && !name.startsWith('__editable__')) continue
        const text = await readFile(join(site, name), 'utf8').catch(() => '')
        if (text.includes(checkout) || text.includes(resolve(checkoutDir))) {
          return `${dir} has the project installed in editable mode (${name} points into the checkout): the worktree would import the checkout's code`
        }
      }
    }
  }
  return null
}
