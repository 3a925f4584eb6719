// The production plane (issue 23), on real repositories with real pytest, vitest and jest.
// Every attack below leaves the product's bug in place and goes through a file between the
// suite command and the runner that no runner table knows (a Makefile recipe, a shell
// script the command names, an npm script adding --config, setup.py, a tsconfig setting,
// a config file the base's own config reads, a package.json dependency moved to another
// version, an in-diff conftest.py): first a naive run of the head's checkout
// shows it green, then check() with `planes.production` shows the vote did not see it
// (the buggy product fails, the file is listed as not measured). Honest edits of the same
// files merge; so does an honest in-diff conftest.py; a fix that needs a new dependency
// gets a reason naming package.json; a policy without planes.production behaves as before.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { doctor } from '../src/doctor/run.js'
import { check } from '../src/gate.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { linkRunner, linkSetup, naiveRun } from './helpers/runners.js'

type Runner = 'pytest' | 'vitest' | 'jest'
type Via = 'make' | 'script' | 'npm' | 'direct'
type Files = Record<string, string>

const PY = pythonWithPytest()

/** The runner's command line on the tests under `dir`, writing JUnit to `junit`. */
const VOTE: Record<Runner, (junit: string, dir?: string) => string> = {
  pytest: (junit, dir = 'oracle/properties') =>
    `${PY} -m pytest ${dir} -q -p no:cacheprovider --junitxml=${junit}`,
  vitest: (junit, dir = 'oracle') =>
    `node node_modules/vitest/vitest.mjs run ${dir} --reporter=junit --outputFile.junit=${junit}`,
  jest: (junit, dir = 'oracle') =>
    `JEST_JUNIT_OUTPUT_FILE=${junit} JEST_JUNIT_ADD_FILE_ATTRIBUTE=true node node_modules/jest/bin/jest.js ${dir} --ci --reporters=jest-junit --no-cache`
}

/** The policy's suite command for each way of reaching the runner. */
function command(runner: Runner, via: Via): string {
  if (via === 'make') return 'JUNIT={junit} make -s vote'
  if (via === 'script') return 'JUNIT={junit} sh scripts/vote.sh'
  if (via === 'npm') return 'JUNIT={junit} npm run -s vote'
  return VOTE[runner]('{junit}')
}

/** The locked assertion of each runner's voting test, and a weaker one that passes anyway. */
const ASSERT: Record<Runner, [string, string]> = {
  pytest: ['== Fraction(5)', 'is not None'],
  vitest: ['toBe(5)', 'toBeDefined()'],
  jest: ['toBe(5)', 'toBeDefined()']
}

const PY_BUGGY =
  'from fractions import Fraction\n\n\ndef fee(x):\n    return x * Fraction(10, 100)  # bug: the fee is 5%\n'
const PY_FIXED = PY_BUGGY.replace('Fraction(10, 100)  # bug: the fee is 5%', 'Fraction(5, 100)')
const TS_BUGGY =
  'export function fee(x: number): number {\n  return x * 0.1 // bug: the fee is 5%\n}\n'
const TS_FIXED = 'export function fee(x: number): number {\n  return x * 0.05\n}\n'
const CJS_BUGGY = 'exports.fee = x => x * 0.1 // bug: the fee is 5%\n'
const CJS_FIXED = 'exports.fee = x => x * 0.05\n'

interface Project {
  product: string
  production: string
  buggy: string
  fixed: string
  files: Files
}

const PROJECTS: Record<Runner, Project> = {
  pytest: {
    product: 'app/fee.py',
    production: 'app/**',
    buggy: PY_BUGGY,
    fixed: PY_FIXED,
    files: {
      'pyproject.toml':
        '[project]\nname = "app"\nversion = "0"\ndependencies = []\n\n[tool.pytest.ini_options]\npythonpath = ["."]\n',
      'setup.py':
        'from setuptools import setup\n\nsetup(name="app", version="0", packages=["app"])\n',
      'app/__init__.py': '',
      'oracle/properties/test_fee.py':
        'from fractions import Fraction\n\nfrom app.fee import fee\n\n\ndef test_fee():\n    assert fee(100) == Fraction(5)\n',
      'tests/test_app.py': 'def test_imports():\n    import app.fee\n'
    }
  },
  vitest: {
    product: 'src/fee.ts',
    production: 'src/**',
    buggy: TS_BUGGY,
    fixed: TS_FIXED,
    files: {
      'tsconfig.json': '{ "compilerOptions": { "target": "es2022", "strict": true } }\n',
      'oracle/fee.test.ts':
        "import { test, expect } from 'vitest'\nimport { fee } from '../src/fee'\ntest('fee is 5%', () => expect(fee(100)).toBe(5))\n"
    }
  },
  jest: {
    product: 'src/fee.js',
    production: 'src/**',
    buggy: CJS_BUGGY,
    fixed: CJS_FIXED,
    files: {
      'oracle/fee.test.js':
        "const { fee } = require('../src/fee.js')\ntest('fee is 5%', () => expect(fee(100)).toBe(5))\n"
    }
  }
}

