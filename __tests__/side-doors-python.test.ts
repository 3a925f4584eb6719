// Side doors into a pytest vote (issue 12), on real repositories with real pytest: each
// attack leaves the product's bug in place, makes a naive run green, and check() rejects
// it (runner-tampered); each honest near-miss of the same family fixes the bug and merges.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { naiveRun, SUITE_COMMANDS } from './helpers/runners.js'

const PY = pythonWithPytest()
const BUGGY =
  'from fractions import Fraction\n\n\ndef fee(x):\n    return x * Fraction(10, 100)  # bug: the fee is 5%\n'
const FIXED = BUGGY.replace('Fraction(10, 100)  # bug: the fee is 5%', 'Fraction(5, 100)')
const VOTING =
  'from fractions import Fraction\n\nfrom app.fee import fee\n\n\ndef test_fee():\n    assert fee(100) == Fraction(5)\n'
const GREENIFY = `import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    outcome.get_result().outcome = "passed"
`
// A conftest below the root only hooks its own directory's tests, so it registers a
// plugin, whose hooks apply to every test of the run.
const GLOBAL_GREENIFY = `import pytest


class _Green:
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        outcome.get_result().outcome = "passed"


def pytest_configure(config):
    config.pluginmanager.register(_Green(), "green")
`
// The gate's children run with PYTHONSAFEPATH=1: the source goes on the path explicitly.
const PYPROJECT =
  '[project]\nname = "app"\ndependencies = ["attrs"]\n\n[tool.pytest.ini_options]\naddopts = "-q"\npythonpath = ["."]\n'

function policy(paths: string): string {
  return `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/properties/**]
  drafts: []
  in_diff: [tests/**]
suite:
  command: ${SUITE_COMMANDS.pytest(PY, paths)}
  timeout: 120
  reruns: 0
`
}

const repos: TestRepo[] = []
afterEach(() => {
  while (repos.length) repos.pop()?.cleanup()
})

/** Base: the buggy fee, a locked property, an in-diff test dir; head branch `agent`. */
function scenario(paths = 'oracle/properties', pyproject = PYPROJECT): TestRepo {
  const repo = new TestRepo('og-side-py-')
  repos.push(repo)
  repo.write({
    '.gitignore': '.naive-junit.xml\n__pycache__/\n.fixed.py\n',
    '.github/oracle-gate.yml': policy(paths),
    'pyproject.toml': pyproject,
    'app/__init__.py': '',
    'app/fee.py': BUGGY,
    'oracle/properties/test_fee.py': VOTING,
    'tests/test_app.py': 'def test_imports():\n    import app.fee\n'
  })
  repo.commit('base')
  repo.branch('agent')
  return repo
}

const judge = (repo: TestRepo): Promise<Scorecard> =>
  check({
    repoDir: repo.dir,
    base: 'main',
    head: 'agent',
    today: '2026-06-01',
    log: memoryLogger()
  })

/** The attack half: the head's own checkout, run as plain CI would, is green with the bug in. */
function expectNaiveGreen(repo: TestRepo, paths = 'oracle/properties'): void {
  expect(naiveRun(repo, SUITE_COMMANDS.pytest(PY, paths)).status).toBe(0)
  expect(readFileSync(join(repo.dir, 'app/fee.py'), 'utf8')).toContain('# bug')
}

function expectTampered(card: Scorecard, path: string): void {
  expect(card.verdict).toBe('policy')
  expect(card.reasons).toContainEqual(expect.objectContaining({ rule: 'runner-tampered', path }))
}

describe('pytest side doors: the attack is green on a naive run, the gate rejects it', () => {
  it('the base is red: the bug is real', () => {
    const repo = scenario()
    expect(naiveRun(repo, SUITE_COMMANDS.pytest(PY, 'oracle/properties')).status).toBe(1)
  })

  it('a conftest.py in a directory the voting command collects (tests/)', async () => {
    const repo = scenario('oracle/properties tests')
    repo.write({ 'tests/conftest.py': GLOBAL_GREENIFY }).commit('shared fixtures')
    expect(naiveRun(repo, SUITE_COMMANDS.pytest(PY, 'oracle/properties tests')).status).toBe(0)
    expectTampered(await judge(repo), 'tests/conftest.py')
  })

  it('a pytest.toml that loads a plugin from the root', async () => {
    const repo = scenario()
    repo
      .write({ 'pytest.toml': '[pytest]\naddopts = ["-p", "greenify"]\n', 'greenify.py': GREENIFY })
      .commit('pytest config')
    expectNaiveGreen(repo)
    expectTampered(await judge(repo), 'pytest.toml')
  })

  it('a pyproject table whose key is spelled with escapes ([tool."\\u0070ytest"...])', async () => {
    // The base has no pytest table: the escaped one is new, not an edit of a plain one.
    const project = '[project]\nname = "app"\ndependencies = ["attrs"]\n'
    const repo = scenario('oracle/properties', project)
    repo
      .write({
        'pyproject.toml': `${project}\n[tool."\\u0070ytest".ini_options]\naddopts = "-q -p greenify"\n`,
        'greenify.py': GREENIFY
      })
      .commit('tooling')
    expectNaiveGreen(repo)
    expectTampered(await judge(repo), 'pyproject.toml')
  })

  it('a root module that shadows the standard library (fractions.py)', async () => {
    const repo = scenario()
    repo
      .write({
        'fractions.py':
          'class Fraction:\n    def __init__(self, *a):\n        pass\n\n    def __mul__(self, o):\n        return self\n\n    __rmul__ = __mul__\n\n    def __eq__(self, o):\n        return True\n\n    __hash__ = object.__hash__\n'
      })
      .commit('helpers')
    expectNaiveGreen(repo)
    expectTampered(await judge(repo), 'fractions.py')
  })

  it('committed bytecode compiled from other source (unchecked-hash .pyc)', async () => {
    const repo = scenario()
    const fixedSource = join(repo.dir, '.fixed.py') // ignored: never committed
    repo.write({ '.fixed.py': FIXED })
    mkdirSync(join(repo.dir, 'app', '__pycache__'), { recursive: true })
    const pyc = 'app/__pycache__/fee.cpython-311.pyc'
    execFileSync(PY, [
      '-c',
      `import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], dfile='app/fee.py', invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)`,
      fixedSource,
      join(repo.dir, pyc)
    ])
    repo.git('add', '-f', pyc)
    repo.commit('cache')
    expectNaiveGreen(repo)
    expectTampered(await judge(repo), pyc)
  })
})

