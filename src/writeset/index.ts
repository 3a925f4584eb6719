// PLACEHOLDER (issue 3 replaces this): the write set between merge base and head.
import type { Git } from '../git/git.js'
import type { Policy } from '../policy/types.js'
import type { Change, WriteSetRow } from '../types.js'

export async function buildWriteSet(
  git: Git,
  mergeBase: string,
  head: string,
  _policy: Policy,
  api: Change[] | null
): Promise<WriteSetRow[]> {
  const changes = api ?? (await git.run(['diff', '--name-only', '-z', mergeBase, head])).split('\0').filter(Boolean).map(path => ({ path, status: 'modified' as const }))
  return changes.map(c => ({ ...c, plane: 'other', action: 'continue' }))
}
