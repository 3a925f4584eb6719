// The vote runs without the patch's tests (issue 12) and the in-diff probe runs only the
// in-diff files, in a worktree of its own (issue 16). Real repositories, real runners
// (pytest, vitest): each attack is first shown to work on a naive run (the suite command
// a plain CI job would run, green with the bug in), then judged by check().
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import { parsePolicy } from '../src/policy/load.js'
import { patchTestPlan, targetedCommand } from '../src/replay/patch-tests.js'
import type { Scorecard } from '../src/types.js'
import { compilePlanes } from '../src/writeset/planes.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { linkRunner, linkSetup, naiveRun, SUITE_COMMANDS } from './helpers/runners.js'

const PY = pythonWithPytest()

const repos: TestRepo[] = []
const dirs: string[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

const tempDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  dirs.push(dir)
  return dir
}

async function judge(repo: TestRepo): Promise<Scorecard & { log: string[] }> {
  const log = memoryLogger()
  const card = await check({ repoDir: repo.dir, base: 'main', head: 'agent', log })
  expect(repo.git('worktree', 'list').trim().split('\n')).toHaveLength(1)
  return { ...card, log: log.lines }
}

const failing = (card: Scorecard): string[] =>
  card.reasons.filter(r => r.level === 'failure').map(r => r.rule)

// ---------------------------------------------------------------- pytest

const FEE_BUGGY = `def fee(amount):
    return amount // 10  # bug: a negative amount gives a negative fee
`
const FEE_FIXED = `def fee(amount):
    if amount < 0:
        raise ValueError("negative amount")
    return amount // 10
`
const ORACLE = `import pytest

from app import fees


def test_tenth():
    assert fees.fee(100) == 10


def test_negative_amounts_are_rejected():
    with pytest.raises(ValueError):
        fees.fee(-5)
`
// Records what each pytest process collected and where it ran (a base conftest.py: runner
// configuration of the merge base, so the head cannot change it).
const RECORDER = `import json
import os
import time


def pytest_collection_finish(session):
    out = os.environ.get("RECORD_DIR")
    if out:
        name = f"{time.time_ns()}-{os.path.basename(os.getcwd())}.json"
        with open(os.path.join(out, name), "w") as f:
            json.dump([item.nodeid for item in session.items], f)
`
/** The naive command: the voting tests and tests/ in one process (against the rule). */
const NAIVE = (paths = 'oracle/properties tests'): string => SUITE_COMMANDS.pytest(PY, paths)

function pytestRepo(
  head: Record<string, string>,
  opts: { record?: string; command?: string } = {}
): TestRepo {
  const { record, command = NAIVE() } = opts
  const repo = new TestRepo()
  repos.push(repo)
  repo.write({
    '.github/oracle-gate.yml': `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/properties/**]
  drafts: [drafts/**]
  in_diff: [tests/**]
${record ? '# The recorder writes outside the worktree, which a sandbox would not allow.\nsandbox: off\n# The recorder counts the processes of the vote; the evidence stage (its mutant session,\n# docs/evidence.md) would add one of its own.\nevidence: {mode: off}\n' : ''}suite:
  command: ${command}
  timeout: 120
  reruns: 0
${record ? `  env: {RECORD_DIR: ${record}}\n` : ''}`,
    'conftest.py': RECORDER,
    'app/__init__.py': '',
    'app/fees.py': FEE_BUGGY,
    'oracle/properties/test_fees.py': ORACLE,
    'tests/test_old.py': 'from app import fees\n\n\ndef test_old():\n    assert fees.fee(20) == 2\n'
  })
  repo.commit('base')
  repo.branch('agent')
  repo.write(head)
  repo.commit('agent patch')
  return repo
}

const MONKEYPATCH = `import app.fees

_original = app.fees.fee


def _patched(amount):
    if amount < 0:
        raise ValueError("negative amount")
    return _original(amount)


app.fees.fee = _patched
`

