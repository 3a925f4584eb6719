// PLACEHOLDER (helper D builds the real file; the lead replaces this one at the merge):
// the mutants of a file's covered changed lines and their selection under the cap. This
// branch makes none, so the evidence stage reports no mutants.
import type { Mutant } from './types.js'

/** PLACEHOLDER: at most `limit` mutants of `lines` of `path` (none in this branch). */
export function mutantsFor(
  path: string,
  language: string,
  text: string,
  lines: ReadonlySet<number>,
  limit: number
): Mutant[] {
  void [path, language, text, lines, limit]
  return []
}

/** PLACEHOLDER: at most `max` of the files' mutants (none in this branch). */
export function selectMutants(perFile: Mutant[][], max: number): Mutant[] {
  return perFile.flat().slice(0, Math.max(0, max))
}
