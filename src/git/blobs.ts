// Reading many blobs without a process per blob: every request goes to the run's one
// long-lived `git cat-file --batch` (Git.readObject, batch.ts), pipelined, so 20,000 reads
// cost one process, and reads of several stages share it.
import type { Git } from './git.js'

/**
 * Bytes of each requested object, keyed by the request. A request is an object id or
 * `rev:path` (any path: a name a batch line cannot carry is resolved to its id first).
 * Absent objects map to null; trees and commits (a submodule) map to null too, because the
 * callers want file bytes only.
 */
export async function readBlobs(
  git: Git,
  requests: readonly string[]
): Promise<Map<string, Buffer | null>> {
  const unique = [...new Set(requests)]
  const answers = await Promise.all(unique.map(request => git.readObject(request)))
  const result = new Map<string, Buffer | null>()
  unique.forEach((request, i) => {
    const answer = answers[i]
    result.set(request, answer?.type === 'blob' ? answer.bytes : null)
  })
  return result
}
