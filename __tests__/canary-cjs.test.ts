// The canary in a CommonJS node:test suite (found by the red team): the canary file used to
// start with `import { test } from 'node:test'` beside test files that `require` their
// modules, so in a CommonJS package it could not load: never armed on the base, a failing
// file on the head, and an honest fix was `product`. Now the canary is written the way its
// sibling loads modules. Real node:test on a real repository; the ESM suite is the control.
import { afterEach, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import { canaryContent, moduleStyle } from '../src/replay/canary.js'
import { memoryLogger } from './helpers/logger.js'
import { TestRepo } from './helpers/repo.js'
import { SUITE_COMMANDS } from './helpers/runners.js'

const repos: TestRepo[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})

const POLICY = `version: 1
protected: [test/**]
planes:
  voting: [test/**]
suite:
  command: ${JSON.stringify(SUITE_COMMANDS.nodeTest('test/'))}
  timeout: 120
  reruns: 0
`

function suite(style: 'cjs' | 'esm'): TestRepo {
  const repo = new TestRepo('og-canary-cjs-')
  repos.push(repo)
  const cjs = style === 'cjs'
  const fee = (body: string): string =>
    cjs
      ? `function fee(x) {\n  return ${body}\n}\nmodule.exports = { fee }\n`
      : `export function fee(x) {\n  return ${body}\n}\n`
  const header = cjs
    ? "const { test } = require('node:test')\nconst assert = require('node:assert/strict')\nconst { fee } = require('../lib/fee.js')\n"
    : "import { test } from 'node:test'\nimport assert from 'node:assert/strict'\nimport { fee } from '../lib/fee.js'\n"
  repo
    .write({
      '.github/oracle-gate.yml': POLICY,
      'package.json': JSON.stringify({
        name: 'fees',
        version: '1.0.0',
        ...(cjs ? {} : { type: 'module' })
      }),
      'lib/fee.js': fee('x / 10'),
      'test/fee.test.js': `${header}\ntest('fee of 100 is 5', () => {\n  assert.equal(fee(100), 5)\n})\n`,
      'test/zero.test.js': `${header}\ntest('fee of 0 is 0', () => {\n  assert.equal(fee(0), 0)\n})\n`
    })
    .commit('buggy fee')
  repo
    .branch('agent')
    .checkout('agent')
    .write({ 'lib/fee.js': fee('x / 20') })
    .commit('fix')
  repo.checkout('main')
  return repo
}

async function judge(repo: TestRepo): Promise<Awaited<ReturnType<typeof check>>> {
  return check({
    repoDir: repo.dir,
    base: 'main',
    head: 'agent',
    today: '2026-12-02',
    log: memoryLogger()
  })
}

describe('the canary loads the way its sibling does', () => {
  it('reads the style from the sibling: require is CommonJS, import or .mjs is ESM', () => {
    expect(moduleStyle('test/a.test.js', "const x = require('../x')\n")).toBe('cjs')
    expect(moduleStyle('test/a.test.js', "import x from '../x.js'\n")).toBe('esm')
    expect(moduleStyle('test/a.test.cjs', '')).toBe('cjs')
    expect(moduleStyle('test/a.test.mjs', "const x = require('x')\n")).toBe('esm')
    const canary = { path: 't/a.test.js', title: 'keeps zero', beside: 't/b.test.js', a: 1, b: 2 }
    const text = canaryContent('node-test', [{ ...canary, expect: 'failed' }], [], 'cjs')
    expect(text).toMatch(/^const \{ test \} = require\('node:test'\)\n/)
    expect(text).not.toMatch(/^import /m)
  })

  for (const style of ['cjs', 'esm'] as const) {
    it(`an honest fix of a ${style === 'cjs' ? 'CommonJS' : 'ES module'} node:test suite merges with the canary armed`, async () => {
      const card = await judge(suite(style))
      expect(card.reasons.filter(r => r.level === 'failure')).toEqual([])
      expect(card.verdict).toBe('merge')
      expect(card.transitions.fail_to_pass).toEqual(['test/fee.test.js::fee of 100 is 5'])
    })
  }
})
