// init's repository inspection, as a pure function of tracked files, file text and the
// tools on PATH: each shape gets the voting globs, tool and layout hints a real one needs.
import { describe, expect, it } from 'vitest'
import { filesOf } from '../src/policy/ask-runner.js'
import { inspect, votingGlobs } from '../src/policy/inspect.js'
import { parsePolicy } from '../src/policy/load.js'
import { renderInspected } from '../src/policy/starter.js'

const FILE = '.github/oracle-gate.yml'
const tools =
  (...names: string[]) =>
  (t: string): boolean =>
    names.includes(t)
const reader =
  (texts: Record<string, string>) =>
  (p: string): string | null =>
    texts[p] ?? null

describe('votingGlobs', () => {
  it('a dedicated test folder becomes dir/**; tests beside the code become name patterns', () => {
    expect(
      votingGlobs(['tests/test_a.py', 'tests/unit/test_b.py', 'pkg/sub/test_c.py', 'pkg/d_test.py'])
    ).toEqual({
      voting: ['pkg/**/*_test.py', 'pkg/**/test_*.py', 'tests/**'],
      paths: ['pkg', 'tests']
    })
    expect(votingGlobs(['src/a.test.ts', 'src/x/b.spec.tsx', 'web/__tests__/c.js'])).toEqual({
      voting: ['src/**/*.spec.tsx', 'src/**/*.test.ts', 'web/__tests__/**'],
      paths: ['src', 'web/__tests__']
    })
  })
})

describe('inspect', () => {
  it('falls back to pytest from the environment when uv.lock names a uv that is not installed, with a comment', () => {
    const ins = inspect({
      files: ['uv.lock', 'pyproject.toml', 'tests/test_a.py', 'pkg/__init__.py'],
      read: reader({}),
      has: tools('python')
    })
    expect(ins.fallback).toEqual({ wanted: 'uv', used: 'pytest from the environment' })
    expect(ins.python).toBe('python')
    const text = renderInspected(ins)
    expect(text).toMatch(/names uv, which is not installed/)
    const policy = parsePolicy(text, FILE)
    expect(policy.suite.command).toMatch(/^python -m pytest tests /)
    // A root layout under PYTHONSAFEPATH=1 needs the root on the path.
    expect(policy.suite.env).toEqual({ PYTHONPATH: '.' })
    expect(policy.suite.setup).toBeUndefined()
  })

  it('keeps uv when it is installed, and leaves PYTHONPATH to pytest when its configuration sets pythonpath', () => {
    const ins = inspect({
      files: ['uv.lock', 'pytest.ini', 'src/pkg/__init__.py', 'tests/test_a.py'],
      read: reader({ 'pytest.ini': '[pytest]\npythonpath = src\n' }),
      has: tools('uv', 'python3')
    })
    const policy = parsePolicy(renderInspected(ins), FILE)
    expect(policy.suite.command).toMatch(/^uv run --frozen --no-sync python -m pytest tests/)
    expect(policy.suite.runner).toBe('pytest')
    expect(policy.suite.env).toEqual({})
    expect(policy.protected).toContain('pytest.ini')
  })

  it('a pnpm lockfile without pnpm installed: the pnpm the project names, from the registry (npm install only without npx); campaign only with fast-check', () => {
    const pkg =
      '{"packageManager": "pnpm@9.12.0+sha512.abc", "devDependencies": {"vitest": "1", "fast-check": "3"}}'
    const ins = inspect({
      files: ['package.json', 'pnpm-lock.yaml', 'src/a.test.ts'],
      read: reader({ 'package.json': pkg }),
      has: tools('npm', 'npx')
    })
    const policy = parsePolicy(renderInspected(ins), FILE)
    expect(policy.suite.setup).toBe(
      'npx --yes pnpm@9.12.0 install --frozen-lockfile --prefer-offline'
    )
    // Without packageManager, the lockfile's format names the major.
    const byLock = inspect({
      files: ['package.json', 'pnpm-lock.yaml', 'src/a.test.ts'],
      read: reader({ 'package.json': '{}', 'pnpm-lock.yaml': "lockfileVersion: '6.0'\n" }),
      has: tools('npm', 'npx')
    })
    expect(parsePolicy(renderInspected(byLock), FILE).suite.setup).toMatch(
      /^npx --yes pnpm@8 install/
    )
    const noNpx = inspect({
      files: ['package.json', 'pnpm-lock.yaml', 'src/a.test.ts'],
      read: reader({ 'package.json': pkg }),
      has: tools('npm')
    })
    expect(parsePolicy(renderInspected(noNpx), FILE).suite.setup).toBe(
      'npm install --no-package-lock --prefer-offline --no-audit --no-fund'
    )
    expect(policy.suite.command).toMatch(/^npx --no vitest run src /)
    expect(policy.suite.runner).toBe('vitest')
    expect(renderInspected(ins)).toMatch(/^campaign:/m)
    const plain = inspect({
      files: ['package.json', 'src/a.test.ts'],
      read: reader({ 'package.json': '{"devDependencies": {"vitest": "1"}}' }),
      has: tools('npm')
    })
    expect(renderInspected(plain)).not.toMatch(/^campaign:/m)
  })

  it('no tracked tests: the placeholder starter (which still parses)', () => {
    const ins = inspect({ files: ['setup.py'], read: reader({}), has: tools('python3') })
    expect(parsePolicy(renderInspected(ins), FILE).planes.voting).toEqual(['oracle/properties/**'])
  })
})

