// The shapes the evidence stage passes between its parts (docs/evidence.md): the patch's
// changed production lines, which of them the voting tests ran on the head (coverage), the
// mutants made of the covered ones and what became of each. The scorecard's `evidence`
// field (verdict/scorecard.schema.json) is the report of these; these are the working
// shapes. Line numbers are 1-based lines of the head's file; paths are repository-relative.

/** The added or changed lines of one production file of the head. */
export interface ChangedLines {
  path: string
  /** Sorted, unique, 1-based line numbers of the head's file. */
  lines: number[]
}

/** Which changed lines the voting tests ran on the head. */
export interface LineCoverage {
  /** path → the changed lines that ran (a subset of the changed lines asked about). */
  covered: Map<string, Set<number>>
  /**
   * path → the asked lines that hold code that can run, where the measure knows it (V8:
   * blank, comment, type-only and lone-brace lines hold none): the others are neither
   * covered nor uncovered. Absent for a path: every asked line counts.
   */
  executable?: Map<string, Set<number>>
  /**
   * path → line → canonical ids of the voting tests that ran the line, where the runner
   * tells them apart (per-test contexts); absent when only the whole run's lines are known.
   */
  byTest?: Map<string, Map<number, string[]>>
  /** Why coverage could not be measured for some files (named in the card), if any. */
  problems?: string[]
  /**
   * Files whose measure the product could write (one of the patch's lines reached the
   * gate's instrument, instrument.ts): their lines count as uncovered. Named in the card's
   * problems, but not a failure to measure: under enforce the lines decide, not an error.
   */
  voided?: string[]
}

/** One mutation of one covered changed line: a replacement of a byte range of the file. */
export interface Mutant {
  path: string
  line: number
  /** What changed, for people: "`<` → `<=`", "`return x` removed", "`True` → `False`". */
  mutation: string
  /** UTF-16 offsets into the head's file text (String.prototype.slice), end exclusive. */
  start: number
  end: number
  replacement: string
  /**
   * The text the mutant replaces (the file's slice at start..end when it was made), so a
   * run can refuse a file that is no longer the text the mutant was made from.
   */
  original?: string
}

/** What became of one mutant. */
export interface MutantOutcome extends Mutant {
  /** Canonical id of a voting test that failed against the mutant; null when none did. */
  killed_by: string | null
  /** Set when the mutant was not run to the end (budget, setup, timeout): never "killed". */
  not_run?: string
}
