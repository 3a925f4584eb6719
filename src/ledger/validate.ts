// JSON Schema validation of a ledger object, by the validator generated from schema.json at
// build time (scripts/validators.mjs, src/generated/ledger.mjs; no run compiles the schema).
// The `calendar-date` format (dates.ts isCalendarDate) rejects 2026-02-30, which a pattern
// alone would let through.
import type { ErrorObject } from 'ajv'
import validate from '../generated/ledger.mjs'
import schema from './schema.json' with { type: 'json' }

export interface LedgerSchemaIssue {
  /** JSON pointer segments to the offending value, e.g. ['entries', '2', 'cause']. */
  path: string[]
  /** The field the issue is about, when it is a row's (or the top level's) key. */
  field?: string
  message: string
}

export const ledgerSchema = schema

export function validateLedgerObject(value: unknown): LedgerSchemaIssue[] {
  if (validate(value)) return []
  // minLength and pattern can both reject one empty string: report it once.
  const seen = new Set<string>()
  return (validate.errors ?? []).map(toIssue).filter(issue => {
    const key = `${issue.path.join('/')}|${issue.field ?? ''}|${issue.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function toIssue(error: ErrorObject): LedgerSchemaIssue {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map(s => s.replace(/~1/g, '/').replace(/~0/g, '~'))
  const params = error.params as Record<string, unknown>
  switch (error.keyword) {
    case 'required': {
      const field = String(params.missingProperty)
      return { path, field, message: 'missing (required)' }
    }
    case 'additionalProperties': {
      const field = String(params.additionalProperty)
      const known = Object.keys(
        (error.parentSchema as { properties?: object } | undefined)?.properties ?? {}
      )
      return {
        path: [...path, field],
        field,
        message: `unknown field (known: ${known.join(', ')})`
      }
    }
    case 'enum':
      return withField(
        path,
        `expected one of ${(params.allowedValues as unknown[]).map(v => JSON.stringify(v)).join(', ')}`
      )
    case 'const':
      return withField(path, `expected ${JSON.stringify(params.allowedValue)}`)
    case 'type':
      return withField(path, `expected ${String(params.type)}`)
    case 'format':
      return withField(path, 'expected a real calendar date YYYY-MM-DD')
    case 'minimum':
      return withField(path, `expected >= ${String(params.limit)}`)
    case 'minLength':
    case 'pattern':
      return withField(path, 'expected a non-empty string')
    default:
      return withField(path, error.message ?? error.keyword)
  }
}

/** A row field is the third segment (entries/N/field); a top-level key the only one. */
function withField(path: string[], message: string): LedgerSchemaIssue {
  const field = path[0] === 'entries' && path.length > 1 ? path[2] : path[0]
  return field === undefined ? { path, message } : { path, field, message }
}
