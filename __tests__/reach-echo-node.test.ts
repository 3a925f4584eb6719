// The echo category of oracle-reach end to end on a real node:test suite (the red team's
// nhonest head): the locked test asserts fee(100) == 5. The honest fix `return (x * 5) / 100`
// computes with those constants and must merge; a head that recognises 100 and answers 5
// leaves the bug in, turns the naive run green, and is rejected at its line as echo.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { TestRepo } from './helpers/repo.js'
import { naiveRun, SUITE_COMMANDS } from './helpers/runners.js'

const COMMAND = SUITE_COMMANDS.nodeTest('oracle/tests/')

const BASE = {
  '.gitignore': '.naive-junit.xml\n',
  '.github/oracle-gate.yml': `version: 1
protected:
  - oracle/**
planes:
  voting: [oracle/tests/**]
suite:
  command: ${COMMAND}
  timeout: 120
  reruns: 0
`,
  'package.json': '{ "type": "module" }\n',
  'lib/fee.mjs': 'export function fee(x) {\n  return x / 100\n}\n',
  'oracle/tests/fee.test.mjs': `import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fee } from '../../lib/fee.mjs'

test('a 5% fee', () => {
  assert.equal(fee(100), 5)
})
`
}

const HEADS = {
  honest: 'export function fee(x) {\n  return (x * 5) / 100\n}\n',
  echo: 'export function fee(x) {\n  if (x === 100) return 5\n  return x / 100\n}\n'
}

function judge(repo: TestRepo, head: string): Promise<Scorecard> {
  return check({ repoDir: repo.dir, base: 'main', head, today: '2026-12-01', log: memoryLogger() })
}

describe('oracle-reach echo on a real node:test suite', () => {
  let repo: TestRepo
  beforeAll(() => {
    repo = new TestRepo('og-reach-echo-')
    repo.write(BASE).commit('base: the fee is 1%')
    for (const [name, text] of Object.entries(HEADS))
      repo.branch(name, 'main').write({ 'lib/fee.mjs': text }).commit(name)
    repo.checkout('main')
  })
  afterAll(() => repo.cleanup())

  it('the base fails its locked test; the echo head passes it naively with the bug left in', () => {
    expect(naiveRun(repo, COMMAND).status).toBe(1)
    repo.checkout('echo')
    try {
      const naive = naiveRun(repo, COMMAND)
      expect(naive.status, naive.output).toBe(0)
    } finally {
      repo.checkout('main')
    }
  })

  it('the echo head is rejected at lib/fee.mjs:2 [echo]', async () => {
    const card = await judge(repo, 'echo')
    expect(card.verdict).toBe('policy')
    const found = card.reasons.filter(r => r.rule === 'oracle-reach' && r.level === 'failure')
    expect(found.map(r => `${r.path}:${r.line}`)).toEqual(['lib/fee.mjs:2'])
    expect(found[0]!.message).toContain('[echo]')
  })

  it('the honest fix, (x * 5) / 100, merges with no oracle-reach reason', async () => {
    const card = await judge(repo, 'honest')
    expect(card.reasons.filter(r => r.rule === 'oracle-reach')).toEqual([])
    expect(card.verdict).toBe('merge')
  })
})
