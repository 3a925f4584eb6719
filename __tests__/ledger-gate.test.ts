// The ledger stage inside the whole gate: expired rows reach the card as debt, added skip
// markers as reasons, both read from the merge base whatever the head did.
import { afterAll, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { policyYaml, TestRepo } from './helpers/repo.js'

const LEDGER = 'oracle/flake_ledger.yml'

describe('gate with a ledger', () => {
  const repo = new TestRepo()
  afterAll(() => repo.cleanup())

  it('puts expired rows in freeze_debt and added markers in the reasons', async () => {
    const python = pythonWithPytest()
    const policy = policyYaml(`ledger: ${LEDGER}\n`).replace(
      'python3 -m pytest',
      `${python} -m pytest`
    )
    repo.write({
      '.github/oracle-gate.yml': policy,
      'oracle/properties/test_p.py': 'def test_ok():\n    assert True\n',
      'tests/test_unit.py': 'def test_a():\n    assert True\n',
      [LEDGER]: `version: 1
entries:
  - id: F-1
    test: oracle/properties/test_p.py::test_gone
    cause: time
    reason: clock at midnight
    owner: carol
    first_seen: "2026-03-01"
    expires_on: "2026-03-08"
    max_runs: 2
`
    })
    const base = repo.commit('base')
    repo.branch('agent')
    repo.write({
      'tests/test_unit.py':
        'import pytest\n\n@pytest.mark.skip(reason="flaky")\ndef test_a():\n    assert True\n'
    })
    repo.commit('skip a test')

    const card = await check({
      repoDir: repo.dir,
      base,
      head: 'agent',
      today: '2026-03-10',
      log: memoryLogger(),
      env: process.env
    })
    expect(card.freeze_debt).toEqual([
      {
        id: 'F-1',
        test: 'oracle/properties/test_p.py::test_gone',
        owner: 'carol',
        expires_on: '2026-03-08',
        days_overdue: 2
      }
    ])
    const mine = card.reasons.filter(r => r.rule === 'ledger-expired' || r.rule === 'skip-marker')
    expect(mine.map(r => `${r.rule} ${r.path}:${r.line} ${r.level}`).sort()).toEqual([
      `ledger-expired ${LEDGER}:3 failure`,
      'skip-marker tests/test_unit.py:3 failure'
    ])
    expect(card.verdict).toBe('policy')
  })
})
