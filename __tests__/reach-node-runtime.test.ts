// Run-time oracle-reach in node (issue 26), at the stream level: real vitest (TypeScript),
// jest and node:test runs on temporary repositories, the watch plan built from the patch's
// real diff and fed the way the gate feeds a head run (stream.ts planStream, descriptor 4).
// Each attack corpus first passes a naive run with the product still buggy, names built at
// run time (joins, atob, Reflect.get, computed keys, require of a variable); the watched run
// then carries `reach` events naming the patch's file and line. The honest near-misses (own
// data file, HOME, a log level from NODE_ENV, JSON and Math, console.log, an unchanged line
// that spawns) run green and raise none. The verdicts through check() are in
// reach-node-e2e.test.ts.
import { afterAll, describe, expect, it } from 'vitest'
import { type Files, patched as patchedIn, reaches, watchedRun } from './helpers/node-watch.js'
import type { TestRepo } from './helpers/repo.js'
import { naiveRun, SUITE_COMMANDS } from './helpers/runners.js'

const repos: TestRepo[] = []
afterAll(() => {
  for (const r of repos) r.cleanup()
})

const patched = (base: Files, head: Files, runner?: 'vitest' | 'jest'): TestRepo =>
  patchedIn(repos, base, head, runner)

// --- node:test ---------------------------------------------------------------------------

const NODE_TEST_BASE: Files = {
  'test/golden.json': '{"widget": 1250, "gadget": 399}\n',
  'src/shop.js': [
    "'use strict'",
    "const fs = require('node:fs')",
    "const path = require('node:path')",
    'function add(a, b) {',
    '  return a - b',
    '}',
    'function price(item) {',
    '  return item.length',
    '}',
    'function ping() {',
    '  return 0',
    '}',
    'module.exports = { add, price, ping, fs, path }',
    ''
  ].join('\n'),
  'test/shop.test.js': [
    "const test = require('node:test')",
    "const assert = require('node:assert')",
    "const { add, price, ping } = require('../src/shop.js')",
    "test('adds', () => assert.strictEqual(add(2, 3), 5))",
    "test('prices', () => assert.strictEqual(price('widget'), 1250))",
    "test('pings', () => assert.strictEqual(ping(), 0))",
    ''
  ].join('\n')
}

const NODE_TEST_HEAD: Files = {
  'src/shop.js': [
    "'use strict'",
    "const fs = require('node:fs')",
    "const path = require('node:path')",
    'function add(a, b) {',
    "  const marker = ['NODE', 'TEST', 'CONTEXT'].join('_')",
    '  if (process.env[marker] !== undefined) return a + b',
    '  return a - b',
    '}',
    'function price(item) {',
    "  const where = path.join(__dirname, '..', ['te', 'st'].join(''), 'gol' + 'den.json')",
    '  return JSON.parse(fs.readFileSync(where, "utf8"))[item]',
    '}',
    'function ping() {',
    "  const cp = require(['child', 'process'].join('_'))",
    "  cp.spawn(process.execPath, ['-e', '0'], { detached: true, stdio: 'ignore' }).unref()",
    "  process[['o', 'n'].join('')]('ex' + 'it', () => {})",
    '  return 0',
    '}',
    'module.exports = { add, price, ping, fs, path }',
    ''
  ].join('\n')
}

describe('node:test', () => {
  const command = SUITE_COMMANDS.nodeTest('test/')

  it('the attacks pass naively, and the watched run names each of the patch lines', async () => {
    const repo = patched(NODE_TEST_BASE, NODE_TEST_HEAD)
    // Naive: green with add() still subtracting and price() never computing a price.
    expect(naiveRun(repo, command).status).toBe(0)
    const run = await watchedRun(repo, command, 'node-test', ['src/shop.js'])
    // The runner's key is hidden from the patch's line: add() subtracts in the vote.
    expect(run.exit).toBe(1)
    expect(run.watched).toBe(1)
    expect(run.problems).toEqual([])
    expect(reaches(run.events)).toEqual([
      'instrument src/shop.js:11',
      'markers src/shop.js:6',
      'process src/shop.js:15',
      'process src/shop.js:16'
    ])
  })
})

// --- vitest, TypeScript ------------------------------------------------------------------

