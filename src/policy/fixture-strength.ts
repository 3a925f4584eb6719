// An honest limit of oracle-reach, said where the policy is written (issue 26): locked
// tests that compare the product's output with golden files can be answered by a table
// keyed on the case's input (or a digest of it) that holds each golden answer. Such a
// table names no runner, no instrument path and reads nothing at run time, so no reach
// rule, static or at run time, can call it reach. What catches it is evidence of another
// kind: property tests over generated inputs (hypothesis, fast-check), or a seeds corpus
// whose hits must lie apart (`seeds.min_hits`, `seeds.min_distance`). init and doctor say
// so when a repository has fixture tests and neither. Pure.
import type { SeedSettings } from './types.js'

/** Data files a test compares against: by extension, or in a folder named for them. */
const DATA_FILE = /\.(json|ya?ml|csv|tsv|txt|xml|html?|golden|snap|expected|out|bin|dat)$/i
const DATA_FOLDER = /(^|\/)(fixtures?|golden|goldens|snapshots|__snapshots__|testdata|expected)\//i

/**
 * Tracked data files the tests read: in a folder of test files, or in a fixtures-like
 * folder in the same tree as the tests (same first folder).
 */
export function fixtureFiles(files: readonly string[], testFiles: readonly string[]): string[] {
  const tests = new Set(testFiles)
  const folders = new Set(testFiles.map(folderOf))
  const roots = new Set(testFiles.map(f => f.split('/')[0]))
  return files.filter(f => {
    if (tests.has(f) || !DATA_FILE.test(f)) return false
    if (folders.has(folderOf(f))) return true
    return DATA_FOLDER.test(f) && roots.has(f.split('/')[0])
  })
}

function folderOf(path: string): string {
  const at = path.lastIndexOf('/')
  return at < 0 ? '' : path.slice(0, at)
}

/** Seeds that demand hits apart from one another: a table of answers cannot fake them. */
export function seedsWithDistance(seeds: SeedSettings | undefined): boolean {
  return seeds !== undefined && seeds.min_hits > 0 && seeds.min_distance > 0
}

/**
 * The note, or null: fixture tests, but neither generated inputs nor seeds with distance.
 * `generators`: the property library in use (hypothesis, fast-check), if any.
 */
export function fixtureStrengthNote(
  fixtures: readonly string[],
  generators: string | null,
  seeds: SeedSettings | undefined
): string | null {
  if (fixtures.length === 0 || generators !== null || seedsWithDistance(seeds)) return null
  const sample = fixtures.slice(0, 3).join(', ') + (fixtures.length > 3 ? ', …' : '')
  return (
    `the tests compare with ${fixtures.length} fixture file(s) (${sample}) but no voting test ` +
    'generates inputs (hypothesis, fast-check) and no seeds corpus asks for hits apart ' +
    '(seeds.min_hits, seeds.min_distance): a patch can answer each locked case from a table ' +
    'keyed on its input, which no oracle-reach rule can call reach. Add property tests over ' +
    'generated inputs or seeds with distance (docs/lints.md "What oracle-reach cannot see")'
  )
}
