// The lints' one view of a run's changed files: the lines the patch adds (one diff for
// every written file in a source language), each file's size and text at a revision, and
// its syntax tree, parsed once per file per run whichever lint asks first. It lives on the
// run's LintInput and is disposed when the lints end (the trees hold wasm memory); nothing
// here outlives a run. Large production files are never read whole: only their added
// lines, up to MAX_ADDED_TEXT_BYTES of them, kept as the diff streams in (a notice names
// what is left unread).
import type { Tree } from 'web-tree-sitter'
import { GateError } from '../errors.js'
import type { Git } from '../git/git.js'
import { addedLines, type AddedLines, type AddedText } from '../git/hunks.js'
import { languageOf as sourceLanguageOf } from '../lang.js'
import type { WriteSetRow } from '../types.js'
import { listBlobs, MAX_LINT_BLOB_BYTES, readBlobs } from './blobs.js'
import { parserFor, type LanguageId } from './parsers.js'

/**
 * How much added text of one large production file the lints read. A larger change to a
 * generated file is linted up to here, and the rest is named in a notice; a new file
 * larger than this is not diffed at all (all of it is added text).
 */
export const MAX_ADDED_TEXT_BYTES = MAX_LINT_BLOB_BYTES

/** A production file over MAX_LINT_BLOB_BYTES at head: read only through its added lines. */
export interface LargeFile {
  path: string
  size: number
  /** Added lines read (up to MAX_ADDED_TEXT_BYTES of text), by head line number. */
  lines: Map<number, string>
  /** Bytes of added text left unread (0 when all of it was read). */
  unread: number
}

export class ChangedFiles {
  private diff: Promise<AddedText> | undefined
  private readonly sizes = new Map<string, number | null>()
  private readonly texts = new Map<string, string | null>()
  private readonly trees = new Map<string, Tree | null>()
  /** Files parsed in this run (each once), for the log. */
  parsed = 0

  /** @param rows the write set (only rows present at head in a source language count) */
  constructor(
    private readonly git: Git,
    readonly mergeBase: string,
    readonly head: string,
    private readonly rows: readonly WriteSetRow[]
  ) {}

  /**
   * Added lines of every written file, one `git diff -U0` per run. A new file larger than
   * MAX_ADDED_TEXT_BYTES is left out of the diff (see largeFile).
   */
  async added(): Promise<AddedLines> {
    return (await this.addedText()).lines
  }

  private addedText(): Promise<AddedText> {
    this.diff ??= this.readAdded()
    return this.diff
  }

  /** Added lines of one path (empty when the patch adds none). */
  async addedTo(path: string): Promise<Map<number, string>> {
    return (await this.added()).get(path) ?? new Map()
  }

  /** The diff, streamed: of a file over MAX_LINT_BLOB_BYTES at head only its limit is kept. */
  private async readAdded(): Promise<AddedText> {
    const written = this.rows.filter(
      r => r.status !== 'deleted' && sourceLanguageOf(r.path) !== undefined
    )
    const sizes = await this.sizesAt(
      this.head,
      written.map(r => r.path)
    )
    const diffed = written.filter(
      r => !(r.status === 'added' && (sizes.get(r.path) ?? 0) > MAX_ADDED_TEXT_BYTES)
    )
    const limit = (path: string): number =>
      (sizes.get(path) ?? 0) > MAX_LINT_BLOB_BYTES ? MAX_ADDED_TEXT_BYTES : Infinity
    return addedLines(
      this.git,
      this.mergeBase,
      this.head,
      diffed.map(r => r.path),
      limit
    )
  }

  /** Size of each regular file among `paths` at `rev` (listed once per run and path). */
  async sizesAt(rev: string, paths: readonly string[]): Promise<Map<string, number>> {
    const missing = [...new Set(paths)].filter(p => !this.sizes.has(key(rev, p)))
    if (missing.length > 0) {
      const listed = await listBlobs(this.git, rev, missing)
      for (const p of missing) this.sizes.set(key(rev, p), listed.get(p)?.size ?? null)
    }
    const out = new Map<string, number>()
    for (const p of paths) {
      const size = this.sizes.get(key(rev, p))
      if (size !== null && size !== undefined) out.set(p, size)
    }
    return out
  }

  /** Whether `path` at head is too large to read whole (a production file read by its added lines). */
  async isLarge(path: string): Promise<boolean> {
    return ((await this.sizesAt(this.head, [path])).get(path) ?? 0) > MAX_LINT_BLOB_BYTES
  }

  /** The added lines of a large file, cut at MAX_ADDED_TEXT_BYTES of text as they were read. */
  async largeFile(path: string): Promise<LargeFile> {
    const size = (await this.sizesAt(this.head, [path])).get(path) ?? 0
    const row = this.rows.find(r => r.path === path)
    if (row?.status === 'added' && size > MAX_ADDED_TEXT_BYTES)
      return { path, size, lines: new Map(), unread: size }
    const { lines, unread } = await this.addedText()
    return { path, size, lines: lines.get(path) ?? new Map(), unread: unread.get(path) ?? 0 }
  }

  /**
   * Text of each regular file among `paths` at `rev`, read in one batch for those not read
   * yet. The caller keeps large files out (readBlobs refuses them, naming the limit).
   */
  async textsAt(rev: string, paths: readonly string[]): Promise<Map<string, string>> {
    const missing = [...new Set(paths)].filter(p => !this.texts.has(key(rev, p)))
    if (missing.length > 0) {
      const blobs = await readBlobs(this.git, rev, missing)
      for (const p of missing) this.texts.set(key(rev, p), blobs.get(p)?.toString('utf8') ?? null)
    }
    const out = new Map<string, string>()
    for (const p of paths) {
      const text = this.texts.get(key(rev, p))
      if (text !== null && text !== undefined) out.set(p, text)
    }
    return out
  }

  /**
   * The syntax tree of `path` at `rev`, parsed from `text` the first time any lint asks and
   * held until dispose(). The caller must not delete it.
   */
  async tree(rev: string, path: string, text: string, language: LanguageId): Promise<Tree> {
    const k = `${key(rev, path)}\0${language}`
    const held = this.trees.get(k)
    if (held) return held
    const tree = (await parserFor(language)).parse(text)
    if (tree === null) throw new GateError(`tree-sitter could not parse ${path}`, { path })
    this.parsed++
    this.trees.set(k, tree)
    return tree
  }

  /** Frees every tree of the run. */
  dispose(): void {
    for (const tree of this.trees.values()) tree?.delete()
    this.trees.clear()
  }
}

function key(rev: string, path: string): string {
  return `${rev}\0${path}`
}
