// Setup once per dependency fingerprint: when the head's dependency manifests, lockfiles and
// setup command are byte-identical to the base's, the head gets a copy of the dependency
// folders the base's setup installed instead of running `suite.setup` a second time.
//
// Sharing must never change what is measured, so the base offers its install only when it
// is provably the same as the head's own would be:
// - the fingerprint (setup command, suite.env and every manifest/lockfile in any folder, by
//   bytes) is equal on both sides, and both run at the same path (venvs and .pth files hold
//   absolute paths);
// - setup wrote nothing outside the dependency folders (no build of the project, no
//   egg-info, nothing in the tree the head would have had rebuilt from its own code);
// - no dependency folder holds a copy of a local folder (pip's non-editable install of the
//   project, npm/pnpm `file:` copies), nor any file byte-identical to the merge base's
//   version of a file the head changed (a setup that copies the project into node_modules):
//   those copy tracked code the fingerprint does not cover.
// The copy is taken right after the base's setup, before any of the base's suite runs in it,
// into the run's temp folder (hidden from every sandboxed run), and each taker gets a copy
// of its own (copy-on-write where the file system can): nothing the head does reaches the
// base's folders, and the base measured with its own. Values passed along, not a cache.
import { createHash } from 'node:crypto'
import { lstat, mkdir, readdir, readFile, readlink, realpath, rm } from 'node:fs/promises'
import { dirname, join, posix, resolve, sep } from 'node:path'
import { runShell } from '../exec/process.js'
import { neutralName } from '../exec/sandbox.js'
import { isManifest } from '../policy/production.js'
import { shellQuote } from './run.js'

/** Folders a setup installs dependencies into (any depth); what a share copies. */
export const DEPENDENCY_DIRS: ReadonlySet<string> = new Set(['node_modules', '.venv', 'venv'])

/** A tree with more entries than this is not compared (no share, full setup). */
const MAX_ENTRIES = 200_000

/** The merge base's version of a file the head changed: what a copy of it would match. */
export interface ChangedBlob {
  path: string
  /** Git's blob id (sha1, or sha256 in a sha256 repository). */
  oid: string
  size: number
}

/** The tree outside its dependency folders, as setup found or left it. */
export interface TreeSnapshot {
  /** Relative path → kind, size and mtime (a change of any is a write). */
  entries: Map<string, string>
  /** Manifests and lockfiles (relative paths, sorted). */
  manifests: string[]
  /** Dependency folders present (relative paths, sorted). */
  deps: string[]
}

/** What the base offers: its installed folders, copied aside, and what they were made from. */
export interface SetupOffer {
  digest: string
  /** Manifest path → digest of its bytes (to name the first difference). */
  manifests: Map<string, string>
  /** The path setup ran at (the worktree as the run saw it). */
  at: string
  stash: string
  dirs: string[]
}

/** Per run (held by the Worktrees): the base's offer, or why there is none. */
export interface SetupShare {
  offer: SetupOffer | null
  why: string
  /** The base offered once already (whatever came of it): later base setups do not. */
  tried: boolean
}

export function newSetupShare(): SetupShare {
  return { offer: null, why: 'the base side has not run setup', tried: false }
}

/** Walks the tree (not .git, not into dependency folders). null: too large to compare. */
export async function snapshotTree(root: string): Promise<TreeSnapshot | null> {
  const snap: TreeSnapshot = { entries: new Map(), manifests: [], deps: [] }
  const pending = ['']
  while (pending.length > 0) {
    const rel = pending.pop() as string
    const names = await readdir(join(root, rel)).catch(() => [] as string[])
    for (const name of names) {
      const path = rel === '' ? name : `${rel}/${name}`
      if (name === '.git') continue
      const info = await lstat(join(root, path)).catch(() => null)
      if (info === null) continue
      if (info.isDirectory() && DEPENDENCY_DIRS.has(name)) {
        snap.deps.push(path)
        continue
      }
      const kind = info.isDirectory() ? 'd' : info.isSymbolicLink() ? 'l' : 'f'
      // A folder's own mtime changes when setup adds a dependency folder in it: its
      // entries, walked below, are what tells a write.
      snap.entries.set(path, kind === 'd' ? 'd' : `${kind}:${info.size}:${info.mtimeMs}`)
      if (snap.entries.size > MAX_ENTRIES) return null
      if (kind === 'd') pending.push(path)
      else if (isManifest(path)) snap.manifests.push(path)
    }
  }
  snap.manifests.sort()
  snap.deps.sort()
  return snap
}

const sha = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex')

/** Manifest path → digest of its bytes (a symlink: of its target's name, never followed). */
export async function manifestDigests(
  root: string,
  snap: TreeSnapshot
): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  for (const path of snap.manifests) {
    const full = join(root, path)
    const info = await lstat(full)
    out.set(
      path,
      info.isSymbolicLink() ? `link:${await readlink(full)}` : sha(await readFile(full))
    )
  }
  return out
}

