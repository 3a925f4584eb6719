// The runner table's new rows (issue 12), as pure functions: which paths are runner
// configuration, which parts of shared files count, and what the merge base adds (setup
// files, collected directories, sys.path, shadowed modules, .gitattributes lines).
import { describe, expect, it } from 'vitest'
import {
  collectedRoots,
  moduleIndex,
  pytestPathsOption,
  pythonPathOf,
  setupFilesOf,
  shadowedModule
} from '../src/instrument/loading.js'
import { compileRunnerMatcher, type RunnerInputs } from '../src/instrument/runner.js'
import {
  attributePattern,
  gitattributesFor,
  npmrcCodeSettings,
  packageTestFields,
  tomlSections,
  tsconfigResolution
} from '../src/instrument/sections.js'
import { parsePolicy } from '../src/policy/load.js'
import { policyYaml } from './helpers/repo.js'

const policy = parsePolicy(policyYaml(), '.github/oracle-gate.yml')
const VOTING = ['oracle/properties/test_a.py']
const BASE = [
  ...VOTING,
  'src/fee.ts',
  'src/util/index.ts',
  'app/calc.py',
  'README.md',
  'tests/test_x.py'
]
const matcher = (inputs: RunnerInputs = {}) => compileRunnerMatcher(policy, VOTING, inputs)
const covered = (path: string, inputs?: RunnerInputs): boolean =>
  matcher(inputs).entryFor(path) !== null

describe('new whole-file and path rows', () => {
  it.each([
    ['pytest.toml', true],
    ['.pytest.toml', true],
    ['oracle/properties/sub/conftest.py', true], // below a voting directory
    ['Conftest.py', true], // names fold case
    ['PYTEST.INI', true],
    ['lib/pkg-1.0.dist-info/entry_points.txt', true],
    ['pkg.egg-info/entry_points.txt', true],
    ['src/app/__pycache__/calc.cpython-311.pyc', true],
    ['app/calc.pyc', true],
    ['vite.config.ts', true],
    ['babel.config.js', true],
    ['src/.babelrc', true],
    ['.babelrc.json', true],
    ['.env', true],
    ['.env.test.local', true],
    ['.env.example', false],
    ['docs/pytest.toml', false],
    ['src/app.py', false]
  ])('%s → %s', (path, expected) => expect(covered(path)).toBe(expected))

  it('conftest.py in a directory the suite command collects is loaded by the vote', () => {
    expect(covered('tests/conftest.py')).toBe(false)
    expect(covered('tests/conftest.py', { collected: ['tests'] })).toBe(true)
    expect(covered('tests/deep/conftest.py', { collected: [''] })).toBe(true)
  })
})

