// The committed dist/ must work on its own, as on a runner: no node_modules above it. The
// lints load tree-sitter wasm files that sit beside the bundle; the code that loads them
// lives in a chunk under dist/chunks/, one folder below.
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Scorecard } from '../src/types.js'
import { TestRepo } from './helpers/repo.js'

const DIST = join(import.meta.dirname, '..', 'dist')
const cleanups: Array<() => void> = []
afterAll(() => cleanups.forEach(c => c()))

describe('dist/ copied away from the repository', () => {
  it('runs the tree-sitter lints with the wasm files it carries', () => {
    const away = mkdtempSync(join(tmpdir(), 'og-portable-'))
    cleanups.push(() => rmSync(away, { recursive: true, force: true }))
    cpSync(DIST, join(away, 'dist'), { recursive: true })

    const repo = new TestRepo()
    cleanups.push(() => repo.cleanup())
    repo.write({
      '.github/oracle-gate.yml': `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/properties/**]
  in_diff: [tests/**]
suite:
  command: printf '<testsuite><testcase classname="oracle.properties.test_a" name="test_a"/></testsuite>' > {junit}
  reruns: 0
`,
      'oracle/properties/test_a.py': 'def test_a():\n    pass\n',
      'src/app.py': 'X = 1\n'
    })
    repo.commit('base')
    repo.branch('agent')
    repo.write({
      'src/app.py': 'MESSAGE = "total below zero on the invoice"\n',
      'tests/test_app.py':
        'import openai\n\n\ndef test_message():\n    assert "total below zero on the invoice"\n'
    })
    repo.commit('agent')

    const r = spawnSync(
      process.execPath,
      [join(away, 'dist', 'cli.js'), 'check', '--base', 'main', '--quiet'],
      {
        cwd: repo.dir,
        encoding: 'utf8'
      }
    )
    const card = JSON.parse(r.stdout) as Scorecard
    const rules = card.reasons
      .filter(x => x.level === 'failure')
      .map(x => `${x.rule} ${x.path ?? ''}`)
    expect(rules).toEqual(['judge-import tests/test_app.py', 'literal-overlap tests/test_app.py'])
    expect(card.verdict).toBe('policy')
    expect(r.status).toBe(2)
  })
})
