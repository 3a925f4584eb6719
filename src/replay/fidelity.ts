// Checkout fidelity: the git trees say what the instrument is, but the runner reads files
// on disk, and between the checkout and the last run several things can make the two
// differ: checkout attributes the head wrote (eol, encoding), a setup step or a suite run
// that rewrites a voting test or a fixture, a new conftest.py or protected file that
// appears, two names that are one file on a case-insensitive or normalising file system.
// So after the overlay, after setup and after every run, each instrument, fixture and
// runner-configuration file in a worktree is compared with the merge base's blob (bytes
// hashed as git blobs, without any filter), and the directories that hold the instrument
// are walked for instrument-like files that should not be there. A difference is
// `oracle-digest`, naming the side, the file and the moment. With a production plane
// (`planes.production`) the head's whole non-production tree is held to the merge base:
// every file the merge base has there byte for byte, and no new file outside production
// code and the output folders (ignored.ts); a difference is `runner-tampered`.
import { createHash } from 'node:crypto'
import { lstat, readdir, readFile, readlink } from 'node:fs/promises'
import { join, posix } from 'node:path'
import type { HeadCounts } from '../instrument/overlay.js'
import picomatch from 'picomatch'
import type { TreeEntry } from '../git/git.js'
import { readBlobs } from '../git/blobs.js'
import type { Git } from '../git/git.js'
import type { RunnerEntry } from '../instrument/runner.js'
import type { InstrumentView } from '../instrument/view.js'
import { shortSha } from '../json.js'
import type { Policy } from '../policy/types.js'
import type { Reason } from '../types.js'
import { alwaysProtected, normalisePath } from '../writeset/planes.js'
import { ignoreMatcher } from './ignored.js'

/** When a check runs: right after the checkout (base), the overlay (head), setup, a run. */
export type Moment = 'checkout' | 'overlay' | 'setup' | 'run'

const MOMENT_TEXT: Record<Moment, string> = {
  checkout: 'the checkout',
  overlay: 'the instrument overlay',
  setup: 'setup',
  run: 'a run of the suite'
}

/** What a worktree must hold, derived from the merge base's tree only. */
export interface FidelitySpec {
  /** Whole-file paths and the merge base's entry each must match byte for byte. */
  files: ReadonlyMap<string, { mode: string; sha: string }>
  /** Section entries (pyproject.toml, package.json, …): the runner part each must keep. */
  sections: ReadonlyMap<string, { entry: RunnerEntry; part: string }>
  /** Directories walked recursively for instrument-like files that should not be there. */
  deep: readonly string[]
  /** Directories listed (not recursively) for the same reason: the voting ancestors. */
  shallow: readonly string[]
  /** 'file' for a whole-file instrument path, its entry for a section entry, else null. */
  watched(path: string): 'file' | RunnerEntry | null
  /** An object id of the repository, to hash like it (sha1 or sha256). */
  like: string
  /** With a production plane: the head's non-production tree (null without one). */
  outside?: OutsideProduction | null
}

/** What the head worktree must hold outside production code (checked on the head only). */
export interface OutsideProduction {
  /** Every merge-base file outside production code not already in `files`. */
  pinned: ReadonlyMap<string, { mode: string; sha: string }>
  /** Paths of the merge base's tree (a new file is one it lacks). */
  base: ReadonlySet<string>
  /** Does the vote use the head's version (production code)? */
  headCounts: HeadCounts
  /** An output folder or file: the base's .gitignore and the fixed list (ignored.ts). */
  ignored: (path: string, isDir: boolean) => boolean
}

/** Directory names never walked: git's own, dependency installs, interpreter bytecode. */
const SKIPPED_DIRS = new Set([
  '.git',
  'node_modules',
  '__pycache__',
  '.pytest_cache',
  '.hypothesis'
])
/** A base checkout that differs from its own blobs: the base's attributes did it. */
const CHECKOUT_HINT =
  " (the merge base's own checkout changed it: a .gitattributes eol, text, encoding or filter line over instrument files; the gate compares the bytes git stores, so drop that line for instrument paths on the base branch)"
/** Files read at once by a check. */
const READ_BATCH = 64
/** Most instrument-like files a check reports before summarising the rest. */
const MAX_REASONS = 10