describe('key-aware parts', () => {
  it('TOML keys with escapes are decoded before matching', () => {
    const text = '[tool."\\u0070ytest".ini_options]\naddopts = "-p evil"\n'
    expect(tomlSections(text, 'tool.pytest')).toContain('addopts')
    expect(
      tomlSections('"tool"."py\\u0074est".ini_options.addopts = "-x"\n', 'tool.pytest')
    ).toContain('-x')
    expect(tomlSections("[tool.'pytest']\nx = 1\n", 'tool.pytest')).toContain('x = 1')
  })

  it('tsconfig: resolution keys count, a target bump does not', () => {
    const base =
      '{\n  // comment\n  "compilerOptions": { "target": "es2020", "strict": true, },\n}\n'
    const same = tsconfigResolution(base)
    expect(tsconfigResolution(base.replace('es2020', 'es2022'))).toBe(same)
    expect(
      tsconfigResolution(
        base.replace('"strict": true,', '"strict": true, "paths": {"./fee": ["./fake"]},')
      )
    ).not.toBe(same)
    expect(tsconfigResolution(base.replace('{\n', '{\n "extends": "./other.json",'))).not.toBe(same)
    expect(tsconfigResolution('{ "compilerOptions": { "baseUrl": "x" } }')).not.toBe(
      tsconfigResolution('{}')
    )
    expect(tsconfigResolution('{ broken')).toMatch(/^unparsable:/)
  })

  it('.npmrc: code-running keys count, engine-strict and registry do not', () => {
    const quiet = npmrcCodeSettings(
      'engine-strict=true\nregistry=https://r.example/\n//r.example/:_authToken=x\n'
    )
    expect(quiet).toBe('')
    expect(npmrcCodeSettings(null)).toBeNull()
    expect(npmrcCodeSettings('node-options=--require ./hook.cjs\n')).toContain('node-options')
    expect(npmrcCodeSettings('NODE_OPTIONS = --import x\n')).toContain('node-options')
    expect(npmrcCodeSettings('script-shell=./sh\n')).toContain('script-shell')
  })

  it('package.json: lifecycle scripts, babel, imports and exports count; dependencies do not', () => {
    const pkg = (o: object): string | null => packageTestFields(JSON.stringify(o))
    const a = pkg({ scripts: { build: 'tsc' }, dependencies: { x: '1' } })
    expect(pkg({ scripts: { build: 'tsc' }, dependencies: { x: '2' } })).toBe(a)
    expect(pkg({ scripts: { build: 'tsc', postinstall: 'node hook.js' } })).not.toBe(a)
    expect(pkg({ scripts: { build: 'tsc', prepare: 'husky' } })).not.toBe(a)
    expect(pkg({ scripts: { build: 'tsc' }, babel: { plugins: ['./p.js'] } })).not.toBe(a)
    expect(
      pkg({
        scripts: { build: 'tsc' },
        imports: { '#fee': { test: './fake.js', default: './fee.js' } }
      })
    ).not.toBe(a)
    expect(pkg({ scripts: { build: 'tsc' }, exports: { '.': './x.js' } })).not.toBe(a)
  })

  it('.gitattributes: only byte-changing lines over watched paths count', () => {
    const watched = (re: RegExp): boolean =>
      ['oracle/fixtures/golden.txt', 'pyproject.toml'].some(p => re.test(p))
    const extract = gitattributesFor('', watched)
    const quiet = extract('*.png binary\ndocs/** linguist-documentation\n')
    expect(quiet).toBe('')
    expect(extract('*.txt eol=crlf\n')).toContain('eol=crlf')
    expect(extract('oracle/** filter=evil\n')).toContain('filter=evil')
    expect(extract('golden.txt -text\n')).toContain('-text')
    expect(extract('[attr]mine text eol=crlf\n')).toContain('[attr]')
    expect(gitattributesFor('src', watched)('*.txt eol=crlf\n')).toBe('')
    expect(attributePattern('', '/oracle/**').test('oracle/a/b')).toBe(true)
    expect(attributePattern('', 'a/b.txt').test('x/a/b.txt')).toBe(false)
    expect(attributePattern('', 'b.txt').test('x/a/b.txt')).toBe(true)
    expect(attributePattern('', 'gold[a-z]n.txt').test('oracle/golden.txt')).toBe(true)
    expect(attributePattern('', 'gold[!e]n.txt').test('oracle/golden.txt')).toBe(false)
  })

  it('a .gitattributes anywhere is matched when the base has watched paths', () => {
    const watched = (re: RegExp): boolean => re.test('oracle/fixtures/golden.txt')
    const entry = matcher({ watched }).entryFor('oracle/.gitattributes')
    expect(entry?.part?.extract('golden.txt eol=crlf\n')).toContain('eol=crlf')
  })
})

