// Reads many files at one revision with two git processes, whatever their number: one
// `ls-tree` for the object ids, one `cat-file --batch` (src/git/blobs.ts) for the bytes. Spawning git per
// file would cost more than parsing 5,000 files.
import { readBlobs as readObjects } from '../git/blobs.js'
import type { Git } from '../git/git.js'
import { GateError } from '../errors.js'

/** Paths per ls-tree call: keeps the command line well under any OS limit. */
const PATHS_PER_CALL = 2000

/**
 * Regular files (not symlinks, not submodules) among `paths` at `rev`, as path → bytes.
 * A path absent at `rev`, or not a regular file there, is simply missing from the map.
 */
export async function readBlobs(
  git: Git,
  rev: string,
  paths: readonly string[]
): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>()
  if (paths.length === 0) return out
  const shaOf = new Map<string, string>()
  for (let i = 0; i < paths.length; i += PATHS_PER_CALL) {
    const chunk = paths.slice(i, i + PATHS_PER_CALL)
    // Paths are taken literally: a file named `*.py` is that file, not a glob.
    for (const { mode, type, sha, path } of await git.lsTree(rev, chunk)) {
      if (type === 'blob' && (mode === '100644' || mode === '100755') && sha) shaOf.set(path, sha)
    }
  }
  const unique = [...new Set(shaOf.values())]
  if (unique.length === 0) return out
  const bytes = await catBlobs(git, unique)
  for (const [path, sha] of shaOf) {
    const content = bytes.get(sha)
    if (content) out.set(path, content)
  }
  return out
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
