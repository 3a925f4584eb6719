// `oracle-gate ledger add|check|list`: for humans editing the ledger in their own PRs. It
// works on the working tree (the file being edited); the gate itself only ever reads the
// ledger at the merge base. Exit codes: 0 ok, 2 invalid or expired (refused), 4 usage.
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { utcToday } from '../clock.js'
import { addDays, daysBetween, isCalendarDate } from '../ledger/dates.js'
import { appendRow, nextId } from '../ledger/edit.js'
import { EXPIRING_WITHIN_DAYS } from '../ledger/expiry.js'
import { ledgerFromText } from '../ledger/load.js'
import { formatProblem, parseLedger, type LedgerProblem } from '../ledger/parse.js'
import type { LedgerState } from '../ledger/types.js'
import { DEFAULT_POLICY_PATH, parsePolicy } from '../policy/load.js'
import { policySchema } from '../policy/validate.js'
import { logText } from '../report/sanitize.js'
import { guessCause } from '../doctor/findings.js'
import { EXIT, type Io } from './io.js'
import { shortSha } from '../json.js'
import type { LedgerMaxDays } from '../ledger/limits.js'

export const LEDGER_USAGE = `Usage:
  oracle-gate ledger add --test ID --owner WHO --cause CAUSE --reason TEXT
                         [--id ID] [--first-seen DATE] [--expires DATE] [--max-runs N]
                         [--ticket REF] [common options]
  oracle-gate ledger add --from-card CARD.json --owner WHO [--cause CAUSE] [--reason TEXT]
                         [--expires DATE] [--max-runs N] [--ticket REF] [common options]
  oracle-gate ledger check [common options]
  oracle-gate ledger list [--json] [common options]

Common options:
  --file PATH       the ledger (default: the "ledger:" of the policy)
  --repo DIR        repository root (default .)
  --policy PATH     policy file, for the ledger path and ledger_max_days
                    (default ${DEFAULT_POLICY_PATH})
  --today DATE      YYYY-MM-DD (default: the UTC date)
  --max-days N      longest first_seen → expires_on window (default: the policy's, else the policy default, 30)

add     appends a row: CAUSE is one of order, time, net, rng, shared, env; --first-seen
        defaults to today, --expires to today + 14 days, --max-runs to 3, --id to the
        next flake-N. Writes JSON or YAML (by extension) keeping the file's layout.
        Refuses (exit 2) a row or ledger that would not validate.
        --from-card adds one row per test of a scorecard's flakes (cause: --cause, else
        guessed from the card's messages, else shared) and per voting test that failed on
        both sides (fail_to_fail: cause env, broken in this environment), skipping tests
        the ledger already covers; each row is validated as with --test.
check   validates the ledger: exit 0 valid, 2 invalid or holding an expired row.
list    shows every row with its status (live, expiring, expired) and the debt.

Commit ledger changes in a PR of their own: the gate reads the ledger from the merge
base, and rejects a patch that edits it.
`

const OPTIONS = {
  file: { type: 'string' },
  repo: { type: 'string' },
  policy: { type: 'string' },
  today: { type: 'string' },
  'max-days': { type: 'string' },
  test: { type: 'string' },
  owner: { type: 'string' },
  cause: { type: 'string' },
  reason: { type: 'string' },
  id: { type: 'string' },
  'first-seen': { type: 'string' },
  expires: { type: 'string' },
  'max-runs': { type: 'string' },
  ticket: { type: 'string' },
  'from-card': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' }
} as const

type Values = ReturnType<typeof parse>['values']

function parse(argv: string[]) {
  return parseArgs({ args: argv, strict: true, allowPositionals: true, options: OPTIONS })
}

class Usage extends Error {}

interface Target {
  /** Absolute path of the ledger file. */
  abs: string
  /** Path as the messages show it (relative to the repository). */
  file: string
  today: string
  maxDays: LedgerMaxDays
}

