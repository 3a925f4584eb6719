// The card at a glance: from the reasons and figures, the ONE thing to do next (fix the
// product; undo the edit to X; freeze or fix the flaky base test Y), and which sides' logs
// are worth showing. Pure and free of Markdown: `subjects` and `detail` come from the head
// (paths, test ids, messages) and are escaped by the renderer, the rest is fixed wording.
import { INSTRUMENT_RULES } from '../instrument/rules.js'
import type { Reason, RuleId, Scorecard, SideRun } from '../types.js'

export interface NextStep {
  /** Fixed wording: the action ("Fix the product", "Undo the edit to"). */
  lead: string
  /** Head-derived names the action is about (paths, test ids); at most SUBJECTS shown. */
  subjects: string[]
  /** How many more subjects there are than listed. */
  more: number
  /**
   * Subjects right after the lead ("Undo the edit to X") rather than after the why
   * ("Fix the product: the base's oracle fails on head: X").
   */
  inline: boolean
  /** Fixed wording (with figures): why. */
  why: string
  /** Fixed wording: how, when there is more to say than why. */
  hint?: string
  /** Head-derived text worth quoting (an error's message), escaped by the renderer. */
  detail?: string
}

const SUBJECTS = 3
const PRODUCT_FAILS: ReadonlySet<RuleId> = new Set([
  'regression',
  'oracle-failed',
  'vanished-oracle',
  'seed-regression',
  'report-mismatch',
  'unexplained-hit'
])
const GOVERNANCE: Readonly<Partial<Record<RuleId, string>>> = {
  'skip-marker': 'a skip, xfail, only or timeout marker without a live ledger row',
  'literal-overlap': 'a test repeats a literal the patch added to production code',
  'judge-import': 'an LLM client imported on a test plane',
  'oracle-reach': 'production code reaches into the test runner, the gate or the instrument',
  'ungoverned-test': 'a test-like file on no plane: move it under an in-diff path, or plane it',
  'instrument-approval': 'the instrument change has no approval of this head'
}
const LEDGER: ReadonlySet<RuleId> = new Set([
  'ledger-invalid',
  'ledger-expired',
  'ledger-expiring',
  'ledger-stale'
])

const failing = (card: Scorecard): Reason[] => card.reasons.filter(r => r.level === 'failure')

/** The subjects, deduplicated and capped, and whether they follow the lead directly. */
function named(
  items: readonly string[],
  inline = true
): Pick<NextStep, 'subjects' | 'more' | 'inline'> {
  const unique = [...new Set(items.filter(Boolean))]
  return {
    subjects: unique.slice(0, SUBJECTS),
    more: Math.max(0, unique.length - SUBJECTS),
    inline
  }
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`

export function nextStep(card: Scorecard): NextStep {
  const fails = failing(card)
  switch (card.verdict) {
    case 'merge':
      return mergeStep(card)
    case 'error':
      return errorStep(fails)
    case 'policy':
      return policyStep(fails)
    case 'product':
      return productStep(card, fails)
    case 'no-vote':
      return noVoteStep(fails)
  }
}

function mergeStep(card: Scorecard): NextStep {
  const t = card.transitions
  const approved = card.reasons.find(r => r.rule === 'instrument-approval')
  return {
    lead: 'Mergeable',
    ...named([]),
    why:
      t.fail_to_pass.length === 0
        ? `the locked oracle agrees, but no voting test went from fail to pass (${plural(t.pass_to_fail.length, 'regression')}): nothing measured shows the patch fixes anything${baseAlready(card)}`
        : `the locked oracle agrees (${plural(t.fail_to_pass.length, 'hit')}, ${plural(t.pass_to_fail.length, 'regression')}); nothing else to do`,
    ...(approved ? { detail: approved.message } : {})
  }
}

/** ", and 2 of the patch's own tests already pass on the base" when that is so. */
function baseAlready(card: Scorecard): string {
  const n = card.diagnostics.non_discriminating.length
  return n === 0
    ? ''
    : `, and ${n} of the patch's tests already pass${n === 1 ? 'es' : ''} on the base`
}

function errorStep(fails: readonly Reason[]): NextStep {
  const first = fails.find(r => r.rule === 'config-invalid' || r.rule === 'gate-error') ?? fails[0]
  const config = first?.rule === 'config-invalid'
  return {
    lead: config ? 'Fix the gate configuration' : 'Re-run the gate, or report the gate error',
    ...named(first?.path ? [first.path] : []),
    why: 'the patch was not judged',
    ...(first ? { detail: first.message } : {})
  }
}

function policyStep(fails: readonly Reason[]): NextStep {
  const instrument = fails.filter(r => INSTRUMENT_RULES.has(r.rule))
  const approval = fails.find(r => r.rule === 'instrument-approval')
  if (instrument.length > 0) {
    return {
      lead: 'Undo the edit to',
      ...named(instrument.map(r => r.path ?? '')),
      why: 'the patch may not change the instrument that measures it, so the suite was not run',
      ...(approval
        ? { hint: "A person's oracle change merges once an approver approves this head (below)." }
        : {}),
      ...(approval ? { detail: approval.message } : {})
    }
  }
  const ledger = fails.filter(r => LEDGER.has(r.rule))
  const governed = fails.filter(r => GOVERNANCE[r.rule] !== undefined)
  if (governed.length > 0 || ledger.length === 0) {
    const rule = governed[0]?.rule
    return {
      lead: 'Fix the test governance in',
      ...named(governed.map(r => r.path ?? '')),
      why: rule ? (GOVERNANCE[rule] ?? rule) : 'a governance rule failed',
      ...(governed[0] ? { detail: governed[0].message } : {})
    }
  }
  return {
    lead: 'Fix the flake ledger',
    ...named(ledger.map(r => r.path ?? '')),
    why: 'the ledger read from the merge base breaks its rules: fix it on the base branch, not in this patch',
    ...(ledger[0] ? { detail: ledger[0].message } : {})
  }
}

