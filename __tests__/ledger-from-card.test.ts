// `ledger add --from-card`: a scorecard's flaky tests and its voting tests broken on both
// sides become ledger rows (env for the latter), validated like `ledger add`, skipping
// tests the ledger already covers; a card with nothing to add changes nothing.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ledgerFromText } from '../src/ledger/index.js'
import { cardRows } from '../src/cli/ledger.js'
import { runCli } from './helpers/shapes.js'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

const card = {
  head: 'abcdef0123456789',
  flakes: [
    { test: 'tests/test_a.py::test_clock', side: 'base', outcomes: ['failed', 'passed'] },
    { test: 'tests/test_a.py::test_clock', side: 'head', outcomes: ['passed', 'failed'] }
  ],
  transitions: { fail_to_fail: ['tests/test_b.py::test_needs_gpu'], fail_to_pass: [] },
  reasons: [{ message: 'tests/test_a.py::test_clock: TimeoutError after 2s' }]
}

describe('ledger add --from-card', () => {
  it('cardRows: flakes with a guessed cause, fail→fail as env', () => {
    expect(cardRows(card, undefined).map(r => [r.test, r.cause])).toEqual([
      ['tests/test_a.py::test_clock', 'time'],
      ['tests/test_b.py::test_needs_gpu', 'env']
    ])
    expect(cardRows({}, undefined)).toEqual([])
  })

  it('writes one valid row per test, then adds nothing the second time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'og-from-card-'))
    dirs.push(dir)
    writeFileSync(join(dir, 'card.json'), JSON.stringify(card))
    writeFileSync(join(dir, 'ledger.yml'), 'version: 1\nentries: []\n')
    const args = [
      'ledger',
      'add',
      '--from-card',
      'card.json',
      '--file',
      'ledger.yml',
      '--owner',
      'qa',
      '--today',
      '2026-12-01'
    ]
    const first = await runCli(args, dir, {})
    expect(first.code, first.err).toBe(0)
    const state = ledgerFromText(
      readFileSync(join(dir, 'ledger.yml'), 'utf8'),
      'ledger.yml',
      '2026-12-01',
      30
    )
    expect(state.reasons).toEqual([])
    expect(state.rows.map(r => [r.test, r.cause, r.owner, r.expires_on])).toEqual([
      ['tests/test_a.py::test_clock', 'time', 'qa', '2026-12-15'],
      ['tests/test_b.py::test_needs_gpu', 'env', 'qa', '2026-12-15']
    ])
    const again = await runCli(args, dir, {})
    expect(again.code).toBe(0)
    expect(again.err).toMatch(/nothing to add/)
    expect(
      ledgerFromText(readFileSync(join(dir, 'ledger.yml'), 'utf8'), 'ledger.yml', '2026-12-01', 30)
        .rows
    ).toHaveLength(2)
  })

  it('refuses without --owner, and an invalid --cause like ledger add does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'og-from-card-'))
    dirs.push(dir)
    writeFileSync(join(dir, 'card.json'), JSON.stringify(card))
    const base = [
      'ledger',
      'add',
      '--from-card',
      'card.json',
      '--file',
      'ledger.yml',
      '--today',
      '2026-12-01'
    ]
    expect((await runCli(base, dir, {})).code).toBe(4)
    const bad = await runCli([...base, '--owner', 'qa', '--cause', 'gremlins'], dir, {})
    expect(bad.code).toBe(2)
    expect(bad.err).toMatch(/--cause/)
  })
})
