// Types of scripts/validators.mjs, for the tests that import it.
import type { Ajv } from 'ajv'

export interface ValidatorEntry {
  name: string
  schema: string
  options: Record<string, unknown>
  keywords?: string[]
  formats?: Record<string, unknown>
}
export const VALIDATORS: readonly ValidatorEntry[]
export const GENERATED_DIR: string
export function ajvFor(entry: ValidatorEntry, extra?: Record<string, unknown>): Ajv
export function validatorModule(entry: ValidatorEntry, schema?: object): string
export const DECLARATION: string
export function generatedFiles(): Map<string, string>
export function writeValidators(): string[]
