// Adding a row to ledger text without disturbing the rest: YAML keeps its comments and
// layout (yaml's Document round-trips them), JSON keeps its indentation. Pure.
import { isSeq, parseDocument, stringify } from 'yaml'
import { formatOf } from './parse.js'
import type { LedgerRow } from './types.js'

/** Field order of a written row: the order a reader scans a ledger in. */
const ORDER: ReadonlyArray<keyof LedgerRow> = [
  'id',
  'test',
  'cause',
  'reason',
  'owner',
  'first_seen',
  'expires_on',
  'max_runs',
  'ticket',
  'counterexample'
]

function ordered(row: Partial<LedgerRow> & Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of ORDER) if (row[key] !== undefined) out[key] = row[key]
  for (const [key, value] of Object.entries(row))
    if (!(key in out) && value !== undefined) out[key] = value
  return out
}

/**
 * The ledger text with `row` appended to `entries`; `existing` null (or blank) starts a new
 * ledger. Throws when the existing text has no `entries` list to append to.
 */
export function appendRow(
  existing: string | null,
  file: string,
  row: Record<string, unknown>
): string {
  const value = ordered(row)
  const blank = existing === null || existing.trim() === ''
  if (formatOf(file) === 'json') {
    if (blank) return JSON.stringify({ version: 1, entries: [value] }, null, 2) + '\n'
    const data = JSON.parse(existing) as { entries?: unknown }
    if (!Array.isArray(data.entries)) throw new Error(`${file} has no "entries" list to add to`)
    data.entries.push(value)
    const indent = /^([ \t]+)"/m.exec(existing)?.[1] ?? 2
    return JSON.stringify(data, null, indent) + (existing.endsWith('\n') ? '\n' : '')
  }
  if (blank) return stringify({ version: 1, entries: [value] })
  const doc = parseDocument(existing)
  const entries = doc.get('entries', true)
  if (!isSeq(entries)) throw new Error(`${file} has no "entries" list to add to`)
  // `entries: []` is a flow list; a new row reads better as a block item.
  entries.flow = false
  entries.items.push(doc.createNode(value))
  return doc.toString()
}

/** Next free id of the form flake-N. */
export function nextId(ids: Iterable<string>): string {
  let max = 0
  for (const id of ids) {
    const m = /^flake-(\d+)$/.exec(id)
    if (m) max = Math.max(max, Number(m[1]))
  }
  return `flake-${max + 1}`
}
