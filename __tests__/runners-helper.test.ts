// The real-runner helpers work on a temporary repository: each JavaScript runner collects a
// passing and a failing test and writes a JUnit report naming both. Attack tests rely on it.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { TestRepo } from './helpers/repo.js'
import { linkRunner, naiveRun, SUITE_COMMANDS } from './helpers/runners.js'

const repos: TestRepo[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})

function repoWith(files: Record<string, string>): TestRepo {
  const repo = new TestRepo('og-runners-')
  repos.push(repo)
  repo.write({ '.gitignore': 'node_modules/\n.naive-junit.xml\n', ...files })
  repo.commit('base')
  return repo
}

describe('real runners in temporary repositories', () => {
  it('vitest writes a JUnit report with one pass and one failure', () => {
    const repo = repoWith({
      'package.json': '{"type": "module"}\n',
      't/a.test.ts':
        "import { test, expect } from 'vitest'\ntest('ok', () => expect(1).toBe(1))\ntest('bad', () => expect(1).toBe(2))\n"
    })
    linkRunner(repo, 'vitest')
    const run = naiveRun(repo, SUITE_COMMANDS.vitest('t'))
    expect(run.status).toBe(1)
    const xml = readFileSync(join(repo.dir, '.naive-junit.xml'), 'utf8')
    expect(xml).toMatch(/name="ok"/)
    expect(xml).toMatch(/<failure/)
  })

  it('jest with jest-junit writes a report whose cases carry the file', () => {
    const repo = repoWith({
      'package.json': '{}\n',
      't/a.test.js': "test('ok', () => expect(1).toBe(1))\ntest('bad', () => expect(1).toBe(2))\n"
    })
    linkRunner(repo, 'jest')
    const run = naiveRun(repo, SUITE_COMMANDS.jest('t'))
    expect(run.status).toBe(1)
    const xml = readFileSync(join(repo.dir, '.naive-junit.xml'), 'utf8')
    expect(xml).toMatch(/file="[^"]*t\/a\.test\.js"/)
    expect(xml).toMatch(/<failure/)
  })

  it('node:test writes a report with the failure', () => {
    const repo = repoWith({
      't/a.test.mjs':
        "import { test } from 'node:test'\nimport assert from 'node:assert'\ntest('ok', () => {})\ntest('bad', () => assert.equal(1, 2))\n"
    })
    const run = naiveRun(repo, SUITE_COMMANDS.nodeTest('t/a.test.mjs'))
    expect(run.status).toBe(1)
    expect(readFileSync(join(repo.dir, '.naive-junit.xml'), 'utf8')).toMatch(/<failure/)
  })
})
