// A cheap test on a production file's raw text that says whether it can hold a literal
// `literal-overlap` would pair with one of the patch's new test literals. Only files that
// pass are parsed; the rule itself still decides on the tree-sitter facts. Pure.
//
// Safety argument (it may let through files that cannot matter, never the reverse): a
// production literal P counts only when P is contained in a candidate test literal T and P
// has at least `min` characters. Whatever the language, P is spelled in the source as one
// or more pieces, each starting right after a quote, a backtick or the `}` that closes an
// interpolation, and each piece is the verbatim source text until
// - a backslash (an escape or a line continuation: the value differs from the text),
// - the end of the piece: a quote, a backtick, `$` of `${`, `{` of an f-string hole,
//   or (for a string left unterminated, which the parser closes with a missing token) the
//   last characters before a line break or the end of the file,
// - in Python only: a doubled brace (`{{` stands for `{`) or the closing quote of a piece
//   that adjacent-string concatenation (`"ab" "cd"`) continues with another string.
// So for P ⊆ T, the text after that anchor is a substring of T up to that point; the scan
// below walks every anchor, and answers "may hold" as soon as one of those situations is
// reached with the text so far still possibly inside some candidate: at a backslash, a
// doubled brace or a possible concatenation whatever the length (the value goes on past
// what the text shows), at a possible end once `min` characters are covered. Membership is
// tested with hashes of all substrings of up to K characters of the candidates (longer
// runs: each K-character window); a hash collision can only make a file pass.

/** Window length for runs longer than that: keeps the index linear in the candidates. */
const MAX_WINDOW = 8
const FNV_OFFSET = 0x811c9dc5 | 0
const FNV_PRIME = 0x01000193

export interface CandidateIndex {
  readonly min: number
  /** Window length: min(min, MAX_WINDOW). */
  readonly k: number
  /** Hashes of every substring of 1..k characters of every candidate. */
  readonly hashes: ReadonlySet<number>
}

function step(hash: number, code: number): number {
  return Math.imul(hash ^ code, FNV_PRIME)
}

/** The index of the candidate test literals (their values, as decoded by extraction). */
export function candidateIndex(values: Iterable<string>, min: number): CandidateIndex {
  const k = Math.max(1, Math.min(min, MAX_WINDOW))
  const hashes = new Set<number>()
  for (const value of values) {
    for (let i = 0; i < value.length; i++) {
      let hash = FNV_OFFSET
      const end = Math.min(value.length, i + k)
      for (let j = i; j < end; j++) {
        hash = step(hash, value.charCodeAt(j))
        hashes.add(hash)
      }
    }
  }
  return { min: Math.max(1, min), k, hashes }
}

const BACKSLASH = 0x5c
const SINGLE = 0x27
const DOUBLE = 0x22
const BACKTICK = 0x60
const DOLLAR = 0x24
const OPEN = 0x7b
const CLOSE = 0x7d
const HASH = 0x23
const LF = 0x0a
const CR = 0x0d

function isAnchor(code: number): boolean {
  return code === SINGLE || code === DOUBLE || code === BACKTICK || code === CLOSE
}

/** Where a piece may end: a quote, a backtick, `$` of `${`, `{` of an f-string hole. */
function isEnd(code: number): boolean {
  return code === SINGLE || code === DOUBLE || code === BACKTICK || code === DOLLAR || code === OPEN
}

function isQuote(code: number): boolean {
  return code === SINGLE || code === DOUBLE
}

/**
 * True when the file may hold a literal that some candidate contains. `python` turns on the
 * Python-only cases (adjacent-string concatenation, doubled braces).
 */
export function mayHoldOverlap(
  text: string,
  python: boolean,
  index: CandidateIndex,
  base?: string
): boolean {
  if (index.hashes.size === 0) return false
  for (let s = 1; s <= text.length; s++) {
    if (isAnchor(text.charCodeAt(s - 1)) && pieceMayOverlap(text, s, python, index, base))
      return true
  }
  return false
}

function pieceMayOverlap(
  text: string,
  s: number,
  python: boolean,
  { min, k, hashes }: CandidateIndex,
  base: string | undefined
): boolean {
  const length = text.length
  let hash = FNV_OFFSET
  // A value spelled verbatim that the file's own base text already holds is dropped by
  // the rule (found in the base of a changed file), whatever the candidates.
  const fresh = (end: number): boolean => base === undefined || !base.includes(text.slice(s, end))
  // Invariant at the top of the loop: text[s, q) may be a substring of a candidate.
  for (let q = s; ; q++) {
    if (q >= length) return q - s >= min && fresh(q)
    const code = text.charCodeAt(q)
    if (code === BACKSLASH) return true
    if (q - s >= min && (isEnd(code) || nearLineEnd(text, q)) && fresh(q)) return true
    if (python) {
      if (isQuote(code) && q > s && concatenationMayFollow(text, q)) return true
      if ((code === OPEN || code === CLOSE) && text.charCodeAt(q + 1) === code) return true
    }
    // Extend the run by text[q].
    if (q + 1 - s <= k) {
      hash = step(hash, code)
      if (!hashes.has(hash)) return false
    } else {
      let window = FNV_OFFSET
      for (let i = q + 1 - k; i <= q; i++) window = step(window, text.charCodeAt(i))
      if (!hashes.has(window)) return false
    }
  }
}

/**
 * An unterminated string is closed by a zero-width missing token at the line break or the
 * end of the file, and extraction then drops its last one or three characters as if they
 * were the closing quote: such a value ends up to three characters before the break.
 */
function nearLineEnd(text: string, q: number): boolean {
  for (let i = q + 1; i <= q + 3; i++) {
    if (i >= text.length) return true
    const code = text.charCodeAt(i)
    if (code === LF || code === CR) return true
  }
  return false
}

/**
 * Whether the quote at `q` may close a Python string that another string continues
 * (`"ab" "cd"`, `"ab""cd"`, `"ab" f"cd"`, across comments and line breaks). Generous:
 * a run of quotes other than a single one may be a close and an open back to back, any
 * control, blank or non-ASCII character is skipped as possible whitespace, and a
 * backslash (a line continuation) answers yes.
 */
function concatenationMayFollow(text: string, q: number): boolean {
  const length = text.length
  let r = q
  while (r < length && isQuote(text.charCodeAt(r))) r++
  if (r - q !== 1) return true
  while (r < length) {
    const code = text.charCodeAt(r)
    if (code === BACKSLASH) return true
    if (code === HASH) {
      while (r < length && text.charCodeAt(r) !== LF && text.charCodeAt(r) !== CR) r++
    } else if (code <= 0x20 || code >= 0x7f) r++
    else break
  }
  // A string prefix (r, b, u, f, t and their pairs) may stand before the next quote.
  let p = r
  while (p < length && p - r < 3 && isLetter(text.charCodeAt(p))) p++
  return p < length && isQuote(text.charCodeAt(p))
}

function isLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)
}
