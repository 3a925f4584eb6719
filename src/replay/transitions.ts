// Pure scoring: what each test did on base and on head, turned into votes, transitions and
// reasons. The verdict comes from what changed between the two sides, never from one exit
// code, and a skip is never a pass.
import { emptyDiagnostics, emptyTransitions, emptyVotes } from '../verdict/scorecard.js'
import type { LedgerRow } from '../ledger/types.js'
import type { FlakeRow, Plane, Reason, Scorecard, Transitions, Votes } from '../types.js'
import { UNCLASSIFIED, type ClassOf } from './classes.js'
import type { Outcome } from './junit.js'

/** Stale ledger rows named in the one ledger-stale warning; the rest are counted. */
const STALE_NAMED = 10

/** Everything one side said about one test, across the first run and the reruns. */
export interface Observation {
  id: string
  file: string | null
  line?: number
  /** One entry per run that reported the test. */
  outcomes: Outcome[]
  /** The runner itself reported a failed-then-passed attempt (Surefire flakyFailure). */
  runnerFlaky: boolean
  /**
   * Base only: outcomes from whole-suite reruns that were not for this test. They never make
   * the oracle a coin (a warning at most), since the test was not what was being rerun.
   */
  incidental?: Outcome[]
  /** The file was found only among files the head wrote (node:test): a failure is unmapped. */
  provisional?: boolean
  message?: string
}

export type SideResults = ReadonlyMap<string, Observation>

/** P pass, F fail (failure or error), S skipped, K flaky (outcomes differ between runs). */
export type Final = 'P' | 'F' | 'S' | 'K'

export interface ScoreInput {
  base: SideResults
  /** null when the head produced no results at all (timeout, setup, missing report). */
  head: SideResults | null
  planeOf(file: string): Plane
  classOf: ClassOf
  live: ReadonlyMap<string, LedgerRow>
  ledgerPath?: string
  /** Where suite-level reasons point (the policy file, which holds the suite command). */
  policyPath: string
  /** Files the patch added or modified (for non-discriminating). */
  written: ReadonlySet<string>
  /**
   * The head's in-diff tests run against the base's product code, when that probe ran;
   * otherwise the base run's own results are used.
   */
  inDiffOnBase?: SideResults
  /** Ids that more than one test collapsed into, per side (a warning lists them). */
  duplicates?: { base: readonly string[]; head: readonly string[] }
  /** The run's date, for the ledger row a warning proposes. */
  today?: string
  /**
   * Tests the patch added to voting files (voting_edits: append): diagnostics like in-diff
   * tests, never votes (the vote ran the merge base's files).
   */
  added?: ReadonlySet<string>
}

export interface Score {
  reasons: Reason[]
  votes: Votes
  transitions: Transitions
  flakes: FlakeRow[]
  diagnostics: Scorecard['diagnostics']
}

export function finalOf(o: Observation): Final {
  const kinds = new Set(o.outcomes.map(x => (x === 'error' ? 'failed' : x)))
  if (o.runnerFlaky || kinds.size > 1) return 'K'
  const only = o.outcomes[0]
  return only === 'passed' ? 'P' : only === 'skipped' ? 'S' : 'F'
}

type Role = 'vote' | 'frozen' | 'judge' | 'draft' | 'in_diff' | 'unmapped' | 'none'

/** The sections of a score share these: the results being built and how to add to them. */
interface Scoring extends Score {
  input: ScoreInput
  roleOf(o: Observation): Role
  bucket(id: string): { passed: number; failed: number; frozen: number }
  fail(rule: Reason['rule'], message: string, o: Observation): void
  warn(
    rule: Reason['rule'],
    message: string,
    o: Observation | undefined,
    level?: Reason['level']
  ): void
}

/**
 * Pure: the sections below run in order (flakes, the base's incidental flakes, the head's
 * tests, vanished tests, the empty vote, stale ledger rows, non-discriminating tests,
 * duplicate ids) over one shared result.
 */
