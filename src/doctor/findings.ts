// Doctor's verdict on an instrument, from what several runs of the locked suite observed and
// what the tree holds. Pure: the runs, the tracked files and the source scans come in, a
// report comes out, so every finding can be tested without running a suite. "Fit to vote"
// means no blocker: a vote taken with a blocker present would measure something else.
import type { FlakeCause, LedgerRow } from '../ledger/types.js'
import type { Observation } from '../replay/transitions.js'
import type { Plane } from '../types.js'
import { isFileLevel, type CollectionError } from './collection.js'
import type { Shadowed } from './shadow.js'

export interface DoctorRun {
  observations: ReadonlyMap<string, Observation>
  seconds: number
  exitCode: number | null
  /** Why no report could be read, when none could. */
  reportError?: string
  /** Ids reported more than once in this run (collapsed into one vote). */
  duplicates: ReadonlySet<string>
  /** Files the run's output says the runner could not collect. */
  collectionErrors?: readonly CollectionError[]
}

export interface ImportProbe {
  module: string
  /** Where the module was imported from, or null when it could not be imported. */
  file: string | null
  inside: boolean
}

export interface DoctorInput {
  ref: string
  runs: readonly DoctorRun[]
  /** Files tracked at the ref. */
  files: readonly string[]
  planeOf(path: string): Plane
  votingGlobs: readonly string[]
  /** Glob → true when it matches at least one tracked file. */
  globMatches: ReadonlyMap<string, boolean>
  /** Tracked files that look like tests (init's detection). */
  testFiles: readonly string[]
  shadowed: readonly Shadowed[]
  imports: readonly ImportProbe[]
  /**
   * With planes.production: `test: file` for each repository file a voting test imports
   * that is neither production code nor instrument (src/doctor/production.ts).
   */
  unmeasuredImports?: readonly string[]
  runnerConfig: readonly string[]
  /** Ids the ledger already covers. */
  ledgered: ReadonlySet<string>
  today: string
  owner: string
  /** The suite's runner kind (pytest's exit 2 means its collection was interrupted). */
  runner?: string | null
  /** pytest's rootdir as the gate reads it (replay/pyroot.ts), when not the root. */
  pyRoot?: string
  /** Fixture tests without generated inputs or seeds with distance (policy/fixture-strength.ts). */
  fixtureStrength?: string | null
}

export type Level = 'blocker' | 'warning' | 'info'

export interface Finding {
  level: Level
  code: string
  message: string
  items?: string[]
}

/** A ledger row doctor proposes: every field of a row but the id (`ledger add` picks it). */
export type ProposedRow = Omit<LedgerRow, 'id' | 'ticket' | 'counterexample'>

export interface DoctorReport {
  ref: string
  fit: boolean
  runs: { seconds: number; exitCode: number | null; tests: number; reportError?: string }[]
  votingByFile: Record<string, number>
  flaky: { id: string; outcomes: string[]; cause: FlakeCause }[]
  proposedRows: ProposedRow[]
  findings: Finding[]
}