/** The fingerprint: the setup command, its environment and every manifest, by bytes. Pure. */
export function fingerprint(
  setup: string,
  env: Readonly<Record<string, string>>,
  manifests: ReadonlyMap<string, string>
): string {
  const envRows = Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return sha(JSON.stringify({ setup, env: envRows, manifests: [...manifests] }))
}

/** The first path setup changed outside the dependency folders, or null. Pure. */
export function changedOutside(before: TreeSnapshot, after: TreeSnapshot): string | null {
  for (const [path, sig] of after.entries) if (before.entries.get(path) !== sig) return path
  for (const path of before.entries.keys()) if (!after.entries.has(path)) return path
  return null
}

/** The first manifest whose bytes differ between an offer and a taker, or null. Pure. */
export function manifestDifference(
  offered: ReadonlyMap<string, string>,
  mine: ReadonlyMap<string, string>
): string | null {
  for (const path of new Set([...offered.keys(), ...mine.keys()]))
    if (offered.get(path) !== mine.get(path)) return path
  return null
}

/**
 * Why a dependency folder holds a copy of a local folder (tracked code the fingerprint does
 * not cover), or null: pip's record of an install from a local path that is not editable
 * (PEP 610 direct_url.json), npm's `file:` copies, pnpm's injected `file+` packages.
 */
export async function localCopy(root: string, dir: string): Promise<string | null> {
  const full = join(root, dir)
  for (const lib of ['lib', 'lib64']) {
    for (const python of await readdir(join(full, lib)).catch(() => [] as string[])) {
      const site = join(full, lib, python, 'site-packages')
      for (const name of await readdir(site).catch(() => [] as string[])) {
        if (!name.endsWith('.dist-info')) continue
        const text = await readFile(join(site, name, 'direct_url.json'), 'utf8').catch(() => null)
        if (text !== null && copiedFromFolder(text)) {
          return `${dir} has ${name.replace(/\.dist-info$/, '')} installed from a local folder as a copy (not editable)`
        }
      }
    }
  }
  const copied = await npmCopyOfRepo(root, dir)
  if (copied !== null) return copied
  const pnpm = await readdir(join(full, '.pnpm')).catch(() => [] as string[])
  if (pnpm.some(n => n.startsWith('file+')))
    return `${dir} holds a file: dependency copied from a local folder (pnpm)`
  return null
}

/**
 * npm's own record (node_modules/.package-lock.json): a package `resolved` from a `file:`
 * path inside the repository and not linked is a copy of tracked files. A tarball or
 * folder outside the repository is not the patch's. Unreadable records refuse.
 */
async function npmCopyOfRepo(root: string, dir: string): Promise<string | null> {
  const text = await readFile(join(root, dir, '.package-lock.json'), 'utf8').catch(() => null)
  if (text === null) return null
  let packages: Record<string, { resolved?: unknown; link?: unknown }>
  try {
    packages = (JSON.parse(text) as { packages?: typeof packages }).packages ?? {}
  } catch {
    return `${dir}/.package-lock.json cannot be read`
  }
  const project = resolve(root, posix.dirname(dir))
  for (const [name, entry] of Object.entries(packages)) {
    const from = entry.resolved
    if (typeof from !== 'string' || !from.startsWith('file:') || entry.link === true) continue
    const at = resolve(project, from.slice('file:'.length))
    if (at === resolve(root) || at.startsWith(resolve(root) + sep))
      return `${name} is a copy of ${from} from the repository (a file: dependency)`
  }
  return null
}

/** Git's id of a blob with these bytes, in the algorithm an id of that length names. */
function blobId(bytes: Buffer, like: string): string {
  const hash = createHash(like.length === 64 ? 'sha256' : 'sha1')
  return hash.update(`blob ${bytes.length}\0`).update(bytes).digest('hex')
}

/**
 * The first file of a dependency folder that is byte-identical to the merge base's version
 * of a file the head changed (the base's setup copied it there), or null. Only files of a
 * candidate's size are read; empty files carry no code and are not compared.
 */
export async function copyOfChanged(
  root: string,
  dir: string,
  changed: readonly ChangedBlob[]
): Promise<string | null> {
  const bySize = new Map<number, ChangedBlob[]>()
  for (const c of changed) if (c.size > 0) bySize.set(c.size, [...(bySize.get(c.size) ?? []), c])
  if (bySize.size === 0) return null
  const pending = [dir]
  let seen = 0
  while (pending.length > 0) {
    const rel = pending.pop() as string
    const entries = await readdir(join(root, rel), { withFileTypes: true }).catch(() => [])
    for (const entry of entries) {
      const path = `${rel}/${entry.name}`
      if (++seen > MAX_ENTRIES) return `${dir} has too many files to check for copies`
      if (entry.isDirectory()) pending.push(path)
      if (!entry.isFile()) continue
      const size = (await lstat(join(root, path))).size
      const candidates = bySize.get(size)
      if (candidates === undefined) continue
      const bytes = await readFile(join(root, path))
      const copy = candidates.find(c => blobId(bytes, c.oid) === c.oid)
      if (copy !== undefined)
        return `${path} is a copy of the merge base's ${copy.path}, which the head changed`
    }
  }
  return null
}