export function score(input: ScoreInput): Score {
  const s = scoring(input)
  scoreFlakes(s)
  scoreIncidental(s)
  if (input.head !== null) {
    scoreHead(s, input.head)
    scoreVanished(s, input.head)
  }
  scoreStaleRows(s)
  scoreNonDiscriminating(s)
  scoreDuplicates(s)
  sortTransitions(s.transitions)
  const { reasons, votes, transitions, flakes, diagnostics } = s
  return { reasons, votes, transitions, flakes, diagnostics }
}

function scoring(input: ScoreInput): Scoring {
  const s: Scoring = {
    input,
    reasons: [],
    votes: emptyVotes(),
    transitions: emptyTransitions(),
    flakes: [],
    diagnostics: emptyDiagnostics(),
    roleOf: o => roleOf(input, o),
    bucket: id => {
      const name = input.classOf(id) ?? UNCLASSIFIED
      return (s.votes.by_class[name] ??= { passed: 0, failed: 0, frozen: 0 })
    },
    fail: (rule, message, o) => s.warn(rule, message, o, 'failure'),
    warn: (rule, message, o, level = 'warning') => {
      const reason: Reason = { rule, message, level }
      if (o?.file) reason.path = o.file
      if (o?.line !== undefined) reason.line = o.line
      s.reasons.push(reason)
    }
  }
  return s
}

function roleOf(input: ScoreInput, o: Observation): Role {
  if (o.file === null) return 'unmapped'
  if (o.provisional && !['P', 'S'].includes(finalOf(o))) return 'unmapped'
  if (input.added?.has(o.id)) return 'in_diff'
  const plane = input.planeOf(o.file)
  if (plane === 'voting') {
    if (input.live.has(o.id)) return 'frozen'
    return input.classOf(o.id) === 'judge' ? 'judge' : 'vote'
  }
  if (plane === 'drafts') return 'draft'
  if (plane === 'in_diff') return 'in_diff'
  return 'none'
}

/**
 * Flakes first: a test whose runs disagree is reported whatever its plane, so the card
 * shows frozen ones too; only unfrozen voting ones are failures.
 */
function scoreFlakes(s: Scoring): void {
  for (const [side, results] of [
    ['base', s.input.base] as const,
    ['head', s.input.head] as const
  ]) {
    if (results === null) continue
    for (const o of results.values()) {
      if (finalOf(o) !== 'K') continue
      const role = s.roleOf(o)
      const row: FlakeRow = {
        test: o.id,
        side,
        outcomes: o.runnerFlaky ? [...o.outcomes, 'flaky-in-runner'] : [...o.outcomes]
      }
      const ledger = s.input.live.get(o.id)
      if (ledger) row.ledger_id = ledger.id
      if (role === 'vote' || role === 'frozen' || role === 'judge') s.flakes.push(row)
      if (role !== 'vote') continue
      const seen = row.outcomes.join(', ')
      s.fail(
        'flaky-oracle',
        side === 'base'
          ? `${o.id} gave different outcomes on the base (${seen}): the oracle is a coin, so its vote means nothing; fix the test or freeze it in the ledger`
          : `${o.id} gave different outcomes on the head (${seen}) and has no live ledger row`,
        o
      )
    }
  }
}

/**
 * A voting test that passed in the base's first run and failed only in a whole-suite rerun
 * that was for other tests: a warning about the oracle (with a ledger row to freeze it), not
 * held against the patch. (On the head such outcomes are ordinary outcomes: a flake blocks.)
 */
function scoreIncidental(s: Scoring): void {
  for (const o of s.input.base.values()) {
    const extra = o.incidental ?? []
    if (extra.length === 0 || finalOf(o) === 'K' || s.roleOf(o) !== 'vote') continue
    const differs = extra.some(
      x => (x === 'error' ? 'failed' : x) !== (o.outcomes[0] === 'error' ? 'failed' : o.outcomes[0])
    )
    if (!differs) continue
    const outcomes = [...o.outcomes, ...extra]
    s.flakes.push({ test: o.id, side: 'base', outcomes })
    s.warn(
      'flaky-oracle',
      `${o.id} gave different outcomes on the base (${outcomes.join(', ')}) only in whole-suite reruns of other tests: the oracle may be flaky, which is not held against this patch; freeze it with a ledger row such as ${ledgerRow(o.id, s.input.today)}`,
      o
    )
  }
}