/** Builds the spec from the instrument view (the merge base's tree and matchers). */
export async function fidelitySpec(
  git: Git,
  view: InstrumentView,
  policy: Policy,
  headCounts: HeadCounts = () => true
): Promise<FidelitySpec> {
  const watched = (path: string): 'file' | RunnerEntry | null => {
    // A module that would shadow another (addedOnly) is judged from the trees: the head
    // may change the base's own module of that name, so its bytes are not pinned here.
    const found = view.runner.entryFor(path)
    const entry = found?.addedOnly ? null : found
    if (entry?.part !== undefined) return entry
    if (entry !== null || view.isInstrument(path) || view.fixturePaths.has(path)) return 'file'
    return null
  }
  const files = new Map<string, { mode: string; sha: string }>()
  const pinned = new Map<string, { mode: string; sha: string }>()
  const sectioned: { path: string; entry: RunnerEntry; sha: string }[] = []
  for (const e of view.base.values()) {
    if (e.type !== 'blob') continue
    const w = watched(e.path)
    if (w === 'file') {
      files.set(e.path, { mode: e.mode, sha: e.sha })
      continue
    }
    if (w !== null) sectioned.push({ path: e.path, entry: w, sha: e.sha })
    if (view.planes.hasProduction && !headCounts(e.path))
      pinned.set(e.path, { mode: e.mode, sha: e.sha })
  }
  const blobs = await readBlobs(
    git,
    sectioned.map(s => s.sha)
  )
  const sections = new Map<string, { entry: RunnerEntry; part: string }>()
  for (const s of sectioned) {
    const text = blobs.get(s.sha)?.toString('utf8') ?? null
    sections.set(s.path, { entry: s.entry, part: s.entry.part?.extract(text) ?? '' })
  }
  const like = view.base.values().next().value?.sha ?? '0'.repeat(40)
  const voting = [...view.base.keys()].filter(p => view.planes.planeOf(p) === 'voting')
  const anchors = [...alwaysProtected(policy), ...voting, ...view.fixturePaths]
  const outside = view.planes.hasProduction
    ? await outsideProduction(git, view, policy, pinned, headCounts)
    : null
  return { files, sections, ...walkRoots(policy, anchors), watched, like, outside }
}

/** The head's non-production tree as the merge base has it, and its output folders. */
async function outsideProduction(
  git: Git,
  view: InstrumentView,
  policy: Policy,
  pinned: ReadonlyMap<string, { mode: string; sha: string }>,
  headCounts: HeadCounts
): Promise<OutsideProduction> {
  const ignores = [...view.base.values()].filter(
    e => e.type === 'blob' && posix.basename(e.path) === '.gitignore'
  )
  const blobs = await readBlobs(
    git,
    ignores.map(e => e.sha)
  )
  const texts = new Map(ignores.map(e => [e.path, blobs.get(e.sha)?.toString('utf8') ?? '']))
  const gitignored = ignoreMatcher(texts)
  // The links suite.reuse makes (setup.ts) are the gate's own, not something that appeared.
  const reuse = policy.suite.reuse.map(d => normalisePath(d))
  const ignored = (path: string, isDir: boolean): boolean =>
    reuse.some(d => path === d || path.startsWith(`${d}/`)) || gitignored(path, isDir)
  return { pinned, base: new Set(view.base.keys()), headCounts, ignored }
}

/**
 * Where an instrument-like file could appear: the static roots of the protected, voting
 * and runner_config globs (walked), and the ancestors of the voting tests, the fixtures
 * and the always-protected files (listed: where runner configuration is looked for).
 */
function walkRoots(
  policy: Policy,
  anchors: readonly string[]
): { deep: string[]; shallow: string[] } {
  const deep = new Set<string>()
  for (const glob of [...policy.protected, ...policy.planes.voting, ...policy.runner_config]) {
    const scan = picomatch.scan(glob)
    deep.add(scan.isGlob ? scan.base : posix.dirname(scan.base))
  }
  const shallow = new Set<string>([''])
  for (const path of anchors) {
    const parts = path.split('/')
    for (let i = 1; i < parts.length; i++) shallow.add(parts.slice(0, i).join('/'))
  }
  const roots = [...deep].map(d => (d === '.' ? '' : d))
  return { deep: roots.includes('') ? [''] : roots.sort(), shallow: [...shallow].sort() }
}

