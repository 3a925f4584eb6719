// Watched node runs at the stream level, for the run-time oracle-reach tests of the node
// watcher (reach-node-runtime.test.ts, reach-node-state.test.ts): a temporary repository
// whose patch is one commit, the watch plan built from git's own diff and fed the way the
// gate feeds a head run (stream.ts planStream, descriptor 4, the handed environment's digests
// as run.ts sends them), and what the stream carried back.
import { join } from 'node:path'
import { runShell } from '../../src/exec/process.js'
import type { RunnerKind } from '../../src/replay/runners.js'
import { planStream, reportersDir } from '../../src/replay/stream.js'
import { encodeWatch, handedEnv, toRanges, type WatchPlan } from '../../src/replay/watch.js'
import { TestRepo } from './repo.js'
import { linkRunner } from './runners.js'

export type Files = Record<string, string>

/** A repository with `base` committed, then `head` on top: the patch is their diff. */
export function patched(
  repos: TestRepo[],
  base: Files,
  head: Files,
  runner?: 'vitest' | 'jest'
): TestRepo {
  const repo = new TestRepo('og-reach-node-')
  repos.push(repo)
  repo.write({ '.gitignore': 'node_modules/\n*.xml\n', ...base }).commit('base')
  repo.write(head).commit('head')
  if (runner) linkRunner(repo, runner)
  return repo
}

/** The patch's added lines of each file, from git's own diff (what watch.ts reads). */
export function patchLines(
  repo: TestRepo,
  files: readonly string[]
): Record<string, [number, number][]> {
  const out: Record<string, [number, number][]> = {}
  for (const file of files) {
    const lines: number[] = []
    for (const m of repo
      .git('diff', '-U0', 'HEAD~1', 'HEAD', '--', file)
      .matchAll(/^@@ [^+]*\+(\d+)(?:,(\d+))? @@/gm)) {
      const first = Number(m[1])
      const count = m[2] === undefined ? 1 : Number(m[2])
      for (let n = first; n < first + count; n++) lines.push(n)
    }
    if (lines.length > 0) out[file] = toRanges(lines)
  }
  return out
}

export interface Watched {
  exit: number | null
  events: Record<string, unknown>[]
  watched: number
  cases: number
  /** Each streamed case's name → its outcome. */
  outcomes: Record<string, string>
  problems: string[]
}

/**
 * One watched run of `command` on the head, as the gate runs it (stream and plan). `env`:
 * what the gate hands the run besides PATH and HOME (its digests go into the plan); `open`:
 * the files the policy's lints.reach_allow waives for `markers` (WatchPlan.open).
 */
export async function watchedRun(
  repo: TestRepo,
  command: string,
  runner: RunnerKind,
  files: string[],
  env: Record<string, string> = {},
  open?: WatchPlan['open']
): Promise<Watched> {
  const lines = patchLines(repo, files)
  const handed = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }
  const feed = encodeWatch(
    { lines, instrument: ['test'], reach: true, cover: false, ...(open ? { open } : {}) },
    repo.dir,
    handedEnv(handed)
  )
  const junit = join(repo.dir, 'junit.xml')
  const plan = planStream(command.replaceAll('{junit}', junit), runner, {}, reportersDir(), feed)
  const result = await runShell({
    command: plan.command,
    cwd: repo.dir,
    env: { ...handed, ...plan.env },
    timeoutSec: 300,
    logFile: join(repo.dir, 'watched.log'),
    ...plan.shell
  })
  const outcome = plan.outcome()
  if (outcome.state !== 'read') throw new Error(`no stream: ${outcome.why}`)
  return {
    exit: result.exitCode,
    events: outcome.events,
    watched: outcome.watched,
    cases: outcome.cases.length,
    outcomes: Object.fromEntries(outcome.cases.map(c => [c.name, c.outcome])),
    problems: outcome.problems
  }
}

/** The reach events, as `category path:line`, sorted and unique. */
export function reaches(events: Record<string, unknown>[]): string[] {
  const seen = events
    .filter(e => e.t === 'reach')
    .map(e => `${String(e.category)} ${String(e.path)}:${String(e.line)}`)
  return [...new Set(seen)].sort()
}