describe('pytest side doors outside configuration files', () => {
  it('distribution metadata at the root registers a pytest11 plugin (evil-1.0.dist-info)', async () => {
    const repo = scenario()
    repo
      .write({
        'evil-1.0.dist-info/METADATA': 'Metadata-Version: 2.1\nName: evil\nVersion: 1.0\n',
        'evil-1.0.dist-info/entry_points.txt': '[pytest11]\ngreen = greenify\n',
        'greenify.py': GREENIFY
      })
      .commit('vendored metadata')
    expectNaiveGreen(repo)
    expectTampered(await judge(repo), 'evil-1.0.dist-info/METADATA')
  })

  it('.gitattributes that rewrites a golden file on checkout (eol=crlf), and *.png binary merges', async () => {
    const repo = new TestRepo('og-side-py-')
    repos.push(repo)
    const render = (eol: string): string => `def render():\n    return "a${eol}b${eol}"\n`
    repo.write({
      '.gitignore': '.naive-junit.xml\n__pycache__/\n',
      '.github/oracle-gate.yml': policy('oracle/properties'),
      'pytest.ini': '[pytest]\npythonpath = .\n',
      'app/__init__.py': '',
      'app/report.py': `${render('\\r\\n')}# bug: the report must use LF\n`,
      'oracle/golden.txt': 'a\nb\n',
      'oracle/properties/test_report.py':
        'from app.report import render\n\n\ndef test_report():\n    with open("oracle/golden.txt", "rb") as f:\n        assert render().encode() == f.read()\n'
    })
    repo.commit('base')
    repo.branch('agent')
    repo.write({ '.gitattributes': 'oracle/*.txt eol=crlf\n' }).commit('line endings')
    // Naive CI: a fresh clone of the head, as actions/checkout makes.
    const clone = new TestRepo('og-side-clone-')
    repos.push(clone)
    clone.remove('.git')
    execFileSync('git', ['clone', '-q', '-b', 'agent', repo.dir, clone.dir])
    expect(naiveRun(clone, SUITE_COMMANDS.pytest(PY, 'oracle/properties')).status).toBe(0)
    expectTampered(await judge(repo), '.gitattributes')

    repo.checkout('main').branch('honest')
    repo
      .write({ 'app/report.py': render('\\n'), '.gitattributes': '*.png binary\n' })
      .commit('fix the report')
    const card = await check({
      repoDir: repo.dir,
      base: 'main',
      head: 'honest',
      today: '2026-06-01',
      log: memoryLogger()
    })
    expect(card.reasons.filter(r => r.level === 'failure')).toEqual([])
    expect(card.verdict).toBe('merge')
  })
})

describe('hostile path names', () => {
  it('a conftest.py inside the voting folder, in a directory whose name holds a newline', async () => {
    const repo = scenario()
    // Before, oracle/** stopped at the \n: the path was source and no runner row matched.
    repo.write({ 'oracle/properties/notes\nold/conftest.py': GLOBAL_GREENIFY }).commit('notes')
    expectNaiveGreen(repo)
    const card = await judge(repo)
    expect(card.verdict).toBe('policy')
    expect(card.reasons).toContainEqual(
      expect.objectContaining({
        rule: 'protected-path',
        path: 'oracle/properties/notes\nold/conftest.py'
      })
    )
  })
})

describe('pytest near-misses of the same families merge', () => {
  it('a tests/conftest.py fixture used only by in-diff tests (the vote does not collect tests/)', async () => {
    const repo = scenario()
    repo
      .write({
        'app/fee.py': FIXED,
        'tests/conftest.py': 'import pytest\n\n\n@pytest.fixture\ndef amount():\n    return 100\n',
        'tests/test_fee_more.py':
          'from app.fee import fee\n\n\ndef test_half(amount):\n    assert fee(amount * 2) == 10\n'
      })
      .commit('fix the fee, with a test')
    const card = await judge(repo)
    expect(card.reasons.filter(r => r.level === 'failure')).toEqual([])
    expect(card.verdict).toBe('merge')
    expect(card.transitions.fail_to_pass).toEqual(['oracle/properties/test_fee.py::test_fee'])
  })

  it('a pyproject.toml whose dependencies change, and a module in a package named like a stdlib one', async () => {
    const repo = scenario()
    repo
      .write({
        'app/fee.py': FIXED,
        'pyproject.toml': PYPROJECT.replace('["attrs"]', '["attrs>=23", "requests"]'),
        'app/json.py': 'import json\n\n\ndef dump(x):\n    return json.dumps(x)\n'
      })
      .commit('fix the fee; bump deps')
    const card = await judge(repo)
    expect(card.reasons.filter(r => r.level === 'failure')).toEqual([])
    expect(card.verdict).toBe('merge')
    expect(card.transitions.fail_to_pass).toEqual(['oracle/properties/test_fee.py::test_fee'])
  })
})