export async function runLedgerCommand(argv: string[], io: Io): Promise<number> {
  try {
    const { values, positionals } = parse(argv)
    const [sub, ...extra] = positionals
    if (values.help || sub === 'help') {
      io.stdout.write(LEDGER_USAGE)
      return EXIT.ok
    }
    if (extra.length > 0) throw new Usage(`unexpected argument "${extra[0]}"`)
    if (sub !== 'add' && sub !== 'check' && sub !== 'list') {
      throw new Usage(
        sub === undefined
          ? 'missing subcommand (add, check or list)'
          : `unknown subcommand "${sub}"`
      )
    }
    const target = await resolveTarget(values, io)
    if (sub === 'add') return await add(values, target, io)
    if (sub === 'check') return await check(target, io)
    return await list(values, target, io)
  } catch (error) {
    if (error instanceof Usage || (error instanceof TypeError && 'code' in error)) {
      io.stderr.write(`oracle-gate ledger: ${logText(error.message)}\n\n${LEDGER_USAGE}`)
      return EXIT.error
    }
    io.stderr.write(
      `oracle-gate ledger: ${logText(error instanceof Error ? error.message : String(error))}\n`
    )
    return EXIT.error
  }
}

async function resolveTarget(v: Values, io: Io): Promise<Target> {
  const repo = resolve(io.cwd, v.repo ?? '.')
  const today = v.today ?? utcToday()
  if (!isCalendarDate(today))
    throw new Usage(`--today must be a calendar date YYYY-MM-DD, got "${today}"`)
  let maxDays: LedgerMaxDays | undefined
  if (v['max-days'] !== undefined) {
    const days = Number(v['max-days'])
    maxDays = days
    if (!Number.isInteger(days) || days < 1)
      throw new Usage(`--max-days must be an integer >= 1, got "${v['max-days']}"`)
  }
  let file = v.file
  if (file === undefined || maxDays === undefined) {
    const policyPath = v.policy ?? DEFAULT_POLICY_PATH
    const policyFile = resolve(repo, policyPath)
    if (existsSync(policyFile)) {
      // parsePolicy throws a message naming file, line and key when the policy is invalid.
      const policy = parsePolicy(await readFile(policyFile, 'utf8'), policyPath)
      file ??= policy.ledger
      maxDays ??= policy.ledger_max_days
    } else if (v.policy !== undefined) {
      throw new Usage(`policy ${policyPath} not found in ${repo}`)
    }
  }
  if (file === undefined)
    throw new Usage(`no ledger: pass --file PATH or set "ledger:" in the policy`)
  const abs = resolve(repo, file)
  return {
    abs,
    file: relative(repo, abs).replace(/\\/g, '/') || file,
    today,
    // No policy to read: the policy schema's own default, never a second copy of it.
    maxDays: maxDays ?? policySchema.properties.ledger_max_days.default
  }
}

async function readLedger(target: Target): Promise<string | null> {
  return existsSync(target.abs) ? readFile(target.abs, 'utf8') : null
}