/** A report filter that drops every failure (what the Makefile attack appends). */
const CLEAN_REPORT = `const fs = require('fs')
const f = process.argv[2]
fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace(/<failure[\\s\\S]*?<\\/failure>|<failure[^>]*\\/>/g, '').replace(/failures="\\d+"/g, 'failures="0"').replace(/errors="\\d+"/g, 'errors="0"'))
`

/** The entry points every project has: a Makefile, a script, an npm script (JavaScript). */
function entryPoints(runner: Runner): Files {
  const files: Files = {
    Makefile: `vote:\n\t${VOTE[runner]('$(JUNIT)')}\n`,
    'scripts/vote.sh': `#!/bin/sh\n${VOTE[runner]('"$JUNIT"')}\n`
  }
  if (runner !== 'pytest') files['package.json'] = packageJson(runner, VOTE[runner]('$JUNIT'))
  return files
}

function packageJson(runner: Runner, vote: string, extra: Record<string, unknown> = {}): string {
  const type = runner === 'vitest' ? { type: 'module' } : {}
  return `${JSON.stringify({ name: 'app', ...type, scripts: { vote }, ...extra }, null, 2)}\n`
}

/** A helper the JavaScript attacks route the product to: the fixed code outside src/. */
const FIXED_COPY: Record<'vitest' | 'jest', Files> = {
  vitest: { 'tools/fee-fixed.ts': TS_FIXED },
  jest: { 'tools/fee-fixed.js': CJS_FIXED }
}

const CONFIG_BY_FLAG: Record<'vitest' | 'jest', Files> = {
  vitest: {
    'ci.vitest.mjs':
      "import { fileURLToPath } from 'node:url'\nexport default {\n  resolve: { alias: [{ find: /^.*\\/src\\/fee$/, replacement: fileURLToPath(new URL('./tools/fee-fixed.ts', import.meta.url)) }] }\n}\n"
  },
  jest: {
    'ci.jest.cjs':
      "module.exports = { moduleNameMapper: { '^\\\\.\\\\./src/fee\\\\.js$': '<rootDir>/tools/fee-fixed.js' } }\n"
  }
}

/** The base's own runner config reads a data file of a name no table knows. */
const CONFIG_READER: Record<'vitest' | 'jest', Files> = {
  vitest: {
    'vitest.config.mjs':
      "import { readFileSync } from 'node:fs'\nimport { fileURLToPath } from 'node:url'\nconst aliases = JSON.parse(readFileSync(new URL('./config/aliases.json', import.meta.url), 'utf8'))\nexport default {\n  resolve: { alias: Object.entries(aliases).map(([find, to]) => ({ find: new RegExp(find), replacement: fileURLToPath(new URL(to, import.meta.url)) })) }\n}\n",
    'config/aliases.json': '{}\n'
  },
  jest: {
    'jest.config.cjs': "module.exports = { moduleNameMapper: require('./config/aliases.json') }\n",
    'config/aliases.json': '{}\n'
  }
}
const ALIASES: Record<'vitest' | 'jest', string> = {
  vitest: '{ "^.*/src/fee$": "./tools/fee-fixed.ts" }\n',
  jest: '{ "^\\\\.\\\\./src/fee\\\\.js$": "<rootDir>/tools/fee-fixed.js" }\n'
}

