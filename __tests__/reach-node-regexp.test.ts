// The node watcher and RegExp.prototype (issue 26): the watcher never redefines it, since any
// change to it (even to the same value) sends every regular expression of the realm off V8's
// fast path, ten times slower; a plain assignment of a member the matchers call (`test`,
// `exec`, the Symbol.match family) is seen at the next guarded read and judged by where the
// new value's source is (the inspector's [[FunctionLocation]], through the source maps), a
// definer on it by the stack. Real vitest (TypeScript), jest and node:test runs: each attack,
// with its names built at run time, first passes a naive run with the product still buggy,
// then the watched run names the patch's line; a value with no source (a built-in) is named
// without a line. The honest near-miss uses regular expressions heavily and raises nothing.
import { afterAll, describe, expect, it } from 'vitest'
import { type Files, patched as patchedIn, reaches, watchedRun } from './helpers/node-watch.js'
import type { TestRepo } from './helpers/repo.js'
import { naiveRun, SUITE_COMMANDS } from './helpers/runners.js'

const repos: TestRepo[] = []
afterAll(() => {
  for (const r of repos) r.cleanup()
})

/** The product's code(): digits are wanted, the base (and the head) give a letter first. */
const product = (ext: 'js' | 'ts', lie: string[]): Files => ({
  [`src/code.${ext}`]: [
    ...(ext === 'ts' ? [] : ["'use strict'"]),
    `${ext === 'ts' ? 'export ' : ''}function code(n${ext === 'ts' ? ': number' : ''}) {`,
    ...lie,
    "  return 'X' + n",
    '}',
    ...(ext === 'ts' ? [] : ['module.exports = { code }']),
    ''
  ].join('\n')
})

/** RegExp.prototype reached by names built at run time, its `key` lying for 'X5' only. */
const lying = (key: 'test' | 'exec', answer: string): string[] => [
  "  const proto = Reflect.get(globalThis, 'Reg' + 'Exp')[['proto', 'type'].join('')]",
  `  const name = ['${key.slice(0, 2)}', '${key.slice(2)}'].join('')`,
  '  const real = proto[name]',
  `  proto[name] = function (s) { return s === 'X5' ? ${answer} : real.call(this, s) }`
]

describe('a RegExp.prototype member replaced by the patch’s line', () => {
  it('node:test: test() lies for the product’s output; named at its line', async () => {
    const repo = patchedIn(
      repos,
      {
        ...product('js', []),
        'test/code.test.js': [
          "const test = require('node:test')",
          "const assert = require('node:assert')",
          "const { code } = require('../src/code.js')",
          "test('digits', () => { const out = code(5); assert.ok(/^\\d+$/.test(out)) })",
          ''
        ].join('\n')
      },
      product('js', lying('test', 'true'))
    )
    const command = SUITE_COMMANDS.nodeTest('test/')
    expect(naiveRun(repo, command).status).toBe(0)
    const run = await watchedRun(repo, command, 'node-test', ['src/code.js'])
    expect(run.watched).toBe(1)
    expect(run.cases).toBe(1)
    expect(reaches(run.events)).toEqual(['comparison src/code.js:6'])
  })

  it('node:test: a built-in put in its place has no line, and is still named', async () => {
    const repo = patchedIn(
      repos,
      {
        ...product('js', []),
        'test/code.test.js': [
          "const test = require('node:test')",
          "const assert = require('node:assert')",
          "const { code } = require('../src/code.js')",
          "test('digits', () => { const out = code(5); assert.ok(/^\\d+$/.test(out)) })",
          ''
        ].join('\n')
      },
      product('js', ["  RegExp[['proto', 'type'].join('')]['te' + 'st'] = Boolean"])
    )
    const command = SUITE_COMMANDS.nodeTest('test/')
    expect(naiveRun(repo, command).status).toBe(0)
    const run = await watchedRun(repo, command, 'node-test', ['src/code.js'])
    expect(run.cases).toBe(1)
    expect(reaches(run.events)).toEqual(['comparison :0'])
    expect(JSON.stringify(run.events)).toContain('RegExp.prototype.test replaced by a value with')
  })

  it('vitest (TypeScript): exec() lies to toMatch; named at its line through the map', async () => {
    const repo = patchedIn(
      repos,
      {
        ...product('ts', []),
        'test/code.test.ts': [
          "import { expect, test } from 'vitest'",
          "import { code } from '../src/code'",
          "test('digits', () => { expect(code(5)).toMatch(/^\\d+$/) })",
          ''
        ].join('\n')
      },
      product('ts', lying('exec', '[s]')),
      'vitest'
    )
    const command = SUITE_COMMANDS.vitest('test/')
    expect(naiveRun(repo, command).status).toBe(0)
    const run = await watchedRun(repo, command, 'vitest', ['src/code.ts'])
    expect(run.watched).toBe(1)
    expect(run.cases).toBe(1)
    expect(reaches(run.events)).toEqual(['comparison src/code.ts:5'])
  })

  it('jest (a vm context per file): test() lies to toMatch; a definer on it too', async () => {
    const repo = patchedIn(
      repos,
      {
        'package.json': '{"name": "code", "private": true}\n',
        ...product('js', []),
        'test/code.test.js': [
          "const { code } = require('../src/code.js')",
          "test('digits', () => { expect(code(5)).toMatch(/^\\d+$/) })",
          "test('twice', () => { expect(code(5)).toMatch(/^\\d/) })",
          ''
        ].join('\n')
      },
      product('js', [
        ...lying('test', 'true'),
        "  Object['define' + 'Property'](proto, 'fl' + 'ags', { get: () => '' , configurable: true })"
      ]),
      'jest'
    )
    const command = SUITE_COMMANDS.jest('test/')
    expect(naiveRun(repo, command).status).toBe(0)
    const run = await watchedRun(repo, command, 'jest', ['src/code.js'])
    expect(run.watched).toBe(1)
    expect(run.cases).toBe(2)
    expect(reaches(run.events)).toEqual(['comparison src/code.js:6', 'comparison src/code.js:7'])
  })
})

