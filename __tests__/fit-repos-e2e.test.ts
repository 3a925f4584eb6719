// Issue 25 on generated repositories shaped like the five real ones that failed (hpack,
// cachetools, nanoid, luxon, path-to-regexp) and the package shapes (pnpm lockfile, jest
// without jest-junit): `init`, then `doctor`, then `check`, with init's policy unedited.
// Each first shows what the old behaviour did on the same repository (the naive run: the
// policy as the old init wrote it), then the verdict with the new one. The time from the
// repository's creation to the first verdict is printed at the end (no bound on it here:
// speed goals live in bench/).
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { DoctorReport } from '../src/doctor/findings.js'
import { check } from '../src/gate.js'
import { parsePolicy } from '../src/policy/load.js'
import type { Policy } from '../src/policy/types.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { TestRepo } from './helpers/repo.js'
import { linkRunner, packageDir } from './helpers/runners.js'
import { runCli, testEnv } from './helpers/shapes.js'

const POLICY = '.github/oracle-gate.yml'
const LOCK = '{"name": "p", "lockfileVersion": 3, "requires": true, "packages": {}}\n'
const repos: TestRepo[] = []
const firstVerdict: string[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})
afterAll(() => {
  if (firstVerdict.length > 0) console.info(`clone to first verdict:\n${firstVerdict.join('\n')}`)
})

/** Time from the clone to the first verdict, without the naive runs a test adds. */
function stopwatch(): {
  without<T>(run: () => Promise<T>): Promise<T>
  record(label: string): void
} {
  const started = Date.now()
  let excluded = 0
  return {
    async without(run) {
      const t = Date.now()
      try {
        return await run()
      } finally {
        excluded += Date.now() - t
      }
    },
    record: label => firstVerdict.push(`  ${label}: ${Date.now() - started - excluded} ms`)
  }
}

function project(prefix: string, files: Record<string, string>): TestRepo {
  const repo = new TestRepo(`og-fit-${prefix}-`)
  repos.push(repo)
  repo.write({ '.gitignore': 'node_modules/\n__pycache__/\n', ...files })
  return repo
}

async function init(repo: TestRepo, env = testEnv()): Promise<{ text: string; err: string }> {
  const r = await runCli(['init'], repo.dir, env)
  expect(r.code, r.err).toBe(0)
  return { text: readFileSync(join(repo.dir, POLICY), 'utf8'), err: r.err }
}

const policyOf = (text: string): Policy => parsePolicy(text, POLICY)

async function doctor(
  repo: TestRepo,
  env = testEnv()
): Promise<{ code: number; report: DoctorReport; err: string }> {
  const out = `${repo.dir}-doctor.json`
  const r = await runCli(
    ['doctor', '--runs', '2', '--json', out, '--today', '2026-12-01'],
    repo.dir,
    env
  )
  expect(r.code, r.err).not.toBe(4)
  return { code: r.code, report: JSON.parse(readFileSync(out, 'utf8')) as DoctorReport, err: r.err }
}

const blockers = (r: DoctorReport): string[] =>
  r.findings.filter(f => f.level === 'blocker').map(f => `${f.code}: ${(f.items ?? []).join('; ')}`)

/** A branch `name` from main with `files` written, judged against main. */
async function judge(
  repo: TestRepo,
  name: string,
  files: Record<string, string>,
  env = testEnv()
): Promise<Scorecard> {
  repo.branch(name, 'main')
  repo.write(files)
  repo.commit(`agent: ${name}`)
  repo.checkout('main')
  return check({
    repoDir: repo.dir,
    base: 'main',
    head: name,
    today: '2026-12-01',
    log: memoryLogger(),
    env
  })
}

const failures = (card: Scorecard): string[] =>
  card.reasons.filter(r => r.level === 'failure').map(r => `${r.rule} ${r.message}`)

function adopt(repo: TestRepo, text?: string): void {
  if (text !== undefined) repo.write({ [POLICY]: text })
  repo.commit('adopt oracle-gate')
}

function linkBin(repo: TestRepo, runner: 'vitest' | 'jest'): void {
  const bin = runner === 'vitest' ? 'vitest.mjs' : 'bin/jest.js'
  repo.symlink(`node_modules/.bin/${runner}`, join(packageDir(runner), bin))
}

