// The gate's JSON Schemas against the JSON Schema meta-schema, once here instead of in every
// run: the validators compile them with validateSchema off (checking them per run compiled
// the meta-schema each time, about half of the policy stage's CPU, issue 29), so a schema
// file that is not a valid schema must fail this test. The policy schema's own annotation
// keywords (x-unite*) are declared with their meta-schemas here, so a wrong value fails this
// test (the generated validators, scripts/validators.mjs, declare them as annotations only).
import { Ajv } from 'ajv'
import { describe, expect, it } from 'vitest'
import ledgerSchema from '../src/ledger/schema.json' with { type: 'json' }
import fixturesSchema from '../src/instrument/fixtures.schema.json' with { type: 'json' }
import policySchema from '../src/policy/schema.json' with { type: 'json' }
import { UNITE_RULES } from '../src/policy/unite.js'
import primedSchema from '../src/prime/primed.schema.json' with { type: 'json' }
import seedsSchema from '../src/replay/seeds.schema.json' with { type: 'json' }
import { SCHEMA_OPTIONS } from '../src/schema.js'
import scorecardSchema from '../src/verdict/scorecard.schema.json' with { type: 'json' }

/** An ajv with the gate's keywords that checks schemas against the meta-schema (unless told). */
function checking(validateSchema = true): Ajv {
  const ajv = new Ajv({ ...SCHEMA_OPTIONS, validateSchema })
  ajv.addKeyword({ keyword: 'x-unite', metaSchema: { enum: [...UNITE_RULES] } })
  ajv.addKeyword({
    keyword: 'x-unite-order',
    metaSchema: { type: 'array', items: { type: 'string' } }
  })
  ajv.addKeyword({ keyword: 'x-unite-nocase', metaSchema: { type: 'boolean' } })
  ajv.addFormat('calendar-date', { type: 'string', validate: () => true })
  return ajv
}

const SCHEMAS: Record<string, object> = {
  policy: policySchema,
  ledger: ledgerSchema,
  scorecard: scorecardSchema,
  primed: primedSchema,
  seeds: seedsSchema,
  fixtures: fixturesSchema
}

describe('the gate schemas against the meta-schema', () => {
  it.each(Object.keys(SCHEMAS))('%s is a valid JSON Schema', name => {
    const ajv = checking()
    const valid = ajv.validateSchema(SCHEMAS[name] as object)
    expect(ajv.errors ?? [], ajv.errorsText(ajv.errors)).toEqual([])
    expect(valid).toBe(true)
  })

  it('a schema that breaks the meta-schema is caught here', () => {
    const ajv = checking()
    const broken = { ...policySchema, properties: { version: { type: 'integr' } } }
    expect(ajv.validateSchema(broken)).toBe(false)
  })

  it("the policy schema's annotations have their form (checked here, not per run)", () => {
    // The validators are generated (scripts/validators.mjs), so no run compiles the schema
    // and meets a wrong x-unite value: this compile with the keywords' meta-schemas does.
    expect(() => checking(false).compile(policySchema)).not.toThrow()
    const ajv = checking(false)
    const wrong = { type: 'object', 'x-unite': 'sometimes' }
    expect(() => ajv.compile(wrong)).toThrow(/x-unite/)
  })
})