describe('what the merge base adds', () => {
  it('setup files named by jest and vitest configurations, relative to the config', () => {
    const files = new Set(['test/setup.js', 'web/setup/env.ts', 'test/global.ts'])
    expect(
      setupFilesOf(
        'jest.config.js',
        "module.exports = { setupFilesAfterEnv: ['<rootDir>/test/setup.js'], globalSetup: './test/global' }",
        files
      )
    ).toEqual(['test/setup.js', 'test/global.ts'])
    expect(
      setupFilesOf(
        'web/vitest.config.ts',
        "export default { test: { setupFiles: ['./setup/env.ts', 'jsdom'] } }",
        files
      )
    ).toEqual(['web/setup/env.ts'])
    expect(
      setupFilesOf('package.json', '{"jest": {"setupFiles": ["./test/setup.js"]}}', files)
    ).toEqual(['test/setup.js'])
    const m = matcher({ setupFiles: new Map([['test/setup.js', 'jest.config.js']]) })
    expect(m.entryFor('test/setup.js')?.why).toContain('jest.config.js')
  })

  it('pythonpath of the pytest configuration', () => {
    expect(
      pythonPathOf('pyproject.toml', '[tool.pytest.ini_options]\npythonpath = ["lib", "src"]\n')
    ).toEqual(['lib', 'src'])
    expect(pythonPathOf('pytest.ini', '[pytest]\npythonpath = lib other\n')).toEqual([
      'lib',
      'other'
    ])
    expect(pythonPathOf('pyproject.toml', '[project]\nname = "x"\n')).toEqual([])
    expect(pythonPathOf('pyproject.toml', '[tool.other]\npythonpath = ["x"]\n')).toEqual([])
    expect(pythonPathOf('setup.cfg', '[tool:pytest]\npythonpath =\n  lib\n  src\n')).toEqual([
      'lib',
      'src'
    ])
    expect(
      pytestPathsOption(
        'pyproject.toml',
        '[tool.pytest.ini_options]\ntestpaths = [\n  "oracle",\n]\n',
        'testpaths'
      )
    ).toEqual(['oracle'])
  })

  it('directories the suite command collects (root when it names none)', () => {
    expect(
      collectedRoots(['python -m pytest oracle/properties tests -q --junitxml={junit}'], BASE)
    ).toEqual(['oracle/properties', 'tests'])
    expect(collectedRoots(['python -m pytest -q'], BASE)).toEqual([''])
    expect(collectedRoots(['python -m pytest -q'], BASE, ['oracle'])).toEqual(['oracle'])
    expect(collectedRoots(['pytest oracle/properties/test_a.py::test_x'], BASE)).toEqual([])
  })

  it('head-added modules that shadow the stdlib, a test dependency or another extension', () => {
    const index = moduleIndex(BASE, ['lib'])
    const collecting = moduleIndex(BASE, ['lib'], ['tests'])
    const everything = moduleIndex(BASE, [], [''])
    expect(shadowedModule('json.py', index)).toMatch(/standard-library module json/)
    expect(shadowedModule('src/random/__init__.py', index)).toMatch(/standard-library/)
    expect(shadowedModule('lib/pluggy.py', index)).toMatch(/test dependency pluggy/)
    expect(shadowedModule('_pytest/__init__.py', index)).toMatch(/test dependency _pytest/)
    expect(shadowedModule('tests/hypothesis.py', collecting)).toMatch(/test dependency/)
    expect(shadowedModule('tests/hypothesis.py', index)).toBeNull()
    expect(shadowedModule('app/json.py', index)).toBeNull() // inside a package
    // Collecting from the root puts test files' directories on sys.path, not every directory.
    expect(shadowedModule('app/json.py', everything)).toBeNull()
    expect(shadowedModule('tests/json.py', everything)).toMatch(/standard-library/)
    expect(shadowedModule('email/welcome.html', index)).toBeNull()
    expect(shadowedModule('src/fee.js', index)).toMatch(/shadows the merge base's src\/fee.ts/)
    expect(shadowedModule('src/util.js', index)).toMatch(/src\/util/)
    expect(shadowedModule('src/fee.test.ts', index)).toBeNull()
    expect(shadowedModule('src/fee.d.ts', index)).toBeNull()
    expect(shadowedModule('app/calc/__init__.py', index)).toMatch(/takes precedence/)
    // A file the base already has shadows nothing new (its edits are production code).
    expect(shadowedModule('json.py', moduleIndex([...BASE, 'json.py'], []))).toBeNull()
    expect(shadowedModule('app/calc.cpython-311-x86_64-linux-gnu.so', index)).toMatch(
      /extension module/
    )
    const m = matcher({ modules: index })
    expect(m.entryFor('json.py')?.addedOnly).toBe(true)
    expect(m.entryFor('src/app.py')).toBeNull()
  })
})
