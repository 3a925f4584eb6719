// Inputs a hostile head (or a careless caller) can hand the gate, at the unit level: alias
// bombs and broken YAML in the policy and the ledger name file and line; stale ledger rows
// collapse into one warning. The bundled CLI and action get the same inputs end to end in
// hostile-output.test.ts.
import { describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import { parseLedger } from '../src/ledger/parse.js'
import { parsePolicy, PolicyError } from '../src/policy/load.js'
import { compileClasses } from '../src/replay/classes.js'
import { score, type Observation } from '../src/replay/transitions.js'
import type { LedgerRow } from '../src/ledger/types.js'
import { memoryLogger } from './helpers/logger.js'
import { policyYaml, TestRepo } from './helpers/repo.js'

/** Nine anchors, each nine aliases of the previous one: 9^9 nodes when expanded. */
export function aliasBomb(prefix = ''): string {
  const lines = [`${prefix}a0: &a0 [x, x, x, x, x, x, x, x, x]`]
  for (let i = 1; i < 9; i++) {
    lines.push(
      `${prefix}a${i}: &a${i} [${Array(9)
        .fill(`*a${i - 1}`)
        .join(', ')}]`
    )
  }
  return lines.join('\n') + '\n'
}

describe('alias bombs', () => {
  it('a policy with one is config-invalid naming the file and the line of the first alias', () => {
    const text = `version: 1\n${aliasBomb()}`
    // No wall-clock bound (issue 22): a parser that expanded the bomb would hang or run out
    // of memory, which the test's own timeout reports.
    let error: unknown
    try {
      parsePolicy(text, '.github/oracle-gate.yml')
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(PolicyError)
    const e = error as PolicyError
    expect(e.rule).toBe('config-invalid')
    expect(e.message).toMatch(/\.github\/oracle-gate\.yml:3:1: .*too many aliases/)
    expect(e.line).toBe(3)
  })

  it('a ledger with one is a ledger problem naming the file and the line', () => {
    const text = `version: 1\nentries: []\n${aliasBomb()}`
    const parsed = parseLedger(text, 'oracle/flake_ledger.yml', {
      today: '2026-06-01',
      maxDays: 90
    })
    expect(parsed.rows).toEqual([])
    expect(parsed.problems).toEqual([
      expect.objectContaining({
        file: 'oracle/flake_ledger.yml',
        line: 4,
        message: expect.stringMatching(/too many aliases/)
      })
    ])
  })

  it('a few aliases (the near miss) are fine', () => {
    const text = `version: 1\nplanes:\n  voting: &v [oracle/**]\n  drafts: *v\nsuite:\n  command: pytest\n`
    expect(() => parsePolicy(text, 'p.yml')).not.toThrow()
  })
})

describe('other hostile YAML', () => {
  const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n)

  it('nesting deep enough to exhaust the stack is config-invalid naming the policy file', () => {
    expect(() => parsePolicy(`version: 1\nplanes: ${deep(50_000)}\n`, 'p.yml')).toThrow(
      /^invalid policy: p\.yml:2:\d+: .*Maximum call stack size exceeded/
    )
  })

  it.each(['l.yml', 'l.json'])('and a ledger problem naming %s', file => {
    const text = file.endsWith('.json')
      ? `{"version": 1, "entries": ${deep(20_000)}}`
      : `version: 1\nentries: ${deep(50_000)}\n`
    const parsed = parseLedger(text, file, { today: '2026-06-01', maxDays: 90 })
    expect(parsed.problems).toEqual([
      expect.objectContaining({ file, message: expect.stringMatching(/call stack/) })
    ])
  })

  it('an unresolved alias is named as such, not as a bomb', () => {
    expect(() => parsePolicy('version: 1\nplanes: *nope\n', 'p.yml')).toThrow(
      /p\.yml:2:1: .*cannot read the YAML: Unresolved alias/
    )
  })

  it('a policy over the size limit is refused before parsing', () => {
    expect(() => parsePolicy(`version: 1\n# ${'x'.repeat(1_000_001)}\n`, 'p.yml')).toThrow(
      /p\.yml:1:1: .*more than the 1000000 the gate reads \(the limit\)/
    )
  })
})

describe('ledger-stale', () => {
  it('collapses every stale row into one warning with a count', () => {
    const live = new Map<string, LedgerRow>()
    for (let i = 0; i < 500; i++) {
      const test = `oracle/properties/test_v.py::gone_${i}`
      live.set(test, {
        id: `FL-${i}`,
        test,
        cause: 'time',
        reason: 'slow',
        owner: 'ada',
        first_seen: '2026-01-01',
        expires_on: '2026-12-31',
        max_runs: 2
      })
    }
    const obs = new Map<string, Observation>([
      [
        'oracle/properties/test_v.py::a',
        {
          id: 'oracle/properties/test_v.py::a',
          file: 'oracle/properties/test_v.py',
          outcomes: ['passed'],
          runnerFlaky: false
        }
      ]
    ])
    const s = score({
      planeOf: () => 'voting',
      classOf: compileClasses({ fixture: [], invariant: [], metamorphic: [], judge: [] }),
      live,
      written: new Set(),
      policyPath: '.github/oracle-gate.yml',
      ledgerPath: 'oracle/flake_ledger.yml',
      base: obs,
      head: obs
    })
    const stale = s.reasons.filter(r => r.rule === 'ledger-stale')
    expect(stale).toHaveLength(1)
    expect(stale[0]?.message).toMatch(/^500 ledger rows freeze tests that no longer exist/)
    expect(stale[0]?.message).toMatch(/FL-0 \(oracle\/properties\/test_v\.py::gone_0\)/)
    expect(stale[0]?.message).toMatch(/and 490 more; remove them$/)
  })
})

describe('an unexpected failure', () => {
  it('is an error that names the stage it happened in', async () => {
    const repo = new TestRepo('og-stage-')
    try {
      repo.write({ '.github/oracle-gate.yml': policyYaml(), 'app/a.py': 'x = 1\n' })
      repo.commit('base')
      repo.branch('agent')
      repo.write({ 'app/a.py': 'x = 2\n' })
      repo.commit('agent')
      const card = await check({
        repoDir: repo.dir,
        base: 'main',
        head: 'agent',
        today: '2026-06-01',
        log: memoryLogger(),
        replay: () => Promise.reject(new TypeError('boom'))
      })
      expect(card.verdict).toBe('error')
      expect(card.reasons).toContainEqual(
        expect.objectContaining({ rule: 'gate-error', message: 'internal error in "replay": boom' })
      )
    } finally {
      repo.cleanup()
    }
  })
})