function copiedFromFolder(directUrl: string): boolean {
  try {
    const parsed = JSON.parse(directUrl) as { url?: unknown; dir_info?: { editable?: unknown } }
    const local = typeof parsed.url === 'string' && parsed.url.startsWith('file:')
    return local && parsed.dir_info?.editable !== true
  } catch {
    return true
  }
}

/** cp -a (copy-on-write where the file system can) of one folder, through src/exec/. */
async function copyDir(from: string, to: string, logFile: string): Promise<string | null> {
  await mkdir(dirname(to), { recursive: true })
  const run = await runShell({
    command: `cp -a --reflink=auto -- ${shellQuote(from)} ${shellQuote(to)}`,
    cwd: dirname(to),
    // The gate's own copy: a fixed PATH and nothing else of any environment.
    env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
    timeoutSec: 600,
    logFile
  })
  return run.exitCode === 0 ? null : `copying ${from} failed: ${run.tail.trim() || 'cp failed'}`
}

export interface OfferInput {
  worktree: string
  /** The merge base's versions of the files the head changed (copyOfChanged). */
  changed: readonly ChangedBlob[]
  at: string
  before: TreeSnapshot
  manifests: Map<string, string>
  digest: string
  tempDir: string
  logFile: string
}

/**
 * After the base's setup succeeded, before its suite runs: copies what setup installed
 * aside for the head, when the install is provably shareable. Returns the offer or why not.
 */
export async function makeOffer(input: OfferInput): Promise<SetupOffer | string> {
  const { worktree, before } = input
  const after = await snapshotTree(worktree)
  if (after === null) return 'the worktree has too many files to compare'
  if (before.deps.length > 0) return `${before.deps[0]} existed before setup`
  const changed = changedOutside(before, after)
  if (changed !== null) return `setup wrote ${changed}, outside the dependency folders`
  if (after.deps.length === 0)
    return `setup installed no dependency folder (${[...DEPENDENCY_DIRS].join(', ')})`
  for (const dir of after.deps) {
    const copied =
      (await localCopy(worktree, dir)) ?? (await copyOfChanged(worktree, dir, input.changed))
    if (copied !== null) return copied
  }
  const stash = join(input.tempDir, neutralName())
  for (const dir of after.deps) {
    const failed = await copyDir(join(worktree, dir), join(stash, dir), input.logFile)
    if (failed !== null) {
      await rm(stash, { recursive: true, force: true })
      return failed
    }
  }
  const { at, digest, manifests } = input
  return { digest, manifests, at, stash, dirs: after.deps }
}

export interface TakeInput {
  worktree: string
  at: string
  snap: TreeSnapshot
  manifests: Map<string, string>
  digest: string
  logFile: string
}

/** Copies the offer's folders into a worktree whose fingerprint matches. The dirs or why not. */
export async function takeOffer(
  offer: SetupOffer,
  input: TakeInput
): Promise<{ dirs: string[] } | string> {
  const { worktree } = input
  if (input.at !== offer.at) return `it runs at ${input.at}, the base's setup ran at ${offer.at}`
  if (input.digest !== offer.digest) {
    const path = manifestDifference(offer.manifests, input.manifests)
    return path === null
      ? "the setup command or its environment differs from the base's"
      : `${path} differs from the base's`
  }
  if (input.snap.deps.length > 0) return `${input.snap.deps[0]} exists already`
  const real = await realpath(worktree)
  for (const dir of offer.dirs) {
    // Whatever stands there (a committed symlink to elsewhere, a file): cp would copy into it.
    if ((await lstat(join(worktree, dir)).catch(() => null)) !== null)
      return `${dir} exists in the worktree already`
    const parent = await realpath(join(worktree, posix.dirname(dir))).catch(() => null)
    if (parent === null || (parent !== real && !parent.startsWith(real + sep)))
      return `${posix.dirname(dir)} does not lead to a folder inside the worktree`
  }
  const copied: string[] = []
  for (const dir of offer.dirs) {
    const failed = await copyDir(join(offer.stash, dir), join(worktree, dir), input.logFile)
    if (failed !== null) {
      for (const done of [...copied, dir])
        await rm(join(worktree, done), { recursive: true, force: true })
      return failed
    }
    copied.push(dir)
  }
  return { dirs: copied }
}