/** The ledger cause a failure text suggests (issue 15's rule of thumb). */
export function guessCause(message: string): FlakeCause {
  const m = message.toLowerCase()
  if (/timeout|timed out|time|clock|deadline|sleep/.test(m)) return 'time'
  if (/connection|socket|network|econn|dns|http/.test(m)) return 'net'
  if (/random|seed|rng|shuffle/.test(m)) return 'rng'
  if (/order|before|after|sequence|already/.test(m)) return 'order'
  return 'shared'
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/**
 * Why no reported test maps to a file, when none does: a pytest suite names its tests
 * relative to its rootdir, which the gate takes from the merge base's configuration.
 */
function unmappedCause(
  input: DoctorInput,
  perId: ReadonlyMap<string, { file: string | null }>
): string {
  if (perId.size === 0 || [...perId.values()].some(r => r.file !== null)) return ''
  const why = `none of the ${perId.size} test(s) the runner reported maps to a file of the checkout`
  if (input.runner !== 'pytest') return ` (${why})`
  return ` (${why}: pytest names tests relative to its rootdir, taken from the command's --rootdir or -c, else the first folder from its path arguments upwards holding pytest.ini, .pytest.ini, pyproject.toml [tool.pytest.ini_options], tox.ini [pytest] or setup.cfg [tool:pytest]; the gate found ${input.pyRoot ? `\`${input.pyRoot}/\`` : 'the repository root'})`
}

const failing = (o: string): boolean => o === 'failed' || o === 'error'

export function diagnose(input: DoctorInput): DoctorReport {
  const findings: Finding[] = []
  const perId = new Map<string, { outcomes: string[]; message: string; file: string | null }>()
  for (const run of input.runs)
    for (const o of run.observations.values()) {
      const row = perId.get(o.id) ?? { outcomes: [], message: '', file: o.file }
      row.outcomes.push(...o.outcomes)
      if (o.message !== undefined && row.message === '') row.message = o.message
      perId.set(o.id, row)
    }
  const plane = (file: string | null): Plane | 'unknown' =>
    file === null ? 'unknown' : input.planeOf(file)
  const votingByFile: Record<string, number> = {}
  const otherPlanes: string[] = []
  for (const [id, row] of perId) {
    const p = plane(row.file)
    if (p === 'voting') votingByFile[row.file ?? ''] = (votingByFile[row.file ?? ''] ?? 0) + 1
    else otherPlanes.push(`${id} (${p})`)
  }

  const flaky: DoctorReport['flaky'] = []
  const alwaysFailing: string[] = []
  for (const [id, row] of [...perId].sort(([a], [b]) => a.localeCompare(b))) {
    const ran = row.outcomes.filter(o => o !== 'skipped')
    if (ran.some(failing) && ran.some(o => o === 'passed'))
      flaky.push({ id, outcomes: row.outcomes, cause: guessCause(row.message) })
    else if (
      ran.length > 0 &&
      ran.every(failing) &&
      plane(row.file) === 'voting' &&
      !isFileLevel({ id, file: row.file, outcomes: [], runnerFlaky: false })
    )
      alwaysFailing.push(`${id}: ${row.message.split('\n')[0] ?? ''}`.slice(0, 300))
  }
  const unledgered = flaky.filter(f => !input.ledgered.has(f.id))
  const proposedRows = unledgered.map(f => ({
    test: f.id,
    cause: f.cause,
    reason: `doctor on ${input.ref}: ${f.outcomes.join(', ')} across ${input.runs.length} runs`,
    owner: input.owner,
    first_seen: input.today,
    expires_on: addDays(input.today, 14),
    max_runs: 3
  }))

  const noReport = input.runs.filter(r => r.reportError !== undefined)
  if (noReport.length > 0)
    findings.push({
      level: 'blocker',
      code: 'no-report',
      message: `${noReport.length} of ${input.runs.length} runs left no readable report`,
      items: noReport.map(r => r.reportError ?? '')
    })
  const uncollected = collectionErrors(input, perId)
  if (uncollected.length > 0)
    findings.push({
      level: 'blocker',
      code: 'collection-error',
      message:
        'the runner could not collect these files (a collection error, or a file whose runs yield only a file-level failure): no test in them votes and every PR would see them fail. Fix the file, or take it off the voting plane (a data file named like a test: rename it, or narrow planes.voting / the runner configuration)',
      items: uncollected
    })
  if (Object.keys(votingByFile).length === 0)
    findings.push({
      level: 'blocker',
      code: 'no-voting-test',
      message: `the suite command collects no test on the voting plane: nothing would vote${unmappedCause(input, perId)}`
    })
  if (unledgered.length > 0)
    findings.push({
      level: 'blocker',
      code: 'flaky',
      message: `${unledgered.length} test(s) changed outcome across runs with the same code; add the proposed ledger rows (oracle-gate ledger add) or fix them`,
      items: unledgered.map(f => `${f.id}: ${f.outcomes.join(', ')} (cause guess: ${f.cause})`)
    })
  const trapped = input.imports.filter(i => !i.inside)
  if (trapped.length > 0)
    findings.push({
      level: 'blocker',
      code: 'import-outside-checkout',
      message:
        'a package of the checkout is imported from elsewhere (or not at all): the tests would measure the installed copy, not the commit. Set suite.env.PYTHONPATH (src for a src/ layout) or pytest pythonpath',
      items: trapped.map(i => `${i.module}: ${i.file ?? 'not importable from the worktree'}`)
    })
  if ((input.unmeasuredImports ?? []).length > 0)
    findings.push({
      level: 'blocker',
      code: 'import-not-production',
      message:
        "voting tests import repository files that are neither production code (planes.production) nor instrument: the head's vote takes those files from the merge base, so a fix there is never measured. Add them to planes.production (or protect them)",
      items: [...(input.unmeasuredImports ?? [])]
    })
  const duplicates = new Set(input.runs.flatMap(r => [...r.duplicates]))
  if (duplicates.size > 0)
    findings.push({
      level: 'warning',
      code: 'duplicate-ids',
      message: `${duplicates.size} id(s) reported more than once in one run: they share one vote (the worst outcome)`,
      items: [...duplicates].sort()
    })
  if (input.shadowed.length > 0)
    findings.push({
      level: 'warning',
      code: 'shadowed',
      message:
        'tests defined twice under one name in one scope (Python runs only the last; JS collapses them into one id)',
      items: input.shadowed.map(s => `${s.file}: ${s.name} (lines ${s.lines.join(', ')})`)
    })
  if (input.fixtureStrength)
    findings.push({ level: 'info', code: 'fixtures-only', message: input.fixtureStrength })
  if (alwaysFailing.length > 0)
    findings.push({
      level: 'warning',
      code: 'always-failing',
      message:
        'voting tests failing in every run: every PR would see them red; fix them or ledger them (cause env if the environment breaks them)',
      items: alwaysFailing
    })
  pushIf(
    findings,
    'warning',
    'collects-other-planes',
    'the suite command collects tests that are not on the voting plane',
    otherPlanes.sort()
  )
  pushIf(
    findings,
    'warning',
    'test-on-no-plane',
    'test files on no plane (they never run in the gate)',
    input.testFiles.filter(f => ['source', 'other'].includes(input.planeOf(f)))
  )
  const votingFiles = input.files.filter(f => input.planeOf(f) === 'voting')
  const testSet = new Set(input.testFiles)
  pushIf(
    findings,
    'warning',
    'voting-file-without-test',
    'files on the voting plane that hold no test (a runner may fail on them; helpers are fine)',
    votingFiles.filter(
      f =>
        !testSet.has(f) &&
        !Object.hasOwn(votingByFile, f) &&
        !/(^|\/)(conftest\.py|__init__\.py)$/.test(f)
    )
  )
  pushIf(
    findings,
    'warning',
    'glob-matches-nothing',
    'voting globs that match no tracked file',
    input.votingGlobs.filter(g => input.globMatches.get(g) === false)
  )
  pushIf(
    findings,
    'info',
    'runner-config',
    'runner configuration found (read from the merge base, protected)',
    [...input.runnerConfig]
  )
  return {
    ref: input.ref,
    fit: !findings.some(f => f.level === 'blocker'),
    runs: input.runs.map(r => ({
      seconds: Math.round(r.seconds * 10) / 10,
      exitCode: r.exitCode,
      tests: r.observations.size,
      ...(r.reportError !== undefined ? { reportError: r.reportError } : {})
    })),
    votingByFile,
    flaky,
    proposedRows,
    findings
  }
}

/** `file: cause` for every file the runs could not collect, plus pytest's bare exit 2. */
function collectionErrors(
  input: DoctorInput,
  perId: ReadonlyMap<string, { outcomes: string[]; message: string; file: string | null }>
): string[] {
  const causes = new Map<string, string>()
  for (const run of input.runs)
    for (const e of run.collectionErrors ?? [])
      if (!causes.has(e.file) || causes.get(e.file) === '') causes.set(e.file, e.cause)
  for (const [file, message] of fileLevelFailures(input, perId))
    if (!causes.has(file) || causes.get(file) === '') causes.set(file, message)
  const items = [...causes]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([f, c]) => `${f}: ${c || 'no cause printed'}`)
  const interrupted = input.runs.filter(r => r.exitCode === 2)
  if (input.runner === 'pytest' && interrupted.length > 0 && items.length === 0)
    items.push(
      `pytest exited 2 (interrupted: a collection error or a usage error) in ${interrupted.length} of ${input.runs.length} runs; see its output`
    )
  return items
}

/**
 * Voting files holding pytest's failing `<collection>` case, or whose every case is a
 * failing file-level one (vitest names such a case after the file) → the first message.
 */
function fileLevelFailures(
  input: DoctorInput,
  perId: ReadonlyMap<string, { outcomes: string[]; message: string; file: string | null }>
): Map<string, string> {
  const files = new Map<string, { only: boolean; collection: boolean; message: string }>()
  for (const [id, row] of perId) {
    if (row.file === null || input.planeOf(row.file) !== 'voting') continue
    const fileLevel =
      isFileLevel({ id, file: row.file, outcomes: [], runnerFlaky: false }) &&
      row.outcomes.some(failing)
    const seen = files.get(row.file) ?? { only: true, collection: false, message: '' }
    seen.only &&= fileLevel
    seen.collection ||= fileLevel && id.endsWith('::<collection>')
    if (fileLevel && seen.message === '') seen.message = row.message.split('\n')[0] ?? ''
    files.set(row.file, seen)
  }
  return new Map(
    [...files].filter(([, f]) => f.only || f.collection).map(([file, f]) => [file, f.message])
  )
}

function pushIf(
  findings: Finding[],
  level: Level,
  code: string,
  message: string,
  items: string[]
): void {
  if (items.length > 0) findings.push({ level, code, message, items })
}
