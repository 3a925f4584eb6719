// Shared by the setup tests: a GateContext over a TestRepo, and real `git worktree`s.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runFacts, type GateContext } from '../../src/context.js'
import { childEnv } from '../../src/exec/env.js'
import { Git } from '../../src/git/git.js'
import { parsePolicy } from '../../src/policy/load.js'
import { memoryLogger } from './logger.js'
import type { TestRepo } from './repo.js'

/** The test runner's own variables would make a nested vitest think it is a worker. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env))
    if (!/^(VITEST|TINYPOOL|NODE_OPTIONS)/.test(k)) env[k] = v
  return { ...env, ...extra }
}

export function contextFor(
  repo: TestRepo,
  policyText: string,
  options: { mergeBase: string; head: string; env?: NodeJS.ProcessEnv }
): GateContext & { log: ReturnType<typeof memoryLogger> } {
  const tempDir = mkdtempSync(join(tmpdir(), 'og-setup-ctx-'))
  const git = new Git(repo.dir, process.env)
  const policy = parsePolicy(policyText, '.github/oracle-gate.yml')
  return {
    ...runFacts(git, policy),
    repoDir: repo.dir,
    git,
    policy,
    mergeBase: options.mergeBase,
    head: options.head,
    today: '2026-01-01',
    log: memoryLogger(),
    writeSet: [],
    childEnv: childEnv(options.env ?? cleanEnv()),
    tempDir
  }
}

/** A detached worktree of `sha` in a fresh temp dir; returns its path. */
export function addWorktree(repo: TestRepo, sha: string, parent: string, name: string): string {
  const dir = join(parent, name)
  repo.git('worktree', 'add', '-q', '--detach', dir, sha)
  return dir
}

export function removeWorktree(repo: TestRepo, dir: string): void {
  execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: repo.dir, stdio: 'ignore' })
}

export function tempParent(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}
