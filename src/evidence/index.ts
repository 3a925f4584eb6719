// The evidence stage (docs/evidence.md): once the head's vote is complete, and before its
// worktree goes, how much of the patch the locked tests pin down. The patch's changed
// production lines (changed.ts), which of them the passing voting tests ran on the head
// (Python: from the vote's own run, py-coverage.ts; JS/TS: js-coverage.ts), then mutants of
// the covered lines run against the tests that cover them (mutants.ts, mutate.ts). Never
// alters the vote: it adds the scorecard's `evidence`, notices for the annotations and,
// only under `enforce`, a `weak-evidence` failure. mode `off`: nothing runs, no field.
// A failure of the stage itself is a notice under `report` (a measurement that is only
// shown must not block a merge on its own) and a gate error under `enforce` (fail closed).
import { join } from 'node:path'
import type { GateContext } from '../context.js'
import { errorMessage, GateError } from '../errors.js'
import type { EvidenceSettings } from '../policy/types.js'
import { guardGitState } from '../git/state.js'
import { canonicalId, FileIndex, worktreeIdContext, type IdContext } from '../replay/ids.js'
import { detectRunner } from '../replay/runners.js'
import { worktreeFiles, type Worktrees } from '../replay/worktree.js'
import type { RawCase } from '../replay/junit.js'
import type { SideOutcome } from '../replay/side.js'
import type { Observation } from '../replay/transitions.js'
import { toRanges } from '../replay/watch.js'
import { parsedLanguageOf } from '../lang.js'
import type { EvidenceCard, Plane, Reason } from '../types.js'
import { changedLines, languageOf } from './changed.js'
import { jsCoverage } from './js-coverage.js'
import { mutantsFor, selectMutants } from './mutants.js'
import { runMutants } from './mutate.js'
import { pyCoverage } from './py-coverage.js'
import type { ChangedLines, LineCoverage, Mutant, MutantOutcome } from './types.js'

export interface EvidenceInput {
  /** The head's worktree, at the path its runs had. */
  worktree: string
  head: SideOutcome
  /** Does this observation vote (voting plane, not frozen, not a judge)? */
  votes: (o: Observation) => boolean
  /** The id context of the head's worktree (the side's mapping of cases to ids). */
  ids: () => Promise<IdContext>
  /** Why the stage cannot measure this run (a shard holds part of the vote), if so. */
  unavailable?: string
  /** The merge base's files (node:test titles, ids.ts literalFiles). */
  baseFiles?: readonly string[]
  /** The vote's fidelity check of the head's worktree after a run (empty: unchanged). */
  fidelity?: () => Promise<readonly unknown[]>
}

/** What the replay hands over of the head side it just measured. */
export interface ReplayHead {
  head: SideOutcome
  planeOf: (path: string) => Plane
  votes: (o: Observation) => boolean
  baseFiles: readonly string[]
  /** A shard's run: only part of the vote ran here. */
  shard: boolean
  /** The vote's fidelity check of the head's worktree after a run (empty: unchanged). */
  fidelity?: () => Promise<readonly unknown[]>
}

/**
 * The stage as the replay calls it, inside its worktrees and after the head's vote: the
 * head's worktree at its run path, the side's id mapping, the patch's code guarded as in
 * the vote (mutants run it). mode off: returns at once, touching nothing.
 */
export async function replayEvidence(
  ctx: GateContext,
  wt: Pick<Worktrees, 'head' | 'stage'>,
  replayed: ReplayHead
): Promise<EvidenceResult> {
  if (ctx.policy.evidence.mode === 'off') return { reasons: [] }
  const worktree = await wt.stage(await wt.head())
  const ids = async (): Promise<IdContext> =>
    worktreeIdContext(
      worktree,
      await worktreeFiles(ctx, worktree),
      replayed.planeOf,
      ctx.policy.suite.report,
      {
        literalFiles: replayed.baseFiles,
        runner: detectRunner(ctx.policy.suite),
        pyRoot: ctx.instrument?.pyRoot
      }
    )
  const input: EvidenceInput = {
    worktree,
    head: replayed.head,
    votes: replayed.votes,
    ids,
    baseFiles: replayed.baseFiles,
    ...(replayed.fidelity ? { fidelity: replayed.fidelity } : {})
  }
  if (replayed.shard)
    input.unavailable = 'a shard runs part of the vote; evidence is measured on whole runs only'
  return guardGitState(ctx.git, { what: 'the evidence runs', patchCode: true }, () =>
    evidenceStage(ctx, input)
  )
}