function ledgerRow(test: string, today: string | undefined): string {
  const day = today ?? 'YYYY-MM-DD'
  return `{id: flake-<n>, test: ${JSON.stringify(test)}, cause: order, reason: "passes alone, failed in a whole-suite rerun on the base", owner: <you>, first_seen: "${day}", expires_on: "<= ${day} + ledger_max_days>", max_runs: 3}`
}

function scoreHead(s: Scoring, head: SideResults): void {
  let executed = 0
  for (const h of head.values()) {
    const role = s.roleOf(h)
    const hf = finalOf(h)
    const b = s.input.base.get(h.id)
    if (role === 'frozen') {
      s.votes.frozen++
      s.bucket(h.id).frozen++
    } else if (role === 'judge') {
      if (hf === 'P') s.bucket(h.id).passed++
      else if (hf === 'F') s.bucket(h.id).failed++
    } else if (role === 'draft') {
      if (hf !== 'S') s.votes.drafts++
      s.diagnostics.drafts[h.id] = describe(h)
    } else if (role === 'in_diff') {
      scoreInDiff(s, h, hf, b)
    } else if (role === 'unmapped') {
      // The plane is unknown: a pass proves nothing, a failure may be a voting test.
      if (hf === 'F') {
        s.fail(
          'oracle-failed',
          `${h.id} fails on head and its file could not be determined from the report, so it may be a voting test (configure the reporter to write file names)`,
          h
        )
      }
    } else if (role === 'vote') {
      if (hf !== 'S') executed++
      scoreVoting(h, hf, b ?? null, b ? finalOf(b) : null, s)
    }
  }
  if (executed === 0) {
    s.reasons.push({
      rule: 'empty-vote',
      message:
        'no voting test ran on head (none collected, all skipped, frozen or judge-class): unscored is not passed',
      path: s.input.policyPath,
      level: 'failure'
    })
  }
}

/** In-diff tests never vote: a written one failing on head is a warning, one passing on both sides a notice. */
function scoreInDiff(s: Scoring, h: Observation, hf: Final, b: Observation | undefined): void {
  const inDiff = (s.diagnostics.in_diff ??= {})
  inDiff[h.id] = describe(h)
  const written = h.file !== null && s.input.written.has(h.file)
  if (hf === 'F' && written) {
    const why = h.message ? `: ${h.message}` : ''
    s.warn(
      'diagnostic',
      `${h.id}, a test the patch wrote, fails on head${why} (it does not vote; a test written for a fix should pass with it)`,
      h
    )
  }
  const onBase = s.input.inDiffOnBase?.get(h.id) ?? b
  if (onBase) (s.diagnostics.in_diff_base ??= {})[h.id] = describe(onBase)
  if (hf === 'P' && onBase && finalOf(onBase) === 'P' && written)
    s.diagnostics.non_discriminating.push(h.id)
}

/** Present on base, gone from head: the patch made a voting test disappear. */
function scoreVanished(s: Scoring, head: SideResults): void {
  for (const b of s.input.base.values()) {
    if (head.has(b.id) || s.roleOf(b) !== 'vote') continue
    s.transitions.vanished.push(b.id)
    s.fail('vanished-oracle', `${b.id} ran on the base and is missing from the head's report`, b)
  }
}

/**
 * A live ledger row for a test the suite no longer has is a freeze nobody can lift. One
 * warning for all of them: a 100,000-row ledger must not become 100,000 reasons.
 */
