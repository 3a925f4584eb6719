// Builds a real repository (base commit, head commit) and runs the contamination lints on it
// with a GateContext assembled the way the pipeline does.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runFacts, type GateContext } from '../src/context.js'
import { EMPTY_LEDGER } from '../src/ledger/index.js'
import { Git } from '../src/git/git.js'
import { runLints } from '../src/lints/index.js'
import type { LintKey } from '../src/lints/registry.js'
import { parsePolicy } from '../src/policy/load.js'
import type { Reason } from '../src/types.js'
import { buildWriteSet } from '../src/writeset/index.js'
import { memoryLogger } from './helpers/logger.js'
import { policyYaml, TestRepo } from './helpers/repo.js'

export interface Scenario {
  base: Record<string, string>
  head: Record<string, string>
  /** Paths removed in the head commit. */
  remove?: string[]
  /** YAML appended to the test policy (e.g. a `lints:` block). */
  policy?: string
  /** The lints to run; default the contamination lints. */
  lints?: LintKey[]
  /** Writes more files into the work tree before each commit (large files, streamed). */
  generate?: { base?: (dir: string) => Promise<void>; head?: (dir: string) => Promise<void> }
}

export async function lintScenario(s: Scenario): Promise<{ reasons: Reason[]; log: string[] }> {
  const repo = new TestRepo('og-lints-')
  const tempDir = mkdtempSync(join(tmpdir(), 'og-lints-tmp-'))
  try {
    repo.write({ 'README.md': '# fixture\n', ...s.base })
    await s.generate?.base?.(repo.dir)
    const base = repo.commit('base')
    repo.write(s.head)
    await s.generate?.head?.(repo.dir)
    if (s.remove) repo.remove(...s.remove)
    const head = repo.commit('head')
    const policy = parsePolicy(policyYaml(s.policy ?? ''), '.github/oracle-gate.yml')
    const git = new Git(repo.dir, process.env)
    const log = memoryLogger()
    const facts = runFacts(git, policy)
    const ctx: GateContext = {
      ...facts,
      repoDir: repo.dir,
      git,
      policy,
      mergeBase: base,
      head,
      today: '2026-11-30',
      log,
      writeSet: await buildWriteSet(git, base, head, policy, null, facts),
      childEnv: {},
      tempDir
    }
    // The contamination lints only (the other lints have their own tests).
    const reasons = await runLints(
      ctx,
      EMPTY_LEDGER,
      s.lints ?? ['judge-import', 'literal-overlap']
    )
    return { reasons, log: log.lines }
  } finally {
    repo.cleanup()
    rmSync(tempDir, { recursive: true, force: true })
  }
}

export function byRule(reasons: Reason[], rule: Reason['rule']): Reason[] {
  return reasons.filter(r => r.rule === rule)
}
