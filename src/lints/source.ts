// Facts of files at a revision, read in one batch and parsed once per run: both lints ask
// for the same head test files, and neither should pay for the other's parse.
import { GateError } from '../errors.js'
import type { Git } from '../git/git.js'
import { readBlobs } from './blobs.js'
import { extractFacts, type FileFacts } from './extract.js'
import { languageOf, parserFor, type LanguageId } from './parsers.js'

/**
 * Larger production files are generated or minified: not where a literal is written by
 * hand, and parsing them would dominate the run. Test files are parsed whatever their size:
 * padding a test must not be a way around the lints.
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
  parsed = 0
  /** Files a `needsParse` filter passed over, for the log. */
  filtered = 0

  constructor(private readonly git: Git) {}

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
    const missing = wanted.filter(p => !this.cache.has(key(rev, p)))
    if (missing.length > 0) {
      const blobs = await readBlobs(this.git, rev, missing)
      for (const path of missing) {
        const facts = await this.parse(path, blobs.get(path), role, needsParse)
        // A file the filter passed over is not cached: another question may need it.
        if (facts !== undefined) this.cache.set(key(rev, path), facts)
      }
    }
    const out = new Map<string, FileFacts>()
    for (const path of wanted) {
      const facts = this.cache.get(key(rev, path))
      if (facts) out.set(path, facts)
    }
    return out
  }

  private async parse(
    path: string,
    bytes: Buffer | undefined,
    role: 'test' | 'production',
    needsParse: NeedsParse | undefined
  ): Promise<FileFacts | null | undefined> {
    const language = languageOf(path)
    if (bytes === undefined || language === undefined) return null
    if (role === 'production' && (bytes.length > MAX_PRODUCTION_BYTES || bytes.includes(0))) {
      this.skipped.push(path)
      return null
    }
    // Decoded once: the filter and the parser see the same text.
    const text = bytes.toString('utf8')
    if (needsParse !== undefined && !needsParse(path, language, text)) {
      this.filtered++
      return undefined
    }
    const parser = await parserFor(language)
    const tree = parser.parse(text)
    if (tree === null) throw new GateError(`tree-sitter could not parse ${path}`, { path })
    try {
      this.parsed++
      return extractFacts(tree, language)
    } finally {
      tree.delete()
    }
  }
}

function key(rev: string, path: string): string {
  return `${rev}\0${path}`
}
