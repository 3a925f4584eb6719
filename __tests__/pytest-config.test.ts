// pytest's configuration as pytest finds it: the first file with a pytest section counts,
// values split on whitespace (ini) or come as arrays (pyproject), names match by prefix or glob.
import { describe, expect, it } from 'vitest'
import { namePatterns, readPytestConfig } from '../src/policy/pytest-config.js'

const reader =
  (texts: Record<string, string>) =>
  (p: string): string | null =>
    texts[p] ?? null

describe('readPytestConfig', () => {
  it('reads pytest.ini with continuation lines, ahead of pyproject.toml', () => {
    const config = readPytestConfig(
      reader({
        'pytest.ini':
          '[pytest]\ntestpaths =\n    tests\n    more  # a comment\npython_classes = Test *Test\n',
        'pyproject.toml': '[tool.pytest.ini_options]\ntestpaths = ["other"]\n'
      })
    )
    expect(config).toMatchObject({
      file: 'pytest.ini',
      testpaths: ['tests', 'more'],
      pythonClasses: ['Test', '*Test'],
      pythonFunctions: ['test'],
      pythonFiles: ['test_*.py', '*_test.py']
    })
  })

  it('reads [tool.pytest.ini_options] arrays over several lines, and skips a tox.ini without [pytest]', () => {
    const config = readPytestConfig(
      reader({
        'pyproject.toml':
          '[project]\nname = "x"\n\n[tool.pytest.ini_options]\ntestpaths = [\n  "tests",\n]\npython_files = "check_*.py test_*.py"\npythonpath = ["src"]\n\n[tool.other]\ntestpaths = ["no"]\n',
        'tox.ini': '[tox]\nenvlist = py3\n'
      })
    )
    expect(config).toMatchObject({
      file: 'pyproject.toml',
      testpaths: ['tests'],
      pythonFiles: ['check_*.py', 'test_*.py'],
      pythonpath: true
    })
  })

  it('reads setup.cfg [tool:pytest], and gives the defaults when nothing configures pytest', () => {
    expect(
      readPytestConfig(
        reader({ 'setup.cfg': '[metadata]\nname = x\n[tool:pytest]\ntestpaths = t\n' })
      )
    ).toMatchObject({ file: 'setup.cfg', testpaths: ['t'] })
    expect(readPytestConfig(reader({ 'pyproject.toml': '[project]\nname = "x"\n' }))).toMatchObject(
      {
        file: null,
        testpaths: [],
        pythonClasses: ['Test']
      }
    )
  })
})

describe('namePatterns', () => {
  it('a pattern without glob characters is a prefix; with them, a whole-name glob', () => {
    const match = namePatterns(['Test', '*Suite', 'Check?'])
    expect(['TestX', 'DatesSuite', 'CheckA'].every(match)).toBe(true)
    expect(['XTest', 'SuiteX', 'CheckAB'].some(match)).toBe(false)
  })
})
