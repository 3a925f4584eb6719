// Ledger text → validated rows, or problems that name file, line, row id and field.
// Pure: no I/O, no clock. JSON files are also read with `yaml` (JSON is YAML 1.2) so one
// position map serves both formats; JSON.parse runs first so that a .json file is held to
// strict JSON (no comments, no trailing commas).
import { LineCounter, parseDocument } from 'yaml'
import { findNode } from '../policy/yaml-position.js'
import { documentValue } from '../policy/yaml-value.js'
import { daysBetween } from './dates.js'
import type { LedgerRow } from './types.js'
import { validateLedgerObject, type LedgerSchemaIssue } from './validate.js'
import { maxDaysFor, type LedgerMaxDays } from './limits.js'

export type LedgerFormat = 'json' | 'yaml'

export interface LedgerProblem {
  file: string
  line: number
  /** The row's id when it has one (a string). */
  rowId?: string
  /** Index in `entries`, when the problem is a row's. */
  index?: number
  field?: string
  message: string
}

export interface ParsedLedger {
  format: LedgerFormat
  /** Rows with no problem of their own, in file order. */
  rows: LedgerRow[]
  /** Line of each valid row, by id. */
  lines: Map<string, number>
  problems: LedgerProblem[]
}

export interface ParseOptions {
  today: string
  /** Longest allowed window first_seen → expires_on, in days (a number, or by cause). */
  maxDays: LedgerMaxDays
}

export function formatOf(file: string): LedgerFormat {
  return /\.json$/i.test(file) ? 'json' : 'yaml'
}

export function formatProblem(p: LedgerProblem): string {
  const where =
    p.index === undefined
      ? ''
      : p.rowId !== undefined
        ? `row "${p.rowId}" `
        : `row #${p.index + 1} (no id) `
  const field = p.field === undefined ? '' : `field "${p.field}": `
  return `${p.file}:${p.line}: ${where}${field}${p.message}`
}

/**
 * The largest ledger the gate reads: about 20,000 rows. The YAML parser needs some 50 bytes
 * of memory and real time per byte of text, so a 100,000-row (20 MB) ledger would take
 * more than a gigabyte; a ledger that size is a list of freezes nobody will lift anyway.
 */
export const MAX_LEDGER_CHARS = 4_000_000

function tooLarge(chars: number, file: string): LedgerProblem {
  return {
    file,
    line: 1,
    message: `the ledger is ${(chars / 1e6).toFixed(1)} MB, more than the ${MAX_LEDGER_CHARS / 1e6} MB the gate reads (the limit, about 20,000 rows): remove rows that are no longer needed`
  }
}

export function parseLedger(text: string, file: string, options: ParseOptions): ParsedLedger {
  try {
    return parseLedgerText(text, file, options)
  } catch (error) {
    // Whatever the text makes the parser or the validator do (nesting deep enough to
    // exhaust the stack, say), it is a problem of this file, not an internal error.
    const message = error instanceof Error ? error.message : String(error)
    return {
      format: formatOf(file),
      rows: [],
      lines: new Map(),
      problems: [{ file, line: 1, message: `cannot read the ledger: ${message}` }]
    }
  }
}

