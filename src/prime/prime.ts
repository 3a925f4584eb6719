// Priming one commit, for the CLI (`oracle-gate prime`) and the action (mode: prime) alike:
// check() of the commit against itself with the priming base seam, so the base side is
// measured exactly as a judge run measures it, and stored only when it was fully measured.
// A stale file at `out` is removed first and a failed prime leaves no file behind.
import { existsSync } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import { check, type CheckOptions } from '../gate.js'
import type { Scorecard } from '../types.js'
import { primingBase } from './source.js'
import type { ProducedBy } from './store.js'

/** check()'s options for the commit to prime, `base` (it is judged against itself). */
export type PrimeOptions = Omit<CheckOptions, 'head' | 'baseSource' | 'baseOnly'> & {
  env: NodeJS.ProcessEnv
}

export type PrimeResult =
  { written: true; card: Scorecard } | { written: false; card: Scorecard; why: string }

export async function primeCommit(
  options: PrimeOptions,
  out: string,
  producedBy: ProducedBy
): Promise<PrimeResult> {
  // A stale file from an earlier run must never be mistaken for this run's result.
  await rm(out, { force: true })
  await mkdir(dirname(out), { recursive: true })
  const card = await check({
    ...options,
    head: options.base,
    baseSource: primingBase(out, producedBy, options.env),
    // The head would be the same commit: one base side (with its reruns) is the whole cost.
    baseOnly: true
  })
  if (card.verdict !== 'error' && existsSync(out)) return { written: true, card }
  await rm(out, { force: true })
  const why = card.reasons.filter(r => r.level === 'failure').map(r => r.message)
  return { written: false, card, why: why.join('; ') || 'the base side was not measured' }
}
