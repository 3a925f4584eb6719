// The capture cap through the gate (issue 22): a seeds command whose stdout passes
// MAX_CAPTURE_BYTES is killed, and the card's error names the limit; the same command
// answering within it is read as usual.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'

const python = pythonWithPytest()
const CORPUS = JSON.stringify({ property: 'p', seeds: [{ id: 's1', payload: { x: 1 } }] })
// Answers every seed, then (when FLOOD is in the file name) writes 65 MiB more.
const replay = (
  flood: boolean
): string => `const lines = require('fs').readFileSync(0, 'utf8').split('\\n').filter(Boolean)
for (const l of lines) console.log(JSON.stringify({ id: JSON.parse(l).id, ok: true }))
${flood ? 'const b = Buffer.alloc(1 << 20, 120)\nlet n = 0\nconst go = () => { if (n++ < 65) process.stdout.write(b, go) }\ngo()' : ''}
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
})
