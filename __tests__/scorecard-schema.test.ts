// The published scorecard (`oracle-gate/scorecard@1`) has one source of truth,
// src/verdict/scorecard.schema.json. These tests tie it to the Scorecard type (a field
// added to one and not the other fails here or in tsc), check the cards the gate builds
// against it, and show report mode refusing an artifact that does not match it.
import { describe, expect, it } from 'vitest'
import { parseArtifactCard } from '../src/action/artifact.js'
import { GateError } from '../src/errors.js'
import type { Scorecard } from '../src/types.js'
import { emptyScorecard, finalize } from '../src/verdict/scorecard.js'
import { scorecardSchema, scorecardValidator } from '../src/verdict/scorecard-schema.js'
import { RULE_VERDICT } from '../src/verdict/verdict.js'

/** The keys of T that may be absent. */
type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T]
/** Compiles only when A and B are the same union. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const OPTIONAL = [
  'base_ref',
  'head_ref',
  'pull_requests',
  'event',
  'campaign',
  'unmeasured',
  'shard',
  'sandbox',
  'evidence'
] as const
const optionalMatch: Same<OptionalKeys<Scorecard>, (typeof OPTIONAL)[number]> = true

/** Every field of the type, optional ones included: tsc fails when the type gains one. */
function fullCard(): Required<Scorecard> {
  const sha = 'a'.repeat(40)
  return {
    schema: 'oracle-gate/scorecard@1',
    version: '0.1.0',
    verdict: 'product',
    merge: false,
    base: sha,
    head: 'b'.repeat(40),
    base_ref: sha,
    head_ref: 'agent',
    pull_requests: [7],
    event: 'merge_group',
    today: '2026-03-10',
    policy_path: '.github/oracle-gate.yml',
    reasons: [
      { rule: 'regression', message: 'm', path: 'oracle/t.py', line: 3, level: 'failure' },
      { rule: 'diagnostic', message: 'n', level: 'notice' }
    ],
    write_set: [
      {
        path: 'b.py',
        previous_path: 'a.py',
        status: 'renamed',
        old_kind: 'file',
        new_kind: 'symlink',
        symlink_target: 'c.py',
        plane: 'source',
        action: 'continue'
      }
    ],
    oracle: { base_digest: 'x', head_digest: 'x', unchanged: true },
    votes: {
      passed: 1,
      failed: 1,
      frozen: 0,
      drafts: 0,
      by_class: { core: { passed: 1, failed: 1, frozen: 0 } }
    },
    transitions: {
      fail_to_pass: [],
      pass_to_fail: ['oracle/t.py::t'],
      fail_to_fail: [],
      pass_to_pass: 1,
      vanished: []
    },
    seeds: { oracle_hits: 0, raw_fail_to_pass: 0, min_distance: 8, hit_ids: [] },
    freeze_debt: [
      { id: 'F-1', test: 'oracle/t.py::u', owner: 'o', expires_on: '2026-03-01', days_overdue: 9 }
    ],
    flakes: [
      { test: 'oracle/t.py::v', side: 'head', outcomes: ['failed', 'passed'], ledger_id: 'F-2' }
    ],
    unmeasured: ['Makefile', 'package.json'],
    runs: [
      {
        side: 'base',
        exit_code: 0,
        timed_out: false,
        duration_ms: 10,
        tests: 2,
        setup: 'ran',
        setup_reason: 'suite.setup succeeded',
        log_tail: '2 passed'
      },
      { side: 'head', exit_code: null, timed_out: true, duration_ms: 10, tests: 0 }
    ],
    diagnostics: { non_discriminating: ['tests/t.py::w'], drafts: { 'drafts/t.py::x': 'passed' } },
    sandbox: { kind: 'none', contained: false, why: 'sandbox: off' },
    evidence: {
      changed_lines: 14,
      covered_lines: 12,
      uncovered: [{ path: 'src/fee.py', lines: [40, 41] }],
      mutants: [
        { path: 'src/fee.py', line: 31, mutation: '`<` → `<=`', killed_by: null },
        { path: 'src/fee.py', line: 32, mutation: '`+` → `-`', killed_by: 'oracle/t.py::t' },
        { path: 'src/fee.py', line: 33, mutation: '`x` → `0`', killed_by: null, not_run: 'budget' }
      ],
      budget_s: 120,
      skipped_reason: 'JavaScript coverage is not measured here',
      problems: ['src/a.ts: no coverage']
    },
    campaign: { seed: 1, max_examples: 10, wall_clock: 5 },
    shard: {
      index: 2,
      total: 3,
      files: ['oracle/t.py'],
      observed: {
        selection: 'runner',
        canary: { plan: null, why: 'w' },
        added: [],
        base: {
          run: { side: 'base', exit_code: 1, timed_out: false, duration_ms: 5, tests: 1 },
          results: [
            { id: 'oracle/t.py::t', file: 'oracle/t.py', outcomes: ['passed'], runnerFlaky: false }
          ],
          records: [{ attempt: 0, exitCode: 1, signal: null, cases: 1, failing: 1, passed: 0 }],
          duplicates: [],
          seeds: [['s1', true]]
        },
        head: {
          run: { side: 'head', exit_code: null, timed_out: true, duration_ms: 5, tests: 0 },
          results: null,
          failure: { rule: 'suite-timeout', message: 'm', level: 'failure' },
          records: [],
          duplicates: []
        }
      },
      fingerprint: {
        base: sha,
        base_ref: sha,
        head: 'b'.repeat(40),
        policy_path: '.github/oracle-gate.yml',
        policy_digest: `sha256:${'c'.repeat(64)}`,
        instrument_digest: 'x',
        today: '2026-03-10',
        gate_version: '0.1.0'
      },
      digest: `sha256:${'d'.repeat(64)}`
    },
    timings_ms: { replay: 12 }
  }
}

