// `voting_edits: append`: which written voting files the patch may keep. Computed once,
// with the write set, from the blobs of both commits (never the working tree): a new file
// under the voting globs must be a test file; an existing voting file may only gain test
// definitions and imports (src/instrument/append-only.ts decides on the parse trees).
// Renames, deletions, mode and type changes stay file-level: they are not additions.
import { checkAppendOnly, type AddedTest, type TestStyle } from './append-only.js'
import { readBlobs } from '../git/blobs.js'
import type { Git, TreeEntry } from '../git/git.js'
import { languageOf, parserFor } from '../lints/parsers.js'
import { PYTEST_CONFIG_FILES, readPytestConfig } from '../policy/pytest-config.js'
import type { Change } from '../types.js'
import { isConftest, type PlaneMatcher } from './planes.js'

export type AppendVerdict =
  { ok: true; added: AddedTest[]; newFile: boolean } | { ok: false; message: string; line?: number }

/** What the patch may write on the voting plane under `append`, and what it may not. */
export const APPEND_ALLOWED =
  'with voting_edits: append a patch may add new test files under the voting globs and add new tests (Python functions and classes pytest collects by the python_functions and python_classes at the merge base, methods of unittest.TestCase subclasses, JS/TS it/test/describe blocks, also inside if blocks and loops) and import statements to a voting file; anything else in a voting file stays as the merge base has it'

/**
 * The verdict on each added or modified voting file of the write set (path → verdict).
 * Only files on the voting plane by their own name, regular files on both sides.
 */
export async function appendVerdicts(
  git: Git,
  planes: PlaneMatcher,
  changes: readonly Change[],
  trees: { base: ReadonlyMap<string, TreeEntry>; head: ReadonlyMap<string, TreeEntry> },
  /** The policy file and the files it names: always protected, never extended. */
  fixed: ReadonlySet<string> = new Set()
): Promise<Map<string, AppendVerdict>> {
  const verdicts = new Map<string, AppendVerdict>()
  const candidates = changes.filter(
    c =>
      (c.status === 'added' || c.status === 'modified') &&
      c.previous_path === undefined &&
      (c.new_kind ?? 'file') === 'file' &&
      planes.planeOf(c.path) === 'voting' &&
      !fixed.has(c.path)
  )
  const modified: { path: string; base: TreeEntry; head: TreeEntry }[] = []
  for (const c of candidates) {
    const head = trees.head.get(c.path)
    const base = trees.base.get(c.path)
    if (head === undefined) continue
    if (c.status === 'added' || base === undefined) verdicts.set(c.path, addedFile(planes, c.path))
    // Support files and conftest.py stay locked as a whole: only test files gain tests.
    else if (isTestFile(planes, c.path)) modified.push({ path: c.path, base, head })
  }
  if (modified.length === 0) return verdicts
  const configs = PYTEST_CONFIG_FILES.flatMap(f => {
    const entry = trees.base.get(f)
    return entry === undefined || entry.type !== 'blob' ? [] : [[f, entry.sha] as const]
  })
  const blobs = await readBlobs(git, [
    ...modified.flatMap(m => [m.base.sha, m.head.sha]),
    ...configs.map(([, sha]) => sha)
  ])
  const style = baseStyle(new Map(configs), sha => blobs.get(sha)?.toString('utf8') ?? null)
  for (const m of modified) {
    const before = blobs.get(m.base.sha)?.toString('utf8')
    const after = blobs.get(m.head.sha)?.toString('utf8')
    verdicts.set(m.path, await modifiedFile(m.path, before, after, style))
  }
  return verdicts
}

/** pytest's collection rules as the merge base configures them (never the head's). */
function baseStyle(
  configs: ReadonlyMap<string, string>,
  text: (sha: string) => string | null
): TestStyle {
  const config = readPytestConfig(path => {
    const sha = configs.get(path)
    return sha === undefined ? null : text(sha)
  })
  return { pythonClasses: config.pythonClasses, pythonFunctions: config.pythonFunctions }
}

/** A test file by name (test_patterns), conftest.py excepted. */
function isTestFile(planes: PlaneMatcher, path: string): boolean {
  return planes.isTestLike(path) && !isConftest(path)
}

function addedFile(planes: PlaneMatcher, path: string): AppendVerdict {
  if (isTestFile(planes, path)) return { ok: true, added: [], newFile: true }
  return {
    ok: false,
    message: `${path} is a new file under the voting globs but not a test file (test_patterns); ${APPEND_ALLOWED}. Put support files the new tests need on the in_diff plane`
  }
}

async function modifiedFile(
  path: string,
  before: string | undefined,
  after: string | undefined,
  style: TestStyle
): Promise<AppendVerdict> {
  const language = languageOf(path)
  if (language === undefined || before === undefined || after === undefined) {
    return {
      ok: false,
      message: `${path} is a voting test; the patch modifies it, and test-level locking (voting_edits: append) covers Python, JavaScript and TypeScript only, so this file is locked as a whole`
    }
  }
  const parser = await parserFor(language)
  const baseTree = parser.parse(before)
  const headTree = parser.parse(after)
  try {
    if (baseTree === null || headTree === null) {
      return { ok: false, message: `${path}: the voting file could not be parsed` }
    }
    const result = checkAppendOnly(
      language,
      { text: before, tree: baseTree },
      { text: after, tree: headTree },
      style
    )
    if (result.ok) return { ok: true, added: result.added, newFile: false }
    const where =
      result.baseLine === undefined ? '' : ` (line ${result.baseLine} at the merge base)`
    return {
      ok: false,
      line: result.line,
      message: `${path} is a voting test: ${result.what}${where}; ${APPEND_ALLOWED}. The change, at line ${result.line}:\n${result.hunk}`
    }
  } finally {
    baseTree?.delete()
    headTree?.delete()
  }
}
