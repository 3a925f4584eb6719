// The gate's one reading of the wall clock: today's date in UTC, for ledger expiry. The
// CLI's --today and the action's `today` input replace it, so a run can be replayed.
export function utcToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10)
}