/** Git's object id of some bytes as a blob (sha1, or sha256 for such repositories). */
export function blobId(bytes: Buffer, like: string): string {
  const hash = createHash(like.length === 64 ? 'sha256' : 'sha1')
  hash.update(`blob ${bytes.length}\0`)
  hash.update(bytes)
  return hash.digest('hex')
}

/** The (mode, blob id) a path has on disk, without following a symlink; null when absent. */
async function diskEntry(
  full: string,
  like: string
): Promise<{ mode: string; sha: string; bytes: Buffer } | null> {
  const info = await lstat(full).catch(() => null)
  if (info === null) return null
  if (info.isSymbolicLink()) {
    const bytes = Buffer.from(await readlink(full, { encoding: 'buffer' }))
    return { mode: '120000', sha: blobId(bytes, like), bytes }
  }
  if (!info.isFile()) return { mode: 'not-a-file', sha: '', bytes: Buffer.alloc(0) }
  const bytes = await readFile(full)
  return { mode: info.mode & 0o100 ? '100755' : '100644', sha: blobId(bytes, like), bytes }
}

/** Instrument-like files under the walk roots (relative, forward slashes). */
async function instrumentLike(spec: FidelitySpec, worktree: string): Promise<string[]> {
  const found = new Set<string>()
  const visit = async (dir: string, deep: boolean): Promise<void> => {
    const entries = await readdir(join(worktree, dir), { withFileTypes: true }).catch(() => [])
    for (const e of entries) {
      const path = dir === '' ? e.name : `${dir}/${e.name}`
      if (e.isDirectory()) {
        if (deep && !SKIPPED_DIRS.has(e.name)) await visit(path, true)
      } else if (spec.watched(path) !== null) found.add(path)
    }
  }
  for (const dir of spec.deep) await visit(dir, true)
  for (const dir of spec.shallow) await visit(dir, false)
  return [...found].sort()
}

/**
 * Compares a worktree with the spec. Pure apart from reading the worktree; returns one
 * `oracle-digest` failure per offending path (at most MAX_REASONS, then a summary).
 */
export async function checkFidelity(
  spec: FidelitySpec,
  worktree: string,
  where: { side: 'base' | 'head' | string; moment: Moment }
): Promise<Reason[]> {
  const like = spec.like
  const problems = await pinnedProblems(spec.files, worktree, like)
  for (const [path, want] of spec.sections) {
    const got = await diskEntry(join(worktree, path), like)
    const text = got === null || got.mode === 'not-a-file' ? null : got.bytes.toString('utf8')
    if ((want.entry.part?.extract(text) ?? '') !== want.part)
      problems.push({ path, what: `has a different ${want.entry.part?.label ?? 'runner part'}` })
  }
  for (const path of await instrumentLike(spec, worktree)) {
    if (spec.files.has(path) || spec.sections.has(path)) continue
    const w = spec.watched(path)
    if (w !== 'file' && w !== null) {
      const got = await diskEntry(join(worktree, path), like)
      const text = got === null || got.mode === 'not-a-file' ? null : got.bytes.toString('utf8')
      if ((w.part?.extract(text) ?? '') === '') continue // no runner part: configures nothing
    }
    problems.push({ path, what: 'appeared (it is not in the merge base)' })
  }
  const reasons = fidelityReasons(problems, where)
  if (spec.outside && where.side === 'head') {
    const seen = new Set(problems.map(p => p.path))
    const outside = (await outsideProblems(spec.outside, worktree, like)).filter(
      p => !seen.has(p.path)
    )
    reasons.push(...fidelityReasons(outside, where, 'runner-tampered'))
  }
  return reasons
}

/** Each pinned file on disk against what it must be, read in batches. */
async function pinnedProblems(
  pinned: ReadonlyMap<string, Parameters<typeof fileProblem>[1]>,
  worktree: string,
  like: string
): Promise<{ path: string; what: string }[]> {
  const problems: { path: string; what: string }[] = []
  const entries = [...pinned]
  // Reads in batches: thousands of small files, one await each, would serialise on I/O.
  for (let i = 0; i < entries.length; i += READ_BATCH) {
    const batch = entries.slice(i, i + READ_BATCH)
    const found = await Promise.all(batch.map(([path]) => diskEntry(join(worktree, path), like)))
    batch.forEach(([path, want], k) => {
      const what = fileProblem(found[k] ?? null, want)
      if (what !== null) problems.push({ path, what })
    })
  }
  return problems
}