function scoreStaleRows(s: Scoring): void {
  const stale: string[] = []
  for (const [test, row] of s.input.live) {
    if (s.input.base.has(test) || s.input.head?.has(test)) continue
    stale.push(`${row.id} (${test})`)
  }
  if (stale.length === 0) return
  const shown = stale.slice(0, STALE_NAMED).join(', ')
  const more = stale.length > STALE_NAMED ? ` and ${stale.length - STALE_NAMED} more` : ''
  const reason: Reason = {
    rule: 'ledger-stale',
    message:
      stale.length === 1
        ? `ledger row ${shown} freezes a test that no longer exists in the suite; remove the row`
        : `${stale.length} ledger rows freeze tests that no longer exist in the suite: ${shown}${more}; remove them`,
    level: 'warning'
  }
  if (s.input.ledgerPath) reason.path = s.input.ledgerPath
  s.reasons.push(reason)
}

function scoreNonDiscriminating(s: Scoring): void {
  for (const id of s.diagnostics.non_discriminating) {
    s.warn(
      'non-discriminating',
      `${id} passes on the base as well as on the head: a test written for a fix should fail without it`,
      s.input.head?.get(id),
      'notice'
    )
  }
}

/**
 * Tests whose names collapse into one id share one vote (the worst outcome of each side):
 * say so, since a regression in one of them hides behind the other's failure.
 */
function scoreDuplicates(s: Scoring): void {
  const dup = s.input.duplicates
  if (!dup) return
  const ids = [...new Set([...dup.base, ...dup.head])].sort()
  if (ids.length === 0) return
  const shown = ids.slice(0, 20).join('; ')
  const more = ids.length > 20 ? ` and ${ids.length - 20} more` : ''
  s.reasons.push({
    rule: 'diagnostic',
    message: `${ids.length} test id(s) are shared by more than one test in a report, so each counts once, with its worst outcome on each side: ${shown}${more}; give the tests distinct names`,
    path: s.input.policyPath,
    level: 'warning'
  })
}

type Sink = Pick<Scoring, 'votes' | 'transitions' | 'bucket' | 'fail'>

function scoreVoting(
  h: Observation,
  hf: Final,
  b: Observation | null,
  bf: Final | null,
  s: Sink
): void {
  const count = (passed: boolean): void => {
    if (passed) s.votes.passed++
    else s.votes.failed++
    s.bucket(h.id)[passed ? 'passed' : 'failed']++
  }
  if (hf === 'K') {
    count(false) // reported as flaky-oracle above
    return
  }
  if (hf === 'S') {
    if (bf === 'P') {
      count(false)
      s.transitions.pass_to_fail.push(h.id)
      s.fail(
        'regression',
        `${h.id} passed on the base and is skipped on head: a skip is not a pass`,
        h
      )
    } else if (bf === 'F') {
      count(false)
      s.transitions.fail_to_fail.push(h.id)
      s.fail(
        'oracle-failed',
        `${h.id} failed on the base and is skipped on head: a skip is not a pass`,
        h
      )
    }
    return
  }
  if (hf === 'P') {
    count(true)
    if (bf === 'P') s.transitions.pass_to_pass++
    else if (bf === 'F') s.transitions.fail_to_pass.push(h.id)
    return
  }
  // hf === 'F'
  count(false)
  const why = h.message ? `: ${h.message}` : ''
  if (bf === 'P') {
    s.transitions.pass_to_fail.push(h.id)
    s.fail('regression', `${h.id} passed on the base and fails on head${why}`, h)
  } else if (bf === 'F') {
    s.transitions.fail_to_fail.push(h.id)
    s.fail('oracle-failed', `${h.id} fails on the base and still fails on head${why}`, h)
  } else {
    s.fail('oracle-failed', `${h.id} fails on head${why}`, h)
  }
}

function describe(o: Observation): string {
  const f = finalOf(o)
  return f === 'K' ? `flaky (${o.outcomes.join(', ')})` : (o.outcomes[0] ?? 'missing')
}

function sortTransitions(t: Transitions): void {
  for (const list of [t.fail_to_pass, t.pass_to_fail, t.fail_to_fail, t.vanished]) list.sort()
}
