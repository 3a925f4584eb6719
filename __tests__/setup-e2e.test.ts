// End to end on a generated TypeScript repository whose vitest suite needs node_modules:
// the whole gate (check()), real worktrees, the real vitest run in each of them. No
// network: "installing" links vitest from this project's own node_modules.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import { TestRepo } from './helpers/repo.js'
import { memoryLogger } from './helpers/logger.js'
import { cleanEnv, tempParent } from './helpers/setup-fixture.js'

const VITEST_DIR = dirname(createRequire(import.meta.url).resolve('vitest/package.json'))

const LOCK = `{
  "name": "demo",
  "lockfileVersion": 3,
  "packages": { "node_modules/vitest": { "version": "4.1.12" } }
}
`

/**
 * The TypeScript project: src/add.ts (buggy at the base), a voting vitest suite, an
 * ignored node_modules. `head` is a branch; the checkout stays on main with node_modules
 * "installed", as when the gate is run on a developer's machine or a base-branch checkout.
 */
function typescriptRepo(policy?: string): TestRepo {
  const repo = new TestRepo('og-setup-e2e-')
  if (policy !== undefined) repo.write({ '.github/oracle-gate.yml': policy })
  repo.write({
    '.gitignore': 'node_modules/\n',
    'package.json': JSON.stringify(
      { name: 'demo', type: 'module', devDependencies: { vitest: '4.1.12' } },
      null,
      2
    ),
    'package-lock.json': LOCK,
    'src/add.ts': 'export function add(a: number, b: number): number {\n  return a - b\n}\n',
    'oracle/properties/add.test.ts': [
      "import { expect, test } from 'vitest'",
      "import { add } from '../../src/add'",
      "test('adds small numbers', () => expect(add(2, 3)).toBe(5))",
      "test('zero is neutral', () => expect(add(7, 0)).toBe(7))",
      ''
    ].join('\n')
  })
  repo.commit('base: a TypeScript project with a vitest suite')
  // What an install would leave in the checkout; never committed (.gitignore).
  repo.symlink('node_modules/vitest', VITEST_DIR)
  return repo
}

/**
 * The setup "install": fails like an offline npm ci when the lockfile names a package the
 * cache lacks, otherwise links vitest and records the side in the marker file.
 */
function setupCommand(marker: string): string {
  return [
    `if grep -q left-pad package-lock.json; then echo "npm ERR! 404 left-pad is not in the offline cache" >&2; exit 1; fi`,
    `mkdir -p node_modules && ln -s ${VITEST_DIR} node_modules/vitest && echo "$ORACLE_GATE_SIDE" >> ${marker}`
  ].join('; ')
}

function policyFor(marker: string): string {
  return `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/properties/**]
# Setup records its side in a marker outside the worktree, which a sandbox would not allow
# (sandbox.test.ts runs a linking setup inside one).
sandbox: off
suite:
  command: node node_modules/vitest/vitest.mjs run oracle/properties --reporter=junit --outputFile.junit={junit}
  timeout: 120
  reruns: 0
  setup: '${setupCommand(marker)}'
  setup_timeout: 120
  reuse: [node_modules]
`
}

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.()
})

const FIX = {
  'src/add.ts': 'export function add(a: number, b: number): number {\n  return a + b\n}\n'
}

describe('a TypeScript vitest suite that needs node_modules, through check()', () => {
  /**
   * Runs the gate with base main and head feature. TMPDIR points at a fresh directory for
   * the gate and its children, so the test can show nothing is left behind in it.
   */
  async function gate(change: Record<string, string>) {
    const parent = tempParent('og-setup-gate-')
    const marker = join(parent.dir, 'installs.txt')
    const repo = typescriptRepo(policyFor(marker))
    cleanups.push(
      () => repo.cleanup(),
      () => parent.cleanup()
    )
    repo.branch('feature').write(change)
    repo.commit('head')
    repo.checkout('main')
    const tmp = mkdtempSync(join(tmpdir(), 'og-setup-tmp-'))
    cleanups.push(() => rmSync(tmp, { recursive: true, force: true }))
    const saved = process.env.TMPDIR
    process.env.TMPDIR = tmp
    const log = memoryLogger()
    try {
      const card = await check({
        repoDir: repo.dir,
        base: 'main',
        head: 'feature',
        today: '2026-01-01',
        log,
        env: cleanEnv({ TMPDIR: tmp })
      })
      const installs = existsSync(marker) ? readFileSync(marker, 'utf8').trim().split('\n') : []
      return { card, installs, log, leftInTmp: readdirSync(tmp), repo }
    } finally {
      if (saved === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = saved
    }
  }

  const run = (card: Awaited<ReturnType<typeof check>>, side: 'base' | 'head') =>
    card.runs.find(r => r.side === side)

  it('unchanged lockfile: both sides reuse node_modules, no install runs, the fix merges', async () => {
    const g = await gate(FIX)
    expect(g.card.reasons.filter(r => r.level === 'failure')).toEqual([])
    expect(g.card.verdict).toBe('merge')
    expect(g.card.transitions.fail_to_pass).toEqual([expect.stringContaining('adds small numbers')])
    expect(run(g.card, 'base')).toMatchObject({
      setup: 'reused',
      setup_reason: expect.stringContaining('package-lock.json identical')
    })
    expect(run(g.card, 'head')).toMatchObject({ setup: 'reused' })
    expect(g.installs).toEqual([])
    expect(g.leftInTmp).toEqual([])
    expect(existsSync(join(g.repo.dir, 'node_modules/vitest/package.json'))).toBe(true)
    expect(g.repo.git('worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1)
  })

  it('head changes the lockfile: the head runs setup, the base reuses', async () => {
    const g = await gate({
      ...FIX,
      'package-lock.json': LOCK.replace('"4.1.12"', '"4.1.12", "dev": true')
    })
    expect(g.card.verdict).toBe('merge')
    expect(run(g.card, 'base')).toMatchObject({ setup: 'reused' })
    expect(run(g.card, 'head')).toMatchObject({
      setup: 'ran',
      setup_reason: expect.stringContaining(
        'package-lock.json differs between the checkout and the worktree'
      )
    })
    expect(g.installs).toEqual(['head'])
    expect(g.log.lines).toContainEqual(
      expect.stringContaining('head: running suite.setup (cannot reuse node_modules')
    )
    expect(g.leftInTmp).toEqual([])
  })

  it('a setup that fails on the head is a red vote with the reason and the install log', async () => {
    const g = await gate({
      ...FIX,
      'package-lock.json': LOCK.replace(
        '"packages": {',
        '"packages": { "node_modules/left-pad": {},'
      )
    })
    expect(g.card.verdict).toBe('product')
    const reason = g.card.reasons.find(r => r.rule === 'setup-failed')
    expect(reason?.level).toBe('failure')
    expect(reason?.message).toContain('npm ERR! 404 left-pad is not in the offline cache')
    expect(run(g.card, 'head')).toMatchObject({
      setup: 'ran',
      setup_reason: expect.stringContaining('suite.setup failed (exit 1)')
    })
    expect(g.installs).toEqual([])
    expect(g.leftInTmp).toEqual([])
  })
})
