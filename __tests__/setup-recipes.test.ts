// The policies in docs/recipes.md are read from the document itself, so a recipe that
// drifts from the schema or stops working fails here. Every recipe is parsed against the
// schema; the ones whose tools exist here (vitest, node:test, pytest + hypothesis) are run
// for real in a worktree prepared by prepareWorktree.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runShell } from '../src/exec/process.js'
import { parsePolicy } from '../src/policy/load.js'
import { cleanupWorktree, prepareWorktree, type SetupOutcome } from '../src/replay/setup.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { addWorktree, contextFor, removeWorktree, tempParent } from './helpers/setup-fixture.js'

const root = join(import.meta.dirname, '..')
const VITEST_DIR = dirname(createRequire(import.meta.url).resolve('vitest/package.json'))

function recipes(): Map<string, string> {
  const text = readFileSync(join(root, 'docs/recipes.md'), 'utf8')
  const found = new Map<string, string>()
  for (const m of text.matchAll(/<!-- recipe: (\S+) -->\n```yaml\n([\s\S]*?)```/g))
    found.set(m[1] ?? '', m[2] ?? '')
  return found
}

function recipe(name: string): string {
  const text = recipes().get(name)
  if (text === undefined) throw new Error(`docs/recipes.md has no recipe ${name}`)
  return text
}

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.()
})

/**
 * Commits `files` as the base, lets `install` fill the checkout (ignored files), prepares
 * a worktree of the commit with the recipe's policy and runs the recipe's suite command
 * there. Returns the setup outcome and the JUnit report.
 */
async function runRecipe(
  name: string,
  files: Record<string, string>,
  install: (repo: TestRepo) => void,
  rewrite: (command: string) => string = c => c
): Promise<{ outcome: SetupOutcome; xml: string }> {
  const repo = new TestRepo('og-recipe-')
  const parent = tempParent('og-recipe-wt-')
  cleanups.push(
    () => repo.cleanup(),
    () => parent.cleanup()
  )
  repo.write(files)
  const sha = repo.commit('base')
  install(repo)
  const ctx = contextFor(repo, recipe(name), { mergeBase: sha, head: sha })
  cleanups.push(() => rmSync(ctx.tempDir, { recursive: true, force: true }))
  const wt = addWorktree(repo, sha, parent.dir, 'base')
  let links: readonly string[] = []
  try {
    const outcome = await prepareWorktree(ctx, 'base', wt, join(parent.dir, 'setup.log'))
    links = outcome.links ?? []
    const junit = join(parent.dir, 'report.xml')
    const command = rewrite(ctx.policy.suite.command).replaceAll('{junit}', junit)
    const env = { ...ctx.childEnv, ORACLE_GATE_JUNIT: junit }
    const run = await runShell({
      command,
      cwd: wt,
      env,
      timeoutSec: 120,
      logFile: join(parent.dir, 'suite.log')
    })
    const xml = existsSync(junit)
      ? readFileSync(junit, 'utf8')
      : `(no report; exit ${run.exitCode})\n${run.tail}`
    return { outcome, xml }
  } finally {
    await cleanupWorktree(links)
    removeWorktree(repo, wt)
  }
}

const count = (xml: string, tag: string): number => xml.split(`<${tag}`).length - 1

describe('docs/recipes.md', () => {
  it('holds the Node, Python, Go and Maven recipes, each valid against the policy schema', () => {
    const all = recipes()
    expect([...all.keys()].sort()).toEqual([
      'go',
      'maven',
      'node-jest',
      'node-test',
      'node-vitest',
      'python-env',
      'python-venv'
    ])
    for (const [name, text] of all) {
      expect(() => parsePolicy(text, `docs/recipes.md#${name}`), name).not.toThrow()
    }
    expect(parsePolicy(recipe('maven'), 'm').suite.report).toBe('target/surefire-reports')
    expect(parsePolicy(recipe('go'), 'g').suite.command).toContain('gotestsum --junitfile {junit}')
    expect(parsePolicy(recipe('node-jest'), 'j').suite.command).toContain('--reporters=jest-junit')
  })

  it('vitest: reuses the checkout node_modules and the suite writes JUnit XML', async () => {
    const { outcome, xml } = await runRecipe(
      'node-vitest',
      {
        '.gitignore': 'node_modules/\n',
        'package.json': JSON.stringify({
          name: 'demo',
          type: 'module',
          devDependencies: { vitest: '4.1.12' }
        }),
        'package-lock.json': '{"name":"demo","lockfileVersion":3}\n',
        'src/add.ts': 'export const add = (a: number, b: number): number => a + b\n',
        'oracle/properties/add.test.ts':
          "import { expect, test } from 'vitest'\nimport { add } from '../../src/add'\ntest('adds', () => expect(add(2, 2)).toBe(4))\ntest('wrong on purpose', () => expect(add(2, 2)).toBe(5))\n"
      },
      repo =>
        repo
          .symlink('node_modules/vitest', VITEST_DIR)
          .symlink('node_modules/.bin/vitest', '../vitest/vitest.mjs')
    )
    expect(outcome.mode).toBe('reused')
    expect(count(xml, 'testcase')).toBe(2)
    expect(count(xml, 'failure')).toBe(1)
    expect(xml).toContain('oracle/properties/add.test.ts')
  })

  it('node:test: the built-in junit reporter writes the report the gate reads', async () => {
    const { outcome, xml } = await runRecipe(
      'node-test',
      {
        'oracle/properties/add.test.mjs':
          "import test from 'node:test'\nimport assert from 'node:assert'\ntest('adds', () => assert.equal(2 + 2, 4))\ntest('fails', () => assert.equal(2 + 2, 5))\n"
      },
      () => undefined
    )
    expect(outcome.mode).toBe('none')
    expect(count(xml, 'testcase')).toBe(2)
    expect(count(xml, 'failure')).toBe(1)
  })

  it('pytest + hypothesis from the environment: runs and reports', async () => {
    const python = pythonWithPytest()
    const { outcome, xml } = await runRecipe(
      'python-env',
      {
        'calc.py': 'def add(a, b):\n    return a + b\n',
        'oracle/properties/test_add.py':
          'from hypothesis import given, strategies as st\nfrom calc import add\n\n@given(st.integers(), st.integers())\ndef test_commutes(a, b):\n    assert add(a, b) == add(b, a)\n\ndef test_wrong():\n    assert add(2, 2) == 5\n'
      },
      () => undefined,
      command => command.replace(/^python3 /, `${python} `)
    )
    expect(outcome.mode).toBe('none')
    expect(xml).toContain('name="test_commutes"')
    expect(count(xml, 'testcase')).toBe(2)
    expect(count(xml, 'failure')).toBe(1)
  })

  it('python venv: reuses the checkout .venv when requirements.txt is unchanged', async () => {
    const python = execFileSync(pythonWithPytest(), ['-c', 'import sys; print(sys.executable)'], {
      encoding: 'utf8'
    }).trim()
    const { outcome, xml } = await runRecipe(
      'python-venv',
      {
        '.gitignore': '.venv/\n',
        'requirements.txt': 'pytest\nhypothesis\n',
        'oracle/properties/test_ok.py': 'def test_ok():\n    assert True\n'
      },
      // Stands in for `python3 -m venv .venv && pip install -r requirements.txt` (no
      // network here): a .venv whose python is the one that has pytest.
      repo => repo.symlink('.venv/bin/python', python)
    )
    expect(outcome.mode).toBe('reused')
    expect(outcome.reason).toContain('requirements.txt identical')
    expect(count(xml, 'testcase')).toBe(1)
  })
})
