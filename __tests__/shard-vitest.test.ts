// Sharded replay end to end on a real vitest suite: `check --shard I/3` three times plus
// `merge` judge like one unsharded `check` (merge, product and policy cases), each shard
// selecting only its own files through vitest's file arguments; the merge's in-toto
// Statement validates and names the scorecard file it wrote by its sha256.
import { createHash } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { compiledValidator } from './helpers/schemas.js'
import statementSchema from '../src/shard/statement.schema.json' with { type: 'json' }
import type { Scorecard } from '../src/types.js'
import { TestRepo } from './helpers/repo.js'
import { linkRunner, linkSetup, SUITE_COMMANDS } from './helpers/runners.js'
import { judged, runMerge, runShards, runUnsharded } from './helpers/shards.js'

const SHOP = `export function total(lines) {
  return lines.reduce((sum, l) => sum + l.price * l.qty, 0)
}
export function discount(amount, pct) {
  return amount - amount * pct // bug: a discount over 100% makes the amount negative
}
export function tax(amount) {
  return Math.round(amount * 0.2)
}
`
const FIXED = SHOP.replace(
  'return amount - amount * pct // bug: a discount over 100% makes the amount negative',
  'return Math.max(0, amount - amount * pct)'
)
const test = (name: string, body: string): string =>
  `import { expect, test } from 'vitest'\nimport * as shop from '../../src/shop.js'\n\ntest('${name}', () => {\n  ${body}\n})\n`
const TESTS: Record<string, string> = {
  'oracle/properties/total.test.js': test(
    'adds lines',
    'expect(shop.total([{ price: 2, qty: 3 }])).toBe(6)'
  ),
  'oracle/properties/discount.test.js': test(
    'never negative',
    'expect(shop.discount(10, 1.5)).toBe(0)'
  ),
  'oracle/properties/tax.test.js': test('rounds tax', 'expect(shop.tax(11)).toBe(2)'),
  'oracle/properties/empty.test.js': test('empty total is zero', 'expect(shop.total([])).toBe(0)')
}

const repos: TestRepo[] = []
const dirs: string[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

function scenario(head: Record<string, string>): TestRepo {
  const repo = new TestRepo()
  repos.push(repo)
  repo.write({
    '.gitignore': 'node_modules/\n',
    'package.json': '{"name": "shop", "private": true, "type": "module"}\n',
    '.github/oracle-gate.yml': `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/properties/**]
  in_diff: [tests/**]
suite:
  command: ${SUITE_COMMANDS.vitest('oracle')}
  setup: ${linkSetup('vitest')}
  timeout: 120
  reruns: 1
`,
    'src/shop.js': SHOP,
    ...TESTS
  })
  linkRunner(repo, 'vitest')
  repo.commit('base')
  repo.branch('agent')
  repo.write(head)
  repo.commit('agent patch')
  return repo
}

async function sameAsUnsharded(repo: TestRepo, extra: string[] = []): Promise<Scorecard> {
  const plain = await runUnsharded(repo)
  const run = await runShards(repo, 3)
  dirs.push(run.dir)
  const merged = await runMerge(repo, run.files, extra)
  expect(judged(merged.card)).toEqual(judged(plain.card))
  expect(merged.exit).toBe(plain.exit)
  expect(run.shards.flatMap(s => s.shard?.files ?? []).sort()).toEqual(Object.keys(TESTS).sort())
  for (const s of run.shards) {
    expect(s.shard?.observed?.selection).toBe('runner')
    // vitest ran this shard's files only (one test each).
    expect(s.runs.map(r => r.tests)).toEqual([s.shard?.files.length, s.shard?.files.length])
  }
  return merged.card
}

describe(
  'sharded replay (vitest): three shards and a merge judge like one check',
  { timeout: 600_000 },
  () => {
    it('merge, with a signed-verdict Statement over the scorecard file', async () => {
      const repo = scenario({ 'src/shop.js': FIXED })
      const card = await sameAsUnsharded(repo, [
        '--json',
        'merged.json',
        '--attestation',
        'merged.intoto.json'
      ])
      expect(card.verdict).toBe('merge')
      expect(card.transitions.fail_to_pass).toEqual([
        'oracle/properties/discount.test.js::never negative'
      ])
      const statement = JSON.parse(readFileSync(join(repo.dir, 'merged.intoto.json'), 'utf8')) as {
        subject: { name: string; digest: { sha256: string } }[]
        predicate: { result: string; passedTests: string[] }
      }
      expect(compiledValidator(statementSchema)(statement)).toEqual([])
      const bytes = readFileSync(join(repo.dir, 'merged.json'))
      expect(statement.subject).toEqual([
        {
          name: 'merged.json',
          digest: { sha256: createHash('sha256').update(bytes).digest('hex') }
        }
      ])
      expect(statement.predicate.result).toBe('PASSED')
      expect(statement.predicate.passedTests).toEqual(card.transitions.fail_to_pass)
    })

    it('product: the fix breaks tax', async () => {
      const repo = scenario({
        'src/shop.js': FIXED.replace('Math.round(amount * 0.2)', 'Math.floor(amount * 0.2) + 1')
      })
      const card = await sameAsUnsharded(repo)
      expect(card.verdict).toBe('product')
      expect(card.transitions.pass_to_fail).toEqual(['oracle/properties/tax.test.js::rounds tax'])
    })

    it('policy: an ungoverned test file beside the fix', async () => {
      const repo = scenario({
        'src/shop.js': FIXED,
        'src/shop.test.js': test('mine', 'expect(1).toBe(1)')
      })
      const card = await sameAsUnsharded(repo)
      expect(card.verdict).toBe('policy')
      expect(card.reasons.map(r => r.rule)).toContain('ungoverned-test')
    })
  }
)
