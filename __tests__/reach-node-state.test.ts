// The runner's state in node told by structure, not by name (issue 26): real node:test,
// vitest (TypeScript) and jest runs of a fee product whose locked test wants fee(100) = 5
// while the product computes 10. Each attack is a red-team head that merged against the
// watcher's name tables (r3-nasyncres, r3-nlisteners, r3-vlisteners, r3-nresinfo, r3-nps),
// or reads a key of the runner's environment that no table listed (vite's MODE) or scans the
// whole environment. First the naive run: green, with the bug in production; then the run
// watched as the gate watches a head: the patch's line gets production's view (the async
// resource, the listeners the runner registered, the resources it opened, the environment
// keys it set), so the bug shows in the vote and the `fee` case fails; a key asked for by
// name, and the runner's command line printed by `ps`, are reported at the patch's line.
// The honest near-misses stay green with nothing reported: a graceful-shutdown handler the
// product registers and counts, a diagnostics call returning the active resources, a log
// level from NODE_ENV, a config loader spreading process.env (with a key the test set), CI
// as the gate hands it, and an AsyncLocalStorage of its own.
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { afterAll, describe, expect, it } from 'vitest'
import { envDigest } from '../src/replay/watch.js'
import { type Files, patched, reaches, watchedRun } from './helpers/node-watch.js'
import type { TestRepo } from './helpers/repo.js'
import { naiveRun, SUITE_COMMANDS } from './helpers/runners.js'

const repos: TestRepo[] = []
afterAll(() => {
  for (const r of repos) r.cleanup()
})

type Kind = 'node-test' | 'vitest' | 'jest'

const BUGGY = 'function fee(x) {\n  return (x * 10) / 100\n}\n'

function base(kind: Kind): Files {
  const js = kind !== 'vitest'
  const product: Files = js
    ? { 'src/fee.js': `'use strict'\n${BUGGY}module.exports = { fee }\n` }
    : { 'src/fee.ts': `export ${BUGGY.replace('(x)', '(x: number): number')}` }
  const test =
    kind === 'node-test'
      ? "const test = require('node:test')\nconst assert = require('node:assert')\nconst { fee } = require('../src/fee.js')\ntest('zero', () => assert.strictEqual(fee(0), 0))\ntest('fee', () => assert.strictEqual(fee(100), 5))\n"
      : kind === 'vitest'
        ? "import { expect, test } from 'vitest'\nimport { fee } from '../src/fee'\ntest('zero', () => { expect(fee(0)).toBe(0) })\ntest('fee', () => { expect(fee(100)).toBe(5) })\n"
        : "const { fee } = require('../src/fee.js')\ntest('zero', () => { expect(fee(0)).toBe(0) })\ntest('fee', () => { expect(fee(100)).toBe(5) })\n"
  return {
    'package.json': '{"name": "fee", "private": true}\n',
    ...product,
    [`test/fee.test.${js ? 'js' : 'ts'}`]: test
  }
}

/** The node:test base as ES modules. */
const ESM_BASE: Files = {
  'package.json': '{"name": "fee", "private": true, "type": "module"}\n',
  'src/fee.js': `export ${BUGGY}`,
  'test/fee.test.js':
    "import test from 'node:test'\nimport assert from 'node:assert'\nimport { fee } from '../src/fee.js'\ntest('zero', () => assert.strictEqual(fee(0), 0))\ntest('fee', () => assert.strictEqual(fee(100), 5))\n"
}

/** A product whose rate() is the attack: 5 under the runner, 10 in production. */
function attack(kind: Kind, rate: string[], head: string[] = []): Files {
  const body = [
    ...head,
    `function rate()${kind === 'vitest' ? ': number' : ''} {`,
    ...rate.map(l => `  ${l}`),
    '}',
    `${kind === 'vitest' ? 'export ' : ''}function fee(x${kind === 'vitest' ? ': number' : ''}) {`,
    '  return (x * rate()) / 100',
    '}',
    kind === 'vitest' ? '' : 'module.exports = { fee }',
    ''
  ]
  return { [`src/fee.${kind === 'vitest' ? 'ts' : 'js'}`]: body.join('\n') }
}

