// What the card says about the head's changes the vote did not use (planes.production,
// docs/instrument.md): a notice listing them, a warning naming a changed manifest, lockfile
// or build setting when the vote then failed (the likely cause: the production code needed
// it), and, for a policy without a production plane, a notice recommending one. Pure.
import type { GateContext } from '../context.js'
import { dependencySource, isBuildInput } from '../policy/production.js'
import type { Reason } from '../types.js'
import { printable } from './fidelity.js'

/** Paths a message names before it summarises the rest. */
const SHOWN = 10
/** A failed vote of the head: the reasons a missing dependency would cause. */
const RED_VOTE = new Set([
  'oracle-failed',
  'regression',
  'vanished-oracle',
  'setup-failed',
  'suite-timeout',
  'empty-vote'
])

function list(paths: readonly string[]): string {
  const shown = paths.slice(0, SHOWN).map(printable).join(', ')
  return paths.length > SHOWN ? `${shown} (+${paths.length - SHOWN} more)` : shown
}

export function unmeasuredReasons(
  ctx: Pick<GateContext, 'policy' | 'planes'>,
  unmeasured: readonly string[],
  reasons: readonly Reason[]
): Reason[] {
  const path = ctx.policy.path
  if (!ctx.planes.hasProduction) {
    return [
      {
        rule: 'diagnostic',
        level: 'notice',
        path,
        message:
          'the policy has no planes.production: the vote uses every file of the head except the instrument and the known runner configuration, so a Makefile, a script or a config file of a name the gate does not know can change what the vote sees; name the production code (planes.production, docs/instrument.md "The production plane") so that the vote takes everything else from the merge base'
      }
    ]
  }
  if (unmeasured.length === 0) return []
  const out: Reason[] = [
    {
      rule: 'not-measured',
      level: 'notice',
      path,
      message: `not measured: the vote used the merge base's version of ${unmeasured.length} path(s) the head changed outside planes.production: ${list(unmeasured)}`
    }
  ]
  const red = reasons.some(r => r.level === 'failure' && RED_VOTE.has(r.rule))
  const inputs = unmeasured.filter(isBuildInput)
  if (red && inputs.length > 0) {
    out.push({
      rule: 'not-measured',
      level: 'warning',
      path: inputs[0] as string,
      message: `the vote failed, and the head changes ${list(inputs)}, which the vote does not use (outside planes.production, dependencies: ${dependencySource(ctx.policy)}): if the production code needs that change (a new dependency, a build setting), it is the likely cause. Land it in a pull request of its own, which a maintainer reviews and merges (the gate measures it as the merge base, so it cannot turn a red vote green), then rebase this one: the vote then takes it from the merge base`
    })
  }
  return out
}