async function add(v: Values, target: Target, io: Io): Promise<number> {
  if (v['from-card'] !== undefined) return fromCard(v, target, io)
  const missing = (['test', 'owner', 'cause', 'reason'] as const).filter(
    k => v[k] === undefined || v[k].trim() === ''
  )
  if (missing.length > 0) throw new Usage(`add needs ${missing.map(k => `--${k}`).join(', ')}`)
  const existing = await readLedger(target)
  const before =
    existing === null
      ? undefined
      : ledgerFromText(existing, target.file, target.today, target.maxDays)
  const invalid = before?.reasons.filter(r => r.rule === 'ledger-invalid') ?? []
  if (invalid.length > 0) {
    io.stderr.write(
      `refused: ${target.file} is invalid; fix it first:\n${invalid.map(r => `  ${r.message}\n`).join('')}`
    )
    return EXIT.refused
  }
  const maxRuns = v['max-runs'] === undefined ? 3 : Number(v['max-runs'])
  const row: Record<string, unknown> = {
    id: v.id ?? nextId(before?.rows.map(r => r.id) ?? []),
    test: v.test,
    cause: v.cause,
    reason: v.reason,
    owner: v.owner,
    first_seen: v['first-seen'] ?? target.today,
    expires_on: v.expires ?? addDays(target.today, 14),
    // A non-numeric --max-runs stays a string so the schema names it.
    max_runs: Number.isNaN(maxRuns) ? v['max-runs'] : maxRuns,
    ticket: v.ticket
  }
  const text = appendRow(existing, target.file, row)
  const index = before?.rows.length ?? 0
  const problems = parseLedger(text, target.file, {
    today: target.today,
    maxDays: target.maxDays
  }).problems
  if (problems.length > 0) {
    io.stderr.write(
      `refused: the row would not validate:\n${problems.map(p => `  ${describeForFlags(p, index)}\n`).join('')}`
    )
    return EXIT.refused
  }
  if (daysBetween(target.today, String(row.expires_on)) < 0) {
    io.stderr.write(
      `refused: --expires ${String(row.expires_on)} is before today (${target.today})\n`
    )
    return EXIT.refused
  }
  await mkdir(dirname(target.abs), { recursive: true })
  await writeFile(target.abs, text)
  io.stdout.write(
    `added ${logText(String(row.id))}: ${logText(String(row.test))} (owner ${logText(String(row.owner))}, expires ${String(row.expires_on)}) to ${target.file}\n`
  )
  io.stderr.write('Commit it in a PR of its own: the gate reads the ledger from the merge base.\n')
  for (const debt of before?.freeze_debt ?? []) {
    io.stderr.write(
      `note: row "${debt.id}" (${debt.test}) expired ${debt.days_overdue} day(s) ago and still blocks the gate\n`
    )
  }
  return EXIT.ok
}

/** Rows a scorecard suggests: its flakes, and voting tests broken on both sides (env). */
export function cardRows(
  card: unknown,
  cause: string | undefined
): { test: string; cause: string; reason: string }[] {
  const c = (card ?? {}) as {
    flakes?: { test?: unknown; side?: unknown; outcomes?: unknown }[]
    transitions?: { fail_to_fail?: unknown[] }
    reasons?: { message?: unknown; test?: unknown }[]
    head?: unknown
  }
  const at = typeof c.head === 'string' ? ` at ${shortSha(c.head)}` : ''
  const messages = (c.reasons ?? []).map(r => String(r.message ?? ''))
  const rows = new Map<string, { test: string; cause: string; reason: string }>()
  for (const f of Array.isArray(c.flakes) ? c.flakes : []) {
    if (typeof f.test !== 'string' || rows.has(f.test)) continue
    const text = messages.filter(m => m.includes(f.test as string)).join(' ')
    const outcomes = Array.isArray(f.outcomes) ? f.outcomes.map(String).join(', ') : ''
    rows.set(f.test, {
      test: f.test,
      cause: cause ?? (text === '' ? 'shared' : guessCause(text)),
      reason: `flaky on ${String(f.side)}${at}: ${outcomes}`
    })
  }
  for (const test of c.transitions?.fail_to_fail ?? []) {
    if (typeof test !== 'string' || rows.has(test)) continue
    rows.set(test, {
      test,
      cause: cause ?? 'env',
      reason: `failed on base and head${at}: broken in this environment`
    })
  }
  return [...rows.values()]
}

async function fromCard(v: Values, target: Target, io: Io): Promise<number> {
  if (v.test !== undefined || v.id !== undefined)
    throw new Usage('--from-card takes the tests from the card: drop --test and --id')
  if (v.owner === undefined || v.owner.trim() === '') throw new Usage('add needs --owner')
  let card: unknown
  try {
    card = JSON.parse(await readFile(resolve(io.cwd, v['from-card'] ?? ''), 'utf8'))
  } catch (error) {
    throw new Usage(
      `cannot read the card: ${error instanceof Error ? error.message : String(error)}`
    )
  }
  const existing = await readLedger(target)
  const live =
    existing === null
      ? new Set<string>()
      : new Set(ledgerFromText(existing, target.file, target.today, target.maxDays).live.keys())
  const rows = cardRows(card, v.cause).filter(r => !live.has(r.test))
  if (rows.length === 0) {
    io.stderr.write(
      'nothing to add: the card lists no flaky or environment-broken test the ledger does not cover\n'
    )
    return EXIT.ok
  }
  for (const row of rows) {
    const code = await add(
      {
        ...v,
        'from-card': undefined,
        test: row.test,
        cause: row.cause,
        reason: v.reason ?? row.reason
      },
      target,
      io
    )
    if (code !== EXIT.ok) return code
  }
  return EXIT.ok
}

