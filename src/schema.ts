// JSON Schema validation of the gate's data shapes, with one mapping from ajv's errors to
// issues a person can act on: where (the JSON path) and what. Validators are compiled by
// the caller, never cached at module level; the shapes validated here are read once a run.
import { Ajv, type ErrorObject } from 'ajv'

export interface SchemaIssue {
  /** JSON pointer segments to the offending value, e.g. ['reasons', '0', 'level']. */
  path: string[]
  message: string
}

/** The options of every validator here (__tests__/schema-meta.test.ts checks the schemas). */
export const SCHEMA_OPTIONS = { allErrors: true, strict: true, allowUnionTypes: true } as const

/**
 * A validator for `schema` (one of the gate's own files), compiled once for as many values
 * as the caller has. Not checked against the meta-schema per run (that compiled the
 * meta-schema each time): a test checks every schema file once.
 */
export function schemaValidator(schema: object): (value: unknown) => SchemaIssue[] {
  const validate = new Ajv({ ...SCHEMA_OPTIONS, validateSchema: false }).compile(schema)
  return value => {
    if (validate(value)) return []
    const seen = new Set<string>()
    return (validate.errors ?? []).map(issueOf).filter(issue => {
      const key = `${issue.path.join('/')}|${issue.message}`
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
  }
}

/** `reasons/0/level: expected one of "failure", "warning", "notice"`. */
export function formatIssue(issue: SchemaIssue): string {
  return `${issue.path.length ? issue.path.join('/') : '(top level)'}: ${issue.message}`
}

export function issueOf(error: ErrorObject): SchemaIssue {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map(s => clip(s.replace(/~1/g, '/').replace(/~0/g, '~')))
  const params = error.params as Record<string, unknown>
  switch (error.keyword) {
    case 'additionalProperties': {
      // The key comes from the file being validated: shown, but never at any length.
      const key = String(params.additionalProperty)
      return {
        path,
        message: `unknown key ${JSON.stringify(key.length > 80 ? `${key.slice(0, 80)}…` : key)}`
      }
    }
    case 'required':
      return { path, message: `missing required key ${JSON.stringify(params.missingProperty)}` }
    case 'enum':
      return {
        path,
        message: `expected one of ${(params.allowedValues as unknown[]).map(v => JSON.stringify(v)).join(', ')}`
      }
    case 'const':
      return { path, message: `expected ${JSON.stringify(params.allowedValue)}` }
    case 'type':
      return { path, message: `expected ${String(params.type)}` }
    default:
      return { path, message: error.message ?? error.keyword }
  }
}

/** Keys come from the file being validated: shown, but never at any length. */
function clip(key: string): string {
  return key.length > 80 ? `${key.slice(0, 80)}…` : key
}
