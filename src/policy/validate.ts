// JSON Schema validation of the policy object. The validator is compiled per call, never at
// import (the CLI's --version must stay fast) and never cached at module level: a run
// validates one policy, or two when the base tip's differs from the merge base's.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import schema from './schema.json' with { type: 'json' }
import { UNITE_RULES } from './unite.js'

export interface SchemaIssue {
  /** Key path from the root, e.g. ['suite', 'timeout']. */
  path: string[]
  /** Set when the issue is a key the schema does not know. */
  unknownKey?: string
  message: string
}

/** A compiled policy validator (filling defaults); a caller validating many keeps one. */
export function policyValidator(): ValidateFunction {
  // validateSchema: false: the schema is the gate's own file, checked against the
  // meta-schema by __tests__/schema-meta.test.ts; checking it again in every run compiled
  // the meta-schema each time (about half of the policy stage's CPU, issue 29).
  const ajv = new Ajv({
    allErrors: true,
    useDefaults: true,
    strict: true,
    verbose: true,
    validateSchema: false
  })
  // The uniting rules (src/policy/unite.ts) are annotations: checked in form, never validating.
  ajv.addKeyword({ keyword: 'x-unite', metaSchema: { enum: [...UNITE_RULES] } })
  ajv.addKeyword({
    keyword: 'x-unite-order',
    metaSchema: { type: 'array', items: { type: 'string' } }
  })
  ajv.addKeyword({ keyword: 'x-unite-nocase', metaSchema: { type: 'boolean' } })
  return ajv.compile(schema)
}

export const policySchema = schema

/** Validates in place (filling defaults) and returns the issues, most specific first. */
export function validatePolicyObject(
  value: unknown,
  validate: ValidateFunction = policyValidator()
): SchemaIssue[] {
  if (validate(value)) return []
  const errors = (validate.errors ?? []).filter(e => e.keyword !== 'if')
  return dedupe(errors.map(toIssue))
}

function toIssue(error: ErrorObject): SchemaIssue {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map(s => s.replace(/~1/g, '/').replace(/~0/g, '~'))
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String((error.params as { additionalProperty: string }).additionalProperty)
      return { path, unknownKey: key, message: `unknown key "${key}"${suggest(error, key)}` }
    }
    case 'required': {
      const key = String((error.params as { missingProperty: string }).missingProperty)
      return { path, message: `missing required key "${key}"` }
    }
    case 'enum':
      return {
        path,
        message: `expected one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map(v => JSON.stringify(v)).join(', ')}`
      }
    case 'const':
      return {
        path,
        message: `expected ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}`
      }
    case 'type':
      return { path, message: `expected ${String((error.params as { type: string }).type)}` }
    default:
      return { path, message: error.message ?? error.keyword }
  }
}

function suggest(error: ErrorObject, key: string): string {
  const known = Object.keys(
    (error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {}
  )
  const close = known.find(
    k => distance(k.replace(/-/g, '_'), key.toLowerCase().replace(/-/g, '_')) <= 2
  )
  return close
    ? ` (did you mean "${close}"?)`
    : known.length > 0
      ? ` (known keys: ${known.join(', ')})`
      : ''
}

function dedupe(issues: SchemaIssue[]): SchemaIssue[] {
  const seen = new Set<string>()
  return issues.filter(i => {
    const k = `${i.path.join('.')}|${i.unknownKey ?? ''}|${i.message}`
    if (seen.has(k)) return false
    seen.add(k)
    return true
  })
}

/** Levenshtein distance, for "did you mean" (keys are short, so the quadratic cost is nil). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)
      )
    }
    previous = current
  }
  return previous[b.length]!
}
