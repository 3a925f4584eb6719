// The primed base file: a measured base side plus its fingerprint, written by `prime` and
// read by `check --base-results`. Reading validates against primed.schema.json; anything
// that does not validate is refused with the reason (the base then runs as today).
import { readFile, writeFile } from 'node:fs/promises'
import type { SideOutcome } from '../replay/side.js'
import type { Observation } from '../replay/transitions.js'
import type { RunRecord } from '../replay/tripwires.js'
import { formatIssue, schemaValidator } from '../schema.js'
import type { SideRun } from '../types.js'
import type { Fingerprint } from './fingerprint.js'
import validatePrimed from '../generated/primed.mjs'

export const PRIMED_SCHEMA = 'oracle-gate/primed-base@1'

export interface ProducedBy {
  kind: 'local' | 'github'
  label: string
  run_url?: string
}

export interface PrimedFile {
  schema: typeof PRIMED_SCHEMA
  fingerprint: Fingerprint
  produced_by: ProducedBy
  base: {
    run: SideRun
    results: Observation[]
    seeds?: [string, boolean][]
    records: RunRecord[]
    duplicates: string[]
  }
}

/** Why a base side cannot be stored: only a complete, untampered measurement is. */
export function unstorable(outcome: SideOutcome): string | null {
  if (outcome.results === null) return 'the base side produced no results'
  if (outcome.failure) return `the base side failed: ${outcome.failure.message}`
  if ((outcome.tampered ?? []).length > 0) return 'the base checkout was not the commit'
  return null
}

/** Pure: the file for a measured base side (see unstorable). */
export function toPrimed(
  outcome: SideOutcome,
  fingerprint: Fingerprint,
  producedBy: ProducedBy
): PrimedFile {
  const base: PrimedFile['base'] = {
    run: { ...outcome.run },
    results: [...(outcome.results ?? new Map<string, Observation>()).values()],
    records: [...(outcome.records ?? [])],
    duplicates: [...(outcome.duplicates ?? [])]
  }
  if (outcome.seeds) base.seeds = [...outcome.seeds.entries()]
  return { schema: PRIMED_SCHEMA, fingerprint, produced_by: producedBy, base }
}

/** Pure: the base side a primed file stands for. */
export function fromPrimed(file: PrimedFile): SideOutcome {
  const outcome: SideOutcome = {
    side: 'base',
    run: { ...file.base.run, side: 'base' },
    results: new Map(file.base.results.map(o => [o.id, o])),
    records: file.base.records,
    duplicates: file.base.duplicates
  }
  if (file.base.seeds) outcome.seeds = new Map(file.base.seeds)
  return outcome
}

export async function writePrimed(path: string, file: PrimedFile): Promise<void> {
  await writeFile(path, JSON.stringify(file, null, 2) + '\n')
}

/** The parsed file, or the reason it cannot be used (unreadable, not JSON, off-schema). */
export function parsePrimed(text: string): PrimedFile | string {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return `not JSON (${error instanceof Error ? error.message : String(error)})`
  }
  const issues = schemaValidator(validatePrimed)(value)
  if (issues.length > 0)
    return `not a primed base file: ${issues.slice(0, 3).map(formatIssue).join('; ')}`
  return value as PrimedFile
}

export async function readPrimed(path: string): Promise<PrimedFile | string> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    return `cannot read it (${error instanceof Error ? error.message : String(error)})`
  }
  return parsePrimed(text)
}
