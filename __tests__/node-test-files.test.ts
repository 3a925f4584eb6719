// node:test through check() (src/gate.ts) on a real suite whose two test files hold a test
// of the same title, each over its own production file. node's junit reporter names no
// file, so the vote once took both for one test of the first file: one vote instead of
// two, and the second file's mutant "survived" (its test's outcome was read as the first
// file's). The gate's reporter names each test's file: two voting tests, each mutant killed
// by the test of its own file. The same card shows why the head exits 1 with every test
// passing (the gate's canaries written to fail), and renders the quoted code of a reason
// as code, not as escaped backticks.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import { renderMarkdown } from '../src/report/markdown.js'
import type { Scorecard } from '../src/types.js'
import { renderGfm } from './helpers/gfm.js'
import { memoryLogger } from './helpers/logger.js'
import { TestRepo } from './helpers/repo.js'
import { naiveRun, SUITE_COMMANDS } from './helpers/runners.js'

const COMMAND = SUITE_COMMANDS.nodeTest('oracle/')
const lib = (over: number): string =>
  `export function f(x) {\n  if (x > 10) {\n    return ${over}\n  }\n  return 5\n}\n`
const test = (m: string): string => `import { test } from 'node:test'
import assert from 'node:assert/strict'
import { f } from '../lib/${m}.mjs'
test('works', () => assert.equal(f(20), 0))
`
const POLICY = `version: 1
protected:
  - oracle/**
planes:
  voting: [oracle/**]
suite:
  command: ${JSON.stringify(COMMAND)}
  timeout: 180
  reruns: 0
evidence:
  mode: report
`

describe('node:test: two test files holding a test of the same title', () => {
  let repo: TestRepo
  let card: Scorecard
  beforeAll(async () => {
    repo = new TestRepo('og-node-test-files-')
    repo
      .write({
        '.gitignore': '.naive-junit.xml\n',
        '.github/oracle-gate.yml': POLICY,
        'package.json': '{"type": "module"}\n',
        'lib/a.mjs': lib(1),
        'lib/b.mjs': lib(1),
        'oracle/a.test.mjs': test('a'),
        'oracle/b.test.mjs': test('b')
      })
      .commit('base: both wrong over 10')
    repo
      .branch('fix', 'main')
      .write({ 'lib/a.mjs': lib(0), 'lib/b.mjs': lib(0) })
      .commit('fix both')
    repo.checkout('main')
    card = await check({
      repoDir: repo.dir,
      base: 'main',
      head: 'fix',
      today: '2026-12-01',
      log: memoryLogger()
    })
  }, 300_000)
  afterAll(() => repo.cleanup())

  it('node names no file in its junit report: both tests share one title there', () => {
    const naive = naiveRun(repo, COMMAND)
    expect(naive.status).toBe(1)
    const junit = readFileSync(join(repo.dir, '.naive-junit.xml'), 'utf8')
    expect(junit.match(/<testcase name="works"[^>]*classname="test"/g)).toHaveLength(2)
    expect(junit).not.toMatch(/file=/)
  })

  it('the vote counts two tests, one per file, both hits', () => {
    expect(card.verdict).toBe('merge')
    expect(card.votes.passed).toBe(2)
    expect(card.transitions.fail_to_pass).toEqual([
      'oracle/a.test.mjs::works',
      'oracle/b.test.mjs::works'
    ])
    expect(card.reasons.filter(r => /shared by more than one test/.test(r.message))).toEqual([])
  })

  it('each mutant is killed by the test of its own file', () => {
    expect(card.evidence?.mutants?.map(m => [m.path, m.killed_by])).toEqual([
      ['lib/a.mjs', 'oracle/a.test.mjs::works'],
      ['lib/b.mjs', 'oracle/b.test.mjs::works']
    ])
  })

  it('the head exits 1 with every test passing, and the card says the canaries count', () => {
    const head = card.runs.find(r => r.side === 'head')
    expect(head).toMatchObject({ exit_code: 1, tests: 2, canaries_failed: 2 })
    const html = renderGfm(renderMarkdown(card))
    expect(html).toMatch(
      /exit statuses count the gate.s canaries, tests written to fail that failed as written \(base 2, head 2\)/
    )
  })

  it('a reason quoting code shows it as code in the Reasons table', () => {
    const withCode = {
      ...card,
      reasons: [
        {
          rule: 'weak-evidence' as const,
          level: 'notice' as const,
          message: 'mutant `0` → `1` survived',
          path: 'lib/a.mjs',
          line: 3
        }
      ]
    }
    const html = renderGfm(renderMarkdown(withCode))
    expect(html).toContain('<td>mutant <code>0</code> → <code>1</code> survived</td>')
  })
})
