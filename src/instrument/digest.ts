// The oracle digest: one sha256 over the instrument's tree entries (path, mode, object
// id), never over file bytes. Git already hashed every blob; reusing its ids makes the
// digest cost one `ls-tree` however large the oracle is, and the mode in the line means an
// executable bit or a file turned symlink/submodule changes the digest too.
import { createHash } from 'node:crypto'
import type { TreeEntry } from '../git/git.js'

export interface InstrumentDigest {
  digest: string
  /** path → "mode objectid", for naming what differs. */
  entries: Map<string, string>
}

/** Digest of the entries `isInstrument` selects. Pure. */
export function instrumentDigest(
  tree: Iterable<TreeEntry>,
  isInstrument: (path: string) => boolean
): InstrumentDigest {
  const entries = new Map<string, string>()
  for (const e of tree) if (isInstrument(e.path)) entries.set(e.path, `${e.mode} ${e.sha}`)
  const hash = createHash('sha256')
  for (const path of [...entries.keys()].sort())
    hash.update(`${path}\0${entries.get(path) ?? ''}\n`)
  return { digest: `sha256:${hash.digest('hex')}`, entries }
}

/** Paths whose entry differs between two digests (added, removed or changed), sorted. */
export function digestDifferences(base: InstrumentDigest, head: InstrumentDigest): string[] {
  const paths = new Set([...base.entries.keys(), ...head.entries.keys()])
  return [...paths].filter(p => base.entries.get(p) !== head.entries.get(p)).sort()
}
