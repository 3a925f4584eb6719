import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runFacts, type GateContext } from '../src/context.js'
import { Git } from '../src/git/git.js'
import { ledgerFromText, loadLedger } from '../src/ledger/index.js'
import { addDays, daysBetween, isCalendarDate } from '../src/ledger/dates.js'
import { parsePolicy } from '../src/policy/load.js'
import { memoryLogger } from './helpers/logger.js'
import { policyYaml, TestRepo } from './helpers/repo.js'

const TODAY = '2026-03-10'
const FILE = 'oracle/flake_ledger.yml'

interface RowInput {
  [key: string]: unknown
}

function row(overrides: RowInput = {}): RowInput {
  return {
    id: 'F-1',
    test: 'oracle/properties/test_a.py::test_one',
    cause: 'order',
    reason: 'depends on test order',
    owner: 'alice',
    first_seen: '2026-03-01',
    expires_on: '2026-03-25',
    max_runs: 3,
    ...overrides
  }
}

/** Block YAML, one key a line, so every field has a line of its own. */
function yaml(rows: RowInput[], header = 'version: 1\n'): string {
  let out = `${header}entries:\n`
  for (const r of rows) {
    const keys = Object.entries(r).filter(([, v]) => v !== undefined)
    keys.forEach(([k, v], i) => {
      out += `${i === 0 ? '  - ' : '    '}${k}: ${JSON.stringify(v)}\n`
    })
  }
  return out
}

/** Line (1-based) of the first line containing `needle` after the line containing `after`. */
function lineOf(text: string, needle: string, after?: string): number {
  const lines = text.split('\n')
  const start = after === undefined ? 0 : lines.findIndex(l => l.includes(after))
  return lines.findIndex((l, i) => i >= start && l.includes(needle)) + 1
}

function load(text: string, file = FILE, today = TODAY, maxDays = 30) {
  return ledgerFromText(text, file, today, maxDays)
}

describe('dates', () => {
  it('knows real calendar dates', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true)
    expect(isCalendarDate('2026-02-29')).toBe(false)
    expect(isCalendarDate('2026-04-31')).toBe(false)
    expect(isCalendarDate('2026-4-1')).toBe(false)
    expect(daysBetween('2026-02-27', '2026-03-01')).toBe(2)
    expect(addDays('2026-12-25', 14)).toBe('2027-01-08')
  })
})

