// The oldest git the gate can trust, checked once at the start of a run. Below it the
// hardening in git.ts silently does less (GIT_CONFIG_GLOBAL, 2.32, is what keeps the
// runner's global configuration out) or a command fails mid-run (rev-parse
// --path-format, 2.31), so an older git is a gate error naming both versions up front.
// Pure, except requireGitVersion, which asks the git manager.
import { GateError } from '../errors.js'
import type { Git } from './git.js'

/** 2.32: GIT_CONFIG_GLOBAL (hardenedGitEnv); 2.31: rev-parse --path-format=absolute. */
export const MIN_GIT_VERSION: readonly [number, number, number] = [2, 32, 0]

/** [major, minor, patch] from `git --version` output ("git version 2.39.5 (Apple Git-154)"). */
export function parseGitVersion(output: string): [number, number, number] | null {
  const m = /^git version (\d+)\.(\d+)(?:\.(\d+))?/.exec(output.trim())
  if (m === null) return null
  return [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)]
}

/** Whether `found` is at least `needed`, part by part. */
export function atLeast(found: readonly number[], needed: readonly number[]): boolean {
  for (let i = 0; i < needed.length; i++) {
    const a = found[i] ?? 0
    const b = needed[i] ?? 0
    if (a !== b) return a > b
  }
  return true
}

/** Why `output` is not a git the gate can use, or null when it is. */
export function gitVersionProblem(output: string): string | null {
  const needed = MIN_GIT_VERSION.join('.')
  const found = parseGitVersion(output)
  const shown = JSON.stringify(output.trim().slice(0, 200))
  if (found === null)
    return `cannot read the git version from ${shown}; oracle-gate needs git ${needed} or newer`
  if (atLeast(found, MIN_GIT_VERSION)) return null
  return `git ${found.join('.')} found, oracle-gate needs git ${needed} or newer (GIT_CONFIG_GLOBAL, rev-parse --path-format): install a newer git on the runner`
}

/** Throws a gate error naming the found and needed versions when git is too old. */
export async function requireGitVersion(git: Git): Promise<void> {
  const problem = gitVersionProblem(await git.version())
  if (problem !== null) throw new GateError(problem)
}
