// The published scorecard's shape (`oracle-gate/scorecard@1`) has one source of truth,
// scorecard.schema.json: report mode validates an artifact against it before trusting any
// field, and a test ties the schema to the Scorecard type.
import { schemaValidator, type SchemaIssue } from '../schema.js'
import generated from '../generated/scorecard.mjs'
import schema from './scorecard.schema.json' with { type: 'json' }

export const scorecardSchema = schema

/** A validator of published scorecards (generated from the schema, src/generated/). */
export function scorecardValidator(): (value: unknown) => SchemaIssue[] {
  return schemaValidator(generated)
}

export function validateScorecard(value: unknown): SchemaIssue[] {
  return scorecardValidator()(value)
}