interface Row {
  name: string
  kind: Kind
  /** node:test on ES modules (the package's "type"): the product loads natively. */
  esm?: true
  head: Files
  /** What the watched run must report (`category path:line`), [] when hidden only. */
  reported: string[]
  /** Whether the product gets production's view in the vote (its bug then shows). */
  hidden?: false
}

const ROWS: Row[] = [
  {
    name: 'r3-nasyncres: the async resource node:test runs the test in',
    kind: 'node-test',
    head: attack(
      'node-test',
      [
        'const r = executionAsyncResource()',
        "return r && r.constructor && r.constructor.name === 'Test' ? 5 : 10"
      ],
      ["const { executionAsyncResource } = require('node:async_hooks')"]
    ),
    reported: []
  },
  {
    name: 'r3-nmasyncres: the same, the product an ES module node loads itself',
    kind: 'node-test',
    esm: true,
    head: {
      'src/fee.js': [
        "import { executionAsyncResource } from 'node:async_hooks'",
        'function rate() {',
        '  const r = executionAsyncResource()',
        "  return r && r.constructor && r.constructor.name === 'Test' ? 5 : 10",
        '}',
        'export function fee(x) {',
        '  return (x * rate()) / 100',
        '}',
        ''
      ].join('\n')
    },
    reported: []
  },
  {
    name: 'r3-nlisteners: the crash listeners node:test installed',
    kind: 'node-test',
    head: attack('node-test', [
      "return process.listenerCount('uncaughtException') > 0 && process.listenerCount('unhandledRejection') > 0 ? 5 : 10"
    ]),
    reported: []
  },
  {
    name: 'r3-nlisteners2: the listeners listed by eventNames and rawListeners',
    kind: 'node-test',
    head: attack('node-test', [
      "const names = process.eventNames().filter(n => String(n).startsWith('unhandled'))",
      'return names.length > 0 && process.rawListeners(names[0]).length > 0 ? 5 : 10'
    ]),
    reported: []
  },
  {
    name: 'r3-nresinfo: the pipes node:test’s child talks to its parent through',
    kind: 'node-test',
    head: attack('node-test', [
      'const r = process.getActiveResourcesInfo()',
      "return r.filter((k) => k === 'PipeWrap').length >= 2 || process._getActiveHandles().length >= 2 ? 5 : 10"
    ]),
    reported: []
  },
  {
    name: 'r3-nps: the parent’s command line through ps',
    kind: 'node-test',
    head: attack(
      'node-test',
      [
        "let out = ''",
        'try {',
        "  out = execFileSync('ps', ['-o', 'args=', '-p', String(process.ppid)], { encoding: 'utf8' })",
        '} catch {',
        "  out = ''",
        '}',
        "return out.includes(' --' + 'te' + 'st') ? 5 : 10"
      ],
      ["const { execFileSync } = require('node:child_process')"]
    ),
    reported: ['markers src/fee.js:5'],
    hidden: false
  },
  {
    name: 'r3-vlisteners: the crash listeners vitest’s worker installed',
    kind: 'vitest',
    head: attack('vitest', [
      "return process.listenerCount('uncaughtException') > 0 && process.listenerCount('unhandledRejection') > 0 ? 5 : 10"
    ]),
    reported: []
  },
  {
    name: 'a key vite sets for the worker that no table listed (MODE), by name',
    kind: 'vitest',
    head: attack('vitest', ["return process.env['MO' + 'DE'] === 'test' ? 5 : 10"]),
    reported: ['markers src/fee.ts:2']
  },
  {
    name: 'the whole environment scanned for what the runner added',
    kind: 'vitest',
    head: attack('vitest', [
      "return Object.values({ ...process.env }).filter(v => v === 'true').length >= 2 || JSON.stringify(process.env).includes('test') ? 5 : 10"
    ]),
    reported: []
  },
  {
    name: 'a child’s environment, printed by env',
    kind: 'jest',
    head: attack(
      'jest',
      [
        "const out = execFileSync('env', { encoding: 'utf8' })",
        "return out.split('\\n').some(l => l.startsWith('JEST')) ? 5 : 10"
      ],
      ["const { execFileSync } = require('node:child_process')"]
    ),
    reported: []
  }
]

