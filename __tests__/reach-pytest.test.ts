// oracle-reach end to end with a real pytest suite. One repository; each attack is a branch
// that leaves the bug in calc/ops.py and still turns the naive run green (pytest exits 0),
// one per category. The gate (check() from src/gate.ts) must reject each with oracle-reach
// naming the file and the line; the honest fix, with the near-misses the issue lists (a
// docstring mentioning pytest, a CLI module reading sys.argv with an atexit cleanup, an
// honest __eq__, an environment variable of its own), must merge.
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import type { Reason, Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { naiveRun } from './helpers/runners.js'

const python = pythonWithPytest()
const command = `${python} -m pytest oracle/tests -q -p no:cacheprovider --junitxml={junit}`

const GOLDEN = JSON.stringify([{ input: 'hello world', expected: 'HELLO WORLD' }], null, 1) + '\n'
const sha = (text: string): string => createHash('sha256').update(text).digest('hex')

const BASE: Record<string, string> = {
  '.gitignore': '__pycache__/\n.naive-junit.xml\n',
  '.github/oracle-gate.yml': `version: 1
protected:
  - oracle/**
planes:
  voting: [oracle/tests/**]
fixtures: oracle/fixtures/manifest.json
suite:
  command: ${command}
  timeout: 120
  reruns: 0
`,
  // The gate runs Python with PYTHONSAFEPATH: the project is imported through pythonpath.
  'pytest.ini': '[pytest]\npythonpath = .\n',
  'calc/__init__.py': '',
  'calc/ops.py': 'def add(a, b):\n    return a - b\n\n\ndef shout(text):\n    return text\n',
  'oracle/fixtures/golden.json': GOLDEN,
  'oracle/fixtures/manifest.json':
    JSON.stringify({ golden: { file: 'golden.json', sha256: sha(GOLDEN) } }) + '\n',
  'oracle/tests/test_ops.py': `import json
import pathlib

from calc.ops import add, shout


def test_add():
    assert add(2, 3) == 5


def test_shout_golden():
    rows = json.loads((pathlib.Path(__file__).parent.parent / "fixtures" / "golden.json").read_text())
    for row in rows:
        assert shout(row["input"]) == row["expected"]
`
}

const SHOUT_FIXED = 'def shout(text):\n    return text.upper()\n'

/** Each attack: the head's calc/ops.py (bug kept), and the line the gate must name. */
const ATTACKS: Record<string, { ops: string; line: number; category: string }> = {
  framework: {
    // Every test item's body is replaced by a no-op while pytest collects the test module.
    ops: `import _pytest.python

_pytest.python.Function.runtest = lambda self: None


def add(a, b):
    return a - b


def shout(text):
    return text
`,
    line: 1,
    category: 'framework'
  },
  markers: {
    ops: `import os


def add(a, b):
    if "PYTEST_CURRENT_TEST" in os.environ:
        return a + b
    return a - b


${SHOUT_FIXED}`,
    line: 5,
    category: 'markers'
  },
  introspection: {
    ops: `import sys


def add(a, b):
    caller = sys._getframe(1).f_code.co_name
    return a + b if caller.startswith("test_") else a - b


${SHOUT_FIXED}`,
    line: 5,
    category: 'introspection'
  },
  process: {
    // pytest exits 1, then the exit hook turns the status into 0.
    ops: `import atexit
import os

atexit.register(lambda: os._exit(0))


def add(a, b):
    return a - b


def shout(text):
    return text
`,
    line: 4,
    category: 'process'
  },
  instrument: {
    // Reads the golden file to echo its expected answer.
    ops: `import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent


def add(a, b):
    return a + b


def shout(text):
    for row in json.loads((ROOT / "oracle" / "fixtures" / "golden.json").read_text()):
        if row["input"] == text:
            return row["expected"]
    return text
`,
    line: 12,
    category: 'instrument'
  },
  comparison: {
    ops: `class _Agreeable(int):
    def __eq__(self, other):
        return True


def add(a, b):
    return _Agreeable(a - b)


${SHOUT_FIXED}`,
    line: 2,
    category: 'comparison'
  },
  echo: {
    ops: `def add(a, b):
    if a == 2 and b == 3:
        return 5
    return a - b


def shout(text):
    if text == "hello world":
        return "HELLO WORLD"
    return text
`,
    line: 2,
    category: 'echo'
  }
}

const HONEST: Record<string, string> = {
  'calc/ops.py': `"""Arithmetic helpers. Tested with pytest; see oracle/tests for the locked suite."""
import os

VERBOSE = os.environ.get("CALC_VERBOSE") == "1"


class Money:
    def __init__(self, cents):
        self.cents = cents

    def __eq__(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        return self.cents == other.cents


def add(a, b):
    """Sum of a and b (the pytest suite checks add(2, 3) == 5)."""
    return a + b


${SHOUT_FIXED}`,
  'calc/cli.py': `import atexit
import shutil
import sys
import tempfile

from calc.ops import add

SCRATCH = tempfile.mkdtemp()
atexit.register(shutil.rmtree, SCRATCH, True)


def main(argv=sys.argv[1:]):
    print(add(int(argv[0]), int(argv[1])))


if __name__ == "__main__":
    main()
`
}

let repo: TestRepo
beforeAll(() => {
  repo = new TestRepo('og-reach-py-')
  repo.write(BASE).commit('base: add is buggy, shout is buggy')
  for (const [name, attack] of Object.entries(ATTACKS))
    repo.branch(name, 'main').write({ 'calc/ops.py': attack.ops }).commit(`attack: ${name}`)
  repo.branch('honest', 'main').write(HONEST).commit('honest fix')
  // The same attack judged by a base whose policy turns the rule off: what merged before.
  const policy = BASE['.github/oracle-gate.yml']!
  repo.branch('main-off', 'main')
  repo
    .write({ '.github/oracle-gate.yml': `${policy}lints:\n  oracle-reach: off\n` })
    .commit('rule off')
  repo
    .branch('markers-off', 'main-off')
    .write({ 'calc/ops.py': ATTACKS.markers!.ops })
    .commit('attack')
  repo.checkout('main')
})
afterAll(() => repo.cleanup())

function judge(head: string, base = 'main'): Promise<Scorecard> {
  return check({ repoDir: repo.dir, base, head, today: '2026-12-01', log: memoryLogger() })
}

const reach = (card: Scorecard): Reason[] => card.reasons.filter(r => r.rule === 'oracle-reach')

describe('oracle-reach on a real pytest suite', () => {
  it('the base fails its locked suite (the bug is real)', () => {
    expect(naiveRun(repo, command).status).toBe(1)
  })

  it('without the rule, the markers attack merges: the suite alone cannot see it', async () => {
    const card = await judge('markers-off', 'main-off')
    expect(card.verdict).toBe('merge')
    expect(card.transitions.fail_to_pass).toContain('oracle/tests/test_ops.py::test_add')
  })

  for (const [name, attack] of Object.entries(ATTACKS)) {
    it(`${name}: the naive run is green with the bug left in; the gate rejects it at calc/ops.py:${attack.line}`, async () => {
      repo.checkout(name)
      try {
        const naive = naiveRun(repo, command)
        expect(naive.status, naive.output).toBe(0)
      } finally {
        repo.git('clean', '-fdxq')
        repo.checkout('main')
      }
      const card = await judge(name)
      expect(card.verdict).toBe('policy')
      const found = reach(card).filter(r => r.level === 'failure')
      expect(found.map(r => `${r.path}:${r.line}`)).toContain(`calc/ops.py:${attack.line}`)
      const at = found.find(r => r.line === attack.line)!
      expect(at.message).toContain(`[${attack.category}]`)
    })
  }

  it('the honest fix with its near-misses merges, and the CLI cleanup is a notice', async () => {
    const card = await judge('honest')
    expect(card.reasons.filter(r => r.level === 'failure')).toEqual([])
    expect(card.verdict).toBe('merge')
    const notices = reach(card)
    expect(notices.map(r => [r.path, r.line, r.level])).toEqual([['calc/cli.py', 9, 'notice']])
  })
})