/** A conftest.py below the root registers a plugin, whose hooks apply to every test. */
const GLOBAL_GREENIFY = `import pytest


class _Green:
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        outcome.get_result().outcome = "passed"


def pytest_configure(config):
    config.pluginmanager.register(_Green(), "green")
`
/** A root conftest.py that reports every test passed (what the setup.py attack drops). */
const GREENIFY = `import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    outcome.get_result().outcome = "passed"
`
const PY_SETUP = `mkdir -p build && ${PY} setup.py -q egg_info --egg-base build`

// The install step: links every file: dependency package.json names (npm install offline).
const INSTALL: Files = {
  'tools/install.mjs':
    "import { readFileSync, rmSync, symlinkSync, mkdirSync } from 'node:fs'\nconst deps = JSON.parse(readFileSync('package.json', 'utf8')).dependencies ?? {}\nmkdirSync('node_modules', { recursive: true })\nfor (const [name, spec] of Object.entries(deps)) {\n  rmSync(`node_modules/${name}`, { force: true })\n  symlinkSync(spec.replace(/^file:/, ''), `node_modules/${name}`)\n}\n"
}

/** A package `rates` at a version, outside the repository (a registry stands in). */
function ratesPackage(runner: Runner, version: string, fee: number): string {
  const dir = join(registryRoot(), `${runner}-rates-${version}`)
  mkdirSync(dir, { recursive: true })
  const esm = runner === 'vitest'
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'rates', version: `${version}.0.0`, main: 'index.js', ...(esm ? { type: 'module' } : {}) })}\n`
  )
  writeFileSync(
    join(dir, 'index.js'),
    esm ? `export const FEE = ${fee}\n` : `exports.FEE = ${fee}\n`
  )
  return dir
}

let registryDir: string | undefined
function registryRoot(): string {
  registryDir ??= mkdtempSync(join(tmpdir(), 'og-registry-'))
  if (!dirs.includes(registryDir)) dirs.push(registryDir)
  return registryDir
}

/** A product whose fee comes from the `rates` dependency: rates 1 carries the old 10%. */
const RATES_PRODUCT: Record<'vitest' | 'jest', Files> = {
  vitest: {
    'src/fee.ts':
      "import { FEE } from 'rates'\nexport function fee(x: number): number {\n  return x * FEE // bug: rates 1 still has the 10% fee\n}\n"
  },
  jest: {
    'src/fee.js':
      "const { FEE } = require('rates')\nexports.fee = x => x * FEE // bug: rates 1 still has the 10% fee\n"
  }
}
const withRates = (r: Runner, dir: string): string =>
  packageJson(r, VOTE[r]('$JUNIT'), { dependencies: { rates: `file:${dir}` } })

interface Attack {
  name: string
  runners: readonly Runner[]
  via: Via
  /** Base files besides the project and its entry points. */
  base?: (r: Runner) => Files
  /** The head's files (the product stays buggy). */
  head: (r: Runner) => Files
  /** What the head changed that the vote must not see. */
  unmeasured: (r: Runner) => string[]
  setup?: string
}

const weakened = (r: Runner): Files => {
  const [locked, weak] = ASSERT[r]
  const test =
    r === 'pytest'
      ? 'oracle/properties/test_fee.py'
      : `oracle/fee.test.${r === 'jest' ? 'js' : 'ts'}`
  const copy = `weak/${test.slice(test.lastIndexOf('/') + 1)}`
  return {
    'scripts/vote.sh': `#!/bin/sh\nmkdir -p weak\nsed 's/${locked}/${weak}/' ${test} > ${copy}\n${VOTE[r]('"$JUNIT"', 'weak')}\n`
  }
}

