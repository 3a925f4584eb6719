// Which written files the lints read, and as what. Test files: test-like by name or on a
// test plane (voting, drafts, in_diff). Production files: the rest of the `source` plane,
// in a language the lints parse. Protected non-test files are neither (the instrument
// stage owns them).
import type { Plane, WriteSetRow } from '../types.js'
import type { PlaneMatcher } from '../writeset/planes.js'
import { languageOf } from './parsers.js'

export type Role = 'test' | 'production' | 'none'

export interface LintFiles {
  /** Changed files present at head, by role, in a parsed language. */
  tests: WriteSetRow[]
  production: WriteSetRow[]
  roleOf(path: string): Role
}

const TEST_PLANES: ReadonlySet<Plane> = new Set<Plane>(['voting', 'drafts', 'in_diff'])

/** The one "is this a test file" of every lint: test-like by name, or on a test plane. */
export function isTestFile(
  planes: PlaneMatcher,
  path: string,
  plane: Plane = planes.planeOf(path)
): boolean {
  return TEST_PLANES.has(plane) || planes.isTestLike(path)
}

function roleFunction(planes: PlaneMatcher): (path: string) => Role {
  return path => {
    const plane = planes.planeOf(path)
    if (isTestFile(planes, path, plane)) return 'test'
    return plane === 'source' ? 'production' : 'none'
  }
}

export function lintFiles(planes: PlaneMatcher, writeSet: readonly WriteSetRow[]): LintFiles {
  const roleOf = roleFunction(planes)
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