const validateScorecard = scorecardValidator()

describe('the scorecard schema', () => {
  it('names exactly the fields of the Scorecard type, and requires exactly the non-optional ones', () => {
    expect(optionalMatch).toBe(true)
    const full = fullCard()
    expect(Object.keys(scorecardSchema.properties).sort()).toEqual(Object.keys(full).sort())
    expect([...scorecardSchema.required].sort()).toEqual(
      Object.keys(full)
        .filter(k => !(OPTIONAL as readonly string[]).includes(k))
        .sort()
    )
    expect(validateScorecard(full)).toEqual([])
  })

  it('accepts the cards the gate builds: empty, finalized, every verdict', () => {
    const empty = emptyScorecard({ version: 't', today: '2026-01-01', policyPath: 'p.yml' })
    expect(validateScorecard(empty)).toEqual([])
    for (const rule of Object.keys(RULE_VERDICT) as Array<keyof typeof RULE_VERDICT>) {
      const card = finalize(empty, [{ rule, message: 'm', level: 'failure' }])
      expect(validateScorecard(JSON.parse(JSON.stringify(card)))).toEqual([])
    }
  })

  it('refuses unknown keys, wrong types and bad enums, naming the place', () => {
    const extra = { ...fullCard(), verdict_override: 'merge' }
    expect(validateScorecard(extra)).toEqual([
      { path: [], message: 'unknown key "verdict_override"' }
    ])
    const card = fullCard()
    const wrong = {
      ...card,
      votes: { ...card.votes, failed: -1 },
      reasons: [{ rule: 'regression', message: 'm', level: 'fatal' }]
    }
    expect(
      validateScorecard(wrong)
        .map(i => i.path.join('/'))
        .sort()
    ).toEqual(['reasons/0/level', 'votes/failed'])
  })
})

describe('report mode reads an artifact through the schema', () => {
  const refused = (json: unknown): GateError => {
    try {
      parseArtifactCard(json, 'artifact/scorecard.json')
    } catch (error) {
      if (error instanceof GateError) return error
      throw error
    }
    throw new Error('the artifact was accepted')
  }

  it('takes a card that matches, refuses one that does not, as config-invalid naming the path', () => {
    expect(parseArtifactCard(fullCard(), 'a.json').votes.passed).toBe(1)
    const card = fullCard()
    const error = refused({ ...card, runs: [{ ...card.runs[0], exit_code: 'zero' }] })
    expect(error.rule).toBe('config-invalid')
    expect(error.path).toBe('artifact/scorecard.json')
    expect(error.message).toMatch(
      /not an oracle-gate scorecard: runs\/0\/exit_code: expected integer,null/
    )
    expect(
      refused({ ...card, reasons: [{ rule: 'made-up', message: 'm', level: 'failure' }] }).message
    ).toMatch(/unknown rule "made-up"/)
    const long = 'k'.repeat(5000)
    expect(refused({ ...card, [long]: 1 }).message.length).toBeLessThan(400)
  })
})
