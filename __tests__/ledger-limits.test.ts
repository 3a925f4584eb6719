// ledger_max_days by cause (issue 25): env rows may live longer than flakes, the number form
// stays valid, and uniting two policies keeps the shorter window of each cause.
import { describe, expect, it } from 'vitest'
import { ledgerFromText } from '../src/ledger/index.js'
import { maxDaysFor, sameMaxDays, stricterMaxDays } from '../src/ledger/limits.js'
import { parsePolicy } from '../src/policy/load.js'
import { unitePolicies } from '../src/policy/union.js'

const FILE = '.github/oracle-gate.yml'
const POLICY = `version: 1
planes: {voting: [tests/**]}
suite: {command: pytest tests}
ledger: oracle/flake_ledger.yml
`
const row = (cause: string, expires: string): string =>
  `version: 1
entries:
  - {id: F-1, test: "tests/test_a.py::test_zone", cause: ${cause}, reason: "needs TZ", owner: me, first_seen: "2026-01-01", expires_on: "${expires}", max_runs: 3}
`

describe('ledger_max_days by cause', () => {
  it('accepts a number (as before) or a map by cause with a default', () => {
    expect(parsePolicy(POLICY, FILE).ledger_max_days).toBe(30)
    expect(parsePolicy(`${POLICY}ledger_max_days: 10\n`, FILE).ledger_max_days).toBe(10)
    const map = parsePolicy(`${POLICY}ledger_max_days: {default: 14, env: 180}\n`, FILE)
    expect(maxDaysFor(map.ledger_max_days, 'env')).toBe(180)
    expect(maxDaysFor(map.ledger_max_days, 'time')).toBe(14)
    expect(maxDaysFor({ env: 90 }, 'order')).toBe(30)
    expect(() => parsePolicy(`${POLICY}ledger_max_days: {env: 0}\n`, FILE)).toThrow(
      /ledger_max_days/
    )
    expect(() => parsePolicy(`${POLICY}ledger_max_days: {weather: 3}\n`, FILE)).toThrow(
      /ledger_max_days/
    )
  })

  it('an env row may live 120 days under {default: 14, env: 180}; a time row of the same window is refused, naming the cause', () => {
    const limit = { default: 14, env: 180 }
    expect(ledgerFromText(row('env', '2026-05-01'), 'l.yml', '2026-01-02', limit).reasons).toEqual(
      []
    )
    const time = ledgerFromText(row('time', '2026-05-01'), 'l.yml', '2026-01-02', limit)
    expect(time.reasons.map(r => r.message).join('\n')).toMatch(
      /is 120 days; the policy allows at most 14 for cause time \(ledger_max_days\)/
    )
    // The number form still holds every cause to one window.
    expect(
      ledgerFromText(row('env', '2026-05-01'), 'l.yml', '2026-01-02', 30).reasons
    ).toHaveLength(1)
  })

  it('uniting takes the shorter window per cause, and says the limit was narrowed', () => {
    expect(stricterMaxDays(30, 10)).toBe(10)
    expect(stricterMaxDays({ default: 14, env: 180 }, 60)).toEqual({
      default: 14,
      order: 14,
      time: 14,
      net: 14,
      rng: 14,
      shared: 14,
      env: 60
    })
    expect(sameMaxDays(30, { default: 30 })).toBe(true)
    const base = parsePolicy(`${POLICY}ledger_max_days: {default: 14, env: 365}\n`, FILE)
    const tip = parsePolicy(`${POLICY}ledger_max_days: {default: 30, env: 90}\n`, FILE)
    const united = unitePolicies(base, tip)
    expect(maxDaysFor(united.policy.ledger_max_days, 'env')).toBe(90)
    expect(maxDaysFor(united.policy.ledger_max_days, 'order')).toBe(14)
    expect(united.widened).toContain('ledger_max_days')
  })
})