describe('ledger schema', () => {
  it('accepts a valid ledger in YAML and JSON alike', () => {
    const y = load(
      yaml([row(), row({ id: 'F-2', test: 'x.py::t', ticket: 'T-1', counterexample: { n: 3 } })])
    )
    expect(y.reasons).toEqual([])
    expect(y.rows.map(r => r.id)).toEqual(['F-1', 'F-2'])
    expect([...y.live.keys()]).toEqual(['oracle/properties/test_a.py::test_one', 'x.py::t'])
    const j = load(JSON.stringify({ version: 1, entries: [row()] }, null, 2), 'oracle/ledger.json')
    expect(j.reasons).toEqual([])
    expect(j.live.get('oracle/properties/test_a.py::test_one')?.owner).toBe('alice')
  })

  it('accepts every cause of the contract, env (broken in this environment) included', () => {
    const causes = ['order', 'time', 'net', 'rng', 'shared', 'env']
    const rows = causes.map((cause, i) => row({ id: `F-${i}`, test: `x.py::t${i}`, cause }))
    const loaded = load(yaml(rows))
    expect(loaded.reasons).toEqual([])
    expect(loaded.live.get('x.py::t5')?.cause).toBe('env')
  })

  // Each field error names the file, the line of the field, the row id and the field.
  const fieldCases: Array<[string, RowInput, string, RegExp]> = [
    [
      'cause outside the enum',
      { cause: 'cosmic-rays' },
      'cause',
      /expected one of "order", "time", "net", "rng", "shared"/
    ],
    ['first_seen not a date', { first_seen: '10/03/2026' }, 'first_seen', /real calendar date/],
    [
      'expires_on not a calendar date',
      { expires_on: '2026-02-30' },
      'expires_on',
      /real calendar date/
    ],
    ['max_runs zero', { max_runs: 0 }, 'max_runs', /expected >= 1/],
    ['max_runs not an integer', { max_runs: 1.5 }, 'max_runs', /expected integer/],
    ['owner empty', { owner: '  ' }, 'owner', /non-empty/],
    ['reason a number', { reason: 42 }, 'reason', /expected string/],
    ['test empty', { test: '' }, 'test', /non-empty/],
    ['ticket a list', { ticket: ['a'] }, 'ticket', /expected string/],
    ['unknown field', { expires: '2026-03-20' }, 'expires', /unknown field/],
    [
      'expires_on before first_seen',
      { first_seen: '2026-03-05', expires_on: '2026-03-04' },
      'expires_on',
      /before first_seen/
    ],
    [
      'window over ledger_max_days',
      { first_seen: '2026-03-01', expires_on: '2026-04-01' },
      'expires_on',
      /31 days.*at most 30/
    ],
    [
      'first_seen in the future',
      { first_seen: '2026-03-11', expires_on: '2026-03-20' },
      'first_seen',
      /after today/
    ]
  ]
  for (const [name, overrides, field, message] of fieldCases) {
    it(`names file, line, row id and field: ${name}`, () => {
      const text = yaml([
        row({ id: 'ok-row', test: 'a.py::ok' }),
        row({ id: 'bad-row', ...overrides })
      ])
      const state = load(text)
      expect(state.reasons).toHaveLength(1)
      const [reason] = state.reasons
      const line = lineOf(text, `${field}:`, 'bad-row')
      expect(line).toBeGreaterThan(0)
      expect(reason).toMatchObject({ rule: 'ledger-invalid', level: 'failure', path: FILE, line })
      expect(reason!.message).toContain(`${FILE}:${line}:`)
      expect(reason!.message).toContain('row "bad-row"')
      expect(reason!.message).toContain(`field "${field}"`)
      expect(reason!.message).toMatch(message)
      // The invalid row neither abstains nor hides the valid one.
      expect(state.rows.map(r => r.id)).toEqual(['ok-row'])
      expect(state.live.has('a.py::ok')).toBe(true)
    })
  }

  for (const field of [
    'id',
    'test',
    'cause',
    'reason',
    'owner',
    'first_seen',
    'expires_on',
    'max_runs'
  ]) {
    it(`reports a missing ${field} at the row's line`, () => {
      const text = yaml([row({ [field]: undefined, ...(field === 'id' ? {} : { id: 'gap' }) })])
      const state = load(text)
      expect(state.reasons).toHaveLength(1)
      const r = state.reasons[0]!
      const rowLine = lineOf(text, '  - ')
      expect(r).toMatchObject({ rule: 'ledger-invalid', line: rowLine })
      expect(r.message).toContain(`field "${field}": missing`)
      expect(r.message).toContain(field === 'id' ? 'row #1 (no id)' : 'row "gap"')
    })
  }

  it('reports duplicate ids and duplicate tests at the second row', () => {
    const text = yaml([row(), row({ test: 'other.py::t' }), row({ id: 'F-3' })])
    const state = load(text)
    const messages = state.reasons.map(r => `${r.line} ${r.message}`)
    expect(messages).toHaveLength(2)
    // The second row's id line and the third row's test line.
    expect(state.reasons[0]!.line).toBe(lineOf(text, 'id: "F-1"', 'reason'))
    expect(state.reasons[1]!.line).toBe(lineOf(text, 'test:', '"F-3"'))
    expect(messages[0]).toMatch(/row "F-1" field "id": duplicate id \(first used on line 3\)/)
    expect(messages[1]).toMatch(
      /row "F-3" field "test": duplicate test "oracle\/properties\/test_a.py::test_one" \(already frozen on line 3\)/
    )
    expect(state.rows.map(r => r.id)).toEqual(['F-1'])
  })

  it('honours ledger_max_days from the policy', () => {
    const text = yaml([row({ first_seen: '2026-03-01', expires_on: '2026-03-20' })])
    expect(load(text, FILE, TODAY, 30).reasons).toEqual([])
    const tight = load(text, FILE, TODAY, 10)
    expect(tight.reasons[0]!.message).toMatch(/19 days; the policy allows at most 10/)
  })

  it('reports top-level problems: version, entries, not a mapping, syntax', () => {
    const v = load('version: 2\nentries: []\n')
    expect(v.reasons[0]).toMatchObject({ rule: 'ledger-invalid', line: 1 })
    expect(v.reasons[0]!.message).toContain('field "version": expected 1')
    const e = load('version: 1\nentries: {}\n')
    expect(e.reasons[0]!.message).toMatch(/:2: field "entries": expected array/)
    expect(load('- a\n- b\n').reasons[0]!.message).toMatch(/expected a mapping/)
    const y = load('version: 1\nentries:\n  - id: [\n')
    expect(y.reasons[0]!.message).toMatch(/syntax/)
    const j = load('{\n  "version": 1,\n  "entries": [],\n}\n', 'l.json')
    expect(j.reasons[0]).toMatchObject({ rule: 'ledger-invalid', path: 'l.json' })
    expect(j.reasons[0]!.message).toMatch(/^l\.json:\d+: JSON syntax/)
    expect(j.rows).toEqual([])
  })

  it('gives JSON problems the line of the JSON node', () => {
    const text = JSON.stringify(
      { version: 1, entries: [row(), row({ id: 'J-2', test: 'b.py::t', cause: 'moon' })] },
      null,
      2
    )
    const state = load(text, 'oracle/ledger.json')
    expect(state.reasons).toHaveLength(1)
    const line = lineOf(text, '"moon"')
    expect(state.reasons[0]!.line).toBe(line)
    expect(state.reasons[0]!.message).toContain(
      `oracle/ledger.json:${line}: row "J-2" field "cause"`
    )
  })
})

