// `oracle-gate doctor` on generated repositories with real runners: it finds a planted flaky
// test (failing every other run through a counter file outside the worktree) and proposes
// a ledger row, a Python test shadowed by a second def of the same name, duplicate ids in a
// vitest report, and the src/ layout trap when PYTHONPATH is missing; a clean repository
// initialised by init is fit to vote (exit 0).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { DoctorReport } from '../src/doctor/findings.js'
import { TestRepo } from './helpers/repo.js'
import { runCli, shapedRepo, testEnv } from './helpers/shapes.js'

const repos: TestRepo[] = []
const dirs: string[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

const POLICY = '.github/oracle-gate.yml'

/** A src/ layout package with its tests in tests/, the classic trap shape. */
function srcLayout(extraTests: string): TestRepo {
  const repo = new TestRepo('og-doctor-py-')
  repos.push(repo)
  repo.write({
    '.gitignore': '__pycache__/\n',
    'pyproject.toml': '[project]\nname = "shop"\nversion = "1.0"\n',
    'src/shop/__init__.py': '',
    'src/shop/fees.py': 'def fee(amount):\n    return amount + 3\n',
    'tests/test_fees.py': `from shop.fees import fee\n\n\ndef test_small():\n    assert fee(10) == 13\n${extraTests}`
  })
  repo.commit('project')
  return repo
}

async function doctorJson(
  repo: TestRepo,
  args: string[] = []
): Promise<{ code: number; report: DoctorReport; out: string }> {
  const out = join(repo.dir, '..', `${repo.dir.split('/').pop() ?? 'x'}-doctor.json`)
  dirs.push(out)
  const r = await runCli(
    ['doctor', '--json', out, '--today', '2026-12-01', ...args],
    repo.dir,
    testEnv()
  )
  return { code: r.code, report: JSON.parse(readFileSync(out, 'utf8')) as DoctorReport, out: r.out }
}

const codes = (r: DoctorReport): string[] => r.findings.map(f => `${f.level} ${f.code}`)

describe('oracle-gate doctor', () => {
  it('a src/ layout initialised by init is fit to vote; without PYTHONPATH doctor flags the import trap', async () => {
    const repo = srcLayout('')
    expect((await runCli(['init'], repo.dir, testEnv())).code).toBe(0)
    const policy = readFileSync(join(repo.dir, POLICY), 'utf8')
    expect(policy).toMatch(/PYTHONPATH: src/)
    repo.commit('adopt oracle-gate')
    const fit = await doctorJson(repo, ['--runs', '1'])
    expect(codes(fit.report).filter(c => c.startsWith('blocker'))).toEqual([])
    expect(fit.code).toBe(0)
    expect(fit.report.votingByFile).toEqual({ 'tests/test_fees.py': 1 })
    expect(fit.out).toMatch(/Fit to vote/)

    // The same policy without the env block: under PYTHONSAFEPATH=1 the package is not on
    // the path, so the tests would import an installed copy (here: none) instead of the commit.
    repo.write({ [POLICY]: policy.replace(/\n {2}env:\n.*\n {4}PYTHONPATH: src/, '') })
    repo.commit('drop PYTHONPATH')
    const trapped = await doctorJson(repo, ['--runs', '1'])
    expect(trapped.code).toBe(1)
    expect(codes(trapped.report)).toContain('blocker import-outside-checkout')
    expect(trapped.report.fit).toBe(false)
  }, 120_000)

  it('finds a test that fails every other run (with a ledger row proposed) and a test shadowed by a second def', async () => {
    const counterDir = mkdtempSync(join(tmpdir(), 'og-doctor-counter-'))
    dirs.push(counterDir)
    const counter = join(counterDir, 'count')
    writeFileSync(counter, '0')
    const repo = srcLayout(
      `\n\ndef test_every_other_run():\n    with open(${JSON.stringify(counter)}) as f:\n        n = int(f.read())\n    with open(${JSON.stringify(counter)}, "w") as f:\n        f.write(str(n + 1))\n    assert n % 2 == 0, "shared counter is odd"\n\n\ndef test_large():\n    assert fee(1000) == 1003\n\n\ndef test_large():\n    assert fee(2000) == 2003\n`
    )
    expect((await runCli(['init'], repo.dir, testEnv())).code).toBe(0)
    repo.commit('adopt oracle-gate')
    const { code, report } = await doctorJson(repo, ['--owner', 'qa-team'])
    expect(code).toBe(1)
    expect(report.runs).toHaveLength(3)
    expect(report.flaky.map(f => [f.id, f.outcomes])).toEqual([
      ['tests/test_fees.py::test_every_other_run', ['passed', 'failed', 'passed']]
    ])
    expect(report.proposedRows).toEqual([
      expect.objectContaining({
        test: 'tests/test_fees.py::test_every_other_run',
        cause: 'shared',
        owner: 'qa-team',
        first_seen: '2026-12-01',
        expires_on: '2026-12-15'
      })
    ])
    const shadowed = report.findings.find(f => f.code === 'shadowed')
    expect(shadowed?.items).toEqual(['tests/test_fees.py: test_large (lines 16, 20)'])
    expect(codes(report)).toContain('blocker flaky')
  }, 120_000)

  it('lists duplicate ids a vitest report collapses, and the duplicated titles in the source', async () => {
    const repo = shapedRepo('vitest', repos)
    repo.write({
      'src/twice.test.js':
        "import { describe, expect, it } from 'vitest'\n\ndescribe('twice', () => {\n  it('same name', () => {\n    expect(1).toBe(1)\n  })\n  it('same name', () => {\n    expect(2).toBe(2)\n  })\n})\n"
    })
    repo.commit('a duplicated title')
    expect((await runCli(['init'], repo.dir, testEnv())).code).toBe(0)
    repo.commit('adopt oracle-gate')
    const { code, report } = await doctorJson(repo, ['--runs', '1'])
    expect(report.findings.find(f => f.code === 'duplicate-ids')?.items).toEqual([
      'src/twice.test.js::twice > same name'
    ])
    expect(report.findings.find(f => f.code === 'shadowed')?.items).toEqual([
      'src/twice.test.js: same name (lines 4, 7)'
    ])
    // Warnings only: the instrument can vote, with the collapse on record.
    expect(code).toBe(0)
  }, 120_000)

  it('--help prints the usage with the exit codes', async () => {
    const r = await runCli(['doctor', '--help'], tmpdir(), process.env)
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/0 fit to vote, 1 not fit/)
  })
})