function productStep(card: Scorecard, fails: readonly Reason[]): NextStep {
  const t = card.transitions
  if (fails.some(r => PRODUCT_FAILS.has(r.rule))) {
    const figures = [
      t.pass_to_fail.length ? plural(t.pass_to_fail.length, 'regression') : '',
      t.fail_to_fail.length ? `${t.fail_to_fail.length} still failing` : '',
      t.vanished.length ? `${t.vanished.length} vanished` : ''
    ].filter(Boolean)
    const ids = [...t.pass_to_fail, ...t.fail_to_fail, ...t.vanished]
    return {
      lead: 'Fix the product',
      ...named(
        ids.length ? ids : fails.filter(r => PRODUCT_FAILS.has(r.rule)).map(r => r.path ?? ''),
        false
      ),
      why: `the base's oracle fails on head${figures.length ? ` (${figures.join(', ')})` : ''}`,
      ...(ids.length ? {} : { detail: fails.find(r => PRODUCT_FAILS.has(r.rule))?.message ?? '' })
    }
  }
  const setup = fails.find(r => r.rule === 'setup-failed')
  if (setup)
    return {
      lead: "Fix the head's setup",
      ...named([]),
      why: 'the suite could not be installed on head, a red vote'
    }
  const timeout = fails.find(r => r.rule === 'suite-timeout')
  if (timeout)
    return {
      lead: 'Make the suite finish',
      ...named([]),
      why: 'a timed-out side is a red vote',
      detail: firstLine(timeout.message)
    }
  const unfrozen = card.flakes.filter(f => f.ledger_id === undefined)
  const headFlakes = unfrozen.filter(f => f.side === 'head').map(f => f.test)
  if (headFlakes.length > 0)
    return {
      lead: 'Fix the flaky test',
      ...named(headFlakes),
      why: 'it gave different outcomes on the head and has no live ledger row'
    }
  const baseFlakes = unfrozen.filter(f => f.side === 'base').map(f => f.test)
  if (baseFlakes.length > 0)
    return {
      lead: 'Freeze or fix the flaky base test',
      ...named(baseFlakes),
      why: "the oracle is unstable on the base, not this patch's fault",
      hint: 'Freeze it with a ledger row (oracle-gate ledger add) or fix it on the base branch, then re-run.'
    }
  const weak = fails.filter(r => r.rule === 'weak-evidence')
  if (weak.length > 0)
    return {
      lead: 'Pin the change with locked tests, or drop what they cannot see, in',
      ...named(weak.map(r => r.path ?? '')),
      why: `the voting tests run or notice too little of the patch (${evidenceGlance(card)?.figures ?? 'evidence'}); tests go in a PR of their own on the base branch first`,
      detail: weak[0]?.message ?? ''
    }
  return {
    lead: 'Fix the product',
    ...named(
      fails.map(r => r.path ?? ''),
      false
    ),
    why: 'a product rule failed',
    detail: fails[0]?.message ?? ''
  }
}

/** The card's evidence at a glance: fixed wording with figures (head text stays apart). */
export interface EvidenceGlance {
  /** "12 of 14 changed lines run under the locked tests; 9 of 10 mutants killed". */
  figures: string
  /** The first surviving mutant (path, line, mutation: head-derived), when one survived. */
  survivor?: { path: string; line: number; mutation: string }
  /** Survivors beyond the first. */
  moreSurvivors: number
}

/** The evidence line of the card, or null when there is none (evidence.mode off). */
export function evidenceGlance(card: Scorecard): EvidenceGlance | null {
  const e = card.evidence
  if (!e) return null
  const run = e.mutants.filter(m => m.not_run === undefined)
  const killed = run.filter(m => m.killed_by !== null).length
  const notRun = e.mutants.length - run.length
  const parts = [
    `${e.covered_lines} of ${plural(e.changed_lines, 'changed line')} run under the locked tests`
  ]
  if (e.mutants.length > 0)
    parts.push(
      `${killed} of ${plural(run.length, 'mutant')} killed${notRun > 0 ? ` (${notRun} not run)` : ''}`
    )
  const survivors = run.filter(m => m.killed_by === null)
  const first = survivors[0]
  return {
    figures: parts.join('; '),
    ...(first
      ? { survivor: { path: first.path, line: first.line, mutation: first.mutation } }
      : {}),
    moreSurvivors: Math.max(0, survivors.length - 1)
  }
}

function noVoteStep(fails: readonly Reason[]): NextStep {
  const seeds = fails.find(r => r.rule === 'insufficient-hits')
  if (seeds)
    return {
      lead: 'Hit more seeds',
      ...named([]),
      why: 'fewer seed hits than min_hits',
      detail: seeds.message
    }
  return {
    lead: 'Make the oracle vote',
    ...named([]),
    why: 'no voting test ran on head: check suite.command and planes.voting in the policy'
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? ''
}

/** A side whose output is worth reading: it failed, and the verdict is not a merge. */
export function failedSides(card: Scorecard): SideRun[] {
  if (card.verdict === 'merge') return []
  return card.runs.filter(r => r.timed_out || r.exit_code !== 0)
}
