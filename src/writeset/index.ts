// The write set: every path the patch writes between the merge base and the head, with
// its kind on both sides, classified by the table in classify.ts. Two sources give the
// same rows: git (`diff --raw -M`) and the PR files list of the REST API, whose kinds and
// statuses are filled in from the two trees (the API knows neither modes nor symlinks).
import type { Git, TreeEntry } from '../git/git.js'
import type { Policy } from '../policy/types.js'
import { byCodeUnit } from '../json.js'
import type { Change, WriteSetRow } from '../types.js'
import { readBlobs } from '../git/blobs.js'
import { appendVerdicts } from './append.js'
import { classifyChange, type Classification, type ClassifierContext } from './classify.js'
import { kindOfMode, parseRawDiff, sameType, type RawChange } from './diff.js'
import { isInstrumentPlane } from '../instrument/rules.js'
import { alwaysProtected, normalisePath, type PlaneMatcher } from './planes.js'
import { resolveSymlink } from './symlinks.js'

export {
  classifyChange,
  CLASSIFICATION_TABLE,
  type Classification,
  type ClassifierContext
} from './classify.js'
export { parseRawDiff } from './diff.js'
export { resolveSymlink } from './symlinks.js'

/** A write-set row with the classification that placed it: each change is classified once. */
export interface ClassifiedRow extends WriteSetRow {
  classification: Classification
}

/**
 * @param facts the run's compiled planes and tree listings (context.ts runFacts: planes are
 *   compiled there alone, and the trees listed here are not listed again by later stages)
 */
export async function buildWriteSet(
  git: Git,
  mergeBase: string,
  head: string,
  policy: Policy,
  api: Change[] | null,
  facts: { planes: PlaneMatcher; trees: TreeCache }
): Promise<ClassifiedRow[]> {
  const { planes, trees } = facts
  const changes =
    api === null
      ? await gitChanges(git, mergeBase, head)
      : await fillFromTrees(api, await trees.get(mergeBase), await trees.get(head))
  await readLinkTargets(git, changes)
  const ctx = await classifierContext(git, planes, policy, changes, trees, mergeBase, head)
  return changes
    .map(({ new_oid: _oid, ...change }) => toRow(change, ctx))
    .sort((a, b) => byCodeUnit(a.path, b.path))
}

function toRow(change: Change, ctx: ClassifierContext): ClassifiedRow {
  const classification = classifyChange(change, ctx)
  const { plane, action } = classification
  const row: ClassifiedRow = {
    ...change,
    path: normalisePath(change.path),
    plane,
    action,
    classification
  }
  if (change.previous_path !== undefined) row.previous_path = normalisePath(change.previous_path)
  return row
}

/** The row as the scorecard publishes it (the classification's words become reasons). */
export function publicRow({ classification: _c, ...row }: ClassifiedRow): WriteSetRow {
  return row
}

async function gitChanges(git: Git, mergeBase: string, head: string): Promise<RawChange[]> {
  // Renames are detected, so they are judged on both names.
  return parseRawDiff(await git.diffRaw(mergeBase, head))
}

/** Re-derives kinds and status of API changes from the trees, so both sources agree. */
function fillFromTrees(
  api: readonly Change[],
  base: ReadonlyMap<string, TreeEntry>,
  head: ReadonlyMap<string, TreeEntry>
): RawChange[] {
  return api.map(change => {
    const oldPath = change.previous_path ?? change.path
    const before = change.status === 'added' ? undefined : base.get(oldPath)
    const after = change.status === 'deleted' ? undefined : head.get(change.path)
    const filled: RawChange = { path: change.path, status: change.status }
    if (change.previous_path !== undefined) filled.previous_path = change.previous_path
    const oldKind = before ? kindOfMode(before.mode) : undefined
    const newKind = after ? kindOfMode(after.mode) : undefined
    if (oldKind) filled.old_kind = oldKind
    if (newKind && after) {
      filled.new_kind = newKind
      filled.new_oid = after.sha
    }
    if (filled.status === 'renamed' || filled.status === 'copied') return filled
    if (before && !after) filled.status = 'deleted'
    else if (!before && after) filled.status = 'added'
    else if (before && after) {
      if (!sameType(oldKind, newKind)) filled.status = 'type-changed'
      else if (before.mode !== after.mode) filled.status = 'mode-changed'
      else filled.status = 'modified'
    }
    return filled
  })
}

