// A schema compiled at test time, for the shapes the gate writes but never reads back (the
// in-toto statement): the gate's own validators are generated (scripts/validators.mjs).
import { Ajv } from 'ajv'
import { SCHEMA_OPTIONS, schemaValidator, type SchemaIssue } from '../../src/schema.js'

export function compiledValidator(schema: object): (value: unknown) => SchemaIssue[] {
  return schemaValidator(new Ajv({ ...SCHEMA_OPTIONS }).compile(schema))
}
