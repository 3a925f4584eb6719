// Large hostile inputs through the BUNDLED CLI, each within 600 MB peak RSS or ended by a
// reason that names the limit: a 1,000,000-case JUnit report (and 400,000, at the limit), a
// 100,000-row ledger (and 15,000, within it), a 24 MB and an 80 MB test file. Everything is
// generated at test time. Peak RSS is the CLI process's own, printed at exit by a preload
// (`node -r`, so the suite's children do not inherit it). Times are in bench/memory.mjs.
import { spawnSync } from 'node:child_process'
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Scorecard } from '../src/types.js'
import { TestRepo } from './helpers/repo.js'

const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js')
const LIMIT_KB = 600 * 1024
const ONE_CASE =
  '<testsuite><testcase classname="oracle.properties.test_big" name="test_x" file="oracle/properties/test_big.py"/></testsuite>'

let dir = ''
let preload = ''
const repos: TestRepo[] = []
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'og-memory-'))
  preload = join(dir, 'rss.cjs')
  writeFileSync(
    preload,
    "process.on('exit', () => require('fs').writeSync(2, `\\nOG_MAX_RSS_KB=${process.resourceUsage().maxRSS}\\n`))\n"
  )
})
afterAll(() => {
  for (const r of repos.splice(0)) r.cleanup()
  rmSync(dir, { recursive: true, force: true })
})

async function writeReport(path: string, cases: number): Promise<void> {
  const out = createWriteStream(path)
  const write = (s: string): Promise<void> =>
    out.write(s) ? Promise.resolve() : new Promise(r => out.once('drain', () => r()))
  await write('<?xml version="1.0"?>\n<testsuites><testsuite name="pytest">\n')
  let buf = ''
  for (let i = 0; i < cases; i++) {
    buf += `<testcase classname="oracle.properties.test_big" name="test_case_${i}" file="oracle/properties/test_big.py" time="0.001"/>\n`
    if (buf.length > 1 << 20) {
      await write(buf)
      buf = ''
    }
  }
  await write(`${buf}</testsuite></testsuites>\n`)
  await new Promise<void>(r => out.end(() => r()))
}

function ledgerYaml(rows: number): string {
  const parts = ['version: 1\nentries:\n']
  for (let i = 0; i < rows; i++)
    parts.push(
      `  - id: F${i}\n    test: oracle/properties/test_big.py::test_gone_${i}\n    cause: time\n    reason: slow runner on CI\n    owner: ada\n    first_seen: 2026-05-20\n    expires_on: 2026-06-15\n    max_runs: 2\n`
    )
  return parts.join('')
}

function testFile(bytes: number): string {
  const parts = ['from app import calc\n\n']
  let n = parts[0]?.length ?? 0
  for (let i = 0; n < bytes; i++) {
    const s = `def test_case_${i}():\n    assert calc.absval(-${i}) == ${i}  # value ${i * 7919}\n\n`
    parts.push(s)
    n += s.length
  }
  return parts.join('')
}

/** A repo whose suite command is `command`; the head adds `head` on top of the base. */
function judge(
  command: string,
  base: Record<string, string>,
  head: Record<string, string>,
  ledger = false
): { card: Scorecard; rssKb: number } {
  const repo = new TestRepo('og-memory-repo-')
  repos.push(repo)
  repo.write({
    '.github/oracle-gate.yml': `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/properties/**]
  in_diff: [tests/**]
# The suite copies a generated report from outside the worktree, which a sandbox hides.
sandbox: off
suite:
  command: ${command}
  timeout: 600
  reruns: 0
${ledger ? 'ledger: oracle/flake_ledger.yml\n' : ''}`,
    'oracle/properties/test_big.py': 'def test_x():\n    pass\n',
    'app/calc.py': 'def absval(x):\n    return abs(x)\n',
    ...base
  })
  repo.commit('base')
  repo.branch('agent')
  repo.write({ 'app/calc.py': 'def absval(x):\n    return abs(x) + 0\n', ...head })
  repo.commit('agent')
  const r = spawnSync(
    process.execPath,
    [
      '-r',
      preload,
      CLI,
      'check',
      '--base',
      'main',
      '--head',
      'agent',
      '--today',
      '2026-06-01',
      '--quiet'
    ],
    { cwd: repo.dir, encoding: 'utf8', timeout: 300_000, maxBuffer: 1 << 28 }
  )
  const rss = /OG_MAX_RSS_KB=(\d+)/.exec(r.stderr)
  expect(rss, r.stderr.slice(-2000)).not.toBeNull()
  return { card: JSON.parse(r.stdout) as Scorecard, rssKb: Number(rss?.[1]) }
}

