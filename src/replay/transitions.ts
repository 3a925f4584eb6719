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

export function score(input: ScoreInput): Score {
  const reasons: Reason[] = []
  const votes: Votes = emptyVotes()
  const transitions: Transitions = emptyTransitions()
  const flakes: FlakeRow[] = []
  const diagnostics: Scorecard['diagnostics'] = emptyDiagnostics()

  const roleOf = (o: Observation): Role => {
    if (o.file === null) return 'unmapped'
    const plane = input.planeOf(o.file)
    if (plane === 'voting') {
      if (input.live.has(o.id)) return 'frozen'
      return input.classOf(o.id) === 'judge' ? 'judge' : 'vote'
    }
    if (plane === 'drafts') return 'draft'
    if (plane === 'in_diff') return 'in_diff'
    return 'none'
  }
  const bucket = (id: string): { passed: number; failed: number; frozen: number } => {
    const name = input.classOf(id) ?? UNCLASSIFIED
    return (votes.by_class[name] ??= { passed: 0, failed: 0, frozen: 0 })
  }
  const fail = (rule: Reason['rule'], message: string, o: Observation): void => {
    const reason: Reason = { rule, message, level: 'failure' }
    if (o.file !== null) reason.path = o.file
    if (o.line !== undefined) reason.line = o.line
    reasons.push(reason)
  }

  // Flakes first: a test whose runs disagree is reported whatever its plane, so the card
  // shows frozen ones too; only unfrozen voting ones are failures.
  for (const [side, results] of [['base', input.base] as const, ['head', input.head] as const]) {
    if (results === null) continue
    for (const o of results.values()) {
      if (finalOf(o) !== 'K') continue
      const role = roleOf(o)
      const row: FlakeRow = {
        test: o.id,
        side,
        outcomes: o.runnerFlaky ? [...o.outcomes, 'flaky-in-runner'] : [...o.outcomes]
      }
      const ledger = input.live.get(o.id)
      if (ledger) row.ledger_id = ledger.id
      if (role === 'vote' || role === 'frozen' || role === 'judge') flakes.push(row)
      if (role !== 'vote') continue
      const seen = row.outcomes.join(', ')
      fail(
        'flaky-oracle',
        side === 'base'
          ? `${o.id} gave different outcomes on the base (${seen}): the oracle is a coin, so its vote means nothing; fix the test or freeze it in the ledger`
          : `${o.id} gave different outcomes on the head (${seen}) and has no live ledger row`,
        o
      )
    }
  }

  const head = input.head
  if (head !== null) {
    let executed = 0
    for (const h of head.values()) {
      const role = roleOf(h)
      const hf = finalOf(h)
      const b = input.base.get(h.id)
      const bf = b ? finalOf(b) : null
      if (role === 'frozen') {
        votes.frozen++
        bucket(h.id).frozen++
      } else if (role === 'judge') {
        if (hf === 'P') bucket(h.id).passed++
        else if (hf === 'F') bucket(h.id).failed++
      } else if (role === 'draft') {
        if (hf !== 'S') votes.drafts++
        diagnostics.drafts[h.id] = describe(h)
      } else if (role === 'in_diff') {
        const onBase = input.inDiffOnBase?.get(h.id) ?? b
        if (
          hf === 'P' &&
          onBase &&
          finalOf(onBase) === 'P' &&
          h.file !== null &&
          input.written.has(h.file)
        ) {
          diagnostics.non_discriminating.push(h.id)
        }
      } else if (role === 'unmapped') {
        // The plane is unknown: a pass proves nothing, a failure may be a voting test.
        if (hf === 'F') {
          fail(
            'oracle-failed',
            `${h.id} fails on head and its file could not be determined from the report, so it may be a voting test (configure the reporter to write file names)`,
            h
          )
        }
      } else if (role === 'vote') {
        if (hf !== 'S') executed++
        scoreVoting(h, hf, b ?? null, bf, { votes, transitions, bucket, fail })
      }
    }

    // Present on base, gone from head: the patch made a voting test disappear.
    for (const b of input.base.values()) {
      if (head.has(b.id) || roleOf(b) !== 'vote') continue
      transitions.vanished.push(b.id)
      fail('vanished-oracle', `${b.id} ran on the base and is missing from the head's report`, b)
    }

    if (executed === 0) {
      reasons.push({
        rule: 'empty-vote',
        message:
          'no voting test ran on head (none collected, all skipped, frozen or judge-class): unscored is not passed',
        path: input.policyPath,
        level: 'failure'
      })
    }
  }

  // A live ledger row for a test the suite no longer has is a freeze nobody can lift. One
  // warning for all of them: a 100,000-row ledger must not become 100,000 reasons.
  const stale: string[] = []
  for (const [test, row] of input.live) {
    if (input.base.has(test) || head?.has(test)) continue
    stale.push(`${row.id} (${test})`)
  }
  if (stale.length > 0) {
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
    if (input.ledgerPath) reason.path = input.ledgerPath
    reasons.push(reason)
  }

  for (const id of diagnostics.non_discriminating) {
    const o = head?.get(id)
    const reason: Reason = {
      rule: 'non-discriminating',
      message: `${id} passes on the base as well as on the head: a test written for a fix should fail without it`,
      level: 'notice'
    }
    if (o?.file) reason.path = o.file
    reasons.push(reason)
  }

  sortTransitions(transitions)
  return { reasons, votes, transitions, flakes, diagnostics }
}

interface Sink {
  votes: Votes
  transitions: Transitions
  bucket(id: string): { passed: number; failed: number; frozen: number }
  fail(rule: Reason['rule'], message: string, o: Observation): void
}

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
