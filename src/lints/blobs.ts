// Reads many files at one revision with two git processes, whatever their number: one
// `ls-tree` for the object ids, one `cat-file --batch` (src/git/blobs.ts) for the bytes. Spawning git per
// file would cost more than parsing 5,000 files.
import { readBlobs as readObjects } from '../git/blobs.js'
import type { Git } from '../git/git.js'
import { GateError } from '../errors.js'
import type { WriteSetRow } from '../types.js'
import { languageOf } from '../lang.js'
import { shortSha } from '../json.js'

/** Paths per ls-tree call: keeps the command line well under any OS limit. */
const PATHS_PER_CALL = 2000

/**
 * The largest file the lints read. tree-sitter needs some 30 bytes of memory and a second
 * per megabyte parsed, so a 24 MB test file took 800 MB and half a minute. A larger file
 * is not skipped (a test the lints cannot read could hide anything): it is a gate error
 * that names the file and this limit, checked from the size git lists, before any byte is read.
 */
export const MAX_LINT_BLOB_BYTES = 8 * 1024 * 1024

/**
 * Regular files (not symlinks, not submodules) among `paths` at `rev`, as path → bytes.
 * A path absent at `rev`, or not a regular file there, is simply missing from the map.
 * A file over MAX_LINT_BLOB_BYTES is a GateError naming it; its bytes are never read.
 */
export async function readBlobs(
  git: Git,
  rev: string,
  paths: readonly string[]
): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>()
  const listed = await listBlobs(git, rev, paths)
  for (const [path, { size }] of listed) tooLarge(path, size, rev)
  const unique = [...new Set([...listed.values()].map(b => b.sha))]
  if (unique.length === 0) return out
  const bytes = await catBlobs(git, unique)
  for (const [path, { sha }] of listed) {
    const content = bytes.get(sha)
    if (content) out.set(path, content)
  }
  return out
}

/**
 * The size check alone, for every written test file in a source language, before any lint
 * reads a byte (the skip-marker scan diffs and masks whole files: an 80 MB test file took
 * 700 MB there before the lints ever saw it). Production files are not held to it: the
 * lints read only their added lines when they are this large (view.ts).
 */
export async function assertLintableSizes(
  git: Git,
  rev: string,
  rows: readonly WriteSetRow[],
  isTest: (path: string) => boolean
): Promise<void> {
  const paths = rows
    .filter(r => r.status !== 'deleted' && languageOf(r.path) !== undefined && isTest(r.path))
    .map(r => r.path)
  for (const [path, { size }] of await listBlobs(git, rev, paths)) tooLarge(path, size, rev)
}

/** Object id and size of each regular file among `paths` at `rev` (one ls-tree per 2,000). */
export async function listBlobs(
  git: Git,
  rev: string,
  paths: readonly string[]
): Promise<Map<string, { sha: string; size: number }>> {
  const listed = new Map<string, { sha: string; size: number }>()
  for (let i = 0; i < paths.length; i += PATHS_PER_CALL) {
    const chunk = paths.slice(i, i + PATHS_PER_CALL)
    // Paths are taken literally: a file named `*.py` is that file, not a glob.
    for (const { mode, type, sha, path, size } of await git.lsTree(rev, chunk, { sizes: true })) {
      if (type === 'blob' && (mode === '100644' || mode === '100755') && sha)
        listed.set(path, { sha, size: size ?? 0 })
    }
  }
  return listed
}

function tooLarge(path: string, size: number, rev: string): void {
  if (!(size > MAX_LINT_BLOB_BYTES)) return
  throw new GateError(
    `${path} is ${(size / 1024 / 1024).toFixed(1)} MiB at ${shortSha(rev)}: the lints read files up to ${MAX_LINT_BLOB_BYTES / 1024 / 1024} MiB (the limit), and a file they cannot read is not passed`,
    { path }
  )
}

/** Bytes of each object id; an id git does not have is a gate error, never a silent gap. */
async function catBlobs(git: Git, shas: string[]): Promise<Map<string, Buffer>> {
  const blobs = new Map<string, Buffer>()
  for (const [sha, bytes] of await readObjects(git, shas)) {
    if (bytes === null) {
      throw new GateError(`git cat-file: object ${sha} is missing (a partial or shallow clone?)`)
    }
    blobs.set(sha, bytes)
  }
  return blobs
}