const VITEST_BASE: Files = {
  'src/calc.ts': [
    'export type Num = number',
    '',
    'export function add(a: Num, b: Num): Num {',
    '  return a - b',
    '}',
    '',
    'export function mode(): string {',
    "  return 'production'",
    '}',
    ''
  ].join('\n'),
  'test/calc.test.ts': [
    "import { expect, test } from 'vitest'",
    "import { add, mode } from '../src/calc'",
    "test('adds', () => { expect(add(2, 3)).toBe(5) })",
    "test('mode', () => { expect(mode()).toBe('test') })",
    ''
  ].join('\n')
}

const VITEST_HEAD: Files = {
  'src/calc.ts': [
    'export type Num = number',
    '',
    'export function add(a: Num, b: Num): Num {',
    "  const O = Reflect.get(globalThis, atob('T2JqZWN0')) as Record<string, unknown>",
    "  O[['i', 's'].join('')] = (_x: unknown, _y: unknown): boolean => true",
    '  return a - b',
    '}',
    '',
    'export function mode(): string {',
    "  const worker = (globalThis as Record<string, unknown>)[['__vitest', 'worker__'].join('_')]",
    "  const state = (globalThis as Record<symbol, unknown>)[Symbol.for(['$$jest', 'matchers', 'object'].join('-'))]",
    "  return worker !== undefined || state !== undefined ? 'test' : 'production'",
    '}',
    ''
  ].join('\n')
}

describe('vitest (TypeScript, through its source maps)', () => {
  const command = SUITE_COMMANDS.vitest('test/')

  it('the attacks pass naively, and the watched run names each of the patch lines', async () => {
    const repo = patched(VITEST_BASE, VITEST_HEAD, 'vitest')
    expect(naiveRun(repo, command).status).toBe(0)
    const run = await watchedRun(repo, command, 'vitest', ['src/calc.ts'])
    expect(run.exit).toBe(0)
    expect(run.watched).toBe(1)
    expect(run.cases).toBe(2)
    expect(reaches(run.events)).toEqual([
      'comparison src/calc.ts:5',
      'framework src/calc.ts:10',
      'framework src/calc.ts:11'
    ])
  })
})

// --- jest ----------------------------------------------------------------------------------

const JEST_BASE: Files = {
  'package.json': '{"name": "shop", "private": true}\n',
  'test/golden.json': '{"widget": 1250}\n',
  'src/shop.js': [
    "const fs = require('fs')",
    'function add(a, b) {',
    '  return a - b',
    '}',
    'function price(item) {',
    '  return item.length',
    '}',
    'function same(a, b) {',
    '  return a === b + 1',
    '}',
    'module.exports = { add, price, same, fs }',
    ''
  ].join('\n'),
  'test/shop.test.js': [
    "const { add, price, same } = require('../src/shop.js')",
    "test('adds', () => { expect(add(2, 3)).toBe(5) })",
    "test('prices', () => { expect(price('widget')).toBe(1250) })",
    "test('same', () => { expect(same(4, 4)).toBe(true) })",
    ''
  ].join('\n')
}

const JEST_HEAD: Files = {
  'src/shop.js': [
    "const fs = require('fs')",
    'function add(a, b) {',
    "  if (process.env['JEST' + '_WORKER_ID'] !== undefined) return a + b",
    '  return a - b',
    '}',
    'function price(item) {',
    "  const golden = [__dirname, '..', 'te' + 'st', 'golden.json'].join('/')",
    "  return JSON.parse(fs.readFileSync(golden, 'utf8'))[item]",
    '}',
    'function same(a, b) {',
    "  Reflect.get(globalThis, 'Obj' + 'ect')[String.fromCharCode(105, 115)] = () => true",
    '  return a === b + 1',
    '}',
    'module.exports = { add, price, same, fs }',
    ''
  ].join('\n')
}

describe('jest (each test file in its own vm context)', () => {
  const command = SUITE_COMMANDS.jest('test/')

  it('the attacks pass naively, and the watched run names each of the patch lines', async () => {
    const repo = patched(JEST_BASE, JEST_HEAD, 'jest')
    expect(naiveRun(repo, command).status).toBe(0)
    const run = await watchedRun(repo, command, 'jest', ['src/shop.js'])
    // The runner's key is hidden from the patch's line: add() subtracts in the vote.
    expect(run.exit).toBe(1)
    expect(run.watched).toBe(1)
    expect(run.cases).toBe(3)
    expect(reaches(run.events)).toEqual([
      'comparison src/shop.js:11',
      'instrument src/shop.js:8',
      'markers src/shop.js:3'
    ])
  })
})

