// Added lines of a diff, with their line numbers at head: what the patch wrote, so that a
// reason can point at the exact line (skip markers, copied literals). One git process for
// all paths, whatever their number, its output read as a stream: only the added text is
// kept, and of each file only as much as its limit allows (a regenerated 200 MB data file
// costs its limit, not its size), the rest counted as unread.
import { GateError } from '../errors.js'
import type { Git } from './git.js'

/** path (at head) → line number → text of each added line. */
export type AddedLines = Map<string, Map<number, string>>

/** The added lines read, and per path the bytes of added text past its limit (if any). */
export interface AddedText {
  lines: AddedLines
  /** path → bytes of added text (each line and its newline) left unread; absent: none. */
  unread: Map<string, number>
}

/** Bytes of added text kept per path: a number, or Infinity for all of it. */
export type AddedLimit = (path: string) => number

/**
 * The longest line outside a hunk (`diff --git`, `+++ b/…`, `@@ … @@`) the reader keeps:
 * two quoted paths of the longest length git writes fit many times over. A longer one is
 * not git's diff: an error, never a silent skip.
 */
export const MAX_DIFF_HEADER_BYTES = 1024 * 1024

export async function addedLines(
  git: Git,
  from: string,
  to: string,
  paths?: readonly string[],
  limit: AddedLimit = () => Infinity
): Promise<AddedText> {
  const reader = new AddedLinesReader(limit)
  if (paths !== undefined && paths.length === 0) return reader.result()
  // Long path lists go through stdin-less pathspec files would need git 2.25+; chunk instead.
  const chunks = paths === undefined ? [undefined] : chunk(paths, 500)
  for (const part of chunks) {
    await git.diffZeroContext(from, to, part, piece => reader.push(piece))
    reader.end()
  }
  return reader.result()
}

/** Parses `git diff -U0` output into added lines per new path. Pure; exported for tests. */
export function parseUnifiedDiff(diff: string): AddedLines {
  const reader = new AddedLinesReader(() => Infinity)
  reader.push(Buffer.from(diff, 'utf8'))
  reader.end()
  return reader.result().lines
}

interface FileState {
  lines: Map<number, string>
  limit: number
  /** Bytes of added text kept so far. */
  read: number
}

const PLUS = 0x2b
const MINUS = 0x2d
const SPACE = 0x20
const NEWLINE = 0x0a

/**
 * `git diff -U0` output, pushed in pieces as git writes it, split into lines without
 * holding more of a line than is kept: a removed or context line costs its first byte, an
 * added one its text while its file is within its limit, a header line its text (up to
 * MAX_DIFF_HEADER_BYTES). Pure (no I/O); push() then end() for each diff.
 */
export class AddedLinesReader {
  private readonly lines: AddedLines = new Map()
  private readonly unread = new Map<string, number>()
  private readonly files = new Map<string, FileState>()
  private current: FileState | undefined
  private currentPath = ''
  private line = 0
  // Lines still due in the current hunk (its header counts them): inside a hunk, an added
  // line that reads `++ x` is `+++ x` in the diff and must not be taken for a file header.
  private oldLeft = 0
  private newLeft = 0
  // The line being read: the pieces kept of it, their size, its whole size, how much of it
  // to keep (set by its first byte).
  private parts: Buffer[] = []
  private kept = 0
  private length = 0
  private keep = 0

  constructor(private readonly limit: AddedLimit) {}

  push(piece: Buffer): void {
    let at = 0
    while (at < piece.length) {
      const newline = piece.indexOf(NEWLINE, at)
      const end = newline === -1 ? piece.length : newline
      this.take(piece, at, end)
      if (newline === -1) return
      this.endLine()
      at = newline + 1
    }
  }

  /** The diff is over: a last line without a newline ends here. */
  end(): void {
    if (this.length > 0) this.endLine()
    this.current = undefined
    this.oldLeft = 0
    this.newLeft = 0
  }

  result(): AddedText {
    return { lines: this.lines, unread: this.unread }
  }

  private inHunk(): boolean {
    return this.oldLeft > 0 || this.newLeft > 0
  }

