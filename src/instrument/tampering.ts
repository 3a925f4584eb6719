// runner-tampered: which runner-configuration files (table in runner.ts) differ between
// the merge base and the head. A whole-file entry differs when its tree entry does; a
// section entry (pyproject.toml, setup.cfg, package.json, go.mod) only when the extracted
// runner part differs, so a dependency bump stays quiet.
import type { Git } from '../git/git.js'
import type { Reason } from '../types.js'
import { readBlobs } from '../git/blobs.js'
import { normalisePath } from '../writeset/planes.js'
import { markerLine, type RunnerEntry } from './runner.js'
import type { InstrumentView } from './view.js'

export interface RunnerChange {
  path: string
  entry: RunnerEntry
  atBase: boolean
  atHead: boolean
  line?: number
}

export async function runnerChanges(git: Git, view: InstrumentView): Promise<RunnerChange[]> {
  // An addedOnly entry (a module shadowing another) counts when the head adds the path.
  const candidates = view.changed
    .map(path => ({ path, entry: view.runner.entryFor(path) }))
    .filter((c): c is { path: string; entry: RunnerEntry } => c.entry !== null)
    .filter(c => !(c.entry.addedOnly === true && view.base.has(c.path)))
  const sectioned = candidates.filter(c => c.entry.part !== undefined)
  const oids = sectioned
    .flatMap(c => [view.base.get(c.path)?.sha, view.head.get(c.path)?.sha])
    .filter((s): s is string => s !== undefined)
  const blobs = await readBlobs(git, oids)
  const text = (sha: string | undefined): string | null => {
    if (sha === undefined) return null
    return blobs.get(sha)?.toString('utf8') ?? null
  }
  const changes: RunnerChange[] = []
  for (const { path, entry } of candidates) {
    const atBase = view.base.has(path)
    const atHead = view.head.has(path)
    const change: RunnerChange = { path, entry, atBase, atHead }
    if (entry.part !== undefined) {
      const headText = text(view.head.get(path)?.sha)
      // An absent file and a file without the runner part configure the runner alike.
      const before = entry.part.extract(text(view.base.get(path)?.sha)) ?? ''
      const after = entry.part.extract(headText) ?? ''
      if (before === after) continue
      const line = markerLine(entry, headText)
      if (line !== undefined) change.line = line
    }
    changes.push(change)
  }
  return changes
}

export function runnerReasons(changes: readonly RunnerChange[]): Reason[] {
  return changes.map(c => {
    const path = normalisePath(c.path)
    const what = c.entry.part ? `its ${c.entry.part.label}` : 'it'
    const verb = !c.atBase ? 'adds' : !c.atHead ? 'deletes' : 'changes'
    const reason: Reason = {
      rule: 'runner-tampered',
      level: 'failure',
      path,
      message: `${path} is runner configuration (${c.entry.why}); the patch ${verb} ${what}. Change runner configuration in a PR of its own`
    }
    if (c.line !== undefined) reason.line = c.line
    return reason
  })
}
