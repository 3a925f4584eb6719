// How long a ledger row may live, by cause (issue 25): a flake (order, time, net, rng,
// shared) should be fixed within weeks, while a test broken by the environment (`env`, e.g.
// luxon's tests outside their time zone) may stay frozen longer. `ledger_max_days` is a
// number (every cause) or a map by cause with an optional `default`. Uniting two policies
// takes, per cause, the shorter window. Pure.
import type { FlakeCause } from './types.js'

export type LedgerMaxDays = number | ({ default?: number } & Partial<Record<FlakeCause, number>>)

export const DEFAULT_MAX_DAYS = 30
const CAUSES: readonly FlakeCause[] = ['order', 'time', 'net', 'rng', 'shared', 'env']

/** The longest window a row of this cause may have. */
export function maxDaysFor(limit: LedgerMaxDays, cause: FlakeCause): number {
  if (typeof limit === 'number') return limit
  return limit[cause] ?? limit.default ?? DEFAULT_MAX_DAYS
}

/** Per cause, the shorter of two limits (a number when both are numbers). */
export function stricterMaxDays(a: LedgerMaxDays, b: LedgerMaxDays): LedgerMaxDays {
  if (typeof a === 'number' && typeof b === 'number') return Math.min(a, b)
  const out: { default?: number } & Partial<Record<FlakeCause, number>> = {
    default: Math.min(defaultOf(a), defaultOf(b))
  }
  for (const cause of CAUSES) out[cause] = Math.min(maxDaysFor(a, cause), maxDaysFor(b, cause))
  return out
}

/** True when the two limits allow the same window for every cause. */
export function sameMaxDays(a: LedgerMaxDays, b: LedgerMaxDays): boolean {
  return defaultOf(a) === defaultOf(b) && CAUSES.every(c => maxDaysFor(a, c) === maxDaysFor(b, c))
}

function defaultOf(limit: LedgerMaxDays): number {
  return typeof limit === 'number' ? limit : (limit.default ?? DEFAULT_MAX_DAYS)
}