const FLAGS: Record<string, string> = {
  id: '--id',
  test: '--test',
  cause: '--cause',
  reason: '--reason',
  owner: '--owner',
  first_seen: '--first-seen',
  expires_on: '--expires',
  max_runs: '--max-runs',
  ticket: '--ticket'
}

/** Problems of the new row are told in terms of the flags that set them. */
function describeForFlags(p: LedgerProblem, newIndex: number): string {
  if (p.index === newIndex && p.field !== undefined && FLAGS[p.field])
    return `${FLAGS[p.field]}: ${p.message}`
  return formatProblem(p)
}

async function check(target: Target, io: Io): Promise<number> {
  const text = await readLedger(target)
  if (text === null) {
    io.stderr.write(`${target.file}: does not exist\n`)
    return EXIT.refused
  }
  const state = ledgerFromText(text, target.file, target.today, target.maxDays)
  for (const r of state.reasons)
    io.stderr.write(
      `${r.level === 'failure' ? 'error' : r.level}: ${r.rule}: ${logText(r.message)}\n`
    )
  const failed = state.reasons.some(r => r.level === 'failure')
  io.stdout.write(
    `${target.file}: ${failed ? 'INVALID' : 'valid'}: ${state.rows.length} row(s), ${state.live.size} live, ${state.freeze_debt.length} expired (today ${target.today})\n`
  )
  return failed ? EXIT.refused : EXIT.ok
}

async function list(v: Values, target: Target, io: Io): Promise<number> {
  const text = await readLedger(target)
  if (text === null) {
    io.stderr.write(`${target.file}: does not exist\n`)
    return EXIT.refused
  }
  const state = ledgerFromText(text, target.file, target.today, target.maxDays)
  const rows = state.rows.map(r => ({ ...r, ...status(r.expires_on, target.today) }))
  const invalid = state.reasons.filter(r => r.rule === 'ledger-invalid')
  if (v.json) {
    io.stdout.write(
      JSON.stringify(
        {
          path: target.file,
          today: target.today,
          rows,
          freeze_debt: state.freeze_debt,
          problems: invalid.map(r => r.message)
        },
        null,
        2
      ) + '\n'
    )
  } else {
    io.stdout.write(renderTable(rows, state, target))
  }
  for (const r of invalid) io.stderr.write(`error: ${logText(r.message)}\n`)
  return invalid.length > 0 ? EXIT.refused : EXIT.ok
}

function status(
  expires: string,
  today: string
): { status: 'live' | 'expiring' | 'expired'; days_left: number } {
  const left = daysBetween(today, expires)
  return {
    status: left < 0 ? 'expired' : left <= EXPIRING_WITHIN_DAYS ? 'expiring' : 'live',
    days_left: left
  }
}

function renderTable(
  rows: Array<{
    id: string
    test: string
    owner: string
    cause: string
    expires_on: string
    status: string
    days_left: number
  }>,
  state: LedgerState,
  target: Target
): string {
  if (rows.length === 0) return `${target.file}: no rows\n`
  const header = ['ID', 'TEST', 'OWNER', 'CAUSE', 'EXPIRES', 'STATUS']
  const body = rows.map(r => [
    r.id,
    r.test,
    r.owner,
    r.cause,
    r.expires_on,
    r.status === 'expired'
      ? `EXPIRED ${-r.days_left}d ago`
      : r.status === 'expiring'
        ? `expiring in ${r.days_left}d`
        : 'live'
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...body.map(b => b[i]!.length)))
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd() + '\n'
  let out = line(header) + body.map(line).join('')
  const debt = state.freeze_debt
  out += `\n${rows.length} row(s), ${state.live.size} live; debt: ${debt.length === 0 ? 'none' : debt.map(d => `${d.id} (${d.owner}, ${d.days_overdue}d overdue)`).join(', ')}\n`
  return out
}
