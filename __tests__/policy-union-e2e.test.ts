// A stale merge base with a weaker lint level, end to end with a real pytest suite (issue
// 22). The branch is cut while the policy says `oracle-reach: warn`; the base branch then
// makes it `error`. The head keeps the bug and turns its test green by asking whether it
// runs under pytest. The naive run is green, and the gate judging with the merge base's
// policy alone (what the old union kept for oracle-reach) lets it merge with a warning;
// judged with the tip too, the stricter level holds and the verdict is policy. The honest
// fix on the same stale branch still merges.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { naiveRun } from './helpers/runners.js'

const python = pythonWithPytest()
const command = `${python} -m pytest oracle/tests -q -p no:cacheprovider --junitxml={junit}`
const policy = (level: string): string => `version: 1
protected:
  - oracle/**
planes:
  voting: [oracle/tests/**]
suite:
  command: ${command}
  timeout: 120
  reruns: 0
lints:
  oracle-reach: ${level}
`

const ATTACK = `import os


def add(a, b):
    if "PYTEST_CURRENT_TEST" in os.environ:
        return a + b
    return a - b
`

describe('a stale merge base with oracle-reach: warn, the tip with error', () => {
  let repo: TestRepo
  let oldBase: string
  beforeAll(() => {
    repo = new TestRepo()
    repo.write({
      '.gitignore': '__pycache__/\n.naive-junit.xml\n',
      '.github/oracle-gate.yml': policy('warn'),
      'pytest.ini': '[pytest]\npythonpath = .\n',
      'calc/__init__.py': '',
      'calc/ops.py': 'def add(a, b):\n    return a - b\n',
      'oracle/tests/test_ops.py':
        'from calc.ops import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n'
    })
    oldBase = repo.commit('old policy: oracle-reach warns')
    repo.branch('attack').branch('honest').checkout('main')
    repo.write({ '.github/oracle-gate.yml': policy('error') })
    repo.commit('oracle-reach blocks')
    repo.checkout('attack').write({ 'calc/ops.py': ATTACK })
    repo.commit('make the test pass')
    repo.checkout('honest').write({ 'calc/ops.py': 'def add(a, b):\n    return a + b\n' })
    repo.commit('fix add')
  })
  afterAll(() => repo.cleanup())

  const run = (head: string, base: string) =>
    check({ repoDir: repo.dir, base, head, today: '2026-06-01', log: memoryLogger() })

  it('the attack is green on a naive run and under the merge base policy alone', async () => {
    repo.checkout('attack')
    expect(naiveRun(repo, command).status).toBe(0)
    // Judged with the merge base's policy only (the base is the old commit itself).
    const card = await run('attack', oldBase)
    // oracle-reach at `warn` does not block: the verdict is not `policy`. (The run-time
    // watcher hides the runner's key from the patch's line, so the bug now shows in the
    // vote and the verdict is `product`; under the base tip's `error` it is `policy`.)
    expect(card.verdict, JSON.stringify(card.reasons)).not.toBe('policy')
    expect(card.reasons).toContainEqual(
      expect.objectContaining({ rule: 'oracle-reach', level: 'warning', path: 'calc/ops.py' })
    )
  })

  it('judged with the base tip too, the stricter level blocks it', async () => {
    const card = await run('attack', 'main')
    expect(card.verdict).toBe('policy')
    expect(card.reasons).toContainEqual(
      expect.objectContaining({
        rule: 'oracle-reach',
        level: 'failure',
        path: 'calc/ops.py',
        line: 5
      })
    )
    expect(card.reasons).toContainEqual(
      expect.objectContaining({
        rule: 'diagnostic',
        message: expect.stringMatching(/union .* adds lints\.oracle-reach/)
      })
    )
  })

  it('the honest fix on the same stale branch merges', async () => {
    const card = await run('honest', 'main')
    expect(card.verdict).toBe('merge')
    expect(card.reasons.filter(r => r.rule === 'oracle-reach')).toEqual([])
  })
})