export interface EvidenceResult {
  evidence?: EvidenceCard
  reasons: Reason[]
}

/** Mutants per changed production file when evidence.max_mutants is absent. */
export const MUTANTS_PER_FILE = 7

export async function evidenceStage(
  ctx: GateContext,
  input: EvidenceInput
): Promise<EvidenceResult> {
  const settings = ctx.policy.evidence
  if (settings.mode === 'off') return { reasons: [] }
  try {
    if (input.unavailable !== undefined) throw new Error(input.unavailable)
    return await measure(ctx, input, settings)
  } catch (error) {
    const why = `the evidence stage failed: ${errorMessage(error)}`
    if (settings.mode === 'enforce') throw new GateError(why, { path: ctx.policy.path })
    ctx.log.warning(why)
    return {
      evidence: { ...emptyCard(settings), skipped_reason: why },
      reasons: [{ rule: 'diagnostic', level: 'notice', message: why, path: ctx.policy.path }]
    }
  }
}

async function measure(
  ctx: GateContext,
  input: EvidenceInput,
  settings: EvidenceSettings
): Promise<EvidenceResult> {
  const ranges = ctx.watch?.lines ?? {}
  const texts = new Map<string, string>()
  for (const path of Object.keys(ranges)) {
    const text = await ctx.git.showText(ctx.head, path)
    if (text !== null) texts.set(path, text)
  }
  const changed = changedLines(ranges, p => texts.get(p) ?? null)
  const results = input.head.results
  if (results === null) {
    const card = { ...emptyCard(settings), changed_lines: count(changed) }
    return {
      evidence: { ...card, skipped_reason: 'the head has no results (its vote is red)' },
      reasons: []
    }
  }
  const passing = passingVoting(results, input.votes)
  const coverage = await coverageOf(ctx, input, changed, passing)
  if (settings.mode === 'enforce' && (coverage.problems?.length ?? 0) > 0)
    throw new Error(`coverage could not be measured: ${coverage.problems?.join('; ')}`)
  const outcomes = await mutation(ctx, input, settings, { changed, coverage, passing, texts })
  const card = evidenceCard(settings, changed, coverage, outcomes)
  const problems = (card.problems ?? []).map((p): Reason => ({
    rule: 'diagnostic',
    level: 'notice',
    message: `evidence: ${p}`
  }))
  return {
    evidence: card,
    reasons: [...problems, ...evidenceReasons(settings, card)]
  }
}

/** Canonical ids of the voting tests that passed on the head, every time they ran. */
export function passingVoting(
  results: ReadonlyMap<string, Observation>,
  votes: (o: Observation) => boolean
): Set<string> {
  const out = new Set<string>()
  for (const [id, o] of results)
    if (votes(o) && o.outcomes.length > 0 && o.outcomes.every(x => x === 'passed')) out.add(id)
  return out
}

async function coverageOf(
  ctx: GateContext,
  input: EvidenceInput,
  changed: readonly ChangedLines[],
  passing: ReadonlySet<string>
): Promise<LineCoverage> {
  const python = changed.filter(c => languageOf(c.path) === 'python')
  const js = changed.filter(c => languageOf(c.path) === 'js')
  const other = changed.filter(c => languageOf(c.path) === 'other')
  const parts: LineCoverage[] = []
  if (python.length > 0) {
    const ids = await input.ids()
    const index = new FileIndex(ids)
    const idOf = (c: RawCase): string => canonicalId(c, ids, index).id
    parts.push(pyCoverage({ watched: input.head.firstWatched, changed: python, idOf, passing }))
  }
  if (js.length > 0)
    parts.push(
      await jsCoverage(ctx, {
        worktree: input.worktree,
        changed: js,
        log: join(ctx.tempDir, 'head-js-coverage.log'),
        watched: input.head.firstWatched,
        passing
      })
    )
  if (other.length > 0)
    parts.push({
      covered: new Map(),
      problems: other.map(c => `${c.path}: no coverage is measured for this language`)
    })
  return mergeCoverage(parts)
}

