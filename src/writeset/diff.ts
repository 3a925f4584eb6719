// Raw diff records → changes. `git diff --raw -z` carries both modes, so a file that
// becomes a symlink or a submodule (type change) and a file that becomes executable (mode
// change) are visible, which --name-status would flatten into "modified".
import { GateError } from '../errors.js'
import type { Change, ChangeStatus, EntryKind } from '../types.js'

/** Git tree mode → kind; undefined for "absent" (000000) and trees. */
export function kindOfMode(mode: string): EntryKind | undefined {
  switch (mode) {
    case '100644':
    case '100664': // legacy group-writable files
      return 'file'
    case '100755':
      return 'executable'
    case '120000':
      return 'symlink'
    case '160000':
      return 'submodule'
    default:
      return undefined
  }
}

/** Whether two kinds are different types to git (file/executable are one type). */
export function sameType(a: EntryKind | undefined, b: EntryKind | undefined): boolean {
  const type = (k: EntryKind | undefined): string | undefined => (k === 'executable' ? 'file' : k)
  return type(a) === type(b)
}

export interface RawChange extends Change {
  /** Blob (or commit) id at head, when the path exists there. */
  new_oid?: string
}

/** Status from the raw letter and the modes: a mode change is named, not hidden in "M". */
function statusOf(letter: string, oldMode: string, newMode: string): ChangeStatus {
  switch (letter) {
    case 'A':
      return 'added'
    case 'D':
      return 'deleted'
    case 'R':
      return 'renamed'
    case 'C':
      return 'copied'
    case 'T':
      return 'type-changed'
    case 'M':
      return oldMode !== newMode ? 'mode-changed' : 'modified'
    default:
      // X (unknown), U (unmerged) cannot be judged: fail closed.
      throw new GateError(`git diff reported status "${letter}", which the gate cannot judge`)
  }
}

/** Parses `git diff --raw -z --no-abbrev` output. Pure. */
export function parseRawDiff(out: string): RawChange[] {
  const fields = out.split('\0')
  const changes: RawChange[] = []
  let i = 0
  while (i < fields.length) {
    const meta = fields[i++] ?? ''
    if (meta === '') continue
    if (!meta.startsWith(':'))
      throw new GateError(`unexpected git diff --raw record "${meta.slice(0, 80)}"`)
    const [oldMode = '', newMode = '', , newOid = '', score = ''] = meta.slice(1).split(' ')
    const letter = score.charAt(0)
    const first = fields[i++]
    if (first === undefined) throw new GateError('git diff --raw output ended inside a record')
    const change: RawChange = { path: first, status: statusOf(letter, oldMode, newMode) }
    if (letter === 'R' || letter === 'C') {
      const second = fields[i++]
      if (second === undefined)
        throw new GateError('git diff --raw output ended inside a rename record')
      change.previous_path = first
      change.path = second
    }
    const oldKind = kindOfMode(oldMode)
    const newKind = kindOfMode(newMode)
    if (oldKind) change.old_kind = oldKind
    if (newKind) {
      change.new_kind = newKind
      change.new_oid = newOid
    }
    changes.push(change)
  }
  return changes
}
