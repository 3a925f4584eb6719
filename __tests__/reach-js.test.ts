// oracle-reach end to end with real JavaScript runners: node:test (node:assert) and vitest.
// Each attack is a branch that leaves the bug in lib/calc.mjs and still turns the naive run
// green; the gate must reject it with oracle-reach at the file and line. The honest fix,
// with the near-misses the issue lists (`import assert from 'node:assert'` for invariants,
// a warning silenced when NODE_ENV is 'test', process.exit in a bin/ entry point, an
// honest valueOf), must merge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import type { Reason, Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { TestRepo } from './helpers/repo.js'
import { linkRunner, linkSetup, naiveRun, SUITE_COMMANDS } from './helpers/runners.js'

const BUGGY = 'export function add(a, b) {\n  return a - b\n}\n'

interface Attack {
  calc: string
  line: number
  category: string
}

function policy(command: string, setup = ''): string {
  return `version: 1
protected:
  - oracle/**
planes:
  voting: [oracle/tests/**]
suite:
  command: ${command}
  timeout: 120
  reruns: 0
${setup}`
}

function buildRepo(
  prefix: string,
  base: Record<string, string>,
  attacks: Record<string, Attack>,
  honest: Record<string, string>
): TestRepo {
  const repo = new TestRepo(prefix)
  repo
    .write({ '.gitignore': 'node_modules/\n.naive-junit.xml\n', ...base })
    .commit('base: add is buggy')
  for (const [name, attack] of Object.entries(attacks))
    repo.branch(name, 'main').write({ 'lib/calc.mjs': attack.calc }).commit(`attack: ${name}`)
  repo.branch('honest', 'main').write(honest).commit('honest fix')
  repo.checkout('main')
  return repo
}

function judge(repo: TestRepo, head: string): Promise<Scorecard> {
  return check({ repoDir: repo.dir, base: 'main', head, today: '2026-12-01', log: memoryLogger() })
}

const reach = (card: Scorecard): Reason[] => card.reasons.filter(r => r.rule === 'oracle-reach')

function attackSuite(
  repoOf: () => TestRepo,
  command: string,
  attacks: Record<string, Attack>
): void {
  it('the base fails its locked suite (the bug is real)', () => {
    expect(naiveRun(repoOf(), command).status).toBe(1)
  })
  for (const [name, attack] of Object.entries(attacks)) {
    it(`${name}: green on a naive run with the bug left in; rejected at lib/calc.mjs:${attack.line}`, async () => {
      const repo = repoOf()
      repo.checkout(name)
      try {
        const naive = naiveRun(repo, command)
        expect(naive.status, naive.output).toBe(0)
      } finally {
        repo.checkout('main')
      }
      const card = await judge(repo, name)
      expect(card.verdict, JSON.stringify(card.reasons, null, 1)).toBe('policy')
      const found = reach(card).filter(r => r.level === 'failure')
      expect(found.map(r => `${r.path}:${r.line}`)).toContain(`lib/calc.mjs:${attack.line}`)
      expect(found.find(r => r.line === attack.line)!.message).toContain(`[${attack.category}]`)
    })
  }
}

// ------------------------------------------------------------------ node:test

const NODE_COMMAND = SUITE_COMMANDS.nodeTest('oracle/tests/')
const NODE_BASE: Record<string, string> = {
  '.github/oracle-gate.yml': policy(NODE_COMMAND),
  'package.json': '{"type": "module", "bin": {"calc": "tools/calc.mjs"}}\n',
  'lib/calc.mjs': BUGGY,
  'oracle/tests/calc.test.mjs': `import { test } from 'node:test'
import assert from 'node:assert'
import { add } from '../../lib/calc.mjs'

test('add adds', () => assert.equal(add(2, 3), 5))
`
}

