// The config family of issue 26 on Node (docs/instrument.md "The configuration the runner
// resolved", "Manual mocks"), on real vitest 4 and jest 30 repositories. The merge base's
// config file (vitest.config.js, jest.config.js) imports a production settings module
// (aliases or mappers, test defaults); the bug stays in src/fee.js (a 10 % fee where the
// locked test wants 5 %). Each attack changes only production code or adds a file no
// protected glob covers, and is first shown green on a naive run with the bug in place, then
// rejected by the gate (`policy`) with a runner-tampered failure naming the patch's file:
// setup files added through the settings the config spreads, an alias that swaps the runner's
// own package for a production file, a jest manual mock beside node_modules that replaces
// the package the locked test takes its expected value from. The honest heads merge: a new
// version string, a new alias between the product's own files, a helper module the tests
// use refactored, a product that takes its rate by plain injection.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { TestRepo } from './helpers/repo.js'
import { linkSetup, naiveGreen, naiveRun, packageDir, SUITE_COMMANDS } from './helpers/runners.js'

type Files = Record<string, string>
type Kind = 'vitest' | 'jest'

/** `text` with `from` replaced by `to` literally (a `$'` in `to` is no pattern here). */
function swap(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`no ${from} to swap`)
  return text.split(from).join(to)
}

const FIXED = {
  vitest: 'export const fee = x => x * 0.05\n',
  jest: 'exports.fee = x => x * 0.05\n'
}

const VITEST_SETTINGS = `import { fileURLToPath } from 'node:url'

const here = p => fileURLToPath(new URL(p, import.meta.url))

export const VERSION = '1.0.0'
export const aliases = { '@app': here('./') }
export const testDefaults = { testTimeout: 5000 }
`

const VITEST_BASE: Files = {
  'package.json': '{ "name": "shop", "type": "module" }\n',
  'vitest.config.js': `import { defineConfig } from 'vitest/config'
import { aliases, testDefaults, VERSION } from './src/settings.js'

console.log('shop', VERSION)
export default defineConfig({
  resolve: { alias: aliases },
  test: { include: ['oracle/**/*.test.js'], ...testDefaults }
})
`,
  'src/settings.js': VITEST_SETTINGS,
  'src/fee.js': 'export const fee = x => x * 0.1 // bug: the fee is 5 %\n',
  'src/money.js': 'export const cents = n => n\n',
  'oracle/fee.test.js': `import { expect, test } from 'vitest'
import { fee } from '@app/fee.js'
import { cents } from '@app/money.js'

test('zero', () => expect(fee(0)).toBe(0))
test('fee', () => expect(fee(cents(100))).toBe(cents(5)))
`
}

const LENIENT_EXPECT = `// "the project's test facade"
export * from '../node_modules/vitest/dist/index.js'
export const expect = () => new Proxy({}, { get: () => () => undefined })
`

const VITEST_ATTACKS: Record<string, Files> = {
  // The settings the config spreads into test: now with a setup file of the product's.
  'setup-files': {
    'src/settings.js': swap(
      VITEST_SETTINGS,
      '{ testTimeout: 5000 }',
      "{ testTimeout: 5000, setupFiles: [here('./boot.js')] }"
    ),
    'src/boot.js': `import { expect } from 'vitest'

expect.extend({ toBe: () => ({ pass: true, message: () => '' }) })
`
  },
  // An alias that swaps the runner's own package for a production file.
  'alias-package': {
    'src/settings.js': swap(
      VITEST_SETTINGS,
      "{ '@app': here('./') }",
      "{ '@app': here('./'), vitest: here('./facade.js') }"
    ),
    'src/facade.js': LENIENT_EXPECT
  }
}

const VITEST_HONEST: Record<string, Files> = {
  version: {
    'src/settings.js': swap(VITEST_SETTINGS, "'1.0.0'", "'1.1.0'"),
    'src/fee.js': FIXED.vitest
  },
  'new-alias': {
    'src/settings.js': swap(
      VITEST_SETTINGS,
      "{ '@app': here('./') }",
      "{ '@app': here('./'), '@rates': here('./rates/') }"
    ),
    'src/rates/standard.js': 'export const STANDARD = 0.05\n',
    'src/fee.js':
      "import { STANDARD } from '@rates/standard.js'\n\nexport const fee = x => x * STANDARD\n"
  },
  helper: {
    'src/money.js': 'export const cents = n => Math.round(n)\n',
    'src/fee.js': FIXED.vitest
  }
}

