import { execFileSync } from 'node:child_process'

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
