// The two ways a primed base meets the replay's base seam (replay/index.ts BaseSide):
// priming runs the base side and stores it; judging takes a stored one only when its
// fingerprint is this run's, and otherwise runs the base as today with the reason logged
// and on the card. Doubt of any kind (unreadable, off-schema, mismatch) means: run it.
import { shortSha } from '../json.js'
import { GateError } from '../errors.js'
import type { BaseSide } from '../replay/index.js'
import { logText } from '../report/sanitize.js'
import type { Reason } from '../types.js'
import { fingerprintOf } from './collect.js'
import { fingerprintDifferences } from './fingerprint.js'
import {
  fromPrimed,
  toPrimed,
  unstorable,
  writePrimed,
  type PrimedFile,
  type ProducedBy
} from './store.js'

/** A base seam plus what it has to say on the card (notice reasons). */
export interface BaseSource {
  side: BaseSide
  reasons: Reason[]
}

/** Judge mode: `load` yields the merge base's primed file or why there is none usable. */
export function primedBase(
  load: (mergeBase: string) => Promise<PrimedFile | string>,
  env: NodeJS.ProcessEnv
): BaseSource {
  const reasons: Reason[] = []
  const side: BaseSide = async (ctx, run) => {
    const refuse = (why: string): ReturnType<BaseSide> => {
      const message = `primed base result not used: ${why}; the base side runs as it would without one`
      ctx.log.warning(logText(message))
      reasons.push({ rule: 'diagnostic', level: 'notice', message, path: ctx.policy.path })
      return run()
    }
    const file = await load(ctx.mergeBase)
    if (typeof file === 'string') return refuse(file)
    const diffs = fingerprintDifferences(file.fingerprint, await fingerprintOf(ctx, env))
    if (diffs.length > 0) return refuse(`its fingerprint differs (${diffs.join('; ')})`)
    const from = clip(file.produced_by.label)
    const message = `the base side was taken from the primed result of ${from} (commit ${shortSha(ctx.mergeBase)}, fingerprint matched); the base suite was not run`
    ctx.log.info(logText(message))
    reasons.push({ rule: 'diagnostic', level: 'notice', message, path: ctx.policy.path })
    const outcome = fromPrimed(file)
    outcome.run.primed_from = from
    return outcome
  }
  return { side, reasons }
}

/** Prime mode: run the base side as usual, then store it with this run's fingerprint. */
export function primingBase(
  out: string,
  producedBy: ProducedBy,
  env: NodeJS.ProcessEnv
): BaseSource {
  const side: BaseSide = async (ctx, run) => {
    const outcome = await run()
    const why = unstorable(outcome)
    if (why !== null) throw new GateError(`cannot prime the base: ${why}`)
    await writePrimed(out, toPrimed(outcome, await fingerprintOf(ctx, env), producedBy))
    ctx.log.info(`primed base result for ${shortSha(ctx.mergeBase)} written to ${logText(out)}`)
    return outcome
  }
  return { side, reasons: [] }
}

function clip(s: string): string {
  const flat = s.replace(/[^\x20-\x7e]/g, '?')
  return flat.length > 200 ? `${flat.slice(0, 197)}…` : flat
}