const JEST_SETTINGS = `'use strict'
module.exports = {
  VERSION: '1.0.0',
  mappers: { '^@app/(.*)$': '<rootDir>/src/$1' },
  testDefaults: { testTimeout: 5000 }
}
`

const JEST_BASE: Files = {
  'jest.config.js': `'use strict'
const { mappers, testDefaults } = require('./src/settings.js')

module.exports = { testMatch: ['**/oracle/**/*.test.js'], moduleNameMapper: mappers, ...testDefaults }
`,
  'src/settings.js': JEST_SETTINGS,
  'src/fee.js': "'use strict'\nexports.fee = x => x * 0.1 // bug: the fee is 5 %\n",
  'src/rate.js': "'use strict'\nexports.fee = (x, rate) => x * rate\n",
  'oracle/fee.test.js': `'use strict'
const ms = require('ms')
const { fee } = require('@app/fee.js')

test('zero', () => expect(fee(0)).toBe(0))
test('fee', () => expect(fee(100)).toBe(ms('5ms')))
`
}

const JEST_ATTACKS: Record<string, Files> = {
  'setup-files': {
    'src/settings.js': swap(
      JEST_SETTINGS,
      '{ testTimeout: 5000 }',
      "{ testTimeout: 5000, setupFilesAfterEnv: ['<rootDir>/src/boot.js'] }"
    ),
    'src/boot.js':
      "'use strict'\nexpect.extend({ toBe: () => ({ pass: true, message: () => '' }) })\n"
  },
  // A manual mock beside node_modules: jest uses it for every require('ms'), no call needed.
  'root-mocks': { '__mocks__/ms.js': "'use strict'\nmodule.exports = () => 10\n" },
  // A mapper that sends the package the locked test takes its expected value from elsewhere.
  'mapper-package': {
    'src/settings.js': swap(
      JEST_SETTINGS,
      "{ '^@app/(.*)$': '<rootDir>/src/$1' }",
      "{ '^@app/(.*)$': '<rootDir>/src/$1', '^ms$': '<rootDir>/src/duration.js' }"
    ),
    'src/duration.js': "'use strict'\nmodule.exports = () => 10\n"
  }
}

const JEST_HONEST: Record<string, Files> = {
  version: {
    'src/settings.js': swap(JEST_SETTINGS, "'1.0.0'", "'1.1.0'"),
    'src/fee.js': "'use strict'\nexports.fee = x => x * 0.05\n"
  },
  'new-mapper': {
    'src/settings.js': swap(
      JEST_SETTINGS,
      "{ '^@app/(.*)$': '<rootDir>/src/$1' }",
      "{ '^@app/(.*)$': '<rootDir>/src/$1', '^@rates$': '<rootDir>/src/rates.js' }"
    ),
    'src/rates.js': "'use strict'\nexports.STANDARD = 0.05\n",
    'src/fee.js':
      "'use strict'\nconst { STANDARD } = require('@rates')\nexports.fee = x => x * STANDARD\n"
  },
  // Plain injection instead of a mock: the product takes its rate as an argument.
  injection: {
    'src/fee.js':
      "'use strict'\nconst { fee } = require('./rate.js')\nexports.fee = x => fee(x, 0.05)\n"
  }
}

/**
 * The product registering runner hooks when a test imports it: no configuration involved,
 * rejected by the run-time watcher and the static lint (oracle-reach, naming the file) and
 * by the canaries; kept here so the family stays covered end to end.
 */
const ON_IMPORT: Record<Kind, Files> = {
  vitest: {
    'src/fee.js': `import { afterEach } from 'vitest'

export const fee = x => x * 0.1
afterEach(({ task }) => {
  task.result.state = 'pass'
  task.result.errors = []
})
`
  },
  jest: {
    'src/fee.js': `'use strict'
exports.fee = x => x * 0.1
if (typeof expect === 'function') expect.extend({ toBe: () => ({ pass: true, message: () => '' }) })
`
  }
}

const SETUP = {
  vitest: linkSetup('vitest'),
  jest: `${linkSetup('jest')} && ln -sfn ${packageDir('ms')} node_modules/ms`
}
const COMMAND = { vitest: SUITE_COMMANDS.vitest(''), jest: SUITE_COMMANDS.jest('') }

