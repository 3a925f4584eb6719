// Asks the project's own runner which files it collects (issue 25), when the checkout has it
// installed: `vitest list --json --filesOnly` (every collected file) and `vitest list --json`
// (the files that define a test: the rest is data named like a test, path-to-regexp's
// cases.spec.ts), `jest --listTests --json`. A configuration computed at run time is then
// read as the runner reads it. Runs through the one process wrapper (own process group,
// scrubbed environment, a timeout); any failure falls back to reading the configuration
// statically (js-config.ts).
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { childEnv } from '../exec/env.js'
import { runShell } from '../exec/process.js'
import type { Project } from './starter.js'

export interface RunnerAnswer {
  /** What was asked, for init's summary and the policy's comment. */
  by: string
  /** Repository-relative files the runner collects. */
  collected: string[]
  /** Of those, the files that define at least one test (null: the runner was not asked). */
  withTests: string[] | null
}

const TIMEOUT_SEC = 120

export async function askRunner(
  repoDir: string,
  project: Project,
  env: NodeJS.ProcessEnv
): Promise<RunnerAnswer | null> {
  if (project.kind !== 'node' || project.runner === 'node-test') return null
  const bin = join(repoDir, 'node_modules', '.bin', project.runner)
  if (!existsSync(bin)) return null
  const temp = await mkdtemp(join(tmpdir(), 'oracle-gate-init-'))
  try {
    const ask = (args: string): Promise<string[] | null> =>
      listed(repoDir, `node_modules/.bin/${project.runner} ${args}`, env, join(temp, 'ask.log'))
    if (project.runner === 'jest') {
      const collected = await ask('--listTests --json')
      return collected && { by: 'jest --listTests', collected, withTests: null }
    }
    const collected = await ask('list --json --filesOnly')
    const withTests = collected && (await ask('list --json'))
    return collected && withTests && { by: 'vitest list', collected, withTests }
  } finally {
    await rm(temp, { recursive: true, force: true }).catch(() => undefined)
  }
}

/** The files a listing command prints as JSON (strings or {file}), repository-relative. */
async function listed(
  repoDir: string,
  command: string,
  env: NodeJS.ProcessEnv,
  logFile: string
): Promise<string[] | null> {
  try {
    const result = await runShell({
      command,
      cwd: repoDir,
      env: childEnv(env, { CI: 'true' }),
      timeoutSec: TIMEOUT_SEC,
      logFile,
      captureStdout: true
    })
    if (result.exitCode !== 0) return null
    return filesOf(result.stdout, repoDir)
  } catch {
    return null
  }
}

/** Pure: a listing's JSON → sorted, unique, repository-relative paths inside the checkout. */
export function filesOf(stdout: string, repoDir: string): string[] | null {
  const start = stdout.indexOf('[')
  if (start < 0) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(stdout.slice(start))
  } catch {
    return null
  }
  if (!Array.isArray(parsed)) return null
  const files = new Set<string>()
  for (const entry of parsed) {
    const abs =
      typeof entry === 'string'
        ? entry
        : typeof (entry as { file?: unknown } | null)?.file === 'string'
          ? (entry as { file: string }).file
          : null
    if (abs === null) continue
    const rel = relative(repoDir, abs).split('\\').join('/')
    if (rel !== '' && !rel.startsWith('..')) files.add(rel)
  }
  return [...files].sort()
}