describe('fit the repositories as they are (issue 25)', () => {
  it("hpack: a bench/ folder beside tests/ with pytest's testpaths: init votes tests/ only; a collection error is a doctor blocker", async () => {
    const clock = stopwatch()
    const repo = project('hpack', {
      'setup.cfg': '[metadata]\nname = hpack\n\n[tool:pytest]\ntestpaths = tests\n',
      'src/hpack/__init__.py': '',
      'src/hpack/huffman.py': 'def encode(n):\n    return n * 2 if n > 0 else 1\n',
      'tests/test_hpack.py':
        'from hpack.huffman import encode\n\n\ndef test_small():\n    assert encode(2) == 4\n',
      'bench/test_hpack.py': 'def test_bench():\n    assert True\n'
    })
    repo.commit('project')
    const { text } = await init(repo)
    const policy = policyOf(text)
    expect(policy.planes.voting).toEqual(['tests/**'])
    expect(policy.suite.command).toMatch(/-m pytest tests -p no:cacheprovider/)
    // Naive: the old init voted both folders and ran them together: pytest exits 2 with an
    // import file mismatch, which doctor called "fit to vote".
    adopt(repo, text.replace('-m pytest tests ', '-m pytest bench tests '))
    const naive = await clock.without(() => doctor(repo))
    expect(naive.code).toBe(1)
    expect(blockers(naive.report).join('\n')).toMatch(
      /^collection-error: tests\/test_hpack\.py: import file mismatch/m
    )
    adopt(repo, text)
    const fitted = await doctor(repo)
    expect(fitted.code, blockers(fitted.report).join('\n')).toBe(0)
    const card = await judge(repo, 'fix', {
      'src/hpack/huffman.py': 'def encode(n):\n    return n * 2\n',
      'tests/test_hpack.py':
        'from hpack.huffman import encode\n\n\ndef test_small():\n    assert encode(2) == 4\n\n\ndef test_zero():\n    assert encode(0) == 0\n'
    })
    clock.record('hpack (pytest, testpaths)')
    expect(failures(card)).toEqual([])
    expect(card.verdict).toBe('merge')
  }, 180_000)

  it('cachetools: a method appended to a unittest class named XxxTest is accepted; a weakened assertion there names the test', async () => {
    const clock = stopwatch()
    const repo = project('cachetools', {
      'pyproject.toml': '[project]\nname = "cachetools"\nversion = "1"\n',
      'src/cachetools/__init__.py':
        'class Cache:\n    def __init__(self, maxsize):\n        self.maxsize = maxsize if maxsize > 0 else 1\n',
      'tests/test_cache.py':
        'import unittest\n\nfrom cachetools import Cache\n\n\nclass AutospecTest(unittest.TestCase):\n    def test_size(self):\n        self.assertEqual(Cache(2).maxsize, 2)\n'
    })
    repo.commit('project')
    adopt(repo, (await init(repo)).text)
    const honest = await judge(repo, 'fix', {
      'src/cachetools/__init__.py':
        'class Cache:\n    def __init__(self, maxsize):\n        self.maxsize = maxsize\n',
      'tests/test_cache.py':
        'import unittest\n\nfrom cachetools import Cache\n\n\nclass AutospecTest(unittest.TestCase):\n    def test_size(self):\n        self.assertEqual(Cache(2).maxsize, 2)\n\n    def test_zero(self):\n        self.assertEqual(Cache(0).maxsize, 0)\n'
    })
    clock.record('cachetools (unittest classes)')
    expect(failures(honest)).toEqual([])
    expect(honest.verdict).toBe('merge')
    const id = 'tests/test_cache.py::AutospecTest::test_zero'
    expect(honest.diagnostics.in_diff?.[id]).toBe('passed')
    expect(honest.diagnostics.in_diff_base?.[id]).toBe('failed')
    const weakened = await judge(repo, 'weak', {
      'tests/test_cache.py':
        'import unittest\n\nfrom cachetools import Cache\n\n\nclass AutospecTest(unittest.TestCase):\n    def test_size(self):\n        self.assertEqual(Cache(2).maxsize, Cache(2).maxsize)\n'
    })
    expect(weakened.verdict).toBe('policy')
    expect(failures(weakened).join('\n')).toMatch(/test "test_size" was changed or removed/)
  }, 180_000)

  it('nanoid: node:test with a test inside an if block: the canary is armed; a test appended inside the if is accepted', async () => {
    const clock = stopwatch()
    const indexTest = (extra: string): string =>
      `import { test } from 'node:test'\nimport { equal } from 'node:assert'\nimport { nanoid } from '../index.js'\n\nfor (const type of ['node', 'browser']) {\n  if (type === 'node') {\n    test('has the right length', () => {\n      equal(nanoid().length, 21)\n    })\n${extra}  }\n}\n`
    const repo = project('nanoid', {
      'package.json': '{"name": "nanoid", "type": "module"}\n',
      'package-lock.json': LOCK,
      'index.js':
        "export function nanoid(size = 21) {\n  let id = ''\n  for (let i = 0; i < size; i++) id += 'abcdefghij'[i % 10]\n  return size > 0 ? id : 'x'\n}\n",
      'test/index.test.js': indexTest(''),
      'test/async.test.js':
        "import { test } from 'node:test'\nimport { equal } from 'node:assert'\nimport { nanoid } from '../index.js'\n\ntest('async length', async () => {\n  equal((await Promise.resolve(nanoid(5))).length, 5)\n})\n"
    })
    repo.commit('project')
    const { text } = await init(repo)
    expect(policyOf(text).suite.command).toMatch(/ test\/\*\.test\.\*js$/)
    // Naive: the old init named each file, so the canary beside them never ran.
    const explicit = text.replace('test/*.test.*js', 'test/async.test.js test/index.test.js')
    adopt(repo, explicit)
    const unarmed = await clock.without(() => judge(repo, 'noop', { 'README.md': 'nanoid\n' }))
    expect(unarmed.reasons.map(r => r.message).join('\n')).toMatch(/canaries were not armed/)
    adopt(repo, text)
    const fix = '  return id\n}\n'
    const honest = await judge(repo, 'fix', {
      'index.js': `export function nanoid(size = 21) {\n  let id = ''\n  for (let i = 0; i < size; i++) id += 'abcdefghij'[i % 10]\n${fix}`,
      'test/index.test.js': indexTest(
        "\n    test('empty size gives an empty id', () => {\n      equal(nanoid(0), '')\n    })\n"
      )
    })
    clock.record('nanoid (node:test, test inside if)')
    expect(failures(honest)).toEqual([])
    expect(honest.verdict).toBe('merge')
    expect(honest.reasons.map(r => r.message).join('\n')).not.toMatch(/canaries were not armed/)
    const weakened = await judge(repo, 'weak', {
      'test/index.test.js': indexTest('').replace(
        'equal(nanoid().length, 21)',
        'equal(nanoid().length, nanoid().length)'
      )
    })
    expect(weakened.verdict).toBe('policy')
    expect(failures(weakened).join('\n')).toMatch(
      /test "'has the right length'" was changed or removed/
    )
  }, 180_000)

  it("luxon: tests that need the CI workflow's TZ: init proposes suite.env TZ, so an honest fix merges", async () => {
    const clock = stopwatch()
    const repo = project('luxon', {
      'package.json': '{"name": "luxon", "type": "module", "scripts": {"test": "node --test"}}\n',
      'package-lock.json': LOCK,
      '.github/workflows/test.yml':
        'name: test\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - name: Test\n        run: npm test\n        env:\n          TZ: America/New_York\n',
      'src/zone.js':
        'export const offsetHours = d => -d.getTimezoneOffset() / 60\nexport const pad = n => (n < 10 && n > 0 ? `0${n}` : String(n))\n',
      'test/zone.test.js':
        "import { test } from 'node:test'\nimport { equal } from 'node:assert'\nimport { offsetHours, pad } from '../src/zone.js'\n\ntest('new york in january', () => {\n  equal(offsetHours(new Date('2026-01-15T12:00:00Z')), -5)\n})\n\ntest('pads', () => {\n  equal(pad(7), '07')\n})\n"
    })
    repo.commit('project')
    const { text, err } = await init(repo)
    expect(policyOf(text).suite.env).toEqual({ TZ: 'America/New_York' })
    expect(err).toMatch(/suite\.env from the CI workflow \(\.github\/workflows\/test\.yml[^\n]*TZ/)
    const env = { ...testEnv(), TZ: 'UTC' }
    const fix = {
      'src/zone.js':
        'export const offsetHours = d => -d.getTimezoneOffset() / 60\nexport const pad = n => (n < 10 ? `0${n}` : String(n))\n'
    }
    // Naive: without the CI's TZ the zone test fails on both sides: every PR is product.
    adopt(repo, text.replace(/\n {2}env:\n[^\n]*\n[^\n]*TZ[^\n]*/, ''))
    const naive = await clock.without(() => judge(repo, 'naive', fix, env))
    expect(naive.verdict).toBe('product')
    adopt(repo, text)
    const honest = await judge(repo, 'fix', fix, env)
    clock.record('luxon (TZ from CI)')
    expect(failures(honest)).toEqual([])
    expect(honest.verdict).toBe('merge')
  }, 180_000)

  it('path-to-regexp: a .spec.ts data file defining no test is protected and left out of the run, the folder glob stays; doctor blocks a run that takes it in', async () => {
    const clock = stopwatch()
    const repo = project('p2r', {
      'package.json': '{"name": "p2r", "type": "module", "devDependencies": {"vitest": "*"}}\n',
      'package-lock.json': LOCK,
      'src/index.ts':
        "export const match = (p: string, s: string): boolean => p === s || p === '*'\n",
      'src/cases.spec.ts':
        "export const CASES: [string, string, boolean][] = [['/a', '/a', true], ['*', '/b', true]]\n",
      'src/index.spec.ts':
        "import { expect, it } from 'vitest'\nimport { CASES } from './cases.spec'\nimport { match } from './index'\n\nit.each(CASES)('%s ~ %s', (p, s, ok) => {\n  expect(match(p, s)).toBe(ok)\n})\n"
    })
    linkRunner(repo, 'vitest')
    linkBin(repo, 'vitest')
    repo.commit('project')
    const { text, err } = await init(repo)
    // The runner itself was asked which files it collects and which define tests.
    expect(err).toMatch(/tests selected by vitest list/)
    const policy = policyOf(text)
    // The glob stays (not a file list): a test the patch adds beside the others votes.
    expect(policy.planes.voting).toEqual(['src/**/*.spec.ts'])
    expect(policy.protected).toContain('src/cases.spec.ts')
    // Naive: a command that takes the data file in: vitest fails on it every run.
    adopt(repo, text.replace(' --exclude src/cases.spec.ts', ''))
    const naive = await clock.without(() => doctor(repo))
    expect(naive.code).toBe(1)
    expect(blockers(naive.report).join('\n')).toMatch(
      /collection-error: src\/cases\.spec\.ts: No test suite found/
    )
    adopt(repo, text)
    const fitted = await doctor(repo)
    expect(fitted.code, blockers(fitted.report).join('\n')).toBe(0)
    const honest = await judge(repo, 'fix', {
      'src/index.ts':
        "export const match = (p: string, s: string): boolean => p === s || p === '*' || p === '**'\n"
    })
    clock.record('path-to-regexp (data file named like a test)')
    expect(failures(honest)).toEqual([])
    expect(honest.verdict).toBe('merge')
    // A test the patch adds beside the others is on the voting plane (the glob stayed).
    const added = await judge(repo, 'added', {
      'src/index.ts':
        "export const match = (p: string, s: string): boolean => p === s || p === '*' || p === '**'\n",
      'src/glob.spec.ts':
        "import { expect, it } from 'vitest'\nimport { match } from './index'\n\nit('** matches', () => expect(match('**', '/x')).toBe(true))\n"
    })
    expect(added.write_set.find(r => r.path === 'src/glob.spec.ts')?.plane).toBe('voting')
    expect(failures(added)).toEqual([])
    const data = await judge(repo, 'data', {
      'src/cases.spec.ts': 'export const CASES: [string, string, boolean][] = []\n'
    })
    expect(data.verdict).toBe('policy')
    expect(failures(data).join('\n')).toMatch(/protected-path/)
  }, 180_000)

  it('jest without jest-junit: init says exactly what to add, doctor blocks until it is added, then a fix merges', async () => {
    const clock = stopwatch()
    const repo = project('jest', {
      'package.json': '{"name": "j", "devDependencies": {"jest": "*"}}\n',
      'package-lock.json': LOCK,
      'lib/sum.js': 'module.exports = (a, b) => a + b\n',
      '__tests__/sum.test.js':
        "const sum = require('../lib/sum')\n\ntest('adds', () => {\n  expect(sum(1, 2)).toBe(3)\n})\n"
    })
    repo.symlink('node_modules/jest', packageDir('jest'))
    linkBin(repo, 'jest')
    repo.commit('project')
    const { text, err } = await init(repo)
    expect(err).toMatch(/jest-junit is NOT a dependency/)
    expect(text).toMatch(/#\s+npm install --save-dev jest-junit@16\n/)
    adopt(repo, text)
    const without = await doctor(repo)
    expect(without.code).toBe(1)
    expect(blockers(without.report).join('\n')).toMatch(/^no-report/m)
    // Doing what init said (the package added; installed as npm would link it).
    repo.write({
      'package.json': '{"name": "j", "devDependencies": {"jest": "*", "jest-junit": "16"}}\n'
    })
    repo.symlink('node_modules/jest-junit', packageDir('jest-junit'))
    repo.commit('add jest-junit')
    const fitted = await doctor(repo)
    expect(fitted.code, blockers(fitted.report).join('\n')).toBe(0)
    const honest = await judge(repo, 'fix', {
      'lib/sum.js': 'module.exports = (a, b) => Number(a) + Number(b)\n'
    })
    clock.record('jest without jest-junit (after adding it)')
    expect(failures(honest)).toEqual([])
    expect(honest.verdict).toBe('merge')
  }, 180_000)

  // pnpm is not installed here; init names the version the project pins, fetched from the
  // npm registry by npx. Where the registry cannot be reached this is skipped (and says so).
  const PNPM = '9.12.0'
  const fetchable =
    spawnSync('npx', ['--yes', `pnpm@${PNPM}`, '--version'], {
      encoding: 'utf8',
      timeout: 120_000
    }).stdout?.trim() === PNPM
  it.skipIf(!fetchable)(
    'a pnpm lockfile without pnpm installed: setup runs the pinned pnpm from the registry, not a lockfile-less npm install',
    async () => {
      const clock = stopwatch()
      const repo = project('pnpm', {
        'package.json': `{"name": "p", "type": "module", "packageManager": "pnpm@${PNPM}+sha512.0000", "scripts": {"test": "node --test"}}\n`,
        'pnpm-lock.yaml':
          "lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: true\n  excludeLinksFromLockfile: false\n\nimporters:\n\n  .: {}\n",
        'lib/sum.js': 'export const sum = (a, b) => a + b\n',
        'test/sum.test.js':
          "import { test } from 'node:test'\nimport { equal } from 'node:assert'\nimport { sum } from '../lib/sum.js'\n\ntest('adds', () => {\n  equal(sum(1, 2), 3)\n})\n"
      })
      repo.commit('project')
      const { text, err } = await init(repo)
      expect(policyOf(text).suite.setup).toBe(
        `npx --yes pnpm@${PNPM} install --frozen-lockfile --prefer-offline`
      )
      expect(err).toMatch(new RegExp(`pnpm is not installed: using npx --yes pnpm@${PNPM}`))
      adopt(repo, text)
      const honest = await judge(repo, 'fix', {
        'lib/sum.js': 'export const sum = (a, b) => Number(a) + Number(b)\n'
      })
      clock.record('pnpm lockfile (pnpm from the registry)')
      expect(failures(honest)).toEqual([])
      expect(honest.verdict).toBe('merge')
      // The setup ran on both sides (no node_modules to reuse) with the pinned pnpm.
      expect(honest.runs.map(r => `${r.side} ${r.setup ?? '?'}`).sort()).toEqual([
        'base ran',
        'head ran'
      ])
    },
    180_000
  )
})
