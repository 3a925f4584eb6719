// The write-set classifier: one pure, table-driven function from a changed path to a plane
// and an action. The table is the policy of the gate in one place (docs/instrument.md
// prints it); the first row whose condition holds decides. Nothing here touches git: the
// caller supplies the head's symlinks and which directories hold instrument files.
import type { LintMode } from '../policy/types.js'
import { isInstrumentPlane } from '../instrument/rules.js'
import type { Change, PathAction, Plane } from '../types.js'
import { normalisePath, suspiciousName, type PlaneMatcher } from './planes.js'
import type { AppendVerdict } from './append.js'
import { resolveSymlink } from './symlinks.js'

export interface ClassifierContext {
  planes: PlaneMatcher
  /** policy.lints['ungoverned-test'] */
  ungovernedTest: LintMode
  /** Symlinks at head (path → target), to follow chains. */
  links?: ReadonlyMap<string, string>
  /** True when an instrument file (protected or voting) lies under this directory ("" = root). */
  containsInstrument?: (dir: string) => boolean
  /**
   * For a path an instrument symlink at the merge base points at (or into), that link's
   * path: `oracle/golden.json -> ../src/golden.json` makes src/golden.json instrument too.
   */
  linkedInstrument?: (path: string) => string | undefined
  /** `voting_edits: append`: the verdict on each added or modified voting file. */
  append?: ReadonlyMap<string, AppendVerdict>
}

export interface Classification {
  plane: Plane
  action: PathAction
  /** The rule a `reject` (or a warned ungoverned test) reports under. */
  rule?: 'protected-path' | 'ungoverned-test'
  /** Which table row decided, and why, in words for the reason message. */
  row: string
  message: string
}

/** What the table rows look at, computed once per change. */
export interface PathFacts {
  path: string
  previous?: string
  status: Change['status']
  /** The name (path or previous path) that is instrument, and its plane. */
  instrumentName?: string
  instrumentPlane?: Plane
  /** The instrument symlink through which instrumentName is instrument, if that is why. */
  viaLink?: string
  /** A name that leaves the repository after normalisation ("../x"). */
  escaping?: string
  /** For a symlink at head: where it resolves (null = outside the repository). */
  linkTarget?: string | null
  linkHitsInstrument: boolean
  /** A written name holding control, invisible or compatibility characters. */
  suspicious?: string
  /** `voting_edits: append`: the verdict on this voting file, when one was computed. */
  append?: AppendVerdict
  plane: Plane
}

interface TableRow {
  row: string
  when: (f: PathFacts) => boolean
  plane?: (f: PathFacts) => Plane
  action: (f: PathFacts, mode: LintMode) => PathAction
  rule?: Classification['rule']
  message: (f: PathFacts) => string
}

const reject = (): PathAction => 'reject'

/** The classification table. First match wins; the last row always matches. */
export const CLASSIFICATION_TABLE: readonly TableRow[] = [
  {
    row: 'escapes-repository',
    when: f => f.escaping !== undefined,
    plane: () => 'other',
    action: reject,
    rule: 'protected-path',
    message: f => `path ${f.escaping ?? ''} leaves the repository`
  },
  {
    row: 'voting-append',
    when: f =>
      f.append?.ok === true &&
      f.instrumentName === f.path &&
      f.instrumentPlane === 'voting' &&
      f.viaLink === undefined &&
      f.suspicious === undefined,
    plane: () => 'voting',
    action: () => 'continue',
    message: appendMessage
  },
  {
    row: 'instrument',
    when: f => f.instrumentName !== undefined,
    plane: f => f.instrumentPlane ?? 'protected',
    action: reject,
    rule: 'protected-path',
    message: instrumentMessage
  },
  {
    row: 'symlink-into-instrument',
    when: f => f.linkHitsInstrument,
    plane: () => 'protected',
    action: reject,
    rule: 'protected-path',
    message: f =>
      `symlink ${f.path} resolves to ${f.linkTarget === '' ? 'the repository root' : (f.linkTarget ?? '')}, which holds the instrument`
  },
  {
    row: 'symlink-leaves-repository',
    when: f => f.linkTarget === null,
    action: reject,
    rule: 'protected-path',
    message: f =>
      `symlink ${f.path} points outside the repository (or loops); the gate cannot tell what it reads`
  },
  {
    row: 'deleted',
    when: f => f.status === 'deleted',
    action: () => 'ignore',
    message: f => `${f.path} deleted outside the instrument`
  },
  {
    row: 'suspicious-name',
    when: f => f.suspicious !== undefined,
    plane: () => 'other',
    action: reject,
    rule: 'protected-path',
    message: f =>
      `the name ${printable(f.suspicious ?? '')} holds control, invisible, line-separator or compatibility characters, so it does not read as what it is; rename it to plain text`
  },
  {
    row: 'drafts-or-in-diff',
    when: f => f.plane === 'drafts' || f.plane === 'in_diff',
    action: () => 'continue',
    message: f => `${f.path} is on the ${f.plane} plane`
  },
  {
    row: 'ungoverned-test',
    when: f => f.plane === 'other',
    action: (_f, mode) => (mode === 'error' ? 'reject' : mode === 'warn' ? 'continue' : 'ignore'),
    rule: 'ungoverned-test',
    message: f =>
      `${f.path} looks like a test but is on no plane (voting, drafts, in_diff): put it under an in_diff glob or remove it`
  },
  {
    row: 'source',
    when: () => true,
    action: () => 'continue',
    message: f => `${f.path} is ${f.plane}`
  }
]

