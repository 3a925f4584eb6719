import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { main } from '../src/cli/main.js'
import { ledgerFromText } from '../src/ledger/index.js'
import { policyYaml } from './helpers/repo.js'

const TODAY = '2026-03-10'

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough()
  const chunks: Buffer[] = []
  stream.on('data', (c: Buffer) => chunks.push(c))
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') }
}

describe('oracle-gate ledger', () => {
  let dir = ''
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'og-ledger-cli-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
    const out = capture()
    const err = capture()
    const code = await main(['ledger', ...argv], {
      stdout: out.stream,
      stderr: err.stream,
      cwd: dir,
      env: {}
    })
    await new Promise(r => setImmediate(r))
    return { code, out: out.text(), err: err.text() }
  }

  const add = (file: string, ...extra: string[]) =>
    run(
      'add',
      '--file',
      file,
      '--today',
      TODAY,
      '--test',
      'tests/test_a.py::test_one',
      '--owner',
      'alice',
      '--cause',
      'net',
      '--reason',
      'hits the network',
      ...extra
    )

  it('prints help', async () => {
    const r = await run('--help')
    expect(r.code).toBe(0)
    expect(r.out).toMatch(
      /oracle-gate ledger add --test ID --owner WHO --cause CAUSE --reason TEXT/
    )
  })

  it('adds rows to a new YAML ledger with defaults, then keeps comments when adding again', async () => {
    const first = await add('oracle/flake_ledger.yml')
    expect(first).toMatchObject({ code: 0 })
    expect(first.out).toContain(
      'added flake-1: tests/test_a.py::test_one (owner alice, expires 2026-03-24)'
    )
    const path = join(dir, 'oracle/flake_ledger.yml')
    writeFileSync(path, `# flakes, reviewed weekly\n${readFileSync(path, 'utf8')}`)
    const second = await run(
      'add',
      '--file',
      'oracle/flake_ledger.yml',
      '--today',
      TODAY,
      '--test',
      'tests/test_b.py::t',
      '--owner',
      'bob',
      '--cause',
      'order',
      '--reason',
      'r',
      '--ticket',
      'T-9',
      '--max-runs',
      '5'
    )
    expect(second.code).toBe(0)
    const text = readFileSync(path, 'utf8')
    expect(text.startsWith('# flakes, reviewed weekly\n')).toBe(true)
    const state = ledgerFromText(text, 'oracle/flake_ledger.yml', TODAY, 30)
    expect(state.reasons).toEqual([])
    expect(state.rows).toEqual([
      {
        id: 'flake-1',
        test: 'tests/test_a.py::test_one',
        cause: 'net',
        reason: 'hits the network',
        owner: 'alice',
        first_seen: TODAY,
        expires_on: '2026-03-24',
        max_runs: 3
      },
      {
        id: 'flake-2',
        test: 'tests/test_b.py::t',
        cause: 'order',
        reason: 'r',
        owner: 'bob',
        first_seen: TODAY,
        expires_on: '2026-03-24',
        max_runs: 5,
        ticket: 'T-9'
      }
    ])
  })

  it('appends to a JSON ledger keeping its indentation', async () => {
    const path = join(dir, 'ledger.json')
    writeFileSync(path, '{\n    "version": 1,\n    "entries": []\n}\n')
    const r = await add('ledger.json', '--id', 'NET-1', '--expires', '2026-03-12')
    expect(r.code).toBe(0)
    const text = readFileSync(path, 'utf8')
    expect(text).toMatch(/^\{\n {4}"version": 1,\n {4}"entries": \[\n {8}\{\n {12}"id": "NET-1",/)
    expect(JSON.parse(text).entries[0].expires_on).toBe('2026-03-12')
  })

  it('refuses invalid input with a message in terms of the flags, and leaves the file alone', async () => {
    const missing = await run(
      'add',
      '--file',
      'l.yml',
      '--today',
      TODAY,
      '--test',
      't.py::x',
      '--cause',
      'net',
      '--reason',
      'r'
    )
    expect(missing.code).toBe(4)
    expect(missing.err).toContain('add needs --owner')
    const cause = await add('l.yml', '--cause', 'gremlins')
    expect(cause.code).toBe(2)
    expect(cause.err).toMatch(/--cause: expected one of "order", "time", "net", "rng", "shared"/)
    const window = await add('l.yml', '--expires', '2026-05-01')
    expect(window.code).toBe(2)
    expect(window.err).toMatch(
      /--expires: window first_seen → expires_on is 52 days; the policy allows at most 30/
    )
    const date = await add('l.yml', '--first-seen', '2026-02-30')
    expect(date.err).toMatch(/--first-seen: expected a real calendar date/)
    const runs = await add('l.yml', '--max-runs', '0')
    expect(runs.err).toMatch(/--max-runs: expected >= 1/)
    const past = await add('l.yml', '--first-seen', '2026-03-01', '--expires', '2026-03-09')
    expect(past.code).toBe(2)
    expect(past.err).toMatch(/before today/)
    expect(() => readFileSync(join(dir, 'l.yml'))).toThrow()
    await add('l.yml')
    const dup = await add('l.yml')
    expect(dup.code).toBe(2)
    expect(dup.err).toMatch(/--test: duplicate test "tests\/test_a.py::test_one"/)
  })

  it('check: 0 valid, 2 expired or invalid, 4 usage', async () => {
    await add('l.yml', '--first-seen', '2026-03-01', '--expires', '2026-03-20')
    expect((await run('check', '--file', 'l.yml', '--today', '2026-03-20')).code).toBe(0)
    const expired = await run('check', '--file', 'l.yml', '--today', '2026-03-21')
    expect(expired.code).toBe(2)
    expect(expired.err).toMatch(/ledger-expired: l\.yml:3: row "flake-1".*1 day\(s\) ago/)
    writeFileSync(join(dir, 'bad.yml'), 'version: 1\nentries:\n  - id: x\n')
    const bad = await run('check', '--file', 'bad.yml', '--today', TODAY)
    expect(bad.code).toBe(2)
    expect(bad.err).toMatch(/bad\.yml:3: row "x" field "test": missing/)
    expect((await run('check', '--file', 'nope.yml')).code).toBe(2)
    expect((await run('check', '--today', '2026-13-01', '--file', 'l.yml')).code).toBe(4)
    expect((await run('check')).code).toBe(4)
    expect((await run('frobnicate')).code).toBe(4)
    expect((await run('check', '--bogus')).code).toBe(4)
  })

  it('reads the ledger path and ledger_max_days from the policy', async () => {
    mkdirSync(join(dir, '.github'))
    writeFileSync(
      join(dir, '.github/oracle-gate.yml'),
      policyYaml('ledger: oracle/flake_ledger.yml\nledger_max_days: 7\n')
    )
    const r = await run(
      'add',
      '--today',
      TODAY,
      '--test',
      't.py::x',
      '--owner',
      'o',
      '--cause',
      'rng',
      '--reason',
      'r'
    )
    expect(r.code).toBe(2)
    expect(r.err).toMatch(/at most 7/)
    const ok = await run(
      'add',
      '--today',
      TODAY,
      '--test',
      't.py::x',
      '--owner',
      'o',
      '--cause',
      'rng',
      '--reason',
      'r',
      '--expires',
      '2026-03-17'
    )
    expect(ok.code).toBe(0)
    expect(readFileSync(join(dir, 'oracle/flake_ledger.yml'), 'utf8')).toContain('test: t.py::x')
  })

  it('list shows status and debt, as text and JSON', async () => {
    // Rows are added while live; by TODAY, A has expired.
    await run(
      'add',
      '--file',
      'l.yml',
      '--today',
      '2026-03-01',
      '--id',
      'A',
      '--test',
      'tests/test_a.py::test_one',
      '--owner',
      'alice',
      '--cause',
      'net',
      '--reason',
      'r',
      '--expires',
      '2026-03-09'
    )
    await run(
      'add',
      '--file',
      'l.yml',
      '--today',
      '2026-03-01',
      '--id',
      'B',
      '--test',
      'b.py::t',
      '--owner',
      'bob',
      '--cause',
      'time',
      '--reason',
      'r',
      '--expires',
      '2026-03-12'
    )
    await run(
      'add',
      '--file',
      'l.yml',
      '--today',
      TODAY,
      '--id',
      'C',
      '--test',
      'c.py::t',
      '--owner',
      'cy',
      '--cause',
      'shared',
      '--reason',
      'r'
    )
    const text = await run('list', '--file', 'l.yml', '--today', TODAY)
    expect(text.code).toBe(0)
    expect(text.out).toMatch(
      /^A +tests\/test_a.py::test_one +alice +net +2026-03-09 +EXPIRED 1d ago$/m
    )
    expect(text.out).toMatch(/^B .* expiring in 2d$/m)
    expect(text.out).toMatch(/^C .* live$/m)
    expect(text.out).toContain('3 row(s), 2 live; debt: A (alice, 1d overdue)')
    const json = JSON.parse((await run('list', '--json', '--file', 'l.yml', '--today', TODAY)).out)
    expect(json.freeze_debt).toEqual([
      {
        id: 'A',
        test: 'tests/test_a.py::test_one',
        owner: 'alice',
        expires_on: '2026-03-09',
        days_overdue: 1
      }
    ])
    expect(json.rows.map((r: { status: string }) => r.status)).toEqual([
      'expired',
      'expiring',
      'live'
    ])
  })
})
