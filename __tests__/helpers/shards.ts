// Sharded runs for end-to-end tests: the same gate once unsharded and as N shards
// (`check --shard I/N --out FILE`) plus `merge` through the CLI, on a real repository.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import type { Io } from '../../src/cli/io.js'
import { main } from '../../src/cli/main.js'
import type { Scorecard } from '../../src/types.js'
import type { TestRepo } from './repo.js'

export function captureIo(cwd: string): Io & { out: () => string; err: () => string } {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', d => (out += String(d)))
  stderr.on('data', d => (err += String(d)))
  return {
    stdout,
    stderr,
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    out: () => out,
    err: () => err
  }
}

export interface ShardedRun {
  dir: string
  files: string[]
  shards: Scorecard[]
  exits: number[]
}

/** `check --shard I/N --out DIR/shard-I.json` for I = 1..N (or the `only` ones). */
export async function runShards(
  repo: TestRepo,
  total: number,
  head = 'agent',
  only?: readonly number[]
): Promise<ShardedRun> {
  const today = '2026-06-01'
  const dir = mkdtempSync(join(tmpdir(), 'og-shards-'))
  const files: string[] = []
  const shards: Scorecard[] = []
  const exits: number[] = []
  for (let i = 1; i <= total; i++) {
    if (only && !only.includes(i)) continue
    const out = join(dir, `shard-${i}.json`)
    const io = captureIo(repo.dir)
    exits.push(
      await main(
        [
          'check',
          '--base',
          'main',
          '--head',
          head,
          '--today',
          today,
          '--quiet',
          '--shard',
          `${i}/${total}`,
          '--out',
          out
        ],
        io
      )
    )
    files.push(out)
    shards.push(JSON.parse(readFileSync(out, 'utf8')) as Scorecard)
  }
  return { dir, files, shards, exits }
}

/** `merge FILE...` through the CLI: the card, its exit code and stderr. */
export async function runMerge(
  repo: TestRepo,
  files: readonly string[],
  extra: readonly string[] = []
): Promise<{ card: Scorecard; exit: number; err: string }> {
  const io = captureIo(repo.dir)
  const exit = await main(['merge', ...files, '--quiet', ...extra], io)
  const json = extra.includes('--json')
    ? readFileSync(join(repo.dir, extra[extra.indexOf('--json') + 1] ?? ''), 'utf8')
    : io.out()
  return { card: JSON.parse(json) as Scorecard, exit, err: io.err() }
}

/** `check` unsharded through the CLI. */
export async function runUnsharded(
  repo: TestRepo,
  head = 'agent',
  today = '2026-06-01'
): Promise<{ card: Scorecard; exit: number }> {
  const io = captureIo(repo.dir)
  const exit = await main(
    ['check', '--base', 'main', '--head', head, '--today', today, '--quiet'],
    io
  )
  return { card: JSON.parse(io.out()) as Scorecard, exit }
}

/** What must be the same sharded and unsharded. */
export function judged(card: Scorecard): unknown {
  return {
    verdict: card.verdict,
    votes: card.votes,
    transitions: card.transitions,
    seeds: card.seeds,
    flakes: card.flakes,
    diagnostics: card.diagnostics,
    failing: [...new Set(card.reasons.filter(r => r.level === 'failure').map(r => r.rule))].sort()
  }
}