/** A hostile name in a message: everything outside printable ASCII as \\u{hex}. */
function printable(name: string): string {
  return `"${name.replace(/[^\x20-\x7e]/gu, c => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`)}"`
}

function appendMessage(f: PathFacts): string {
  const added = f.append?.ok ? f.append.added : []
  const what =
    f.append?.ok && f.append.newFile ? 'is a new test file' : `gains ${added.length} test(s)`
  const names = added.map(a => a.name).join(', ')
  return `${f.path} ${what} under the voting globs (voting_edits: append)${names ? `: ${names}` : ''}; the vote runs the merge base's version, the added tests run as diagnostics`
}

function instrumentMessage(f: PathFacts): string {
  // Under voting_edits: append the voting file's own verdict says what changed and what is allowed.
  if (f.append?.ok === false && f.instrumentName === f.path) return f.append.message
  const name = f.instrumentName ?? f.path
  const what =
    f.viaLink !== undefined
      ? `part of the instrument (the protected symlink ${f.viaLink} points at it)`
      : f.instrumentPlane === 'voting'
        ? 'a voting test (part of the instrument)'
        : 'protected'
  if (f.status === 'renamed' || f.status === 'copied') {
    const into = name === f.path
    return into
      ? `${f.previous ?? ''} ${f.status} into ${f.path}, which is ${what}`
      : `${name}, which is ${what}, ${f.status} out to ${f.path}`
  }
  return `${name} is ${what}; the patch ${verb(f.status)} it`
}

function verb(status: Change['status']): string {
  switch (status) {
    case 'added':
      return 'adds'
    case 'deleted':
      return 'deletes'
    case 'type-changed':
      return 'changes the type of'
    case 'mode-changed':
      return 'changes the mode of'
    default:
      return 'modifies'
  }
}

/** The facts the table looks at. Pure. */
export function pathFacts(change: Change, ctx: ClassifierContext): PathFacts {
  const path = normalisePath(change.path)
  const previous =
    change.previous_path === undefined ? undefined : normalisePath(change.previous_path)
  const plane = ctx.planes.planeOf(path)
  const facts: PathFacts = { path, status: change.status, linkHitsInstrument: false, plane }
  const append = ctx.append?.get(path)
  if (append !== undefined) facts.append = append
  const named: [string, Plane][] = [[path, plane]]
  if (previous !== undefined) facts.previous = previous
  // A rename writes both names (the source disappears); a copy leaves its source as it
  // was, so only the new name is written. The previous name goes first, so "renamed out
  // of" is named by its protected source.
  if (previous !== undefined && change.status !== 'copied') {
    named.unshift([previous, ctx.planes.planeOf(previous)])
  }
  const odd = named.find(([n]) => suspiciousName(n))
  if (odd !== undefined) facts.suspicious = odd[0]
  const escaping = named.find(([n]) => n === '..' || n.startsWith('../') || n === '')
  if (escaping !== undefined) facts.escaping = escaping[0] === '' ? '(empty path)' : escaping[0]
  const instrument = named.find(([, p]) => isInstrumentPlane(p))
  if (instrument !== undefined) {
    facts.instrumentName = instrument[0]
    facts.instrumentPlane = instrument[1]
  } else if (ctx.linkedInstrument !== undefined) {
    for (const [name] of named) {
      const link = ctx.linkedInstrument(name)
      if (link === undefined) continue
      facts.instrumentName = name
      facts.instrumentPlane = 'protected'
      facts.viaLink = link
      break
    }
  }
  if (
    change.new_kind === 'symlink' &&
    change.status !== 'deleted' &&
    change.symlink_target !== undefined
  ) {
    const target = resolveSymlink(path, change.symlink_target, ctx.links)
    facts.linkTarget = target === null ? null : normalisePath(target)
    if (facts.linkTarget !== null) {
      const t = facts.linkTarget
      const plane = t === '' ? 'other' : ctx.planes.planeOf(t)
      facts.linkHitsInstrument = isInstrumentPlane(plane) || (ctx.containsInstrument?.(t) ?? false)
    }
  }
  return facts
}

/** Path → plane + action (+ the rule and message when it matters). Pure and table-driven. */
export function classifyChange(change: Change, ctx: ClassifierContext): Classification {
  const facts = pathFacts(change, ctx)
  for (const row of CLASSIFICATION_TABLE) {
    if (!row.when(facts)) continue
    const result: Classification = {
      plane: row.plane ? row.plane(facts) : facts.plane,
      action: row.action(facts, ctx.ungovernedTest),
      row: row.row,
      message: row.message(facts)
    }
    if (row.rule !== undefined) result.rule = row.rule
    return result
  }
  throw new Error('unreachable: the last classification row matches everything')
}
