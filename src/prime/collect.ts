// Gathers this run's fingerprint from the merge base (instrument, policy, lockfiles) and
// from the machine the gate runs on. Every input that is read from the repository is read
// at the merge base, so nothing the head changed can make a stored base look current.
import { createHash } from 'node:crypto'
import { arch, platform, release } from 'node:os'
import type { GateContext } from '../context.js'
import { instrumentDigest } from '../instrument/digest.js'
import { instrumentView } from '../instrument/view.js'
import { VERSION } from '../version.js'
import { canonical, lockfileDigests, type Fingerprint, type RunnerFacts } from './fingerprint.js'

export async function fingerprintOf(
  ctx: GateContext,
  env: NodeJS.ProcessEnv
): Promise<Fingerprint> {
  const view = ctx.instrument ?? (await instrumentView(ctx))
  const policyBytes = (await ctx.git.showFile(ctx.mergeBase, ctx.policy.path)) ?? Buffer.alloc(0)
  return {
    commit: ctx.mergeBase,
    instrument_digest: instrumentDigest(view.base.values(), view.isInstrument).digest,
    policy_digest: `sha256:${createHash('sha256').update(policyBytes).digest('hex')}`,
    suite_command: canonical(ctx.policy.suite),
    lockfiles: lockfileDigests(view.base.values()),
    runner: runnerFacts(env),
    gate_version: VERSION
  }
}

/** The OS and, on GitHub-hosted runners, the image (the ImageOS/ImageVersion variables). */
export function runnerFacts(env: NodeJS.ProcessEnv): RunnerFacts {
  return {
    os: platform(),
    arch: arch(),
    release: release(),
    image_os: env['ImageOS'] ?? '',
    image_version: env['ImageVersion'] ?? ''
  }
}