describe("the runner's configuration is the source of truth (issue 25)", () => {
  it("hpack: pytest's testpaths restricts the voting plane and the command; bench/ stays out", () => {
    const ins = inspect({
      files: ['setup.cfg', 'src/hpack/__init__.py', 'tests/test_hpack.py', 'bench/test_hpack.py'],
      read: reader({ 'setup.cfg': '[tool:pytest]\ntestpaths = tests\n' }),
      has: tools('python3')
    })
    expect(ins.testFiles).toEqual(['tests/test_hpack.py'])
    const policy = parsePolicy(renderInspected(ins), FILE)
    expect(policy.planes.voting).toEqual(['tests/**'])
    expect(policy.suite.command).toMatch(/^python3 -m pytest tests -p no:cacheprovider/)
    // Without testpaths both folders vote, as before.
    const plain = inspect({
      files: ['src/hpack/__init__.py', 'tests/test_hpack.py', 'bench/test_hpack.py'],
      read: reader({}),
      has: tools('python3')
    })
    expect(plain.voting).toEqual(['bench/**/test_*.py', 'tests/**'])
  })

  it('python_files names the test files', () => {
    const ins = inspect({
      files: ['pytest.ini', 'tests/check_a.py', 'tests/test_b.py', 'tests/helpers.py'],
      read: reader({ 'pytest.ini': '[pytest]\npython_files = check_*.py\n' }),
      has: tools('python3')
    })
    expect(ins.testFiles).toEqual(['tests/check_a.py'])
  })

  it("luxon: the CI workflow's test step proposes suite.env (literals only, no secrets) and its command", () => {
    const workflow = `name: test
on: push
env:
  FORCE_COLOR: 1
jobs:
  test:
    runs-on: ubuntu-latest
    env:
      LANG: en_US.utf8
      TOKEN: \${{ secrets.NPM_TOKEN }}
    steps:
      - uses: actions/checkout@v4
      - run: npm ci
      - name: Test
        run: TZ=America/New_York npm test
        env:
          LIMIT: 3
          API_KEY: abc
`
    const ins = inspect({
      files: [
        'package.json',
        'package-lock.json',
        'test/zone.test.js',
        '.github/workflows/test.yml'
      ],
      read: reader({
        'package.json': '{"devDependencies": {"jest": "29"}, "scripts": {"test": "jest"}}',
        '.github/workflows/test.yml': workflow,
        'test/zone.test.js': "test('zone', () => {})\n"
      }),
      has: tools('npm', 'npx')
    })
    expect(ins.ci).toEqual({
      source: '.github/workflows/test.yml (job test, step Test)',
      env: { LANG: 'en_US.utf8', LIMIT: '3', TZ: 'America/New_York' },
      command: 'npm test'
    })
    const text = renderInspected(ins)
    expect(parsePolicy(text, FILE).suite.env).toEqual({
      LANG: 'en_US.utf8',
      LIMIT: '3',
      TZ: 'America/New_York'
    })
    expect(text).toContain("# The project's CI runs: npm test (.github/workflows/test.yml")
  })

  it('jest without jest-junit: init says exactly what to add; with it, says nothing', () => {
    const files = ['package.json', 'pnpm-lock.yaml', '__tests__/a.test.js']
    const without = inspect({
      files,
      read: reader({ 'package.json': '{"devDependencies": {"jest": "29"}}' }),
      has: tools('pnpm')
    })
    expect(without.jestJunit).toBe(false)
    expect(renderInspected(without)).toMatch(
      /jest-junit is NOT a dependency[^\n]*\n\s+#\s+pnpm add -D jest-junit@16\n/
    )
    const withIt = inspect({
      files,
      read: reader({ 'package.json': '{"devDependencies": {"jest": "29", "jest-junit": "16"}}' }),
      has: tools('pnpm')
    })
    expect(withIt.jestJunit).toBe(true)
    expect(renderInspected(withIt)).not.toMatch(/NOT a dependency/)
  })

  it('path-to-regexp: a .spec.ts file defining no test is data: the glob stays, the file is protected and excluded from the run', () => {
    const ins = inspect({
      files: ['package.json', 'package-lock.json', 'src/cases.spec.ts', 'src/index.spec.ts'],
      read: reader({
        'package.json': '{"devDependencies": {"vitest": "4"}}',
        'src/cases.spec.ts': 'export const CASES = [{ path: "/a" }]\n',
        'src/index.spec.ts': "import { it } from 'vitest'\nit('works', () => {})\n"
      }),
      has: tools('npm')
    })
    expect(ins.dataFiles).toEqual(['src/cases.spec.ts'])
    const policy = parsePolicy(renderInspected(ins), FILE)
    // The glob, not a file list: a test the patch adds beside index.spec.ts votes too.
    expect(policy.planes.voting).toEqual(['src/**/*.spec.ts'])
    expect(policy.protected).toContain('src/cases.spec.ts')
    expect(policy.suite.command).toMatch(/vitest run src --exclude src\/cases\.spec\.ts /)
  })

  it("vitest's include and jest's roots/testMatch select the files", () => {
    const vitest = inspect({
      files: ['package.json', 'vitest.config.ts', 'test/a.test.ts', 'e2e/b.test.ts'],
      read: reader({
        'package.json': '{"devDependencies": {"vitest": "4"}}',
        'vitest.config.ts':
          "export default defineConfig({ test: { include: ['test/**/*.test.ts'] } })\n"
      }),
      has: tools('npm')
    })
    expect(vitest.testFiles).toEqual(['test/a.test.ts'])
    expect(vitest.jsConfig).toBe('vitest.config.ts')
    const jest = inspect({
      files: ['package.json', 'src/a.test.js', 'lib/b.test.js', 'src/__tests__/c.js'],
      read: reader({
        'package.json':
          '{"devDependencies": {"jest": "29"}, "jest": {"roots": ["<rootDir>/src"], "testMatch": ["**/*.test.js"]}}'
      }),
      has: tools('npm')
    })
    expect(jest.testFiles).toEqual(['src/a.test.js'])
  })

  it('node:test: files named *.test.js or *.spec.js are given as a folder glob (the canary beside them runs, and a spec the patch adds)', () => {
    const ins = inspect({
      files: [
        'package.json',
        'package-lock.json',
        'test/index.test.js',
        'test/async.test.js',
        'test/old.spec.js'
      ],
      read: reader({ 'package.json': '{}' }),
      has: tools('npm')
    })
    const policy = parsePolicy(renderInspected(ins), FILE)
    expect(policy.suite.command).toMatch(/ test\/\*\.spec\.\*js test\/\*\.test\.\*js$/)
  })
})

describe("the runner's own answer (vitest list, jest --listTests)", () => {
  it('reads the listing JSON as repository paths inside the checkout', () => {
    expect(
      filesOf(
        'noise\n[{"file": "/r/src/a.spec.ts"}, {"name": "t", "file": "/r/src/a.spec.ts"}, "/r/b.test.js", "/elsewhere/c.test.js"]',
        '/r'
      )
    ).toEqual(['b.test.js', 'src/a.spec.ts'])
    expect(filesOf('not json', '/r')).toBeNull()
  })

  it('wins over the static reading: collected files vote, collected files without a test are data', () => {
    const ins = inspect({
      files: ['package.json', 'src/a.spec.ts', 'src/cases.spec.ts', 'src/x.test.ts'],
      read: reader({ 'package.json': '{"devDependencies": {"vitest": "4"}}' }),
      has: tools('npm'),
      answer: {
        by: 'vitest list',
        collected: ['src/a.spec.ts', 'src/cases.spec.ts'],
        withTests: ['src/a.spec.ts']
      }
    })
    expect(ins.testFiles).toEqual(['src/a.spec.ts'])
    expect(ins.dataFiles).toEqual(['src/cases.spec.ts'])
    expect(ins.jsConfig).toBe('vitest list')
  })
})