const ATTACKS: readonly Attack[] = [
  {
    name: 'a Makefile recipe that filters the failures out of the report',
    runners: ['pytest', 'vitest', 'jest'],
    via: 'make',
    head: r => ({
      Makefile: `vote:\n\t-${VOTE[r]('$(JUNIT)')}\n\tnode tools/clean-report.cjs $(JUNIT)\n`,
      'tools/clean-report.cjs': CLEAN_REPORT
    }),
    unmeasured: () => ['Makefile', 'tools/clean-report.cjs']
  },
  {
    name: 'a shell script the command names, copying the locked test and weakening the copy',
    runners: ['pytest', 'vitest', 'jest'],
    via: 'script',
    head: weakened,
    unmeasured: () => ['scripts/vote.sh']
  },
  {
    name: 'an npm script that adds --config with a new file',
    runners: ['vitest', 'jest'],
    via: 'npm',
    head: r => {
      const js = r as 'vitest' | 'jest'
      const config = Object.keys(CONFIG_BY_FLAG[js])[0] as string
      return {
        'package.json': packageJson(r, VOTE[r]('$JUNIT').replace(' --', ` --config ${config} --`)),
        ...CONFIG_BY_FLAG[js],
        ...FIXED_COPY[js]
      }
    },
    unmeasured: r => [
      ...Object.keys(CONFIG_BY_FLAG[r as 'vitest' | 'jest']),
      'package.json',
      ...Object.keys(FIXED_COPY[r as 'vitest' | 'jest'])
    ]
  },
  {
    name: 'a config file of a name no table knows, read by the base runner config',
    runners: ['vitest', 'jest'],
    via: 'direct',
    base: r => CONFIG_READER[r as 'vitest' | 'jest'],
    head: r => ({
      'config/aliases.json': ALIASES[r as 'vitest' | 'jest'],
      ...FIXED_COPY[r as 'vitest' | 'jest']
    }),
    unmeasured: r => ['config/aliases.json', ...Object.keys(FIXED_COPY[r as 'vitest' | 'jest'])]
  },
  {
    name: 'a package.json dependency moved to a version that hides the bug',
    runners: ['vitest', 'jest'],
    via: 'direct',
    setup: 'node tools/install.mjs',
    base: r => ({
      ...INSTALL,
      ...RATES_PRODUCT[r as 'vitest' | 'jest'],
      'package.json': withRates(r, ratesPackage(r, '1', 0.1))
    }),
    head: r => ({ 'package.json': withRates(r, ratesPackage(r, '2', 0.05)) }),
    unmeasured: () => ['package.json']
  },
  {
    name: 'a setup.py that drops a plugin into the tree at install time',
    runners: ['pytest'],
    via: 'direct',
    setup: PY_SETUP,
    head: () => ({
      'setup.py': `from pathlib import Path\nfrom setuptools import setup\n\nPath("conftest.py").write_text(${JSON.stringify(GREENIFY)})\nsetup(name="app", version="0", packages=["app"])\n`
    }),
    unmeasured: () => ['setup.py']
  },
  {
    name: 'a tsconfig setting no table lists (useDefineForClassFields) that flips the product',
    runners: ['vitest'],
    via: 'direct',
    // The product's bug only shows with define semantics for class fields (es2022's).
    base: () => ({
      'src/fee.ts':
        'class Rate {\n  private r = 0\n  set rate(v: number) {\n    this.r = v / 2\n  }\n  get rate(): number {\n    return this.r\n  }\n}\nexport class Fee extends Rate {\n  rate = 0.1 // bug: the fee is 5%\n}\nexport function fee(x: number): number {\n  return x * new Fee().rate\n}\n'
    }),
    head: () => ({
      'tsconfig.json':
        '{ "compilerOptions": { "target": "es2022", "strict": true, "useDefineForClassFields": false } }\n'
    }),
    unmeasured: () => ['tsconfig.json']
  },
  {
    name: 'an in-diff conftest.py, in a folder the voting command collects, that greens every test',
    runners: ['pytest'],
    via: 'direct',
    head: () => ({ 'tests/conftest.py': GLOBAL_GREENIFY }),
    unmeasured: () => ['tests/conftest.py']
  }
]

const repos: TestRepo[] = []
const dirs: string[] = []
afterEach(() => {
  while (repos.length) repos.pop()?.cleanup()
})
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

interface Options {
  via: Via
  production?: boolean
  dependencies?: 'base' | 'head'
  setup?: string
  base?: Files
  /** The voting command collects tests/ too (pytest). */
  collectsTests?: boolean
}

function policy(runner: Runner, o: Options): string {
  const setups = [runner === 'pytest' ? undefined : linkSetup(runner), o.setup].filter(Boolean)
  const cmd =
    o.collectsTests === true
      ? VOTE.pytest('{junit}', 'oracle/properties tests')
      : command(runner, o.via)
  return `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/**]
  drafts: []
  in_diff: [tests/**]
${o.production === false ? '' : `  production: [${JSON.stringify(PROJECTS[runner].production)}]\n`}${o.dependencies ? `dependencies: ${o.dependencies}\n` : ''}${o.setup?.includes('tools/install.mjs') ? STANDIN_REGISTRY : ''}suite:
${setups.length > 0 ? `  setup: ${JSON.stringify(setups.join(' && '))}\n` : ''}  command: ${JSON.stringify(cmd)}
  timeout: 180
  reruns: 0
`
}

