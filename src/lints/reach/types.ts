// Vocabulary of the `oracle-reach` lint: the seven categories of production code that
// reaches into the test runner, the gate or the instrument, and one finding per line.
// Types and the category list only: no behaviour.
import type { Node } from 'web-tree-sitter'
import type { ReachCategory } from '../../policy/types.js'

export type { ReachCategory }

/** The categories, in the order docs/lints.md documents them (the schema's enum). */
export const REACH_CATEGORIES: readonly ReachCategory[] = [
  'framework',
  'markers',
  'introspection',
  'process',
  'instrument',
  'comparison',
  'echo'
]

/** One finding in one file, before it is filtered by the lines the patch added. */
export interface Finding {
  category: ReachCategory
  /** First and last line (1-based) of the code that makes the finding. */
  start: number
  end: number
  /** What the code does, for the reason (short; hostile values already quoted). */
  what: string
  /**
   * An ordinary habit of command-line entry points (an exit code, an exit-time cleanup, a
   * signal handler): reported as a notice, not a failure, in an entry-point file.
   */
  entryPointHabit?: boolean
  /**
   * Inside `if __name__ == "__main__":` (or `if (require.main === module)`): code that runs
   * only when the file is the program, never when a test imports it.
   */
  mainOnly?: boolean
}

/** What the detectors need from outside the file: does a string name the instrument? */
export interface DetectContext {
  instrumentName(value: string): string | undefined
  /** Which subtrees to look into (those touching an added line); default all. */
  within?: (node: Node) => boolean
}