function parseLedgerText(text: string, file: string, options: ParseOptions): ParsedLedger {
  const format = formatOf(file)
  const empty = (problems: LedgerProblem[]): ParsedLedger => ({
    format,
    rows: [],
    lines: new Map(),
    problems
  })
  if (text.length > MAX_LEDGER_CHARS) return empty([tooLarge(text.length, file)])
  const lc = new LineCounter()
  if (format === 'json') {
    const syntax = jsonSyntaxProblem(text, file)
    if (syntax) return empty([syntax])
  }
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true })
  if (doc.errors.length > 0) {
    // One problem per line and message: a nesting bomb may exhaust the stack more than once
    // at the same place (whether it does depends on how deep the caller's stack already is).
    const seen = new Map<string, LedgerProblem>()
    for (const e of doc.errors) {
      const line = lc.linePos(e.pos[0]).line
      const message = `syntax: ${e.message.split('\n')[0]}`
      seen.set(`${line}\n${message}`, { file, line, message })
    }
    return empty([...seen.values()])
  }
  const read = documentValue(doc, lc)
  if (!read.ok) return empty([{ file, line: read.line, message: read.message }])
  const value = read.value
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return empty([{ file, line: 1, message: 'expected a mapping {version: 1, entries: [...]}' }])
  }
  const locate = (path: readonly string[]): number => lc.linePos(findNode(doc, path).offset).line
  const raw = value as { entries?: unknown }
  const entries = Array.isArray(raw.entries) ? (raw.entries as unknown[]) : []
  const idOf = (index: number): string | undefined => {
    const id = (entries[index] as { id?: unknown } | null)?.id
    return typeof id === 'string' && id.trim() !== '' ? id : undefined
  }

  const problems: LedgerProblem[] = validateLedgerObject(value).map(issue =>
    toProblem(issue, file, locate, idOf)
  )
  const badRows = new Set(problems.map(p => p.index).filter((i): i is number => i !== undefined))
  // A top-level problem (version, entries not a list) invalidates every row.
  const topLevel = problems.some(p => p.index === undefined)

  const rows: LedgerRow[] = []
  const lines = new Map<string, number>()
  const seenId = new Map<string, number>()
  const seenTest = new Map<string, number>()
  entries.forEach((entry, index) => {
    if (topLevel || badRows.has(index)) return
    const row = entry as LedgerRow
    const line = locate(['entries', String(index)])
    const fail = (field: keyof LedgerRow, message: string): void => {
      problems.push({
        file,
        line: locate(['entries', String(index), field]),
        rowId: row.id,
        index,
        field,
        message
      })
    }
    const before = problems.length
    const idLine = seenId.get(row.id)
    if (idLine !== undefined) fail('id', `duplicate id (first used on line ${idLine})`)
    const testLine = seenTest.get(row.test)
    if (testLine !== undefined)
      fail('test', `duplicate test "${row.test}" (already frozen on line ${testLine})`)
    const window = daysBetween(row.first_seen, row.expires_on)
    if (window < 0) fail('expires_on', `${row.expires_on} is before first_seen ${row.first_seen}`)
    else if (window > maxDaysFor(options.maxDays, row.cause)) {
      const limit = maxDaysFor(options.maxDays, row.cause)
      const which = typeof options.maxDays === 'number' ? '' : ` for cause ${row.cause}`
      fail(
        'expires_on',
        `window first_seen → expires_on is ${window} days; the policy allows at most ${limit}${which} (ledger_max_days)`
      )
    }
    if (daysBetween(options.today, row.first_seen) > 0) {
      // A future first_seen would let a row stretch its window past ledger_max_days from today.
      fail('first_seen', `${row.first_seen} is after today (${options.today})`)
    }
    if (idLine === undefined) seenId.set(row.id, line)
    if (testLine === undefined) seenTest.set(row.test, line)
    if (problems.length === before) {
      rows.push(row)
      lines.set(row.id, line)
    }
  })
  return { format, rows, lines, problems }
}

function toProblem(
  issue: LedgerSchemaIssue,
  file: string,
  locate: (path: readonly string[]) => number,
  idOf: (index: number) => string | undefined
): LedgerProblem {
  const problem: LedgerProblem = { file, line: locate(issue.path), message: issue.message }
  if (issue.path[0] === 'entries' && issue.path[1] !== undefined) {
    problem.index = Number(issue.path[1])
    const id = idOf(problem.index)
    if (id !== undefined) problem.rowId = id
  }
  if (issue.field !== undefined) problem.field = issue.field
  return problem
}

/** Offset of the deepest node along a JSON pointer path (the key for a map entry's value). */
function jsonSyntaxProblem(text: string, file: string): LedgerProblem | undefined {
  try {
    JSON.parse(text)
    return undefined
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    // V8 names the offset ("at position N") or the line ("line N column M").
    const position = /position (\d+)/.exec(message)
    const lineMatch = /line (\d+)/.exec(message)
    let line = 1
    if (lineMatch) line = Number(lineMatch[1])
    else if (position) line = text.slice(0, Number(position[1])).split('\n').length
    return { file, line, message: `JSON syntax: ${message}` }
  }
}