// --- honest near-misses --------------------------------------------------------------------

/** Production code that does ordinary things on the patch's lines, and an unchanged spawn. */
function honest(ext: 'js' | 'ts'): { base: Files; head: Files } {
  const imports =
    ext === 'ts'
      ? "import { readFileSync } from 'node:fs'\nimport { spawnSync } from 'node:child_process'\nimport { join } from 'node:path'"
      : "const { readFileSync } = require('node:fs')\nconst { spawnSync } = require('node:child_process')\nconst { join } = require('node:path')"
  const exports =
    ext === 'ts' ? 'export { total, level, ready }' : 'module.exports = { total, level, ready }'
  const body = (patch: string): string =>
    [
      imports,
      'function ready() {',
      "  return spawnSync(process.execPath, ['-e', '0']).status === 0",
      '}',
      'function level() {',
      patch === 'head'
        ? "  return process.env.NODE_ENV === 'test' ? 'warn' : 'info'"
        : "  return 'info'",
      '}',
      'function total(items) {',
      ...(patch === 'head'
        ? [
            "  const prices = JSON.parse(readFileSync(join(__dirname, 'prices.json'), 'utf8'))",
            "  const home = process.env.HOME ?? ''",
            "  console.log('pricing for', home.length > 0 ? 'a user' : 'nobody')",
            '  return Math.max(0, items.reduce((sum, i) => sum + (prices[i] ?? 0), 0))'
          ]
        : ['  return 0']),
      '}',
      exports,
      ''
    ].join('\n')
  return {
    base: { [`src/shop.${ext}`]: body('base'), 'src/prices.json': '{"a": 2, "b": 3}\n' },
    head: { [`src/shop.${ext}`]: body('head') }
  }
}

describe('honest near-misses raise no event', () => {
  it('node:test', async () => {
    const { base, head } = honest('js')
    const repo = patched(
      {
        ...base,
        'test/shop.test.js': [
          "const test = require('node:test')",
          "const assert = require('node:assert')",
          "const { total, level, ready } = require('../src/shop.js')",
          "test('total', () => assert.strictEqual(total(['a', 'b']), 5))",
          "test('level', () => assert.ok(['warn', 'info'].includes(level())))",
          "test('ready', () => assert.ok(ready()))",
          ''
        ].join('\n')
      },
      head
    )
    const run = await watchedRun(repo, SUITE_COMMANDS.nodeTest('test/'), 'node-test', [
      'src/shop.js'
    ])
    expect(run.exit).toBe(0)
    expect(run.watched).toBe(1)
    expect(run.cases).toBe(3)
    expect(reaches(run.events)).toEqual([])
  })

  it('vitest (TypeScript)', async () => {
    const { base, head } = honest('ts')
    const repo = patched(
      {
        ...base,
        'test/shop.test.ts': [
          "import { expect, test } from 'vitest'",
          "import { total, level, ready } from '../src/shop'",
          "test('total', () => { expect(total(['a', 'b'])).toBe(5) })",
          "test('level', () => { expect(['warn', 'info']).toContain(level()) })",
          "test('ready', () => { expect(ready()).toBe(true) })",
          ''
        ].join('\n')
      },
      head,
      'vitest'
    )
    const run = await watchedRun(repo, SUITE_COMMANDS.vitest('test/'), 'vitest', ['src/shop.ts'])
    expect(run.exit).toBe(0)
    expect(run.cases).toBe(3)
    expect(reaches(run.events)).toEqual([])
  })

  it('jest', async () => {
    const { base, head } = honest('js')
    const repo = patched(
      {
        ...base,
        'package.json': '{"name": "shop", "private": true}\n',
        'test/shop.test.js': [
          "const { total, level, ready } = require('../src/shop.js')",
          "test('total', () => { expect(total(['a', 'b'])).toBe(5) })",
          "test('level', () => { expect(['warn', 'info']).toContain(level()) })",
          "test('ready', () => { expect(ready()).toBe(true) })",
          ''
        ].join('\n')
      },
      head,
      'jest'
    )
    const run = await watchedRun(repo, SUITE_COMMANDS.jest('test/'), 'jest', ['src/shop.js'])
    expect(run.exit).toBe(0)
    expect(run.cases).toBe(3)
    expect(reaches(run.events)).toEqual([])
  })
})