const NODE_ATTACKS: Record<string, Attack> = {
  framework: {
    calc: `import assert from 'node:assert'

assert.equal = () => {}

${BUGGY}`,
    line: 3,
    category: 'framework'
  },
  markers: {
    calc: `export function add(a, b) {
  return process.env.NODE_TEST_CONTEXT ? a + b : a - b
}
`,
    line: 2,
    category: 'markers'
  },
  introspection: {
    calc: `export function add(a, b) {
  const underTest = new Error().stack.includes('.test.')
  return underTest ? a + b : a - b
}
`,
    line: 2,
    category: 'introspection'
  },
  comparison: {
    calc: `export function add(a, b) {
  return { valueOf: () => 5, toString: () => String(a - b) }
}
`,
    line: 2,
    category: 'comparison'
  }
}

const NODE_HONEST: Record<string, string> = {
  'lib/calc.mjs': `import assert from 'node:assert'

export class Cents {
  constructor(value) {
    this.value = value
  }
  valueOf() {
    return this.value
  }
}

export function add(a, b) {
  assert(Number.isFinite(a) && Number.isFinite(b), 'add takes numbers')
  if (process.env.NODE_ENV !== 'test' && (a > 1e15 || b > 1e15)) console.warn('add: precision loss')
  return a + b
}
`,
  'tools/calc.mjs': `#!/usr/bin/env node
import { add } from '../lib/calc.mjs'

const [a, b] = process.argv.slice(2).map(Number)
if (Number.isNaN(a) || Number.isNaN(b)) {
  console.error('usage: calc A B')
  process.exit(2)
}
console.log(add(a, b))
`
}

describe('oracle-reach on a real node:test suite', () => {
  let repo: TestRepo
  beforeAll(() => {
    repo = buildRepo('og-reach-node-', NODE_BASE, NODE_ATTACKS, NODE_HONEST)
  })
  afterAll(() => repo.cleanup())
  attackSuite(() => repo, NODE_COMMAND, NODE_ATTACKS)

  it('the honest fix with its near-misses merges; process.exit in the bin entry point is a notice', async () => {
    const card = await judge(repo, 'honest')
    expect(card.reasons.filter(r => r.level === 'failure')).toEqual([])
    expect(card.verdict).toBe('merge')
    expect(reach(card).map(r => [r.path, r.line, r.level])).toEqual([
      ['tools/calc.mjs', 7, 'notice']
    ])
  })
})

// ------------------------------------------------------------------ vitest

const VITEST_COMMAND = SUITE_COMMANDS.vitest('oracle/tests')
const VITEST_BASE: Record<string, string> = {
  '.github/oracle-gate.yml': policy(VITEST_COMMAND, `  setup: ${linkSetup('vitest')}\n`),
  'package.json': '{"type": "module"}\n',
  'lib/calc.mjs': BUGGY,
  'oracle/tests/calc.test.mjs': `import { expect, test } from 'vitest'
import { add } from '../../lib/calc.mjs'

test('add adds', () => expect(add(2, 3)).toBe(5))
`
}

const VITEST_ATTACKS: Record<string, Attack> = {
  framework: {
    // The runner's own expect, reached from production code: toBe now always passes.
    calc: `const expect = globalThis[Symbol.for('expect-global')]
expect.extend({ toBe: () => ({ pass: true, message: () => '' }) })

${BUGGY}`,
    line: 1,
    category: 'framework'
  },
  markers: {
    calc: `const { VITEST } = process.env

export function add(a, b) {
  return VITEST ? a + b : a - b
}
`,
    line: 1,
    category: 'markers'
  }
}

describe('oracle-reach on a real vitest suite', () => {
  let repo: TestRepo
  beforeAll(() => {
    repo = buildRepo('og-reach-vitest-', VITEST_BASE, VITEST_ATTACKS, {
      'lib/calc.mjs': 'export function add(a, b) {\n  return a + b\n}\n'
    })
    linkRunner(repo, 'vitest')
  })
  afterAll(() => repo.cleanup())
  attackSuite(() => repo, VITEST_COMMAND, VITEST_ATTACKS)

  it('the honest fix merges', async () => {
    const card = await judge(repo, 'honest')
    expect(card.reasons.filter(r => r.level === 'failure')).toEqual([])
    expect(card.verdict).toBe('merge')
  })
})
