// Facts of files at a revision, extracted once per run from the run's view (view.ts): both
// contamination lints ask for the same head test files, and neither should pay for the
// other's read or parse (skip-marker and oracle-reach share the same trees).
import { extractFacts, type FileFacts } from './extract.js'
import { languageOf, type LanguageId } from './parsers.js'
import type { ChangedFiles } from './view.js'

/**
 * Larger production files are generated or minified: not where a literal is written by
 * hand, and parsing them would dominate the run. They are left out by the size git lists,
 * before a byte is read. Test files are parsed whatever their size: padding a test must
 * not be a way around the lints.
 */
const MAX_PRODUCTION_BYTES = 1024 * 1024

/**
 * A cheap look at a file's text before parsing it: false means the caller has proved the
 * file's facts cannot matter to its question, and the file is left out of the answer.
 */
export type NeedsParse = (path: string, language: LanguageId, text: string) => boolean

export class SourceFacts {
  private readonly cache = new Map<string, FileFacts | null>()
  /** Production paths skipped as too large or binary, for the log. */
  readonly skipped: string[] = []
  /** Files a `needsParse` filter passed over, for the log. */
  filtered = 0

  constructor(private readonly view: ChangedFiles) {}

  /**
   * Facts of each path at `rev` that exists there, is a regular file and is in a parsed
   * language. Paths without facts are absent from the result.
   */
  async at(
    rev: string,
    paths: readonly string[],
    role: 'test' | 'production',
    needsParse?: NeedsParse
  ): Promise<Map<string, FileFacts>> {
    const wanted = [...new Set(paths)].filter(p => languageOf(p) !== undefined)
    const missing = await this.readable(
      rev,
      wanted.filter(p => !this.cache.has(key(rev, p))),
      role
    )
    const texts = await this.view.textsAt(rev, missing)
    for (const path of missing) {
      const facts = await this.parse(rev, path, texts.get(path), role, needsParse)
      // A file the filter passed over is not cached: another question may need it.
      if (facts !== undefined) this.cache.set(key(rev, path), facts)
    }
    const out = new Map<string, FileFacts>()
    for (const path of wanted) {
      const facts = this.cache.get(key(rev, path))
      if (facts) out.set(path, facts)
    }
    return out
  }

  /** The paths worth reading: production files over the size are skipped unread. */
  private async readable(
    rev: string,
    paths: string[],
    role: 'test' | 'production'
  ): Promise<string[]> {
    if (role === 'test' || paths.length === 0) return paths
    const sizes = await this.view.sizesAt(rev, paths)
    return paths.filter(p => {
      if ((sizes.get(p) ?? 0) <= MAX_PRODUCTION_BYTES) return true
      this.cache.set(key(rev, p), null)
      this.skipped.push(p)
      return false
    })
  }

  private async parse(
    rev: string,
    path: string,
    text: string | undefined,
    role: 'test' | 'production',
    needsParse: NeedsParse | undefined
  ): Promise<FileFacts | null | undefined> {
    const language = languageOf(path)
    if (text === undefined || language === undefined) return null
    if (role === 'production' && text.includes('\0')) {
      this.skipped.push(path)
      return null
    }
    if (needsParse !== undefined && !needsParse(path, language, text)) {
      this.filtered++
      return undefined
    }
    return extractFacts(await this.view.tree(rev, path, text, language), language)
  }
}

function key(rev: string, path: string): string {
  return `${rev}\0${path}`
}
