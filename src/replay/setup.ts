// PLACEHOLDER (issue 9 replaces this): per-worktree setup and reuse of dependencies.
import type { GateContext } from '../context.js'
import { runShell } from '../exec/process.js'

export interface SetupOutcome {
  /** reused: dependencies linked from the checkout; ran: setup ran; none: nothing configured. */
  mode: 'reused' | 'ran' | 'none'
  /** Why this mode (for the log and the card). */
  reason: string
  ok: boolean
  timedOut: boolean
  durationMs: number
  tail?: string
}

/**
 * Makes a fresh worktree ready for the suite (and the seeds command): runs `suite.setup`
 * or reuses directories from the checkout. Called once per side, after the instrument
 * overlay, before the suite.
 */
export async function prepareWorktree(
  ctx: GateContext,
  side: 'base' | 'head',
  worktree: string,
  logFile: string
): Promise<SetupOutcome> {
  const setup = ctx.policy.suite.setup
  if (setup === undefined) return { mode: 'none', reason: 'no suite.setup configured', ok: true, timedOut: false, durationMs: 0 }
  ctx.log.info(`${side}: running setup`)
  const r = await runShell({ command: setup, cwd: worktree, env: ctx.childEnv, timeoutSec: ctx.policy.suite.setup_timeout, logFile })
  return { mode: 'ran', reason: 'suite.setup', ok: r.exitCode === 0 && !r.timedOut, timedOut: r.timedOut, durationMs: r.durationMs, tail: r.tail }
}
