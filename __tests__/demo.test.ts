// `npm run demo` is the README's first command for a newcomer: it must keep working, and
// every sample patch must get the verdict the demo promises.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { pythonWithPytest } from './helpers/python.js'

describe('npm run demo', () => {
  it('judges every sample patch as expected with the bundled CLI', () => {
    const python = pythonWithPytest()
    const r = spawnSync(
      process.execPath,
      [join(import.meta.dirname, '..', 'demo', 'run-demo.mjs')],
      {
        encoding: 'utf8',
        env: { ...process.env, ORACLE_GATE_TEST_PYTHON: python },
        timeout: 600_000
      }
    )
    expect(r.stderr).toBe('')
    expect(r.stdout).toContain('demo: every verdict as expected')
    for (const name of [
      'honest-fix',
      'no-fix',
      'regression',
      'oracle-edit',
      'golden-move',
      'conftest-forgery',
      'skip-marker',
      'literal-echo',
      'judge-import',
      'stray-test'
    ]) {
      expect(r.stdout).toMatch(new RegExp(`^✓ ${name}: `, 'm'))
    }
    expect(r.status).toBe(0)
  }, 600_000)
})