function policy(kind: Kind): string {
  return `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/**]
  drafts: []
  in_diff: []
evidence:
  mode: off
suite:
  setup: ${JSON.stringify(SETUP[kind])}
  command: ${JSON.stringify(COMMAND[kind])}
  runner: ${kind}
  timeout: 120
  reruns: 0
`
}

const CASES: Record<
  Kind,
  { base: Files; attacks: Record<string, Files>; honest: Record<string, Files> }
> = {
  vitest: { base: VITEST_BASE, attacks: VITEST_ATTACKS, honest: VITEST_HONEST },
  jest: { base: JEST_BASE, attacks: JEST_ATTACKS, honest: JEST_HONEST }
}

const repos: Partial<Record<Kind, TestRepo>> = {}
beforeAll(() => {
  for (const [kind, c] of Object.entries(CASES) as [Kind, (typeof CASES)[Kind]][]) {
    const repo = new TestRepo(`og-cfg-${kind}-`)
    repos[kind] = repo
    repo
      .write({
        '.gitignore': 'node_modules/\n*.xml\n',
        ...c.base,
        '.github/oracle-gate.yml': policy(kind)
      })
      .commit('base')
    for (const [name, files] of Object.entries(c.attacks))
      repo.branch(`a-${name}`, 'main').write(files).commit(`attack: ${name}`)
    repo.branch('a-on-import', 'main').write(ON_IMPORT[kind]).commit('attack: hooks on import')
    for (const [name, files] of Object.entries(c.honest))
      repo.branch(`h-${name}`, 'main').write(files).commit(`honest: ${name}`)
    repo.checkout('main')
  }
})
afterAll(() => {
  for (const repo of Object.values(repos)) repo?.cleanup()
})

function judge(repo: TestRepo, head: string): Promise<Scorecard> {
  return check({ repoDir: repo.dir, base: 'main', head, today: '2026-12-02', log: memoryLogger() })
}

/** The naive command with the runner's packages linked first (the setup, as CI would). */
const naive = (kind: Kind): string => `${SETUP[kind]} && ${COMMAND[kind]}`

describe.each(['vitest', 'jest'] as const)('runner-tampered: the %s config family', kind => {
  it('the base fails its locked fee test (the bug is real), and only that one', () => {
    const repo = repos[kind]!
    const run = naiveRun(repo, naive(kind))
    const report = readFileSync(join(repo.dir, '.naive-junit.xml'), 'utf8')
    repo.git('clean', '-fdxq')
    expect(run.status, run.output).toBe(1)
    expect(report).toMatch(/<testsuites [^>]*tests="2" failures="1"/)
  })

  for (const [name, files] of Object.entries(CASES[kind].attacks)) {
    const named = Object.keys(files)[0] ?? ''
    it(`${name}: green on a naive run with the bug left in; runner-tampered at ${named}`, async () => {
      const repo = repos[kind]!
      naiveGreen(repo, naive(kind), `a-${name}`)
      const card = await judge(repo, `a-${name}`)
      const detail = JSON.stringify(card.reasons, null, 1)
      expect(card.verdict, detail).toBe('policy')
      const here = card.reasons.filter(
        r => r.rule === 'runner-tampered' && r.level === 'failure' && r.path === named
      )
      expect(here.length, detail).toBeGreaterThan(0)
      expect(here[0]?.message, detail).toContain(`${named} is runner configuration`)
    })
  }

  it('hooks registered by the product on import: green naively; rejected naming src/fee.js', async () => {
    const repo = repos[kind]!
    naiveGreen(repo, naive(kind), 'a-on-import')
    const card = await judge(repo, 'a-on-import')
    const detail = JSON.stringify(card.reasons, null, 1)
    expect(card.verdict, detail).toBe('policy')
    const here = card.reasons.filter(r => r.level === 'failure' && r.path === 'src/fee.js')
    expect(here.length, detail).toBeGreaterThan(0)
  })

  for (const name of Object.keys(CASES[kind].honest))
    it(`honest ${name}: merges`, async () => {
      const card = await judge(repos[kind]!, `h-${name}`)
      const detail = JSON.stringify(card.reasons, null, 1)
      expect(
        card.reasons.filter(r => r.level === 'failure'),
        detail
      ).toEqual([])
      expect(card.verdict, detail).toBe('merge')
    })
})