  private take(piece: Buffer, from: number, to: number): void {
    if (from === to) return
    if (this.length === 0) this.keep = this.keepFor(piece[from] as number)
    const room = this.keep - this.kept
    if (room > 0) {
      const part = piece.subarray(from, Math.min(to, from + room))
      this.parts.push(part)
      this.kept += part.length
    }
    this.length += to - from
    if (!this.inHunk() && this.length > MAX_DIFF_HEADER_BYTES)
      throw new GateError(
        `git diff printed a line of more than ${MAX_DIFF_HEADER_BYTES / 1024 / 1024} MiB outside a hunk (MAX_DIFF_HEADER_BYTES), which is not a diff the gate can read`
      )
  }

  /** How many bytes of a line starting with `first` to keep. */
  private keepFor(first: number): number {
    if (!this.inHunk()) return MAX_DIFF_HEADER_BYTES
    const file = this.current
    if (first !== PLUS || file === undefined || this.unread.has(this.currentPath)) return 1
    // The '+', then the text if it fits with its newline (a line either fits or is unread).
    return 1 + Math.max(0, Math.min(file.limit - file.read - 1, Number.MAX_SAFE_INTEGER))
  }

  private endLine(): void {
    const first = this.parts[0]?.[0]
    if (this.inHunk()) this.hunkLine(first)
    else this.headerLine(Buffer.concat(this.parts, this.kept).toString('utf8'))
    this.parts = []
    this.kept = 0
    this.length = 0
  }

  private hunkLine(first: number | undefined): void {
    if (first === PLUS) {
      this.addLine()
      this.line += 1
      this.newLeft -= 1
    } else if (first === MINUS) {
      this.oldLeft -= 1
    } else if (first === SPACE) {
      this.line += 1
      this.oldLeft -= 1
      this.newLeft -= 1
    }
  }

  private addLine(): void {
    const file = this.current
    if (file === undefined) return
    const cost = this.length // the text (all but its '+') and its newline
    const unread = this.unread.get(this.currentPath)
    if (unread === undefined && file.read + cost <= file.limit) {
      file.lines.set(this.line, Buffer.concat(this.parts, this.kept).subarray(1).toString('utf8'))
      file.read += cost
    } else this.unread.set(this.currentPath, (unread ?? 0) + cost)
  }

  private headerLine(raw: string): void {
    if (raw.startsWith('diff --git ')) {
      this.current = undefined
    } else if (raw.startsWith('+++ ')) {
      const target = raw.slice(4)
      if (target === '/dev/null') this.current = undefined
      else {
        // git ends the name with a tab when it holds a space (for patch(1)).
        const path = unquote(target.replace(/\t$/, '')).replace(/^b\//, '')
        this.currentPath = path
        this.current = this.fileState(path)
      }
    } else if (raw.startsWith('@@')) {
      const match = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(raw)
      this.line = match ? Number(match[2]) : 0
      this.oldLeft = match ? Number(match[1] ?? 1) : 0
      this.newLeft = match ? Number(match[3] ?? 1) : 0
    }
  }

  private fileState(path: string): FileState {
    let file = this.files.get(path)
    if (file === undefined) {
      const lines = this.lines.get(path) ?? new Map<number, string>()
      this.lines.set(path, lines)
      file = { lines, limit: this.limit(path), read: 0 }
      this.files.set(path, file)
    }
    return file
  }
}

function unquote(path: string): string {
  if (!path.startsWith('"')) return path
  // git quotes paths with special characters C-style; octal escapes are UTF-8 bytes.
  const bytes: number[] = []
  const body = path.slice(1, -1)
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'))
      continue
    }
    const next = body[i + 1]!
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8))
      i += 3
    } else {
      const map: Record<string, number> = {
        n: 10,
        t: 9,
        '"': 34,
        '\\': 92,
        a: 7,
        b: 8,
        f: 12,
        r: 13,
        v: 11
      }
      bytes.push(map[next] ?? next.charCodeAt(0))
      i += 1
    }
  }
  return Buffer.from(bytes).toString('utf8')
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
