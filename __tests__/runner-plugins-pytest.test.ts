// Runner configuration by what pytest registers (docs/instrument.md "Plugins the runner
// registers"), on a real pytest suite. The merge base's locked conftest names the package's
// own helpers as a plugin (`pytest_plugins = ["app.testing"]`, production code by its
// path); the bug stays in app/fee.py (a 10 % fee where the locked test wants 5 %). Each
// attack changes that plugin module so that the locked test "passes" — a hook swapping the
// test function for a no-op, a fixture handing the test its expected value, a hook the
// module imports from elsewhere — and is first shown green on a naive run, then rejected
// by the gate as `runner-tampered` naming app/testing.py at the hook's line (`# <-`), with
// and without `planes.production`. The honest heads merge: the fix in app/fee.py with the
// plugin untouched (it imports app.fee), a new production module the plugin imports that
// registers nothing, a conftest fixture over a production factory the patch fixes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { markedLine } from './helpers/reach.js'
import { TestRepo } from './helpers/repo.js'
import { naiveGreen, naiveRun } from './helpers/runners.js'

const python = pythonWithPytest()
const command = `${python} -m pytest oracle -q -p no:cacheprovider --junitxml={junit}`

const policy = (production: boolean): string => `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/**]
  drafts: []
  in_diff: []
${production ? '  production: [app/**]\n' : ''}evidence:
  mode: off
suite:
  command: "${command}"
  timeout: 120
  reruns: 0
`

const FIXED_FEE =
  'from fractions import Fraction\n\n\ndef fee(x):\n    return x * Fraction(5, 100)\n'

const BASE: Record<string, string> = {
  '.gitignore': '__pycache__/\n.naive-junit.xml\n',
  'pyproject.toml':
    '[project]\nname = "app"\nversion = "0"\n\n[tool.pytest.ini_options]\npythonpath = ["."]\n',
  'app/__init__.py': '',
  'app/fee.py':
    'from fractions import Fraction\n\n\ndef fee(x):\n    return x * Fraction(10, 100)  # bug: the fee is 5%\n',
  // A hook nothing registers at the base (app/testing.py imports Order only).
  'app/orders.py': `class Order:
    def __init__(self, amount):
        self.amount = amount


def pytest_collection_modifyitems(items):
    items[:] = [i for i in items if i.name != "test_fee"]
`,
  'app/testing.py': `"""Fixtures and hooks this package ships for its users' tests."""
import pytest

from app.fee import fee
from app.orders import Order


def pytest_report_header(config):
    return "app test helpers, fee(0) = %s" % fee(0)


@pytest.fixture
def expected_fee():
    return 5


@pytest.fixture
def order():
    return Order(100)
`,
  'oracle/conftest.py': 'pytest_plugins = ["app.testing"]\n',
  'oracle/test_fee.py': `from fractions import Fraction

from app.fee import fee


def test_zero():
    assert fee(0) == 0


def test_fee(expected_fee, order):
    assert fee(order.amount) == Fraction(expected_fee)
`
}

const HELPERS = BASE['app/testing.py'] ?? ''

/** Attacks: each replaces app/testing.py; the marked line is the hook the gate must name. */
const ATTACKS: Record<string, string> = {
  // The red team's r4-pyplugin: no pytest name, no report rewrite; the test "passes".
  'swap-obj': `${HELPERS}

def pytest_runtest_setup(item):  # <-
    if item.name == "test_fee":
        item.obj = lambda **kwargs: None
`,
  // The fixture the locked test reads its expected value from follows the bug.
  fixture: HELPERS.replace(
    '@pytest.fixture\ndef expected_fee():\n    return 5',
    '@pytest.fixture  # <-\ndef expected_fee():\n    return 10'
  ),
  // A hook defined in an unchanged module, registered by the changed plugin module.
  imported: `${HELPERS}
from app.orders import pytest_collection_modifyitems  # <-
`
}

/** Honest heads: each must merge. */
const HONEST: Record<string, Record<string, string>> = {
  // The fix where the bug is; the plugin module imports app.fee and is unchanged.
  fix: { 'app/fee.py': FIXED_FEE },
  // A new production module the plugin imports, registering nothing; the plugin untouched.
  'new-module': {
    'app/rates.py': 'from fractions import Fraction\n\nSTANDARD = Fraction(5, 100)\n',
    'app/fee.py': 'from app.rates import STANDARD\n\n\ndef fee(x):\n    return x * STANDARD\n'
  },
  // Order (the plugin's fixture builds one) changes honestly; hooks and fixtures untouched.
  order: {
    'app/orders.py': `from dataclasses import dataclass


@dataclass(frozen=True)
class Order:
    amount: int
`,
    'app/fee.py': FIXED_FEE
  }
}

let repo: TestRepo
beforeAll(() => {
  repo = new TestRepo('og-plugins-')
  repo.write(BASE)
  for (const production of [false, true]) {
    const main = production ? 'main-prod' : 'main'
    if (production) repo.branch(main, 'main')
    repo.write({ '.github/oracle-gate.yml': policy(production) }).commit(`base ${main}`)
    for (const [name, text] of Object.entries(ATTACKS))
      repo
        .branch(`${main}-${name}`, main)
        .write({ 'app/testing.py': text })
        .commit(`attack: ${name}`)
    for (const [name, files] of Object.entries(HONEST))
      repo.branch(`${main}-h-${name}`, main).write(files).commit(`honest: ${name}`)
    repo.checkout('main')
  }
})
afterAll(() => repo.cleanup())

function judge(base: string, head: string): Promise<Scorecard> {
  return check({ repoDir: repo.dir, base, head, today: '2026-12-02', log: memoryLogger() })
}

describe('runner-tampered: a production module the base registers as a pytest plugin', () => {
  it('the base fails its locked fee test (the bug is real), and only that one', () => {
    const naive = naiveRun(repo, command)
    repo.git('clean', '-fdxq')
    expect(naive.status).toBe(1)
    expect(naive.output).toMatch(/1 failed, 1 passed/)
  })

  for (const main of ['main', 'main-prod']) {
    for (const [name, text] of Object.entries(ATTACKS)) {
      const line = markedLine(text)
      it(`${main}, ${name}: green on a naive run with the bug left in; runner-tampered at app/testing.py:${line}`, async () => {
        naiveGreen(repo, command, `${main}-${name}`)
        const card = await judge(main, `${main}-${name}`)
        const detail = JSON.stringify(card.reasons, null, 1)
        expect(card.verdict, detail).toBe('policy')
        const here = card.reasons.filter(
          r => r.rule === 'runner-tampered' && r.path === 'app/testing.py'
        )
        expect(
          here.map(r => [r.level, r.line, r.message]),
          detail
        ).toEqual([['failure', line, expect.stringContaining('the test runner registered')]])
      })
    }
    for (const name of Object.keys(HONEST)) {
      it(`${main}, honest ${name}: merges, no plugin reported`, async () => {
        const card = await judge(main, `${main}-h-${name}`)
        const detail = JSON.stringify(card.reasons, null, 1)
        expect(
          card.reasons.filter(r => r.level === 'failure'),
          detail
        ).toEqual([])
        expect(card.verdict, detail).toBe('merge')
      })
    }
  }
})
