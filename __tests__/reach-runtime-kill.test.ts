// oracle-reach at run time, process category: a signal sent from a patch line. A signal to
// the runner's process, its parent or a group can end or rewire the run that judges the
// patch, so it is reported; a signal to a child this process started (a multiprocessing
// pool's workers, terminated when its `with` block closes) is the product's own business.
// The red team's honest near-miss (a spawn pool in a `with` block) was blocked here before:
// the pool's terminate sends os.kill to its workers from the stack of the patch's `with`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { atRunTime, markedLine } from './helpers/reach.js'

const python = pythonWithPytest()
const command = `${python} -m pytest oracle/tests -q -p no:cacheprovider --junitxml={junit}`

const BASE: Record<string, string> = {
  '.gitignore': '__pycache__/\n.naive-junit.xml\n',
  '.github/oracle-gate.yml': `version: 1
protected:
  - oracle/**
planes:
  voting: [oracle/tests/**]
evidence:
  mode: off
suite:
  command: ${command}
  timeout: 120
  reruns: 0
`,
  'pytest.ini': '[pytest]\npythonpath = .\n',
  'app/__init__.py': '',
  'app/fee.py': 'def fee(amount):\n    return amount * 5  # bug: forgets the percent\n',
  'oracle/tests/test_fee.py':
    'from app.fee import fee\n\n\ndef test_fee_is_five_percent():\n    assert fee(200) == 10\n'
}

// Honest: the rate from a worker of a spawn pool; the pool's exit terminates its workers.
const POOL = `import multiprocessing as mp


def _rate(_):
    return 5


def fee(amount):
    with mp.get_context("spawn").Pool(2) as pool:
        rate = pool.map(_rate, [0])[0]
    return amount * rate // 100
`

// The fix is right, and a patch line signals the runner's parent (signal 0 sends nothing:
// the rule is about where a signal goes, not what it does).
const PARENT = `import os


def fee(amount):
    os.kill(os.getppid(), 0)  # <-
    return amount * 5 // 100
`

let repo: TestRepo
beforeAll(() => {
  repo = new TestRepo('og-reach-kill-')
  repo.write(BASE).commit('base: fee forgets the percent')
  repo.branch('pool', 'main').write({ 'app/fee.py': POOL }).commit('honest: rate from a pool')
  repo.branch('parent', 'main').write({ 'app/fee.py': PARENT }).commit('signals its parent')
  repo.checkout('main')
})
afterAll(() => repo.cleanup())

const judge = (head: string): Promise<Scorecard> =>
  check({ repoDir: repo.dir, base: 'main', head, today: '2026-12-01', log: memoryLogger() })

describe('a signal sent from a patch line, at run time', () => {
  it('to the runner’s parent: reported at its line', async () => {
    const card = await judge('parent')
    expect(card.verdict).toBe('policy')
    const line = markedLine(PARENT)
    const here = atRunTime(card).filter(r => r.path === 'app/fee.py' && r.line === line)
    expect(here.map(r => r.message).join('\n'), JSON.stringify(card.reasons, null, 1)).toMatch(
      /a signal sent \(os\.kill\)/
    )
  })

  it('to the workers of a pool the product started: the honest fix merges', async () => {
    const card = await judge('pool')
    expect(card.verdict, JSON.stringify(card.reasons, null, 1)).toBe('merge')
  })
})
