// Calendar dates as the ledger writes them (YYYY-MM-DD, UTC). Day arithmetic goes through
// Date.UTC so that no local time zone or daylight-saving shift can move a row by a day.

const DAY_MS = 86_400_000
const SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/

/** True for a real calendar date in YYYY-MM-DD form (2026-02-30 is not one). */
export function isCalendarDate(text: string): boolean {
  const match = SHAPE.exec(text)
  if (!match) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  )
}

function epochDay(text: string): number {
  if (!isCalendarDate(text)) throw new RangeError(`not a calendar date: "${text}"`)
  const [year, month, day] = text.split('-').map(Number) as [number, number, number]
  return Date.UTC(year, month - 1, day) / DAY_MS
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return epochDay(to) - epochDay(from)
}

export function addDays(date: string, days: number): string {
  return new Date((epochDay(date) + days) * DAY_MS).toISOString().slice(0, 10)
}
