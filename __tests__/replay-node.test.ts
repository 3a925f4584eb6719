// End to end with a real node:test suite and node's built-in junit reporter, which names
// no file: the replay maps each test to its file by the title literal in the voting tree.
import { afterEach, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { TestRepo } from './helpers/repo.js'

const policy = (parallel: boolean): string => `version: 1
protected:
  - oracle/**
planes:
  voting: [oracle/props/**]
  in_diff: [test/**]
suite:
  command: ${process.execPath} --test --test-reporter=junit --test-reporter-destination={junit} oracle/props/ test/
  timeout: 120
  reruns: 0
  parallel: ${parallel}
`

const SLUG_BUGGY = `export function slugify(text) {
  return text.trim().split(/\\s+/).join('-')
}
export function words(text) {
  return text.trim().split(/\\s+/).length
}
`
const SLUG_FIXED = SLUG_BUGGY.replace("join('-')", "join('-').toLowerCase()")

const PROPS = `import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { slugify, words } from '../../lib/slug.mjs'

describe('slugify', () => {
  test('lowercases [A-Z] → [a-z]', () => assert.equal(slugify('Hello World'), 'hello-world'))
  test('is idempotent', () => {
    for (const s of ['a b', 'X  y', ' q ']) assert.equal(slugify(slugify(s)), slugify(s))
  })
})
test('words counts words', () => assert.equal(words(' one two  three '), 3))
`

const EXISTING = "import { test } from 'node:test'\ntest('existing in-diff test', () => {})\n"

const repos: TestRepo[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})

async function judge(head: Record<string, string>, parallel = false): Promise<Scorecard> {
  const repo = new TestRepo()
  repos.push(repo)
  repo.write({
    '.github/oracle-gate.yml': policy(parallel),
    'package.json': '{"type": "module"}\n',
    'lib/slug.mjs': SLUG_BUGGY,
    'oracle/props/slug.test.mjs': PROPS,
    'test/existing.test.mjs': EXISTING
  })
  repo.commit('base')
  repo.branch('agent').write(head).commit('agent patch')
  return check({
    repoDir: repo.dir,
    base: 'main',
    head: 'agent',
    today: '2026-06-01',
    log: memoryLogger()
  })
}

const failing = (card: Scorecard): string[] =>
  card.reasons
    .filter(r => r.level === 'failure')
    .map(r => (r.rule === 'gate-error' ? `gate-error: ${r.message}` : r.rule))
    .sort()
const F = 'oracle/props/slug.test.mjs'

describe('replay with node:test', () => {
  it('an honest fix merges with its hit; an in-diff test that passes on both sides is non-discriminating', async () => {
    const inDiff = [
      "import { test } from 'node:test'",
      "import assert from 'node:assert/strict'",
      "import { slugify, words } from '../lib/slug.mjs'",
      "test('patch test: one word', () => assert.equal(words('x'), 1))",
      "test('patch test: lower', () => assert.equal(slugify('A'), 'a'))"
    ].join('\n')
    const card = await judge({ 'lib/slug.mjs': SLUG_FIXED, 'test/slug.test.mjs': inDiff })
    expect(failing(card)).toEqual([])
    expect(card.verdict).toBe('merge')
    expect(card.transitions).toEqual({
      fail_to_pass: [`${F}::slugify > lowercases [A-Z] → [a-z]`],
      pass_to_fail: [],
      fail_to_fail: [],
      pass_to_pass: 2,
      vanished: []
    })
    expect(card.votes).toMatchObject({ passed: 3, failed: 0 })
    // The first patch test passes without the fix too; the second fails on the base's code.
    expect(card.diagnostics.non_discriminating).toEqual([
      'test/slug.test.mjs::patch test: one word'
    ])
    expect(card.reasons.filter(r => r.rule === 'non-discriminating')).toEqual([
      expect.objectContaining({ level: 'notice', path: 'test/slug.test.mjs' })
    ])
  })

  it('a regression in a top-level test is caught, with base and head run in parallel', async () => {
    const card = await judge({ 'lib/slug.mjs': SLUG_FIXED.replace('.length', '.length + 1') }, true)
    expect(card.verdict).toBe('product')
    expect(failing(card)).toEqual(['regression'])
    expect(card.transitions.pass_to_fail).toEqual([`${F}::words counts words`])
    expect(card.transitions.fail_to_pass).toEqual([`${F}::slugify > lowercases [A-Z] → [a-z]`])
    expect(card.runs.map(r => r.side)).toEqual(['base', 'head'])
  })
})
