// End to end: generated repositories with a real pytest + hypothesis suite, judged by
// check() with the policy committed at the base. Each case builds a base, a head branch,
// and asserts the verdict, the reasons and the transitions the replay produced.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'

const PY = pythonWithPytest()
const TODAY = '2026-06-01'

const CALC_BUGGY = `def add(a, b):
    return a + b


def absval(x):
    return x  # bug: negative numbers stay negative
`
const CALC_FIXED = CALC_BUGGY.replace(
  'return x  # bug: negative numbers stay negative',
  'return -x if x < 0 else x'
)

const PROPERTIES = `import os

from hypothesis import given, settings, strategies as st

from app import calc

EXAMPLES = int(os.environ.get("ORACLE_GATE_MAX_EXAMPLES", "20"))
fast = settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None)


@fast
@given(st.integers(), st.integers())
def test_add_commutes(a, b):
    assert calc.add(a, b) == calc.add(b, a)


@fast
@given(st.integers())
def test_abs_non_negative(x):
    assert calc.absval(x) >= 0
`

// The batch protocol: JSON Lines in, {id, ok} lines out.
const REPLAY = `import json, os, sys
sys.path.insert(0, os.getcwd())
from app import calc
for line in sys.stdin:
    seed = json.loads(line)
    x = seed["payload"]["x"]
    print(json.dumps({"id": seed["id"], "ok": calc.absval(x) == abs(x)}))
`

const NOTE =
  'a customer reported that refunds of negative balances were shown with the wrong sign in the ledger export'
const CORPUS = JSON.stringify({
  property: 'absval',
  seeds: [
    { id: 's1', payload: { x: -5, account: 'ACC-000117', note: NOTE, currency: 'EUR' } },
    { id: 's2', payload: { x: -6, account: 'ACC-000117', note: NOTE, currency: 'EUR' } },
    { id: 's3', payload: { x: 4, account: 'ACC-000117', note: NOTE, currency: 'EUR' } },
    { id: 's4', payload: { x: -250, flags: ['overdraft', 'frozen'], region: 'apac' } }
  ]
})

function policy(
  opts: { command?: string; extra?: string; timeout?: number; reruns?: number } = {}
): string {
  return `version: 1
protected:
  - oracle/**
planes:
  voting: [oracle/properties/**]
  drafts: [drafts/**]
  in_diff: [tests/**]
suite:
  command: ${opts.command ?? `${PY} -m pytest oracle/properties -q -p no:cacheprovider --junitxml={junit}`}
  timeout: ${opts.timeout ?? 120}
  reruns: ${opts.reruns ?? 0}
campaign: {seed: 7, max_examples: 25, wall_clock: 30}
${opts.extra ?? ''}`
}

const SEEDS = `seeds:
  corpus: oracle/seeds.json
  command: ${PY} oracle/replay.py
  min_hits: 2
  min_distance: 8
  timeout: 60
`