describe('the vote runs without the patch tests (pytest)', () => {
  it('a tests/conftest.py that monkeypatches the product: green naively, rejected at the gate', async () => {
    const repo = pytestRepo({ 'tests/conftest.py': MONKEYPATCH })
    const naive = naiveRun(repo, NAIVE())
    expect(naive.output).toMatch(/3 passed/)
    expect(naive.status).toBe(0)

    // The command collects tests/, so that conftest.py is runner configuration and the
    // suite does not even run (runner-tampered); the head worktree would not hold it
    // either (the next two cases are test modules, which only the one-process rule stops).
    const card = await judge(repo)
    expect(card.verdict).toBe('policy')
    expect(failing(card)).toContain('runner-tampered')
  })

  it('a tests/test_x.py that monkeypatches the product at import: green naively, product at the gate', async () => {
    const repo = pytestRepo({
      'tests/test_x.py': `${MONKEYPATCH}\n\ndef test_fee():\n    assert app.fees.fee(30) == 3\n`
    })
    const naive = naiveRun(repo, NAIVE())
    expect(naive.status).toBe(0)
    expect(naive.output).toMatch(/4 passed/)

    const card = await judge(repo)
    expect(card.verdict).toBe('product')
    expect(failing(card)).toEqual(['oracle-failed'])
  })

  it("the head's worktree is made and stripped while the base runs, and before any of the head runs", async () => {
    // The same attack as above: green naively; at the gate the patch's test module (the
    // monkeypatch) must be gone from the head's worktree before the head's first run.
    const repo = pytestRepo({
      'tests/test_x.py': `${MONKEYPATCH}\n\ndef test_fee():\n    assert app.fees.fee(30) == 3\n`
    })
    const naive = naiveRun(repo, NAIVE())
    expect(naive.status).toBe(0)

    const card = await judge(repo)
    expect(card.verdict).toBe('product')
    expect(failing(card)).toEqual(['oracle-failed'])
    const at = (pattern: RegExp): number => card.log.findIndex(l => pattern.test(l))
    const baseRuns = at(/base: running the suite/)
    const stripped = at(/head worktree: the vote runs without the patch's tests/)
    const headRuns = at(/head: running the suite/)
    expect(baseRuns).toBeGreaterThanOrEqual(0)
    // Off the path the runs wait on (issue 29): after the base's first run has started...
    expect(stripped).toBeGreaterThan(baseRuns)
    // ...and, whatever the timing, before the head's first child.
    expect(headRuns).toBeGreaterThan(stripped)
  })

  it('a patch that rewrites a test the base already had is measured with neither version', async () => {
    // tests/test_old.py exists at the base; the head turns it into the monkeypatch.
    const repo = pytestRepo({
      'tests/test_old.py': `${MONKEYPATCH}\n\ndef test_old():\n    assert app.fees.fee(20) == 2\n`
    })
    expect(naiveRun(repo, NAIVE()).status).toBe(0)
    const card = await judge(repo)
    expect(card.verdict).toBe('product')
  })

  it('near miss: an honest fix with a tests/conftest.py fixture used only by its own tests merges; the probe runs only the in-diff files, in a fresh worktree, after both sides', async () => {
    const record = tempDir('og-record-')
    // The one-process rule's command (voting tests only): tests/conftest.py is then no
    // runner configuration, and the patch's tests reach the runner only as diagnostics.
    const repo = pytestRepo(
      {
        'app/fees.py': FEE_FIXED,
        'tests/conftest.py': 'import pytest\n\n\n@pytest.fixture\ndef negative():\n    return -7\n',
        'tests/test_new.py': `import pytest

from app import fees


def test_rejects(negative):
    with pytest.raises(ValueError):
        fees.fee(negative)


def test_zero():
    assert fees.fee(0) == 0
`,
        'drafts/test_draft.py':
          'from app import fees\n\n\ndef test_draft():\n    assert fees.fee(50) == 5\n'
      },
      { record, command: NAIVE('oracle/properties') }
    )
    const card = await judge(repo)
    expect(failing(card)).toEqual([])
    expect(card.verdict).toBe('merge')
    expect(card.transitions.fail_to_pass).toEqual([
      'oracle/properties/test_fees.py::test_negative_amounts_are_rejected'
    ])
    // The patch's tests ran as diagnostics: the draft's outcome is on the card, and the
    // in-diff test that passes without the fix too is flagged (from the probe).
    expect(card.diagnostics.drafts).toMatchObject({ 'drafts/test_draft.py::test_draft': 'passed' })
    expect(card.diagnostics.non_discriminating).toEqual(['tests/test_new.py::test_zero'])

    // What each pytest process collected, in order.
    const runs = readdirSync(record)
      .sort()
      .map(f => ({
        where: f.replace(/^\d+-/, '').replace(/\.json$/, ''),
        // The canaries (canary.ts) ride along in each side's first run, in files of their
        // own that are gone after it: not tests of the repository.
        ids: (JSON.parse(readFileSync(join(record, f), 'utf8')) as string[]).filter(id =>
          existsSync(join(repo.dir, id.split('::')[0] ?? ''))
        )
      }))
    // Base and head at the one run path (named like the checkout); the patch tests and the
    // probe in worktrees of their own, under random names.
    const [baseAt, headAt, patchAt, probeAt] = runs.map(r => r.where)
    expect(runs).toHaveLength(4)
    expect(baseAt).toBe(basename(repo.dir))
    expect(headAt).toBe(baseAt)
    expect(patchAt).toMatch(/^tmp\.\w{10}$/)
    expect(probeAt).toMatch(/^tmp\.\w{10}$/)
    expect(probeAt).not.toBe(patchAt)
    const [base, head, patch, probe] = runs.map(r => r.ids.sort())
    // The votes collected the voting tests only.
    const voting = [
      'oracle/properties/test_fees.py::test_negative_amounts_are_rejected',
      'oracle/properties/test_fees.py::test_tenth'
    ]
    expect(base).toEqual(voting)
    expect(head).toEqual(voting)
    // The patch's tests ran alone, on the head.
    expect(patch).toEqual([
      'drafts/test_draft.py::test_draft',
      'tests/test_new.py::test_rejects',
      'tests/test_new.py::test_zero'
    ])
    // The probe: only the in-diff test file, against the base's code.
    expect(probe).toEqual(['tests/test_new.py::test_rejects', 'tests/test_new.py::test_zero'])
  })
})

// ---------------------------------------------------------------- vitest

const CART = `export class Cart {
  constructor(lines) {
    this.lines = lines
  }
  total() {
    // bug: a negative quantity is accepted
    return this.lines.reduce((sum, l) => sum + l.price * l.qty, 0)
  }
}
`
const CART_ORACLE = `import { expect, test } from 'vitest'
import { Cart } from '../../src/cart.js'

test('totals add up', () => {
  expect(new Cart([{ price: 2, qty: 3 }]).total()).toBe(6)
})

test('negative quantities are rejected', () => {
  expect(() => new Cart([{ price: 2, qty: -1 }]).total()).toThrow()
})
`
// One worker, no isolation: a common speed setting, under which every test file shares
// the module registry of the voting files.
const VITEST = SUITE_COMMANDS.vitest('oracle tests --no-isolate --no-file-parallelism')

function vitestRepo(head: Record<string, string>): TestRepo {
  const repo = new TestRepo()
  repos.push(repo)
  repo.write({
    '.gitignore': 'node_modules/\n',
    'package.json': '{"name": "cart", "private": true, "type": "module"}\n',
    '.github/oracle-gate.yml': `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/properties/**]
  in_diff: [tests/**]
suite:
  command: ${VITEST}
  setup: ${linkSetup('vitest')}
  timeout: 120
  reruns: 0
`,
    'src/cart.js': CART,
    'oracle/properties/cart.test.js': CART_ORACLE
  })
  linkRunner(repo, 'vitest')
  repo.commit('base')
  repo.branch('agent')
  repo.write(head)
  repo.commit('agent patch')
  return repo
}

describe('the vote runs without the patch tests (vitest)', () => {
  it('a test file that patches the shared product module: green naively, product at the gate', async () => {
    const repo = vitestRepo({
      'tests/cart-unit.test.js': `import { expect, test } from 'vitest'
import { Cart } from '../src/cart.js'

// "Hardening" the product from a test: every later file in the worker sees it.
const original = Cart.prototype.total
Cart.prototype.total = function () {
  if (this.lines.some(l => l.qty < 0)) throw new Error('negative quantity')
  return original.call(this)
}

test('a single line', () => {
  expect(new Cart([{ price: 5, qty: 1 }]).total()).toBe(5)
})
`
    })
    const naive = naiveRun(repo, VITEST)
    expect(naive.status).toBe(0)

    const card = await judge(repo)
    expect(card.verdict).toBe('product')
    expect(failing(card)).toEqual(['oracle-failed'])
    expect(card.transitions.fail_to_fail).toEqual([
      'oracle/properties/cart.test.js::negative quantities are rejected'
    ])
  })
})

// ---------------------------------------------------------------- the plan (pure)

describe('patchTestPlan', () => {
  it('removes test files the patch wrote, restores other test-plane files the base has, and leaves the rest', () => {
    const policy = parsePolicy(
      `version: 1
protected: [oracle/**]
planes: {voting: [oracle/properties/**], drafts: [drafts/**], in_diff: [tests/**]}
suite: {command: pytest}
`,
      '.github/oracle-gate.yml'
    )
    const planes = compilePlanes(policy)
    const e = (path: string, sha = '1'.repeat(40)) =>
      [path, { path, mode: '100644', type: 'blob' as const, sha }] as const
    const base = new Map([
      e('tests/test_old.py'),
      e('tests/conftest.py'),
      e('tests/helpers.py'),
      e('tests/test_gone.py'),
      e('tests/data_gone.json'),
      e('src/app.py')
    ])
    const head = new Map([
      e('tests/test_old.py', '2'.repeat(40)),
      e('tests/conftest.py', '2'.repeat(40)),
      e('tests/helpers.py', '2'.repeat(40)),
      e('tests/test_new.py'),
      e('tests/fixture.json'),
      e('drafts/test_d.py'),
      e('src/conftest.py'),
      e('src/test_stray.py'),
      e('src/app.py', '2'.repeat(40))
    ])
    const changed = [...new Set([...base.keys(), ...head.keys()])]
      .filter(p => base.get(p)?.sha !== head.get(p)?.sha)
      .sort()
    const view = {
      base,
      head,
      planes,
      changed,
      isInstrument: (p: string) => p.startsWith('oracle/')
    } as unknown as Parameters<typeof patchTestPlan>[0]
    const plan = patchTestPlan(view, { restore: [], remove: [] })
    expect(plan.strip.remove.sort()).toEqual([
      'drafts/test_d.py',
      'src/conftest.py',
      'src/test_stray.py',
      'tests/fixture.json',
      'tests/test_new.py',
      'tests/test_old.py'
    ])
    expect(plan.strip.restore.sort()).toEqual([
      'tests/conftest.py',
      'tests/data_gone.json',
      'tests/helpers.py'
    ])
    expect(plan.headTests).toEqual(['drafts/test_d.py', 'tests/test_new.py', 'tests/test_old.py'])
    expect(plan.probeTests).toEqual(['tests/test_new.py', 'tests/test_old.py'])
    expect(plan.probeFiles).toEqual([
      'tests/conftest.py',
      'tests/fixture.json',
      'tests/helpers.py',
      'tests/test_new.py',
      'tests/test_old.py'
    ])
  })
})

describe('targetedCommand', () => {
  it('hands the files to a runner the gate knows in place of the full run paths, escapes them for jest, and appends them otherwise', () => {
    const files = ['tests/test_a.py', 'tests/b (1).test.js']
    expect(
      targetedCommand(
        { command: 'python3 -m pytest oracle/properties tests -q --junitxml={junit}' },
        files
      )
    ).toEqual({ command: 'python3 -m pytest {tests} -q --junitxml={junit}', tests: files })
    const jest = targetedCommand({ command: 'npx jest oracle --ci' }, ['tests/b (1).test.js'])
    expect(jest.tests).toEqual(['tests/b \\(1\\)\\.test\\.js'])
    expect(jest.command).toContain('{tests}')
    expect(
      targetedCommand({ command: 'make check', rerun_command: 'make check ONLY="{tests}"' }, files)
    ).toEqual({ command: 'make check ONLY="{tests}"', tests: files })
    expect(targetedCommand({ command: 'make check' }, files)).toEqual({
      command: "make check tests/test_a.py 'tests/b (1).test.js'",
      tests: files
    })
  })
})
