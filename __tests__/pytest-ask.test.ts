// init asks pytest itself for its configuration (rootdir, inifile, testpaths, python_files,
// python_classes, python_functions, the paths its options ignore), with the real pytest on
// temp repositories whose configuration lives in each file pytest reads, and falls back to
// reading the files (saying so) when pytest cannot be asked.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { askPytest, pytestAnswer } from '../src/policy/ask-runner.js'
import { inspectRepository } from '../src/policy/inspect.js'
import { pytestConfigArgs, readPytestConfig } from '../src/policy/pytest-config.js'
import { TestRepo } from './helpers/repo.js'
import { pythonWithPytest } from './helpers/python.js'
import { runCli, testEnv } from './helpers/shapes.js'

const repos: TestRepo[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})

/** tests/ votes; bench/ holds a clashing test_*.py that pytest's testpaths leave out. */
function pytestRepo(config: Record<string, string>): TestRepo {
  const repo = new TestRepo('og-pytest-ask-')
  repos.push(repo)
  repo.write({
    'pkg/__init__.py': 'def f():\n    return 1\n',
    'tests/test_f.py': 'from pkg import f\n\ndef test_f():\n    assert f() == 1\n',
    'tests/legacy/test_old.py': 'def test_old():\n    assert True\n',
    'bench/test_f.py': 'def test_speed():\n    assert True\n',
    ...config
  })
  repo.commit('base')
  return repo
}

const SETTINGS = {
  testpaths: 'tests',
  classes: '*Test Test*',
  functions: 'test check'
}
const CASES: [string, Record<string, string>][] = [
  [
    'pytest.ini',
    {
      'pytest.ini': `[pytest]\ntestpaths = ${SETTINGS.testpaths}\npython_classes = ${SETTINGS.classes}\npython_functions = ${SETTINGS.functions}\n`
    }
  ],
  [
    'pyproject.toml',
    {
      'pyproject.toml': `[project]\nname = "pkg"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\npython_classes = ["*Test", "Test*"]\npython_functions = "test check"\n`
    }
  ],
  [
    'setup.cfg',
    {
      'setup.cfg': `[metadata]\nname = pkg\n\n[tool:pytest]\ntestpaths = ${SETTINGS.testpaths}\npython_classes = ${SETTINGS.classes}\npython_functions = ${SETTINGS.functions}\n`
    }
  ],
  [
    'tox.ini',
    {
      'tox.ini': `[tox]\nenvlist = py3\n\n[pytest]\ntestpaths = ${SETTINGS.testpaths}\npython_classes = ${SETTINGS.classes}\npython_functions = ${SETTINGS.functions}\n`
    }
  ]
]