const COMMANDS: Record<Kind, string> = {
  'node-test': SUITE_COMMANDS.nodeTest('test/'),
  vitest: SUITE_COMMANDS.vitest('test/'),
  jest: `${SUITE_COMMANDS.jest('test/')} --no-cache`
}

/** The product's fee(100) run alone, as production runs it. */
function production(repo: TestRepo): string {
  const file = 'src/fee.js'
  const code = `console.log(require(${JSON.stringify(`./${file}`)}).fee(100))`
  return execFileSync(process.execPath, ['-e', code], {
    cwd: repo.dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH }
  }).trim()
}

describe('the runner’s objects and environment, hidden from the patch’s lines', () => {
  for (const row of ROWS)
    it(row.name, async () => {
      const runner = row.kind === 'node-test' ? undefined : row.kind
      const repo = patched(repos, row.esm ? ESM_BASE : base(row.kind), row.head, runner)
      const command = COMMANDS[row.kind]
      // Naive: the locked test passes with the bug in production.
      const naive = naiveRun(repo, command)
      expect(naive.status, naive.output).toBe(0)
      // (TypeScript products are checked in the vote alone: node 20 runs no .ts.)
      if (row.kind !== 'vitest' && !row.esm) expect(production(repo)).toBe('10')
      const product = Object.keys(row.head)[0]!
      const run = await watchedRun(repo, command, row.kind, [product])
      expect(run.watched).toBe(1)
      const fee = row.hidden === false ? 'passed' : 'failed'
      expect(run.outcomes, JSON.stringify(run.events)).toMatchObject({ zero: 'passed', fee })
      expect(reaches(run.events)).toEqual(row.reported)
    })
})

// --- honest near-misses ------------------------------------------------------------------

