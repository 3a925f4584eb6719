import { execFileSync, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { expect } from 'vitest'

/**
 * A Python interpreter with pytest and hypothesis. .ci/run exports ORACLE_GATE_TEST_PYTHON
 * (installing Debian's packages when needed); locally python3 is tried. Tests that need it
 * fail loudly rather than skip: a skipped end-to-end test proves nothing.
 */
export function pythonWithPytest(): string {
  const candidates = [process.env.ORACLE_GATE_TEST_PYTHON, 'python3', '/usr/bin/python3'].filter(
    (c): c is string => !!c
  )
  for (const candidate of candidates) {
    try {
      execFileSync(candidate, ['-c', 'import pytest, hypothesis'], { stdio: 'ignore' })
      return candidate
    } catch {
      // try the next
    }
  }
  throw new Error(
    'no python3 with pytest and hypothesis (apt-get install -y python3-pytest python3-hypothesis)'
  )
}

/** The gate's Python reporters in the source tree (src/reporters/python/). */
export const REPORTERS_SRC = join(import.meta.dirname, '..', '..', 'src', 'reporters', 'python')

/**
 * A Python script run with the reporters importable (no bytecode written), in `cwd`; it must
 * exit 0 with nothing on stderr, and its stdout is parsed as JSON.
 */
export function runPythonJson(script: string, cwd?: string): unknown {
  const python = process.env.ORACLE_GATE_TEST_PYTHON ?? 'python3'
  const r = spawnSync(python, ['-c', script], {
    ...(cwd ? { cwd } : {}),
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: REPORTERS_SRC, PYTHONDONTWRITEBYTECODE: '1' }
  })
  expect(r.stderr).toBe('')
  expect(r.status).toBe(0)
  return JSON.parse(r.stdout)
}