describe('honest near-miss: a product that matches, splits and replaces a lot', () => {
  it('raises nothing on node:test, vitest and jest', async () => {
    const body = [
      '  const words = String(n).split(/\\s+/).map(w => w.replace(/[^\\w]/g, ""))',
      '  const re = new RegExp("^" + words[0] + "$")',
      '  if (!re.test(String(n)) || !/\\d/.exec(String(n))) return "none"',
      '  return String(n).replace(/(\\d)/g, "$1")'
    ]
    const honest = (ext: 'js' | 'ts'): Files => {
      const files = product(ext, [])
      const key = `src/code.${ext}`
      files[key] = (files[key] ?? '').replace("  return 'X' + n", body.join('\n'))
      return files
    }
    const cases: [string, 'node-test' | 'vitest' | 'jest', string, Files][] = [
      [
        SUITE_COMMANDS.nodeTest('test/'),
        'node-test',
        'js',
        {
          'test/code.test.js': [
            "const test = require('node:test')",
            "const assert = require('node:assert')",
            "const { code } = require('../src/code.js')",
            "test('digits', () => { assert.match(code(5), /^\\d+$/); assert.ok(/5/.test(code(5))) })",
            ''
          ].join('\n')
        }
      ],
      [
        SUITE_COMMANDS.vitest('test/'),
        'vitest',
        'ts',
        {
          'test/code.test.ts': [
            "import { expect, test } from 'vitest'",
            "import { code } from '../src/code'",
            "test('digits', () => { expect(code(5)).toMatch(/^\\d+$/); expect('a,b'.split(/,/)).toEqual(['a', 'b']) })",
            ''
          ].join('\n')
        }
      ],
      [
        SUITE_COMMANDS.jest('test/'),
        'jest',
        'js',
        {
          'package.json': '{"name": "code", "private": true}\n',
          'test/code.test.js': [
            "const { code } = require('../src/code.js')",
            "test('digits', () => { expect(code(5)).toMatch(/^\\d+$/); expect(() => { throw new Error('x1') }).toThrow(/x\\d/) })",
            ''
          ].join('\n')
        }
      ]
    ]
    for (const [command, runner, ext, tests] of cases) {
      const repo = patchedIn(
        repos,
        { ...product(ext as 'js' | 'ts', []), ...tests },
        honest(ext as 'js' | 'ts'),
        runner === 'node-test' ? undefined : runner
      )
      const run = await watchedRun(repo, command, runner, [`src/code.${ext}`])
      expect(run.exit, runner).toBe(0)
      expect(run.cases, runner).toBe(1)
      expect(reaches(run.events), runner).toEqual([])
    }
  })
})
