// End to end on a generated TypeScript repository whose vitest suite needs node_modules:
// real worktrees, the real setup and reuse code, and the real vitest run in each worktree.
// No network: "installing" links vitest from this project's own node_modules.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runShell } from '../src/exec/process.js'
import { cleanupWorktree, prepareWorktree, type SetupOutcome } from '../src/replay/setup.js'
import { TestRepo } from './helpers/repo.js'
import { addWorktree, contextFor, removeWorktree, tempParent } from './helpers/setup-fixture.js'

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
function typescriptRepo(): TestRepo {
  const repo = new TestRepo('og-setup-e2e-')
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

interface SideResult {
  outcome: SetupOutcome
  passed: number
  failed: number
}

/** Prepares a worktree of `sha`, runs the suite there when setup succeeded, removes it. */
async function runSide(
  repo: TestRepo,
  ctx: ReturnType<typeof contextFor>,
  side: 'base' | 'head',
  sha: string,
  parent: string
): Promise<SideResult> {
  const wt = addWorktree(repo, sha, parent, side)
  try {
    const outcome = await prepareWorktree(ctx, side, wt, join(parent, `${side}-setup.log`))
    if (!outcome.ok) return { outcome, passed: 0, failed: 0 }
    const junit = join(parent, `${side}.xml`)
    const command = ctx.policy.suite.command.replace('{junit}', junit)
    const run = await runShell({
      command,
      cwd: wt,
      env: ctx.childEnv,
      timeoutSec: 120,
      logFile: join(parent, `${side}-suite.log`)
    })
    const xml = existsSync(junit) ? readFileSync(junit, 'utf8') : ''
    expect(xml, `no JUnit report; suite exit ${run.exitCode}:\n${run.tail}`).toContain('<testcase')
    const cases = xml.split('<testcase').length - 1
    const failed = xml.split('<failure').length - 1
    return { outcome, passed: cases - failed, failed }
  } finally {
    await cleanupWorktree(wt)
    removeWorktree(repo, wt)
  }
}

function scenario(change: Record<string, string>) {
  const parent = tempParent('og-setup-e2e-wt-')
  const marker = join(parent.dir, 'installs.txt')
  const repo = typescriptRepo()
  cleanups.push(
    () => repo.cleanup(),
    () => parent.cleanup()
  )
  const base = repo.sha()
  repo.branch('feature').write(change)
  const head = repo.commit('head')
  repo.checkout('main')
  const ctx = contextFor(repo, policyFor(marker), { mergeBase: base, head })
  cleanups.push(() => rmSync(ctx.tempDir, { recursive: true, force: true }))
  const installs = (): string[] =>
    existsSync(marker) ? readFileSync(marker, 'utf8').trim().split('\n') : []
  return { repo, parent: parent.dir, ctx, base, head, installs }
}

const FIX = {
  'src/add.ts': 'export function add(a: number, b: number): number {\n  return a + b\n}\n'
}

describe('a TypeScript vitest suite that needs node_modules', () => {
  it('reuses the checkout node_modules on both sides when the lockfile is unchanged: no install runs', async () => {
    const s = scenario(FIX)
    const base = await runSide(s.repo, s.ctx, 'base', s.base, s.parent)
    const head = await runSide(s.repo, s.ctx, 'head', s.head, s.parent)
    expect(base.outcome.mode).toBe('reused')
    expect(head.outcome.mode).toBe('reused')
    expect(base.outcome.reason).toBe(
      "reused node_modules from the checkout: package-lock.json identical to the checkout's"
    )
    // The suite really ran with the borrowed dependencies: the bug on base, the fix on head.
    expect(base).toMatchObject({ passed: 1, failed: 1 })
    expect(head).toMatchObject({ passed: 2, failed: 0 })
    expect(s.installs()).toEqual([])
    // The worktrees are gone and the checkout's node_modules is whole.
    expect(readdirSync(s.parent).filter(n => n === 'base' || n === 'head')).toEqual([])
    expect(existsSync(join(s.repo.dir, 'node_modules/vitest/package.json'))).toBe(true)
    expect(s.repo.git('worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1)
  })

  it('runs setup on the head when the head changes the lockfile, and still reuses on the base', async () => {
    const s = scenario({
      ...FIX,
      'package-lock.json': LOCK.replace('"4.1.12"', '"4.1.12", "dev": true')
    })
    const base = await runSide(s.repo, s.ctx, 'base', s.base, s.parent)
    const head = await runSide(s.repo, s.ctx, 'head', s.head, s.parent)
    expect(base.outcome.mode).toBe('reused')
    expect(head.outcome).toMatchObject({ mode: 'ran', ok: true })
    expect(head.outcome.reason).toBe(
      'ran setup (cannot reuse node_modules: package-lock.json differs between the checkout and the worktree): suite.setup succeeded'
    )
    expect(head).toMatchObject({ passed: 2, failed: 0 })
    expect(s.installs()).toEqual(['head'])
    expect(s.ctx.log.lines).toContainEqual(
      expect.stringContaining('head: running suite.setup (cannot reuse node_modules')
    )
  })

  it('reports a head whose setup fails, with the reason and the install log tail', async () => {
    const s = scenario({
      ...FIX,
      'package-lock.json': LOCK.replace(
        '"packages": {',
        '"packages": { "node_modules/left-pad": {},'
      )
    })
    const head = await runSide(s.repo, s.ctx, 'head', s.head, s.parent)
    expect(head.outcome).toMatchObject({ mode: 'ran', ok: false, exitCode: 1 })
    expect(head.outcome.reason).toContain('package-lock.json differs')
    expect(head.outcome.reason).toContain('suite.setup failed (exit 1)')
    expect(head.outcome.tail).toContain('npm ERR! 404 left-pad is not in the offline cache')
    expect(s.installs()).toEqual([])
  })
})
