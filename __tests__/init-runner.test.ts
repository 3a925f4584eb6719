// init's cases that start a real runner, kept out of the fast tier (issue 22: `npm run
// test:unit` needs no Python). An empty repository falls back to the Python starter, and
// init then asks pytest itself for its configuration: here with a real interpreter.
import { dirname, isAbsolute } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { inspectRepository } from '../src/policy/inspect.js'
import { parsePolicy } from '../src/policy/load.js'
import { renderInspected } from '../src/policy/starter.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'

const FILE = '.github/oracle-gate.yml'

const repos: TestRepo[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})

describe('init on an empty repository', () => {
  it('falls back to the Python starter, asking a real pytest', async () => {
    const python = pythonWithPytest()
    const path = isAbsolute(python)
      ? `${dirname(python)}:${process.env.PATH ?? ''}`
      : (process.env.PATH ?? '')
    const repo = new TestRepo()
    repos.push(repo)
    const inspection = await inspectRepository(repo.dir, { PATH: path })
    expect(inspection.project.kind).toBe('python')
    // pytest itself answered (not the static reading of the files).
    expect(inspection.pytestSource).toMatchObject({ by: 'pytest', rootdir: '.' })
    const text = renderInspected(inspection)
    expect(parsePolicy(text, FILE).suite.setup).toBeUndefined()
    // No property library, no campaign (the README's claim holds without tests too).
    expect(text).not.toMatch(/^campaign:/m)
  })
})