async function readLinkTargets(git: Git, changes: RawChange[]): Promise<void> {
  const links = changes.filter(c => c.new_kind === 'symlink' && c.new_oid !== undefined)
  if (links.length === 0) return
  const blobs = await readBlobs(
    git,
    links.map(c => c.new_oid as string)
  )
  for (const c of links) {
    const bytes = blobs.get(c.new_oid as string)
    if (bytes) c.symlink_target = bytes.toString('utf8')
  }
}

/**
 * The classifier's view of the trees. Only a write set with a symlink needs the trees
 * (to follow link chains and to know which directories hold the instrument); every other
 * write set is classified from its paths alone, with no further git process.
 */
async function classifierContext(
  git: Git,
  planes: PlaneMatcher,
  policy: Policy,
  changes: readonly Change[],
  trees: TreeCache,
  mergeBase: string,
  head: string
): Promise<ClassifierContext> {
  const ctx: ClassifierContext = { planes, ungovernedTest: policy.lints['ungoverned-test'] }
  const baseTree = await trees.get(mergeBase)
  if (policy.voting_edits === 'append') {
    const headTree = await trees.get(head)
    const fixed = new Set(alwaysProtected(policy))
    ctx.append = await appendVerdicts(
      git,
      planes,
      changes,
      { base: baseTree, head: headTree },
      fixed
    )
  }
  const linked = await linkedInstrument(git, planes, baseTree)
  if (linked !== undefined) ctx.linkedInstrument = linked
  if (!changes.some(c => c.new_kind === 'symlink')) return ctx
  const headTree = await trees.get(head)
  ctx.links = await symlinkMap(git, headTree)
  ctx.containsInstrument = instrumentDirs(planes, [baseTree, headTree])
  return ctx
}

/** Every symlink of a tree, path → target (one cat-file process). */
async function symlinkMap(
  git: Git,
  tree: ReadonlyMap<string, TreeEntry>
): Promise<Map<string, string>> {
  const links = [...tree.values()].filter(e => e.mode === '120000')
  const blobs = await readBlobs(
    git,
    links.map(e => e.sha)
  )
  const map = new Map<string, string>()
  for (const e of links) map.set(e.path, blobs.get(e.sha)?.toString('utf8') ?? '')
  return map
}

/**
 * Where the instrument's own symlinks (at the merge base) point outside the instrument:
 * the oracle reads those paths, so writing them is writing the oracle. Returns a lookup
 * path → the instrument link that reaches it, or undefined when the base has no such link.
 * A link that leaves the repository is not followed: there is nothing in the write set
 * it could name.
 */
export async function linkedInstrument(
  git: Git,
  planes: PlaneMatcher,
  baseTree: ReadonlyMap<string, TreeEntry>
): Promise<((path: string) => string | undefined) | undefined> {
  const isInstrument = (p: string): boolean => isInstrumentPlane(planes.planeOf(p))
  const links = [...baseTree.values()].filter(e => e.mode === '120000' && isInstrument(e.path))
  if (links.length === 0) return undefined
  const blobs = await readBlobs(
    git,
    links.map(e => e.sha)
  )
  const targets: [string, string][] = []
  for (const e of links) {
    const target = resolveSymlink(e.path, blobs.get(e.sha)?.toString('utf8') ?? '')
    if (target !== null && !isInstrument(target))
      targets.push([normalisePath(target), normalisePath(e.path)])
  }
  if (targets.length === 0) return undefined
  return path => {
    const p = normalisePath(path)
    for (const [target, link] of targets) {
      if (target === '' || p === target || p.startsWith(`${target}/`)) return link
    }
    return undefined
  }
}

/** dir → "an instrument file lies under it", from the given trees. */
function instrumentDirs(
  planes: PlaneMatcher,
  trees: readonly ReadonlyMap<string, TreeEntry>[]
): (dir: string) => boolean {
  const dirs = new Set<string>()
  for (const tree of trees) {
    for (const path of tree.keys()) {
      if (!isInstrumentPlane(planes.planeOf(path))) continue
      const parts = normalisePath(path).split('/')
      for (let i = 0; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'))
    }
  }
  return dir => dirs.has(normalisePath(dir))
}

/** One `git ls-tree -r` per revision, shared by the steps that need a tree. */
export class TreeCache {
  private readonly cache = new Map<string, Promise<Map<string, TreeEntry>>>()
  constructor(private readonly git: Git) {}

  get(rev: string): Promise<Map<string, TreeEntry>> {
    let hit = this.cache.get(rev)
    if (hit === undefined) {
      hit = this.git.lsTree(rev).then(entries => new Map(entries.map(e => [e.path, e])))
      this.cache.set(rev, hit)
    }
    return hit
  }
}