describe('memory bounds through the bundled CLI', () => {
  it('a 1,000,000-case report ends with the case limit named, in little memory', async () => {
    const report = join(dir, 'million.xml')
    await writeReport(report, 1_000_000)
    const { card, rssKb } = judge(`cp ${report} {junit}`, {}, {})
    expect(card.verdict).toBe('error')
    expect(card.reasons.map(r => r.message).join('\n')).toMatch(
      /more than 400000 <testcase> elements \(the limit\)/
    )
    expect(rssKb).toBeLessThan(LIMIT_KB)
  }, 300_000)

  it('a 400,000-case report (at the limit) is judged within 600 MB', async () => {
    const report = join(dir, 'half.xml')
    await writeReport(report, 400_000)
    const { card, rssKb } = judge(`cp ${report} {junit}`, {}, {})
    expect(card.verdict).toBe('merge')
    expect(card.votes.passed).toBe(400_000)
    expect(rssKb).toBeLessThan(LIMIT_KB)
  }, 300_000)

  it('a 100,000-row ledger is ledger-invalid naming the size limit', () => {
    const { card, rssKb } = judge(
      `echo '${ONE_CASE}' > {junit}`,
      { 'oracle/flake_ledger.yml': ledgerYaml(100_000) },
      {},
      true
    )
    expect(card.verdict).toBe('policy')
    expect(card.reasons.filter(r => r.level === 'failure')).toEqual([
      expect.objectContaining({
        rule: 'ledger-invalid',
        path: 'oracle/flake_ledger.yml',
        line: 1,
        message: expect.stringMatching(
          /the ledger is 20\.\d MB, more than the 4 MB the gate reads \(the limit/
        )
      })
    ])
    expect(rssKb).toBeLessThan(LIMIT_KB)
  }, 300_000)

  it('a 15,000-row ledger is read within 600 MB, its stale rows one warning with a count', () => {
    const { card, rssKb } = judge(
      `echo '${ONE_CASE}' > {junit}`,
      { 'oracle/flake_ledger.yml': ledgerYaml(15_000) },
      {},
      true
    )
    expect(card.verdict).toBe('merge')
    const stale = card.reasons.filter(r => r.rule === 'ledger-stale')
    expect(stale).toHaveLength(1)
    expect(stale[0]?.message).toMatch(/^15000 ledger rows freeze tests that no longer exist/)
    expect(rssKb).toBeLessThan(LIMIT_KB)
  }, 300_000)

  it.each([24, 80])(
    'a %i MB test file is refused naming the lint size limit',
    mb => {
      const { card, rssKb } = judge(
        `echo '${ONE_CASE}' > {junit}`,
        {},
        { 'tests/test_big.py': testFile(mb * 1_000_000) }
      )
      expect(card.verdict).toBe('error')
      expect(card.reasons.filter(r => r.level === 'failure')).toEqual([
        expect.objectContaining({
          path: 'tests/test_big.py',
          message: expect.stringMatching(/the lints read files up to 8 MiB \(the limit\)/)
        })
      ])
      expect(rssKb).toBeLessThan(LIMIT_KB)
    },
    300_000
  )
})