/** One coverage of several languages' parts. Pure; exported for tests. */
export function mergeCoverage(parts: readonly LineCoverage[]): LineCoverage {
  const covered = new Map<string, Set<number>>()
  const byTest = new Map<string, Map<number, string[]>>()
  const executable = new Map<string, Set<number>>()
  const problems: string[] = []
  const voided: string[] = []
  for (const part of parts) {
    voided.push(...(part.voided ?? []))
    for (const [path, lines] of part.covered) covered.set(path, new Set(lines))
    for (const [path, lines] of part.byTest ?? []) byTest.set(path, lines)
    for (const [path, lines] of part.executable ?? []) executable.set(path, new Set(lines))
    problems.push(...(part.problems ?? []))
  }
  return {
    covered,
    byTest,
    ...(executable.size > 0 ? { executable } : {}),
    ...(problems.length > 0 ? { problems } : {}),
    ...(voided.length > 0 ? { voided } : {})
  }
}

interface Measured {
  changed: readonly ChangedLines[]
  coverage: LineCoverage
  passing: ReadonlySet<string>
  texts: ReadonlyMap<string, string>
}

/** Mutants of the covered changed lines, capped, run against the tests that cover them. */
async function mutation(
  ctx: GateContext,
  input: EvidenceInput,
  settings: EvidenceSettings,
  m: Measured
): Promise<MutantOutcome[]> {
  const max = settings.max_mutants ?? MUTANTS_PER_FILE * m.changed.length
  const perFile: Mutant[][] = []
  for (const { path } of m.changed) {
    const lines = m.coverage.covered.get(path)
    const text = m.texts.get(path)
    const language = parsedLanguageOf(path)
    if (!lines || lines.size === 0 || text === undefined || !language) continue
    perFile.push(await mutantsFor(path, language, text, lines, max))
  }
  const mutants = selectMutants(perFile, max)
  if (mutants.length === 0) return []
  const all = [...m.passing].sort()
  const testsFor = (x: Mutant): string[] => m.coverage.byTest?.get(x.path)?.get(x.line) ?? all
  // Python: covered, yet by no test (py-coverage.ts keeps every test's lines): the import.
  const atImport = (x: Mutant): boolean =>
    languageOf(x.path) === 'python' && m.coverage.byTest?.get(x.path)?.get(x.line) === undefined
  return runMutants(ctx, {
    worktree: input.worktree,
    mutants,
    testsFor,
    budgetSec: settings.budget_s,
    log: join(ctx.tempDir, 'head-mutants.log'),
    ...(input.baseFiles ? { baseFiles: input.baseFiles } : {}),
    ...(input.fidelity ? { fidelity: input.fidelity } : {}),
    atImport
  })
}

function emptyCard(settings: EvidenceSettings): EvidenceCard {
  return {
    changed_lines: 0,
    covered_lines: 0,
    uncovered: [],
    mutants: [],
    budget_s: settings.budget_s
  }
}

const count = (changed: readonly ChangedLines[]): number =>
  changed.reduce((n, c) => n + c.lines.length, 0)

/** The scorecard's `evidence`. Pure; exported for tests. */
export function evidenceCard(
  settings: EvidenceSettings,
  changed: readonly ChangedLines[],
  coverage: LineCoverage,
  outcomes: readonly MutantOutcome[]
): EvidenceCard {
  let covered = 0
  let asked = 0
  const uncovered: EvidenceCard['uncovered'] = []
  for (const c of changed) {
    // Lines the measure knows hold no code that can run count neither way.
    const runnable = coverage.executable?.get(c.path)
    const { path } = c
    const lines = runnable ? c.lines.filter(n => runnable.has(n)) : c.lines
    asked += lines.length
    const ran = coverage.covered.get(path) ?? new Set<number>()
    const missed = lines.filter(n => !ran.has(n))
    covered += lines.length - missed.length
    if (missed.length > 0) uncovered.push({ path, lines: missed })
  }
  const mutants = outcomes.map(o => ({
    path: o.path,
    line: o.line,
    mutation: o.mutation,
    killed_by: o.killed_by,
    ...(o.not_run !== undefined ? { not_run: o.not_run } : {})
  }))
  const card: EvidenceCard = {
    changed_lines: asked,
    covered_lines: covered,
    uncovered,
    mutants,
    budget_s: settings.budget_s
  }
  const problems = [...(coverage.problems ?? []), ...(coverage.voided ?? [])]
  if (problems.length > 0) card.problems = problems
  return card
}

