import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runFacts, type GateContext } from '../src/context.js'
import { Git } from '../src/git/git.js'
import { parsePolicy } from '../src/policy/load.js'
import { shellQuote, substitute } from '../src/replay/run.js'
import { applyOverlay, withWorktrees, worktreeFiles } from '../src/replay/worktree.js'
import { memoryLogger } from './helpers/logger.js'
import { policyYaml, TestRepo } from './helpers/repo.js'

const cleanup: (() => void)[] = []
afterEach(() => {
  for (const f of cleanup.splice(0)) f()
})

function context(): { ctx: GateContext; repo: TestRepo } {
  const repo = new TestRepo()
  const tempDir = mkdtempSync(join(tmpdir(), 'og-wt-'))
  cleanup.push(
    () => repo.cleanup(),
    () => rmSync(tempDir, { recursive: true, force: true })
  )
  repo.write({
    '.github/oracle-gate.yml': policyYaml(),
    'oracle/properties/test_a.py': 'base\n',
    'pytest.ini': '[pytest]\n',
    'app.py': 'v1\n'
  })
  const mergeBase = repo.commit('base')
  repo.branch('agent')
  repo.write({
    'oracle/properties/test_a.py': 'head\n',
    'oracle/properties/conftest.py': 'sneaky\n',
    'conftest.py': 'root\n',
    'app.py': 'v2\n'
  })
  repo.remove('pytest.ini')
  const head = repo.commit('head')
  const git = new Git(repo.dir, process.env)
  const policy = parsePolicy(policyYaml(), '.github/oracle-gate.yml')
  const ctx: GateContext = {
    ...runFacts(git, policy),
    repoDir: repo.dir,
    git,
    policy,
    mergeBase,
    head,
    today: '2026-06-01',
    log: memoryLogger(),
    writeSet: [],
    childEnv: {},
    tempDir
  }
  return { ctx, repo }
}

describe('worktrees', () => {
  it('base and head asked for at once are made one after another (two `git worktree add` at once race on .git/worktrees)', async () => {
    const { ctx } = context()
    let inFlight = 0
    let most = 0
    const add = ctx.git.addWorktree.bind(ctx.git)
    ctx.git.addWorktree = async (dir: string, rev: string): Promise<void> => {
      most = Math.max(most, ++inFlight)
      try {
        await add(dir, rev)
      } finally {
        inFlight--
      }
    }
    await withWorktrees(ctx, async wt => {
      const [base, head] = await Promise.all([wt.base(), wt.head(), wt.add('extra', ctx.head)])
      expect(readFileSync(join(base, 'app.py'), 'utf8')).toBe('v1\n')
      expect(readFileSync(join(head, 'app.py'), 'utf8')).toBe('v2\n')
    })
    expect(most).toBe(1)
  })

  it('the head receives the base instrument: restored trees lose added files, removed paths go', async () => {
    const { ctx, repo } = context()
    await withWorktrees(ctx, async wt => {
      const head = await wt.head()
      await applyOverlay(ctx, head, {
        restore: ['oracle', 'pytest.ini'],
        remove: ['conftest.py']
      })
      expect(readFileSync(join(head, 'oracle/properties/test_a.py'), 'utf8')).toBe('base\n')
      expect(existsSync(join(head, 'oracle/properties/conftest.py'))).toBe(false)
      expect(readFileSync(join(head, 'pytest.ini'), 'utf8')).toBe('[pytest]\n')
      expect(existsSync(join(head, 'conftest.py'))).toBe(false)
      expect(readFileSync(join(head, 'app.py'), 'utf8')).toBe('v2\n') // the product stays the head's
      expect(readFileSync(join(await wt.base(), 'app.py'), 'utf8')).toBe('v1\n')
      expect(await worktreeFiles(ctx, head)).not.toContain('conftest.py')
    })
    // The user's checkout and index are untouched.
    expect(repo.git('status', '--porcelain')).toBe('')
    expect(readFileSync(join(repo.dir, 'app.py'), 'utf8')).toBe('v2\n')
  })

  it('worktrees are removed and pruned even when the work throws', async () => {
    const { ctx, repo } = context()
    let seen: string[] = []
    await expect(
      withWorktrees(ctx, async wt => {
        seen = [await wt.base(), await wt.head()]
        writeFileSync(join(await wt.head(), 'junk.txt'), 'x')
        throw new Error('boom')
      })
    ).rejects.toThrow('boom')
    for (const dir of seen) expect(existsSync(dir)).toBe(false)
    expect(repo.git('worktree', 'list').trim().split('\n')).toHaveLength(1)
  })

  it('two worktrees made at once are both right, and one still being made when the work throws is removed', async () => {
    const { ctx, repo } = context()
    const dirs: string[] = []
    await withWorktrees(ctx, async wt => {
      const [base, head] = await Promise.all([wt.base(), wt.head()])
      expect(readFileSync(join(base, 'app.py'), 'utf8')).toBe('v1\n')
      expect(readFileSync(join(head, 'app.py'), 'utf8')).toBe('v2\n')
      expect(repo.git('worktree', 'list').trim().split('\n')).toHaveLength(3)
    })
    expect(repo.git('worktree', 'list').trim().split('\n')).toHaveLength(1)
    // The base's is started and never awaited by the work, which fails at once (as the head's
    // preparation can while the base's `git worktree add` still runs).
    await expect(
      withWorktrees(ctx, async wt => {
        void wt
          .base()
          .then(dir => dirs.push(dir))
          .catch(() => undefined)
        throw new Error('boom')
      })
    ).rejects.toThrow('boom')
    expect(dirs).toHaveLength(1)
    for (const dir of dirs) expect(existsSync(dir)).toBe(false)
    expect(repo.git('worktree', 'list').trim().split('\n')).toHaveLength(1)
  })

  it('a worktree is made only when asked for, once (a primed base never makes one)', async () => {
    const { ctx, repo } = context()
    const listed = (): string[] => repo.git('worktree', 'list').trim().split('\n')
    await withWorktrees(ctx, async wt => {
      const head = await wt.head()
      expect(await wt.head()).toBe(head)
      expect(listed()).toHaveLength(2) // the checkout and the head; no base worktree
      expect(existsSync(join(ctx.tempDir, 'wt-base'))).toBe(false)
      const base = await wt.base()
      expect(listed()).toHaveLength(3)
      expect(readFileSync(join(base, 'app.py'), 'utf8')).toBe('v1\n')
    })
    expect(listed()).toHaveLength(1)
  })

  it('an overlay path outside the repository is refused', async () => {
    const { ctx } = context()
    await withWorktrees(ctx, async wt => {
      await expect(
        applyOverlay(ctx, await wt.head(), { restore: ['../escape'], remove: [] })
      ).rejects.toThrow(/outside the repository/)
    })
  })
})

describe('placeholders', () => {
  it('shell-quotes substituted values and leaves unknown braces alone', () => {
    expect(shellQuote('/tmp/a.xml')).toBe('/tmp/a.xml')
    expect(shellQuote("it's $HOME; rm -rf /")).toBe(`'it'\\''s $HOME; rm -rf /'`)
    const line = substitute('pytest {tests} --junitxml={junit} --seed={seed} {other}', {
      junit: '/t/r 1.xml',
      seed: '7',
      tests: ['a.py::t[x y]', 'b.py::u']
    })
    expect(line).toBe(`pytest 'a.py::t[x y]' b.py::u --junitxml='/t/r 1.xml' --seed=7 {other}`)
    expect(substitute('pytest {tests} -q', { tests: [] })).toBe('pytest  -q')
  })
})
