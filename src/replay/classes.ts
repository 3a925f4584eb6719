// Oracle classes: the policy's `classes:` globs over canonical test ids. A class says what
// kind of evidence a test is; `judge` (a model or a human in the loop) never votes.
import picomatch from 'picomatch'
import type { Policy } from '../policy/types.js'

export type OracleClass = 'fixture' | 'invariant' | 'metamorphic' | 'judge'

/** `judge` first: a test that is also a judge is noisy evidence whatever else it is. */
const ORDER: readonly OracleClass[] = ['judge', 'fixture', 'invariant', 'metamorphic']

export const UNCLASSIFIED = 'unclassified'

export type ClassOf = (id: string) => OracleClass | null

export function compileClasses(classes: Policy['classes']): ClassOf {
  const matchers = ORDER.map(name => {
    const globs = classes[name] ?? []
    return {
      name,
      match: globs.length === 0 ? () => false : picomatch([...globs], { dot: true, flags: 's' })
    }
  })
  return id => matchers.find(m => m.match(id))?.name ?? null
}