describe('ledger expiry', () => {
  it('expires today = live (with a warning); yesterday = debt, 1 day overdue', () => {
    const text = yaml([
      row({ id: 'today', test: 'a.py::t1', expires_on: TODAY }),
      row({ id: 'yesterday', test: 'a.py::t2', expires_on: '2026-03-09', owner: 'bob' })
    ])
    const state = load(text)
    expect(state.live.has('a.py::t1')).toBe(true)
    expect(state.live.has('a.py::t2')).toBe(false)
    expect(state.freeze_debt).toEqual([
      { id: 'yesterday', test: 'a.py::t2', owner: 'bob', expires_on: '2026-03-09', days_overdue: 1 }
    ])
    const expired = state.reasons.filter(r => r.rule === 'ledger-expired')
    expect(expired).toHaveLength(1)
    expect(expired[0]).toMatchObject({
      level: 'failure',
      path: FILE,
      line: lineOf(text, 'yesterday')
    })
    expect(expired[0]!.message).toMatch(/"yesterday".*owner bob.*expired on 2026-03-09, 1 day/)
    // Expired rows stay in `rows` (valid), only not live.
    expect(state.rows.map(r => r.id)).toEqual(['today', 'yesterday'])
  })

  it('warns for rows expiring within 7 days, not beyond', () => {
    const text = yaml([
      row({ id: 'in7', test: 'a.py::t1', expires_on: addDays(TODAY, 7) }),
      row({ id: 'in8', test: 'a.py::t2', expires_on: addDays(TODAY, 8) })
    ])
    const state = load(text)
    expect(state.reasons).toEqual([
      {
        rule: 'ledger-expiring',
        level: 'warning',
        path: FILE,
        line: lineOf(text, 'in7'),
        message: expect.stringContaining('expires in 7 day(s) (2026-03-17)')
      }
    ])
    expect(state.live.size).toBe(2)
    expect(state.freeze_debt).toEqual([])
  })
})

describe('loadLedger (from the merge base)', () => {
  const repo = new TestRepo()
  afterAll(() => repo.cleanup())

  function ctx(policyExtra: string, mergeBase: string, head: string): GateContext {
    const git = new Git(repo.dir, process.env)
    const policy = parsePolicy(policyYaml(policyExtra), '.github/oracle-gate.yml')
    return {
      ...runFacts(git, policy),
      repoDir: repo.dir,
      git,
      policy,
      mergeBase,
      head,
      today: TODAY,
      log: memoryLogger(),
      writeSet: [],
      childEnv: {},
      tempDir: repo.dir
    }
  }

  it('reads the base version, ignores the head, and names a ledger missing at base', async () => {
    repo.write({ 'README.md': 'x\n' })
    const first = repo.commit('no ledger')
    repo.write({ [FILE]: yaml([row({ expires_on: '2026-03-09' })]) })
    const base = repo.commit('expired ledger')
    // The head renews the row: the base still decides.
    repo.write({ [FILE]: yaml([row({ expires_on: '2026-03-30' })]) })
    const head = repo.commit('renew in head')

    const none = await loadLedger(ctx('', base, head))
    expect(none).toMatchObject({ rows: [], reasons: [], freeze_debt: [] })

    const state = await loadLedger(ctx(`ledger: ${FILE}\n`, base, head))
    expect(state.path).toBe(FILE)
    expect(state.freeze_debt.map(d => d.days_overdue)).toEqual([1])
    expect(state.reasons.map(r => r.rule)).toEqual(['ledger-expired'])

    const missing = await loadLedger(ctx(`ledger: ${FILE}\n`, first, head))
    expect(missing.reasons).toHaveLength(1)
    expect(missing.reasons[0]).toMatchObject({
      rule: 'ledger-invalid',
      level: 'failure',
      path: FILE
    })
    expect(missing.reasons[0]!.message).toContain(
      `ledger ${FILE} (named by the policy) does not exist at the merge base`
    )
  })

  it('takes ledger_max_days from the policy', async () => {
    repo.write({ [FILE]: yaml([row({ first_seen: '2026-03-01', expires_on: '2026-03-20' })]) })
    const sha = repo.commit('19-day window')
    const loose = await loadLedger(ctx(`ledger: ${FILE}\n`, sha, sha))
    expect(loose.reasons).toEqual([])
    const tight = await loadLedger(ctx(`ledger: ${FILE}\nledger_max_days: 14\n`, sha, sha))
    expect(tight.reasons.map(r => r.rule)).toEqual(['ledger-invalid'])
  })
})

describe('docs/ledger.md', () => {
  it('holds examples that validate, in YAML and in JSON', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', 'docs', 'ledger.md'), 'utf8')
    const block = (lang: string, containing: string): string => {
      const found = [...doc.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))]
        .map(m => m[1]!)
        .find(b => b.includes(containing))
      if (found === undefined) throw new Error(`no ${lang} block with ${containing}`)
      return found
    }
    const yamlState = load(block('yaml', 'entries:'), FILE, '2026-03-05')
    expect(yamlState.reasons).toEqual([])
    expect(yamlState.rows).toHaveLength(2)
    const jsonState = load(block('json', '"entries"'), 'oracle/flake_ledger.json', '2026-03-05')
    expect(jsonState.reasons).toEqual([])
    expect(jsonState.rows).toHaveLength(1)
  })
})
