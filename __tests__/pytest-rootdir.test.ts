// A new user whose pytest configuration is not at the repository's root (the red team's
// s-pyrootdir shapes): `qa/pytest.ini` with `testpaths = cases` and `pythonpath = ../lib`,
// CI running `pytest -c qa/pytest.ini --rootdir qa`. pytest names each test relative to its
// rootdir (`cases.test_fee`), so a gate that maps the report from the repository's root
// matched no test to a file: every honest PR was `no-vote` (custom python_files) or
// `product` (the gate's own canaries read as failing votes). The rootdir is now taken from
// the merge base's command and configuration (src/replay/pyroot.ts). Shown on real pytest,
// after `oracle-gate init`: the honest fix merges, with the canaries armed under the base's
// own file and function patterns; a head that leaves the bug in is `product`, so the vote
// is real, not vacuous.
import { afterEach, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { TestRepo } from './helpers/repo.js'
import { runCli, testEnv } from './helpers/shapes.js'

const repos: TestRepo[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})

const CI = `on: push
jobs:
  t:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: python -m pytest -c qa/pytest.ini --rootdir qa
`

const SHAPES = {
  'custom names (spec_*.py, check_*)': {
    ini: '[pytest]\npython_files = spec_*.py\npython_functions = check_*\ntestpaths = cases\npythonpath = ../lib\n',
    test: 'qa/cases/spec_fee.py',
    fn: 'check'
  },
  'default names': {
    ini: '[pytest]\ntestpaths = cases\npythonpath = ../lib\n',
    test: 'qa/cases/test_fee.py',
    fn: 'test'
  }
} as const

async function shaped(shape: (typeof SHAPES)[keyof typeof SHAPES]): Promise<TestRepo> {
  const repo = new TestRepo('og-pyroot-')
  repos.push(repo)
  repo.write({
    '.gitignore': '__pycache__/\n',
    '.github/workflows/ci.yml': CI,
    'qa/pytest.ini': shape.ini,
    [shape.test]: `from fee import fee\n\n\ndef ${shape.fn}_fee():\n    assert fee(100) == 5\n\n\ndef ${shape.fn}_zero():\n    assert fee(0) == 0\n`,
    'lib/fee.py': 'def fee(x):\n    return x * 10 // 100  # bug\n'
  })
  repo.commit('base: fee is wrong')
  const init = await runCli(['init'], repo.dir, testEnv())
  expect(init.code, init.err + init.out).toBe(0)
  repo.commit('adopt oracle-gate')
  return repo
}

function judge(repo: TestRepo, fee: string, name: string): Promise<Scorecard> {
  repo.branch(name, 'main').write({ 'lib/fee.py': fee }).commit(name)
  repo.checkout('main')
  return check({
    repoDir: repo.dir,
    base: 'main',
    head: name,
    today: '2026-12-01',
    log: memoryLogger(),
    env: testEnv()
  })
}

describe.each(Object.entries(SHAPES))('pytest rootdir qa/ with %s', (_, shape) => {
  it('the honest fix merges, every locked test voting and the canaries armed', async () => {
    const repo = await shaped(shape)
    const card = await judge(repo, 'def fee(x):\n    return x * 5 // 100\n', 'fix')
    expect(card.verdict, JSON.stringify(card.reasons, null, 1)).toBe('merge')
    expect(card.votes.passed).toBe(2)
    expect(card.reasons.map(r => r.message).join('\n')).not.toMatch(/canaries were not armed/)
  })

  it('a head that leaves the bug in is product (the vote counts)', async () => {
    const repo = await shaped(shape)
    const card = await judge(repo, 'def fee(x):\n    return x * 10 // 100 + 0\n', 'nofix')
    expect(card.verdict, JSON.stringify(card.reasons, null, 1)).toBe('product')
    expect(card.reasons.some(r => r.rule === 'oracle-failed')).toBe(true)
  })
})
