// Which written files the lints read, and as what. Test files: test-like by name or on a
// test plane (voting, drafts, in_diff). Production files: the rest of the `source` plane,
// in a language the lints parse. Protected non-test files are neither (the instrument
// stage owns them).
import type { Policy } from '../policy/types.js'
import type { WriteSetRow } from '../types.js'
import { compilePlanes, type PlaneMatcher } from '../writeset/planes.js'
import { languageOf } from './parsers.js'

export type Role = 'test' | 'production' | 'none'

export interface LintFiles {
  /** Changed files present at head, by role, in a parsed language. */
  tests: WriteSetRow[]
  production: WriteSetRow[]
  roleOf(path: string): Role
}

const TEST_PLANES = new Set(['voting', 'drafts', 'in_diff'])

export function roleFunction(matcher: PlaneMatcher): (path: string) => Role {
  return path => {
    if (matcher.isTestLike(path)) return 'test'
    const plane = matcher.planeOf(path)
    if (TEST_PLANES.has(plane)) return 'test'
    return plane === 'source' ? 'production' : 'none'
  }
}

export function lintFiles(policy: Policy, writeSet: readonly WriteSetRow[]): LintFiles {
  const roleOf = roleFunction(compilePlanes(policy))
  const tests: WriteSetRow[] = []
  const production: WriteSetRow[] = []
  for (const row of writeSet) {
    if (row.status === 'deleted' || languageOf(row.path) === undefined) continue
    // A symlink or submodule has no source of its own to parse.
    if (row.new_kind === 'symlink' || row.new_kind === 'submodule') continue
    const role = roleOf(row.path)
    if (role === 'test') tests.push(row)
    else if (role === 'production') production.push(row)
  }
  return { tests, production, roleOf }
}

/** Where a written file was at the merge base (its old path after a rename or copy). */
export function basePath(row: WriteSetRow): string | undefined {
  if (row.status === 'added') return undefined
  return row.previous_path ?? row.path
}
