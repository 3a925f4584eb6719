import { describe, expect, it } from 'vitest'
import type { Reason, RuleId, Verdict } from '../src/types.js'
import { conclusion, decide, exitCode, RULE_VERDICT, sortReasons } from '../src/verdict/verdict.js'
import { emptyScorecard, finalize } from '../src/verdict/scorecard.js'

const CONTRACT_RULES: RuleId[] = [
  'protected-path',
  'oracle-digest',
  'fixture-digest',
  'runner-tampered',
  'ungoverned-test',
  'skip-marker',
  'literal-overlap',
  'judge-import',
  'ledger-invalid',
  'ledger-expired',
  'oracle-failed',
  'regression',
  'vanished-oracle',
  'flaky-oracle',
  'suite-timeout',
  'empty-vote',
  'insufficient-hits',
  'config-invalid'
]

const fail = (rule: RuleId): Reason => ({ rule, message: rule, level: 'failure' })

describe('verdict precedence', () => {
  it('maps every contract rule to the verdict the contract gives it', () => {
    const expected: Record<string, Verdict> = {
      'protected-path': 'policy',
      'oracle-digest': 'policy',
      'fixture-digest': 'policy',
      'runner-tampered': 'policy',
      'ungoverned-test': 'policy',
      'skip-marker': 'policy',
      'literal-overlap': 'policy',
      'judge-import': 'policy',
      'ledger-invalid': 'policy',
      'ledger-expired': 'policy',
      'oracle-failed': 'product',
      regression: 'product',
      'vanished-oracle': 'product',
      'flaky-oracle': 'product',
      'suite-timeout': 'product',
      'empty-vote': 'no-vote',
      'insufficient-hits': 'no-vote',
      'config-invalid': 'error'
    }
    for (const rule of CONTRACT_RULES)
      expect([rule, decide([fail(rule)])]).toEqual([rule, expected[rule]])
  })

  it('no failing reason means merge; warnings and notices never block', () => {
    expect(decide([])).toBe('merge')
    expect(
      decide([
        { rule: 'ledger-expiring', message: 'soon', level: 'warning' },
        { rule: 'non-discriminating', message: 'x', level: 'notice' }
      ])
    ).toBe('merge')
  })

  const table: Array<[RuleId[], Verdict]> = [
    [['empty-vote'], 'no-vote'],
    [['empty-vote', 'regression'], 'product'],
    [['regression', 'protected-path'], 'policy'],
    [['insufficient-hits', 'skip-marker', 'oracle-failed'], 'policy'],
    [['protected-path', 'config-invalid'], 'error'],
    [['gate-error', 'empty-vote'], 'error'],
    [['suite-timeout', 'insufficient-hits'], 'product']
  ]
  it.each(table)('%j → %s (error > policy > product > no-vote)', (rules, verdict) => {
    expect(decide(rules.map(fail))).toBe(verdict)
    expect(decide([...rules].reverse().map(fail))).toBe(verdict)
  })

  it('finalize keeps the reasons of every verdict and sets merge only for merge', () => {
    const card = finalize(emptyScorecard({ version: 't', today: '2026-01-01', policyPath: 'p' }), [
      fail('empty-vote'),
      fail('protected-path')
    ])
    expect(card.verdict).toBe('policy')
    expect(card.merge).toBe(false)
    expect(card.reasons.map(r => r.rule)).toEqual(['protected-path', 'empty-vote'])
    const clean = finalize(emptyScorecard({ version: 't', today: '2026-01-01', policyPath: 'p' }))
    expect([clean.verdict, clean.merge]).toEqual(['merge', true])
  })

  it('sorts failures before warnings, by precedence', () => {
    const sorted = sortReasons([
      { rule: 'ledger-expiring', message: '', level: 'warning' },
      fail('empty-vote'),
      fail('regression'),
      fail('config-invalid')
    ])
    expect(sorted.map(r => r.rule)).toEqual([
      'config-invalid',
      'regression',
      'empty-vote',
      'ledger-expiring'
    ])
  })

  it('every rule has a verdict class', () => {
    for (const rule of Object.keys(RULE_VERDICT))
      expect(['error', 'policy', 'product', 'no-vote']).toContain(RULE_VERDICT[rule as RuleId])
  })
})

describe('exit codes and conclusions', () => {
  it('maps verdicts to the contract exit codes', () => {
    expect(exitCode('merge')).toBe(0)
    expect(exitCode('product')).toBe(1)
    expect(exitCode('policy')).toBe(2)
    expect(exitCode('no-vote')).toBe(3)
    expect(exitCode('error')).toBe(4)
  })

  it('only merge is success; nothing is ever neutral', () => {
    expect(conclusion('merge')).toBe('success')
    for (const v of ['product', 'policy', 'no-vote', 'error'] as const)
      expect(conclusion(v)).toBe('failure')
  })
})
