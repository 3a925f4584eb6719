// JSON Schema validation of the policy object, by the validator generated from schema.json
// at build time (scripts/validators.mjs, src/generated/policy.mjs): no run compiles the
// schema (that was 45–140 ms of every run's start, issue 29).
import type { ErrorObject, ValidateFunction } from 'ajv'
import generated from '../generated/policy.mjs'
import schema from './schema.json' with { type: 'json' }

export interface SchemaIssue {
  /** Key path from the root, e.g. ['suite', 'timeout']. */
  path: string[]
  /** Set when the issue is a key the schema does not know. */
  unknownKey?: string
  message: string
}

/**
 * The policy validator (filling defaults): ajv's code for schema.json with allErrors,
 * useDefaults, strict and verbose (scripts/validators.mjs). Its errors are those of its
 * last call, read at once by the caller.
 */
export function policyValidator(): ValidateFunction {
  return generated
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
