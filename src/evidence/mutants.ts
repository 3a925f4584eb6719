// PLACEHOLDER (helper D builds the real file; the lead replaces this one at the merge):
// the mutants of a file's covered changed lines and their selection under the cap. The
// signatures are D's; this branch makes no mutant, so the evidence stage reports none.
import type { LanguageId } from '../lints/parsers.js'
import type { Mutant } from './types.js'

/** PLACEHOLDER: at most `limit` mutants of `lines` of `path` (none in this branch). */
export function mutantsFor(
  path: string,
  language: LanguageId,
  text: string,
  lines: ReadonlySet<number>,
  limit: number
): Promise<Mutant[]> {
  void [path, language, text, lines, limit]
  return Promise.resolve([])
}

/** PLACEHOLDER: at most `max` of the files' mutants. */
export function selectMutants(perFile: readonly (readonly Mutant[])[], max: number): Mutant[] {
  return perFile.flat().slice(0, Math.max(0, max))
}