/** The card's kill figures: mutants run to their end, and of them those a test killed. */
export function killFigures(card: EvidenceCard): { run: number; killed: number } {
  const run = card.mutants.filter(m => m.not_run === undefined)
  return { run: run.length, killed: run.filter(m => m.killed_by !== null).length }
}

const percent = (x: number): string => `${Math.round(x * 100)} %`

/** "a.py lines 3–5, 9" for the messages. */
function linesText(lines: readonly number[]): string {
  return toRanges(lines)
    .map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`))
    .join(', ')
}

/**
 * Notices for the annotations (each uncovered range, each survivor) and, under enforce,
 * a `weak-evidence` failure per threshold missed. Pure; exported for tests.
 */
export function evidenceReasons(settings: EvidenceSettings, card: EvidenceCard): Reason[] {
  const reasons: Reason[] = []
  for (const { path, lines } of card.uncovered)
    for (const [first, last] of toRanges(lines))
      reasons.push({
        rule: 'weak-evidence',
        level: 'notice',
        path,
        line: first,
        message: `changed line${first === last ? ` ${first} runs` : `s ${first}–${last} run`} under no passing voting test`
      })
  const survivors = card.mutants.filter(m => m.killed_by === null && m.not_run === undefined)
  for (const s of survivors)
    reasons.push({
      rule: 'weak-evidence',
      level: 'notice',
      path: s.path,
      line: s.line,
      message: `mutant ${s.mutation} survived: no voting test failed against it`
    })
  if (settings.mode !== 'enforce') return reasons
  const share = card.changed_lines === 0 ? 1 : card.covered_lines / card.changed_lines
  const first = card.uncovered[0]
  if (share < settings.min_coverage && first)
    reasons.push({
      rule: 'weak-evidence',
      level: 'failure',
      path: first.path,
      line: first.lines[0] ?? 1,
      message: `the voting tests run ${card.covered_lines} of the patch's ${card.changed_lines} changed lines (${percent(share)}; evidence.min_coverage asks ${percent(settings.min_coverage)}); not run: ${card.uncovered.map(u => `${u.path} line${u.lines.length === 1 ? '' : 's'} ${linesText(u.lines)}`).join('; ')}`
    })
  const { run, killed } = killFigures(card)
  const ratio = run === 0 ? 1 : killed / run
  const survivor = survivors[0]
  if (ratio < settings.min_kill_ratio && survivor)
    reasons.push({
      rule: 'weak-evidence',
      level: 'failure',
      path: survivor.path,
      line: survivor.line,
      message: `the voting tests kill ${killed} of ${run} mutants of the patch (${percent(ratio)}; evidence.min_kill_ratio asks ${percent(settings.min_kill_ratio)}); survivors: ${survivors.map(s => `${s.path}:${s.line} ${s.mutation}`).join('; ')}`
    })
  // Mutants made but none judged (each stopped the tests loading, timed out, or the budget
  // ran out): a kill ratio of nothing is no evidence, and enforce asks for evidence.
  const unjudged = card.mutants[0]
  if (run === 0 && unjudged !== undefined && settings.min_kill_ratio > 0)
    reasons.push({
      rule: 'weak-evidence',
      level: 'failure',
      path: unjudged.path,
      line: unjudged.line,
      message: `none of the ${card.mutants.length} mutant(s) of the patch could be judged by the voting tests (${unjudged.path}:${unjudged.line}: ${unjudged.not_run ?? 'not run'}); evidence.min_kill_ratio asks ${percent(settings.min_kill_ratio)} of them killed`
    })
  return reasons
}
