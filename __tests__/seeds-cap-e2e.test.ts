// The capture cap through the gate (issue 22): a seeds command whose stdout passes
// MAX_CAPTURE_BYTES is killed, and the card names the limit: the base's as an error, the
// head's (its production module floods the base's seeds script) as a failure on head; the
// same command answering within it is read as usual.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'

const python = pythonWithPytest()
const CORPUS = JSON.stringify({ property: 'p', seeds: [{ id: 's1', payload: { x: 1 } }] })
// Writes 65 MiB to stdout, a MiB at a time.
const FLOOD =
  'const b = Buffer.alloc(1 << 20, 120)\nlet n = 0\nconst go = () => { if (n++ < 65) process.stdout.write(b, go) }\ngo()'
// Loads the production module (the head's, on head), answers every seed, then (flood) floods.
const replay = (flood: boolean): string => `require('../calc.js')
const lines = require('fs').readFileSync(0, 'utf8').split('\\n').filter(Boolean)
for (const l of lines) console.log(JSON.stringify({ id: JSON.parse(l).id, ok: true }))
${flood ? FLOOD : ''}
`
const policy = (script: string): string => `version: 1
protected:
  - oracle/**
planes:
  voting: [oracle/tests/**]
suite:
  command: ${python} -m pytest oracle/tests -q -p no:cacheprovider --junitxml={junit}
  timeout: 120
  reruns: 0
seeds:
  corpus: oracle/seeds.json
  command: ${process.execPath} ${script}
  timeout: 120
`

describe('seeds stdout past the capture limit', () => {
  let repo: TestRepo
  beforeAll(() => {
    repo = new TestRepo()
    repo.write({
      '.github/oracle-gate.yml': policy('oracle/replay.js'),
      'oracle/replay.js': replay(false),
      'oracle/flood.js': replay(true),
      'oracle/seeds.json': CORPUS,
      'pytest.ini': '[pytest]\npythonpath = .\n',
      'calc.py': 'X = 1\n',
      'calc.js': 'module.exports = 1\n',
      'oracle/tests/test_x.py': 'import calc\n\n\ndef test_x():\n    assert calc.X == 1\n'
    })
    repo.commit('within the limit')
    repo.branch('flood')
    repo.write({ '.github/oracle-gate.yml': policy('oracle/flood.js') })
    repo.commit('the base floods')
    repo.branch('flood-pr').write({ 'calc.py': 'X = 1  # same\n' })
    repo.commit('edit')
    repo.checkout('main').branch('pr').write({ 'calc.py': 'X = 1  # same\n' })
    repo.commit('edit')
    repo
      .checkout('main')
      .branch('head-floods')
      .write({ 'calc.js': `${FLOOD}\n` })
    repo.commit('the production module floods stdout when loaded')
  })
  afterAll(() => repo.cleanup())

  const run = (head: string, base: string) =>
    check({ repoDir: repo.dir, base, head, today: '2026-06-01', log: memoryLogger() })

  it('within the limit the answers are read (the near miss)', async () => {
    const card = await run('pr', 'main')
    expect(card.verdict).toBe('merge')
    expect(card.reasons.map(r => r.message).join('\n')).not.toMatch(/64 MiB/)
  })

  it('past it the run is killed and the error names the limit', async () => {
    const card = await run('flood-pr', 'flood')
    expect(card.verdict).toBe('error')
    expect(card.reasons).toContainEqual(
      expect.objectContaining({
        level: 'failure',
        message: expect.stringMatching(/captured stdout exceeded the 64 MiB limit/)
      })
    )
  })

  it("past it on head (the head's own code floods) the card fails the head, naming the limit", async () => {
    const card = await run('head-floods', 'main')
    // Before the head-side reason, this card said only "fail (or go unanswered) on head".
    expect(card.verdict).toBe('product')
    expect(card.reasons).toContainEqual({
      rule: 'seed-regression',
      level: 'failure',
      path: 'oracle/seeds.json',
      message: expect.stringMatching(
        /^the seeds command on head: captured stdout exceeded the 64 MiB limit \(MAX_CAPTURE_BYTES\)/
      )
    })
  })
})