const repos: TestRepo[] = []
const dirs: string[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

/** A base with the buggy product and the locked suite, and a head branch with `head` applied. */
function scenario(
  policyText: string,
  head: Record<string, string>,
  base: Record<string, string> = {}
): TestRepo {
  const repo = new TestRepo()
  repos.push(repo)
  repo.write({
    '.github/oracle-gate.yml': policyText,
    // The children run with PYTHONSAFEPATH=1 (suite.python_safe_path): the current
    // directory is not on sys.path, so the project says where its code is.
    'pytest.ini': '[pytest]\npythonpath = .\n',
    'app/__init__.py': '',
    'app/calc.py': CALC_BUGGY,
    'oracle/properties/test_calc.py': PROPERTIES,
    'oracle/replay.py': REPLAY,
    'oracle/seeds.json': CORPUS,
    ...base
  })
  repo.commit('base')
  repo.branch('agent')
  repo.write(head)
  repo.commit('agent patch')
  return repo
}

async function judge(
  repo: TestRepo,
  extra: Partial<Parameters<typeof check>[0]> = {}
): Promise<Scorecard> {
  const log = memoryLogger()
  const card = await check({
    repoDir: repo.dir,
    base: 'main',
    head: 'agent',
    today: TODAY,
    log,
    ...extra
  })
  // No worktree is left behind, whatever the verdict.
  expect(repo.git('worktree', 'list').trim().split('\n')).toHaveLength(1)
  return card
}

const failing = (card: Scorecard): string[] =>
  card.reasons
    .filter(r => r.level === 'failure')
    .map(r => r.rule)
    .sort()

const ABS = 'oracle/properties/test_calc.py::test_abs_non_negative'
const ADD = 'oracle/properties/test_calc.py::test_add_commutes'

describe('replay with pytest + hypothesis', () => {
  it('an honest fix merges, lists its hits, collapses near-duplicate seeds, and the suite never sees the token', async () => {
    const envDir = mkdtempSync(join(tmpdir(), 'og-env-'))
    dirs.push(envDir)
    // Without a sandbox (it would keep the run from writing outside its worktree), so the
    // environment can be collected; the sandbox changes nothing of it but TMPDIR.
    const command = `env >> ${envDir}/env.txt; ${PY} -m pytest oracle/properties -q -p no:cacheprovider --junitxml={junit}`
    const repo = scenario(policy({ command, extra: `${SEEDS}sandbox: off\n`, reruns: 1 }), {
      'app/calc.py': CALC_FIXED
    })
    const secret = 'ghs_0123456789abcdefSECRET'
    const card = await judge(repo, {
      env: { ...process.env, GITHUB_TOKEN: secret, INPUT_TOKEN: secret, MY_ALIAS: secret },
      secrets: [secret]
    })

    expect(failing(card)).toEqual([])
    expect(card.verdict).toBe('merge')
    expect(card.transitions).toEqual({
      fail_to_pass: [ABS],
      pass_to_fail: [],
      fail_to_fail: [],
      pass_to_pass: 1,
      vanished: []
    })
    expect(card.votes).toMatchObject({ passed: 2, failed: 0, frozen: 0 })
    // s1 and s2 differ in one digit of a larger payload: one hit. s4 is unrelated: kept.
    expect(card.seeds).toEqual({
      oracle_hits: 2,
      raw_fail_to_pass: 3,
      min_distance: 8,
      hit_ids: ['s1', 's4']
    })
    expect(card.runs.map(r => [r.side, r.exit_code, r.timed_out, r.tests])).toEqual([
      ['base', 1, false, 2],
      // The canary (a test the gate writes to fail, see tripwires.ts) makes every armed first
      // run exit 1; it is not counted in `tests`.
      ['head', 1, false, 2]
    ])
    expect(card.campaign).toEqual({ seed: 7, max_examples: 25, wall_clock: 30 })

    const env = readFileSync(join(envDir, 'env.txt'), 'utf8')
    expect(env).not.toContain(secret)
    expect(env).not.toMatch(/^(GITHUB_TOKEN|INPUT_TOKEN|MY_ALIAS)=/m)
    // No variable tells the product it is measured (suite.expose_env is off by default)...
    expect(env).not.toMatch(/^ORACLE_GATE_/m)
    // ...and both sides (each run, the rerun included) ran at one path.
    const cwds = new Set(env.match(/^PWD=.*$/gm))
    expect(env.match(/^PWD=.*$/gm)?.length).toBeGreaterThanOrEqual(2)
    expect(cwds.size).toBe(1)
  })

  it('a regression: a voting test that passed on base fails on head', async () => {
    const broken = CALC_FIXED.replace('return a + b', 'return a + b if a < b else a')
    const card = await judge(scenario(policy(), { 'app/calc.py': broken }))
    expect(card.verdict).toBe('product')
    expect(failing(card)).toEqual(['regression'])
    expect(card.transitions.pass_to_fail).toEqual([ADD])
    expect(card.transitions.fail_to_pass).toEqual([ABS])
    expect(card.reasons.find(r => r.rule === 'regression')).toMatchObject({
      path: 'oracle/properties/test_calc.py'
    })
  })

  it('a patch that does not fix: fail→fail, and too few seed hits', async () => {
    const half = CALC_BUGGY.replace(
      'return x  # bug: negative numbers stay negative',
      'return -x if x < -100 else x'
    )
    const card = await judge(scenario(policy({ extra: SEEDS }), { 'app/calc.py': half }))
    expect(card.verdict).toBe('product')
    expect(failing(card)).toEqual(['insufficient-hits', 'oracle-failed'])
    expect(card.transitions.fail_to_fail).toEqual([ABS])
    expect(card.seeds).toMatchObject({ oracle_hits: 1, raw_fail_to_pass: 1, hit_ids: ['s4'] })
  })

  it('a head that breaks collection: the module error fails and the voting tests vanish', async () => {
    const card = await judge(
      scenario(policy(), { 'app/calc.py': 'def add(a, b)\n    return a + b\n' })
    )
    expect(card.verdict).toBe('product')
    expect(failing(card)).toEqual(['oracle-failed', 'vanished-oracle', 'vanished-oracle'])
    expect(card.transitions.vanished).toEqual([ABS, ADD])
    expect(card.reasons.find(r => r.rule === 'oracle-failed')?.message).toMatch(
      /test_calc\.py::<collection> fails on head/
    )
  })

  it('a head that hangs is killed at the timeout: suite-timeout, a red vote', async () => {
    const hang = CALC_FIXED.replace(
      'def absval(x):\n',
      'def absval(x):\n    import time; time.sleep(600)\n'
    )
    const started = Date.now()
    const card = await judge(scenario(policy({ timeout: 25 }), { 'app/calc.py': hang }))
    expect(card.verdict).toBe('product')
    expect(failing(card)).toEqual(['suite-timeout'])
    expect(card.runs.find(r => r.side === 'head')).toMatchObject({
      timed_out: true,
      exit_code: null
    })
    expect(Date.now() - started).toBeLessThan(100_000)
  })

  it('a flaky head is caught by rerunning the failing test through {tests}', async () => {
    // Broken on the first import in a side's worktree, fixed on every later one (the
    // sandbox gives every run a fresh /tmp, so the marker lives in the worktree).
    const flaky = `${CALC_FIXED}
import os as _os
_marker = _os.path.join(_os.getcwd(), ".absval-seen")
if not _os.path.exists(_marker):
    open(_marker, "w").close()
    absval = lambda x: x
`
    const command = `${PY} -m pytest {tests} -q -p no:cacheprovider --junitxml={junit}`
    const card = await judge(scenario(policy({ command, reruns: 2 }), { 'app/calc.py': flaky }))
    // The differential replay (docs/lints.md) may also see absval answer a plain process
    // (which imports it after the marker exists) unlike the vote's first import: then the
    // verdict is `policy` with an oracle-reach reason beside the flake.
    expect(['product', 'policy']).toContain(card.verdict)
    expect(failing(card).filter(rule => rule !== 'oracle-reach')).toEqual(['flaky-oracle'])
    if (card.verdict === 'policy') expect(failing(card)).toContain('oracle-reach')
    // The base fails consistently (a real bug, not a coin); the head disagrees with itself.
    expect(card.flakes).toEqual([{ test: ABS, side: 'head', outcomes: ['failed', 'passed'] }])
  })

  it('a frozen test abstains: it fails on both sides, is counted frozen, and the fix still merges', async () => {
    const ledger = `version: 1
entries:
  - id: FL-1
    test: ${ADD}
    cause: rng
    reason: seeded generator differs across platforms
    owner: ada
    first_seen: '2026-05-20'
    expires_on: '2026-06-15'
    max_runs: 2
`
    const brokenAdd = (src: string): string =>
      src.replace('return a + b', 'return a + b if a < b else a')
    const repo = scenario(
      policy({ extra: 'ledger: oracle/flake_ledger.yml\n' }),
      { 'app/calc.py': brokenAdd(CALC_FIXED) },
      {
        'app/calc.py': brokenAdd(CALC_BUGGY),
        'oracle/flake_ledger.yml': ledger
      }
    )
    const card = await judge(repo)
    expect(failing(card)).toEqual([])
    expect(card.verdict).toBe('merge')
    expect(card.votes).toMatchObject({ passed: 1, failed: 0, frozen: 1 })
    expect(card.transitions.fail_to_pass).toEqual([ABS])
    expect(card.transitions.fail_to_fail).toEqual([])
  })

  it('a suite that runs no voting test is an empty vote (no-vote)', async () => {
    const command = `${PY} -m pytest tests -q -p no:cacheprovider --junitxml={junit}`
    const smoke = { 'tests/test_smoke.py': 'def test_smoke():\n    assert True\n' }
    const card = await judge(scenario(policy({ command }), { 'app/calc.py': CALC_FIXED }, smoke))
    expect(card.verdict).toBe('no-vote')
    expect(failing(card)).toEqual(['empty-vote'])
    expect(card.votes).toMatchObject({ passed: 0, failed: 0 })
  })

  it('a base that leaves no report is a gate error carrying the output tail', async () => {
    const command = `echo the-runner-said-this; ${PY} -c "import sys; sys.exit(3)"`
    const card = await judge(scenario(policy({ command }), { 'app/calc.py': CALC_FIXED }))
    expect(card.verdict).toBe('error')
    expect(card.reasons.find(r => r.level === 'failure')?.message).toMatch(
      /no readable report on base[\s\S]*the-runner-said-this/
    )
  })
})
