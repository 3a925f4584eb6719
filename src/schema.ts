// JSON Schema validation of the gate's data shapes, with one mapping from ajv's errors to
// issues a person can act on: where (the JSON path) and what. The validators are generated
// from the schema files at build time (scripts/validators.mjs, src/generated/): no run
// compiles a schema.
import type { ErrorObject, ValidateFunction } from 'ajv'

export interface SchemaIssue {
  /** JSON pointer segments to the offending value, e.g. ['reasons', '0', 'level']. */
  path: string[]
  message: string
}

/**
 * The options every validator handed here was generated with (scripts/validators.mjs; the
 * validators test checks that they agree, and schema-meta.test.ts checks the schemas).
 */
export const SCHEMA_OPTIONS = { allErrors: true, strict: true, allowUnionTypes: true } as const

/** Issues of a value by `validate` (one of src/generated/'s), each path and message once. */
export function schemaValidator(validate: ValidateFunction): (value: unknown) => SchemaIssue[] {
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
