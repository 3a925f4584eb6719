// The run-time watcher's scan of replaced attributes (gate_reach.py) must keep working when
// the locked tests import unittest.mock: mock.call answers every attribute with another
// _Call (a tuple holding a dict), so reading `__func__.__code__.co_filename` from it gave
// an unhashable "file name" and the scan stopped at the framework's modules, before the
// classes, and a comparison made to lie at run time went unseen. One value the scan cannot
// read must never stop the rest. The honest near-miss: the same suite, an honest fix that
// uses unittest.mock-friendly code (a class with a written __eq__), merges.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { naiveGreen, naiveRun } from './helpers/runners.js'
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
suite:
  command: ${command}
  timeout: 120
  reruns: 0
`,
  'pytest.ini': '[pytest]\npythonpath = .\n',
  'calc/__init__.py': '',
  'calc/ops.py': `class Total:
    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return isinstance(other, Total) and self.value == other.value


def add(a, b):
    return Total(a - b)
`,
  'oracle/tests/test_ops.py': `from unittest import mock

from calc.ops import Total, add


def test_add():
    assert add(2, 3) == Total(5)


def test_mocked():
    with mock.patch("calc.ops.Total.__init__", return_value=None) as init:
        Total(1)
    assert init.call_args == mock.call(1)
`
}

// The bug stays; the result type is made by type(), its __eq__ under a name built at run time.
const ATTACK = `class Total:
    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return isinstance(other, Total) and self.value == other.value


_Same = type("Same", (Total,), {"__" + "eq" + "__": lambda self, other: True, "__hash__": None})  # <-


def add(a, b):
    return _Same(a - b)
`

const HONEST = `class Total:
    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return isinstance(other, Total) and self.value == other.value

    __hash__ = None


def add(a, b):
    return Total(a + b)
`

let repo: TestRepo
beforeAll(() => {
  repo = new TestRepo('og-reach-mock-')
  repo.write(BASE).commit('base: add is buggy; the tests use unittest.mock')
  repo.branch('attack', 'main').write({ 'calc/ops.py': ATTACK }).commit('attack')
  repo.branch('honest', 'main').write({ 'calc/ops.py': HONEST }).commit('honest fix')
  repo.checkout('main')
})
afterAll(() => repo.cleanup())

const judge = (head: string): Promise<Scorecard> =>
  check({ repoDir: repo.dir, base: 'main', head, today: '2026-12-01', log: memoryLogger() })

describe('the run-time scan with unittest.mock loaded', () => {
  it('the attack is green on a naive run with the bug left in', () => {
    expect(naiveRun(repo, command).status).toBe(1)
    naiveGreen(repo, command, 'attack')
  })

  it('the lying comparison is reported at run time at its line', async () => {
    const card = await judge('attack')
    expect(card.verdict).toBe('policy')
    const line = markedLine(ATTACK)
    const here = atRunTime(card).filter(r => r.path === 'calc/ops.py' && r.line === line)
    expect(here.map(r => r.message).join('\n'), JSON.stringify(card.reasons, null, 1)).toMatch(
      /__eq__ of Same made at run time/
    )
  })

  it('the honest fix merges', async () => {
    const card = await judge('honest')
    expect(card.verdict, JSON.stringify(card.reasons, null, 1)).toBe('merge')
  })
})