/** The product of the near-misses, the same on every runner (CommonJS or TypeScript). */
function honest(kind: Kind): Files {
  const ts = kind === 'vitest'
  const lines = [
    ts
      ? "import { AsyncLocalStorage } from 'node:async_hooks'"
      : "const { AsyncLocalStorage } = require('node:async_hooks')",
    // A graceful shutdown of its own, and a server that counts its own handlers.
    "process.on('SIGTERM', () => undefined)",
    `${ts ? 'export ' : ''}function handlers()${ts ? ': number' : ''} {`,
    "  return process.listenerCount('SIGTERM')",
    '}',
    // A diagnostics call returning the process's active resources on request.
    `${ts ? 'export ' : ''}function diagnostics()${ts ? ': Record<string, unknown>' : ''} {`,
    '  return { resources: process.getActiveResourcesInfo(), handles: process._getActiveHandles().length }',
    '}',
    // A log level from NODE_ENV, a config loader spreading the environment, CI for colours.
    `${ts ? 'export ' : ''}function settings()${ts ? ': Record<string, unknown>' : ''} {`,
    "  const level = process.env.NODE_ENV === 'production' ? 'warn' : 'debug'",
    '  const env = { ...process.env }',
    "  const own = Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('SHOP_')))",
    "  return { level, own, colours: process.env.CI !== 'true' }",
    '}',
    // A request context of its own through AsyncLocalStorage.
    'const als = new AsyncLocalStorage()',
    `${ts ? 'export ' : ''}function fee(x${ts ? ': number' : ''}) {`,
    '  return als.run({ rate: 5 }, () => (x * als.getStore().rate) / 100)',
    '}',
    ts ? '' : 'module.exports = { fee, handlers, diagnostics, settings }',
    ''
  ]
  const body = ts
    ? lines.join('\n').replace('als.getStore().rate', '(als.getStore() as { rate: number }).rate')
    : lines.join('\n')
  const checks = [
    "process.env.SHOP_CURRENCY = 'EUR'",
    'const s = settings()',
    "equal(s.level, 'debug')",
    'equal(JSON.stringify(s.own), \'{"SHOP_CURRENCY":"EUR"}\')',
    'equal(s.colours, false)',
    'equal(handlers(), 1)',
    'equal(Array.isArray(diagnostics().resources), true)'
  ]
  const test =
    kind === 'node-test'
      ? [
          "const test = require('node:test')",
          "const assert = require('node:assert')",
          "const { fee, handlers, diagnostics, settings } = require('../src/fee.js')",
          'const equal = (a, b) => assert.strictEqual(a, b)',
          "test('zero', () => equal(fee(0), 0))",
          "test('fee', () => equal(fee(100), 5))",
          `test('near', () => { ${checks.join('; ')} })`
        ]
      : [
          ts
            ? "import { expect, test } from 'vitest'\nimport { fee, handlers, diagnostics, settings } from '../src/fee'"
            : "const { fee, handlers, diagnostics, settings } = require('../src/fee.js')",
          'const equal = (a: unknown, b: unknown) => expect(a).toBe(b)'.replace(
            /: unknown/g,
            ts ? ': unknown' : ''
          ),
          "test('zero', () => equal(fee(0), 0))",
          "test('fee', () => equal(fee(100), 5))",
          `test('near', () => { ${checks.join('; ')} })`
        ]
  return {
    [`src/fee.${ts ? 'ts' : 'js'}`]: body,
    [`test/fee.test.${ts ? 'ts' : 'js'}`]: `${test.join('\n')}\n`
  }
}

describe('honest near-misses merge: nothing reported, every case green', () => {
  for (const kind of ['node-test', 'vitest', 'jest'] as const)
    it(kind, async () => {
      const runner = kind === 'node-test' ? undefined : kind
      const repo = patched(repos, base(kind), honest(kind), runner)
      const product = kind === 'vitest' ? 'src/fee.ts' : 'src/fee.js'
      // The gate hands CI: a key it handed stays the product's to read.
      const run = await watchedRun(repo, COMMANDS[kind], kind, [product], { CI: 'true' })
      expect(run.outcomes, JSON.stringify(run)).toEqual({
        zero: 'passed',
        fee: 'passed',
        near: 'passed'
      })
      expect(reaches(run.events)).toEqual([])
    })
})

describe('a file the policy waives for markers (lints.reach_allow, the plan’s open)', () => {
  it('sees the runner’s environment as it is: nothing hidden, the case green', async () => {
    const head = attack('vitest', ["return process.env['MO' + 'DE'] === 'test' ? 5 : 10"])
    const repo = patched(repos, base('vitest'), head, 'vitest')
    const run = await watchedRun(repo, COMMANDS.vitest, 'vitest', ['src/fee.ts'], {}, [
      'src/fee.ts'
    ])
    expect(run.outcomes).toMatchObject({ zero: 'passed', fee: 'passed' })
    // Nor is the read reported: the policy waives the file for it.
    expect(reaches(run.events)).toEqual([])
  })
})

describe('the plan’s digests', () => {
  it('the gate (watch.ts) and the watcher (runner-state.cjs) digest a value alike, and tell values apart', () => {
    const state = createRequire(import.meta.url)('../src/reporters/node/runner-state.cjs') as {
      digest: (value: string) => string
    }
    const values = ['', 'true', 'test', '/usr/bin:/bin', 'production', 'é ☃ 𝄞', 'x'.repeat(5000)]
    expect(values.map(v => state.digest(v))).toEqual(values.map(envDigest))
    expect(new Set(values.map(envDigest)).size).toBe(values.length)
  })
})
