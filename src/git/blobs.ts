// Reading many blobs with one git process. Per-file `git show` would cost a process per
// path; a 20,000-file write set must not. `git cat-file --batch` answers every request in
// order: "<oid> <type> <size>\n<bytes>\n" or "<request> missing\n".
import { GateError } from '../errors.js'
import type { Git } from './git.js'

/**
 * Bytes of each requested object, keyed by the request. A request is an object id or
 * `rev:path`. Absent objects map to null; trees and commits (a submodule) map to null too,
 * because the callers want file bytes only.
 */
export async function readBlobs(
  git: Git,
  requests: readonly string[]
): Promise<Map<string, Buffer | null>> {
  const result = new Map<string, Buffer | null>()
  const unique = [...new Set(requests)]
  if (unique.length === 0) return result
  for (const request of unique) {
    // The batch protocol is line-based; a path with a newline cannot be asked for this way.
    if (request.includes('\n'))
      throw new GateError(`cannot read ${JSON.stringify(request)}: path contains a newline`)
  }
  const buf = await git.catFileBatch(unique)
  let pos = 0
  for (const request of unique) {
    const eol = buf.indexOf(0x0a, pos)
    if (eol < 0) throw new GateError(`git cat-file --batch ended early (at ${request})`)
    const header = buf.subarray(pos, eol).toString('utf8')
    pos = eol + 1
    if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
      result.set(request, null)
      continue
    }
    const [, type, sizeText] = header.split(' ')
    const size = Number(sizeText)
    if (!Number.isSafeInteger(size))
      throw new GateError(`git cat-file --batch: unexpected header "${header}"`)
    result.set(request, type === 'blob' ? Buffer.from(buf.subarray(pos, pos + size)) : null)
    pos += size + 1 // the bytes, then a newline
  }
  return result
}