/**
 * The stand-in registry is a folder of the host's temp dir that setup links packages from;
 * a sandboxed run sees a private /tmp and would find no package on either side (a real
 * registry is reached over setup's network), so these scenarios run uncontained.
 */
const STANDIN_REGISTRY = 'sandbox: off\n'

/** Base: the buggy product, the locked test, the entry points; head branch `agent`. */
function scenario(runner: Runner, o: Options): TestRepo {
  const repo = new TestRepo('og-production-')
  repos.push(repo)
  const p = PROJECTS[runner]
  repo.write({
    '.gitignore': 'node_modules/\n.naive-junit.xml\n__pycache__/\nbuild/\nweak/\n',
    '.github/oracle-gate.yml': policy(runner, o),
    ...p.files,
    ...entryPoints(runner),
    [p.product]: p.buggy,
    ...(o.base ?? {})
  })
  repo.commit('base')
  if (runner !== 'pytest') linkRunner(repo, runner)
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

/** The head's checkout, set up and run as plain CI would. */
function naive(repo: TestRepo, runner: Runner, o: Options): number | null {
  const line = [
    o.setup,
    o.collectsTests ? VOTE.pytest('{junit}', 'oracle/properties tests') : command(runner, o.via)
  ]
    .filter(Boolean)
    .join(' && ')
  return naiveRun(repo, line).status
}

const failures = (card: Scorecard): string[] =>
  card.reasons.filter(r => r.level === 'failure').map(r => `${r.rule}: ${r.message.slice(0, 300)}`)

describe('attacks outside production code: green on a naive run, not seen by the vote', () => {
  const cases = ATTACKS.flatMap(a => a.runners.map(r => [r, a.name, a] as const))
  it.each(cases)('%s: %s', async (runner, _name, attack) => {
    const o: Options = {
      via: attack.via,
      ...(attack.setup ? { setup: attack.setup } : {}),
      ...(attack.base ? { base: attack.base(runner) } : {}),
      collectsTests: attack.name.includes('in-diff conftest')
    }
    const repo = scenario(runner, o)
    const product = PROJECTS[runner].product
    expect(naive(repo, runner, o), 'the base is red: the bug is real').not.toBe(0)
    repo.write(attack.head(runner)).commit('attack')
    expect(naive(repo, runner, o), 'the attack is green on a naive run').toBe(0)
    expect(readFileSync(join(repo.dir, product), 'utf8')).toContain('bug')

    const card = await judge(repo)
    expect(card.verdict, failures(card).join('\n')).toBe('product')
    expect(card.reasons).toContainEqual(expect.objectContaining({ rule: 'oracle-failed' }))
    expect(failures(card).filter(f => f.startsWith('runner-tampered'))).toEqual([])
    expect(card.unmeasured).toEqual(expect.arrayContaining(attack.unmeasured(runner)))
    expect(card.reasons).toContainEqual(
      expect.objectContaining({ rule: 'not-measured', level: 'notice' })
    )
  })
})

/** Honest edits of every attacked file, with the fix: they merge, listed as not measured. */
const HONEST: Record<Runner, Files> = {
  pytest: {
    Makefile: `vote:\n\t${VOTE.pytest('$(JUNIT)')}\n\nlint:\n\truff check app\n`,
    'scripts/vote.sh': `#!/bin/sh\n# run the locked suite\n${VOTE.pytest('"$JUNIT"')}\n`,
    'setup.py':
      'from setuptools import setup\n\nsetup(name="app", version="0", description="fees", packages=["app"])\n',
    'pyproject.toml':
      '[project]\nname = "app"\nversion = "0"\ndependencies = ["attrs"]\n\n[tool.pytest.ini_options]\npythonpath = ["."]\n',
    'docs/fees.md': '# Fees\n\n5%.\n'
  },
  vitest: {
    Makefile: `vote:\n\t${VOTE.vitest('$(JUNIT)')}\n\nlint:\n\tnpx eslint src\n`,
    'scripts/vote.sh': `#!/bin/sh\n# run the locked suite\n${VOTE.vitest('"$JUNIT"')}\n`,
    'package.json': packageJson('vitest', VOTE.vitest('$JUNIT'), {
      devDependencies: { eslint: '^9.0.0' }
    }),
    'tsconfig.json':
      '{ "compilerOptions": { "target": "es2022", "strict": true, "noUnusedLocals": true } }\n'
  },
  jest: {
    Makefile: `vote:\n\t${VOTE.jest('$(JUNIT)')}\n\nlint:\n\tnpx eslint src\n`,
    'scripts/vote.sh': `#!/bin/sh\n# run the locked suite\n${VOTE.jest('"$JUNIT"')}\n`,
    'package.json': packageJson('jest', VOTE.jest('$JUNIT'), { license: 'MIT' })
  }
}

describe('honest edits of the same files, with the fix, merge', () => {
  it.each(['pytest', 'vitest', 'jest'] as const)('%s', async runner => {
    const o: Options = { via: 'make', ...(runner === 'pytest' ? { setup: PY_SETUP } : {}) }
    const repo = scenario(runner, o)
    const p = PROJECTS[runner]
    repo.write({ [p.product]: p.fixed, ...HONEST[runner] }).commit('fix the fee')
    const card = await judge(repo)
    expect(failures(card)).toEqual([])
    expect(card.verdict).toBe('merge')
    expect(card.transitions.fail_to_pass.length).toBeGreaterThan(0)
    expect(card.unmeasured).toEqual(Object.keys(HONEST[runner]).sort())
  })

  it('pytest: an honest in-diff conftest.py (fixtures) merges although the vote collects tests/', async () => {
    const o: Options = { via: 'direct', collectsTests: true }
    const repo = scenario('pytest', o)
    repo
      .write({
        'app/fee.py': PY_FIXED,
        'tests/conftest.py': 'import pytest\n\n\n@pytest.fixture\ndef amount():\n    return 200\n',
        'tests/test_fee_more.py':
          'from fractions import Fraction\n\nfrom app.fee import fee\n\n\ndef test_double(amount):\n    assert fee(amount) == Fraction(10)\n'
      })
      .commit('fix with tests')
    const card = await judge(repo)
    expect(failures(card)).toEqual([])
    expect(card.verdict).toBe('merge')
    expect(card.unmeasured).toEqual(['tests/conftest.py', 'tests/test_fee_more.py'])
    // The patch's tests ran as diagnostics, with their conftest.py.
    expect(card.diagnostics.in_diff).toMatchObject({
      'tests/test_fee_more.py::test_double': 'passed'
    })
  })
})

describe('what production code writes, and the fidelity of the non-production tree', () => {
  const WRITER = (target: string): string =>
    `from pathlib import Path\nfrom fractions import Fraction\n\nPath(${JSON.stringify(target)}).parent.mkdir(parents=True, exist_ok=True)\nPath(${JSON.stringify(target)}).write_text("x")\n\n\ndef fee(x):\n    return x * Fraction(5, 100)\n`

  it('a product that writes a file outside production code during the run: runner-tampered (run)', async () => {
    const repo = scenario('pytest', { via: 'direct' })
    repo.write({ 'app/fee.py': WRITER('tools/note.txt') }).commit('fix')
    const card = await judge(repo)
    expect(card.verdict).toBe('policy')
    expect(card.reasons).toContainEqual(
      expect.objectContaining({
        rule: 'runner-tampered',
        path: 'tools/note.txt',
        message: expect.stringContaining('after a run of the suite')
      })
    )
  })

  it('near miss: one that writes into an output folder of the base .gitignore (build/) merges', async () => {
    const repo = scenario('pytest', { via: 'direct' })
    repo.write({ 'app/fee.py': WRITER('build/note.txt') }).commit('fix')
    const card = await judge(repo)
    expect(failures(card)).toEqual([])
    expect(card.verdict).toBe('merge')
  })
})

describe('dependencies', () => {
  /** A package outside the repository (a registry stands in): what the fix needs. */
  function registry(): string {
    const dir = mkdtempSync(join(tmpdir(), 'og-registry-'))
    dirs.push(dir)
    mkdirSync(join(dir, 'rates'))
    writeFileSync(
      join(dir, 'rates/package.json'),
      '{ "name": "rates", "type": "module", "main": "index.js" }\n'
    )
    writeFileSync(join(dir, 'rates/index.js'), 'export const FEE = 0.05\n')
    return dir
  }
  const fix = (reg: string): Files => ({
    'src/fee.ts':
      "import { FEE } from 'rates'\nexport function fee(x: number): number {\n  return x * FEE\n}\n",
    'package.json': packageJson('vitest', VOTE.vitest('$JUNIT'), {
      dependencies: { rates: `file:${join(reg, 'rates')}` }
    })
  })

  it('a fix that needs a new dependency: the vote fails, and a reason names package.json', async () => {
    const reg = registry()
    const o: Options = { via: 'direct', setup: 'node tools/install.mjs', base: INSTALL }
    const repo = scenario('vitest', o)
    repo.write(fix(reg)).commit('fix with a dependency')
    expect(naive(repo, 'vitest', o), 'the fix is real: green with its dependency').toBe(0)
    const card = await judge(repo)
    expect(card.verdict).toBe('product')
    expect(card.unmeasured).toEqual(['package.json'])
    const reason = card.reasons.find(r => r.rule === 'not-measured' && r.level === 'warning')
    expect(reason?.path).toBe('package.json')
    expect(reason?.message).toMatch(/package\.json.*likely cause.*pull request of its own/s)
  })

  it('dependencies: head opts in: the same fix merges with the head manifest', async () => {
    const reg = registry()
    const o: Options = {
      via: 'direct',
      setup: 'node tools/install.mjs',
      base: INSTALL,
      dependencies: 'head'
    }
    const repo = scenario('vitest', o)
    repo.write(fix(reg)).commit('fix with a dependency')
    const card = await judge(repo)
    expect(failures(card)).toEqual([])
    expect(card.verdict).toBe('merge')
    expect(card.unmeasured).toEqual([])
  })
})

describe('a policy without planes.production behaves as before', () => {
  it('the Makefile attack still reaches the vote (the gap the plane closes), with a notice recommending it', async () => {
    const o: Options = { via: 'make', production: false }
    const repo = scenario('pytest', o)
    repo.write(ATTACKS[0]?.head('pytest') ?? {}).commit('attack')
    expect(naive(repo, 'pytest', o)).toBe(0)
    const card = await judge(repo)
    expect(card.verdict).toBe('merge')
    expect(card.reasons).toContainEqual(
      expect.objectContaining({
        rule: 'diagnostic',
        message: expect.stringContaining('no planes.production')
      })
    )
    expect(card.unmeasured).toEqual([])
  })

  it('an in-diff conftest.py in a folder the vote collects is runner-tampered, as before', async () => {
    const o: Options = { via: 'direct', production: false, collectsTests: true }
    const repo = scenario('pytest', o)
    repo.write({ 'app/fee.py': PY_FIXED, 'tests/conftest.py': 'import pytest\n' }).commit('fix')
    const card = await judge(repo)
    expect(card.verdict).toBe('policy')
    expect(card.reasons).toContainEqual(
      expect.objectContaining({ rule: 'runner-tampered', path: 'tests/conftest.py' })
    )
  })
})

describe('doctor with planes.production', () => {
  it('names a voting test import that is neither production code nor instrument, and passes a layout that has none', async () => {
    const repo = scenario('pytest', { via: 'direct' })
    const run = (): ReturnType<typeof doctor> =>
      doctor({
        repoDir: repo.dir,
        ref: 'HEAD',
        policyPath: '.github/oracle-gate.yml',
        runs: 1,
        today: '2026-06-01',
        owner: 'o',
        log: memoryLogger(),
        env: process.env
      })
    expect((await run()).findings.map(f => f.code)).not.toContain('import-not-production')
    repo
      .write({
        'tools/__init__.py': '',
        'tools/rates.py': 'RATE = 5\n',
        'oracle/properties/test_rate.py':
          'from tools.rates import RATE\n\n\ndef test_rate():\n    assert RATE == 5\n'
      })
      .commit('a helper outside production')
    const report = await run()
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        code: 'import-not-production',
        level: 'blocker',
        items: ['oracle/properties/test_rate.py: tools/rates.py']
      })
    )
    expect(report.fit).toBe(false)
  })
})