/**
 * The head's non-production tree against the merge base: each pinned file byte for byte,
 * and no file the merge base lacks outside production code and the output folders.
 */
async function outsideProblems(
  spec: OutsideProduction,
  worktree: string,
  like: string
): Promise<{ path: string; what: string }[]> {
  const problems = await pinnedProblems(spec.pinned, worktree, like)
  const visit = async (dir: string): Promise<void> => {
    const entries = await readdir(join(worktree, dir), { withFileTypes: true }).catch(() => [])
    for (const e of entries) {
      const path = dir === '' ? e.name : `${dir}/${e.name}`
      const isDir = e.isDirectory()
      if (spec.ignored(path, isDir)) continue
      if (isDir) await visit(path)
      else if (!spec.base.has(path) && !spec.headCounts(path))
        problems.push({
          path,
          what: 'appeared outside production code (it is not in the merge base)'
        })
    }
  }
  await visit('')
  return problems.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

function fidelityReasons(
  problems: readonly { path: string; what: string }[],
  where: { side: string; moment: Moment },
  rule: 'oracle-digest' | 'runner-tampered' = 'oracle-digest'
): Reason[] {
  const what =
    rule === 'oracle-digest'
      ? "the instrument on disk is not the merge base's"
      : "outside planes.production the vote must see the merge base's files and nothing else (setup and runs may write only into production paths and the output folders: the base's .gitignore and node_modules, .venv, caches)"
  const reasons: Reason[] = problems.slice(0, MAX_REASONS).map(p => ({
    rule,
    level: 'failure',
    path: p.path,
    message: `${where.side} worktree after ${MOMENT_TEXT[where.moment]}: ${printable(p.path)} ${p.what}; ${what}, so this side's run cannot count${where.moment === 'checkout' ? CHECKOUT_HINT : ''}`
  }))
  if (problems.length > MAX_REASONS) {
    const last = reasons[reasons.length - 1]
    if (last) last.message += ` (+${problems.length - MAX_REASONS} more paths)`
  }
  return reasons
}

function fileProblem(
  got: { mode: string; sha: string } | null,
  want: { mode: string; sha: string }
): string | null {
  if (got === null) return 'is missing'
  if (got.mode !== want.mode) return `has mode ${got.mode}, not ${want.mode}`
  if (got.sha !== want.sha)
    return `differs from the merge base's blob (${shortSha(got.sha)}, not ${shortSha(want.sha)})`
  return null
}

/** A path as it may be printed: control and separator characters escaped. */
export function printable(path: string): string {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(path) ? JSON.stringify(path) : path
}

/** What a case-insensitive, normalisation-insensitive file system (macOS) makes of a name. */
const fold = (path: string): string => path.normalize('NFC').toLowerCase()

/**
 * Head paths that the merge base does not have but that name an instrument path (or a
 * directory holding one) on a case-insensitive or Unicode-normalising file system:
 * `Oracle/properties/conftest.py` lands in `oracle/properties/` on macOS. Pure: the
 * Linux worktree keeps them apart, so the bytes check alone would not see them.
 */
export function foldCollisions(
  spec: FidelitySpec,
  base: ReadonlyMap<string, TreeEntry>,
  head: ReadonlyMap<string, TreeEntry>
): Reason[] {
  const folded = new Map<string, string>()
  for (const path of base.keys()) {
    const parts = path.split('/')
    for (let i = 1; i <= parts.length; i++) {
      const raw = parts.slice(0, i).join('/')
      if (!folded.has(fold(raw))) folded.set(fold(raw), raw)
    }
  }
  const problems: { path: string; what: string }[] = []
  for (const path of head.keys()) {
    if (base.has(path)) continue
    const parts = path.split('/')
    for (let i = parts.length; i >= 1; i--) {
      const prefix = parts.slice(0, i).join('/')
      const raw = folded.get(fold(prefix))
      if (raw === prefix) break // this directory exists at the base as spelled
      if (raw === undefined) continue
      const lands = raw + path.slice(prefix.length)
      if (spec.watched(lands) !== null || spec.files.has(lands)) {
        problems.push({
          path,
          what: `is ${printable(lands)} on a case-insensitive or normalising file system (macOS), an instrument path`
        })
      }
      break
    }
  }
  return fidelityReasons(problems, { side: 'head', moment: 'overlay' })
}