describe('askPytest', () => {
  it.each(CASES)('reads the configuration in %s as pytest does', async (file, config) => {
    const repo = pytestRepo(config)
    const answer = await askPytest(repo.dir, pythonWithPytest(), [], testEnv())
    expect(answer).toEqual({
      python: pythonWithPytest(),
      rootdir: '.',
      inifile: file,
      testpaths: ['tests'],
      pythonFiles: ['test_*.py', '*_test.py'],
      pythonClasses: ['*Test', 'Test*'],
      pythonFunctions: ['test', 'check'],
      pythonpath: false,
      ignore: []
    })
    const ins = await inspectRepository(repo.dir, testEnv())
    expect(ins.pytestSource).toMatchObject({ by: 'pytest', rootdir: '.' })
    expect(ins.testFiles).toEqual(['tests/legacy/test_old.py', 'tests/test_f.py'])
  })

  it("where reading the files is wrong: addopts' --ignore, pytest 9's [tool.pytest] table, the CI's -c", async () => {
    const repo = pytestRepo({
      // pytest 9 reads [tool.pytest] with native TOML types; the static reader knows only
      // [tool.pytest.ini_options] and would vote bench/ too.
      'pyproject.toml': `[tool.pytest]\ntestpaths = ["tests"]\naddopts = ["--ignore=tests/legacy"]\n`,
      'ci/pytest.ini': '[pytest]\ntestpaths = bench\n',
      '.github/workflows/ci.yml':
        'on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - name: tests\n        run: python -m pytest -c ci/pytest.ini --rootdir=. -q\n'
    })
    // Read from the files, nothing configures pytest: bench/ and tests/legacy/ would vote.
    const read = (p: string): string | null => {
      try {
        return readFileSync(join(repo.dir, p), 'utf8')
      } catch {
        return null
      }
    }
    expect(readPytestConfig(read)).toMatchObject({ file: null, testpaths: [] })
    const asked = await askPytest(repo.dir, pythonWithPytest(), [], testEnv())
    expect(asked).toMatchObject({
      inifile: 'pyproject.toml',
      testpaths: ['tests'],
      ignore: ['tests/legacy']
    })
    const viaCi = await askPytest(
      repo.dir,
      pythonWithPytest(),
      pytestConfigArgs('python -m pytest -c ci/pytest.ini --rootdir=. -q'),
      testEnv()
    )
    expect(viaCi).toMatchObject({ inifile: 'ci/pytest.ini', rootdir: '.', testpaths: ['bench'] })
    // init asks with the CI's own options: the workflow runs bench/ under ci/pytest.ini.
    const ins = await inspectRepository(repo.dir, testEnv())
    expect(ins.testFiles).toEqual(['bench/test_f.py'])
  })

  it('falls back to reading the files, and init says so, when pytest cannot be asked', async () => {
    const repo = pytestRepo({ 'pytest.ini': '[pytest]\ntestpaths = tests\n' })
    // The repository's interpreter is a venv whose python has no pytest.
    repo.write({ '.venv/bin/python': '#!/bin/sh\necho "No module named pytest" >&2\nexit 1\n' })
    repo.chmod('.venv/bin/python', 0o755)
    const ins = await inspectRepository(repo.dir, testEnv())
    expect(ins.pytestSource).toEqual({
      by: 'files',
      why: `${repo.dir}/.venv/bin/python could not run pytest (exit 1)`
    })
    expect(ins.testFiles).toEqual(['tests/legacy/test_old.py', 'tests/test_f.py'])
    const init = await runCli(['init'], repo.dir, testEnv())
    expect(init.code).toBe(0)
    expect(init.err).toContain(
      'pytest could not be asked (' // the why, then:
    )
    expect(init.err).toContain('its configuration was read from the files (pytest.ini)')
  })

  it("init's output names what pytest said", async () => {
    const repo = pytestRepo(CASES[1]?.[1] ?? {})
    const init = await runCli(['init'], repo.dir, testEnv())
    expect(init.code).toBe(0)
    expect(init.err).toMatch(
      /pytest's configuration asked of pytest \(.*python.*\): rootdir \., pyproject\.toml/
    )
    expect(init.err).toMatch(/2 test file\(s\) vote: tests\/\*\*/)
  })
})

describe('pytestAnswer and pytestConfigArgs (pure)', () => {
  it('makes paths repository-relative, testpaths from the rootdir', () => {
    const raw = JSON.stringify({
      rootdir: '/r/sub',
      inifile: '/r/sub/pytest.ini',
      testpaths: ['t'],
      python_files: ['check_*.py'],
      python_classes: [],
      python_functions: [],
      pythonpath: true,
      ignore: ['/r/sub/t/old', 'x']
    })
    expect(pytestAnswer(raw, '/r', 'python3')).toEqual({
      python: 'python3',
      rootdir: 'sub',
      inifile: 'sub/pytest.ini',
      testpaths: ['sub/t'],
      pythonFiles: ['check_*.py'],
      pythonClasses: [],
      pythonFunctions: [],
      pythonpath: true,
      ignore: ['sub/t/old', 'x']
    })
    expect(pytestAnswer('not json', '/r', 'python3')).toBe(
      'pytest answered something that is not JSON'
    )
  })

  it('keeps only the options that change where pytest finds its configuration', () => {
    expect(
      pytestConfigArgs('TZ=UTC uv run pytest -q -c ci/p.ini --rootdir=. -o x=1 tests')
    ).toEqual(['-c', 'ci/p.ini', '--rootdir=.', '-o', 'x=1'])
    expect(pytestConfigArgs('npm test')).toEqual([])
    expect(pytestConfigArgs(null)).toEqual([])
  })
})
