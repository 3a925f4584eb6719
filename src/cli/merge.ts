// `oracle-gate merge FILE...`: the N shard scorecards of one gate (`check --shard I/N
// --out FILE`) into one verdict. The shards are checked first (src/shard/shards.ts: none
// missing, duplicated, foreign or altered), then the gate runs the stages before the replay
// again from the shards' commits in --repo and scores the merged observations once
// (src/shard/merge.ts). Any refusal is a card with verdict `error` naming the shard.
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { utcToday } from '../clock.js'
import { GateError, reasonFromError } from '../errors.js'
import { DEFAULT_POLICY_PATH } from '../policy/load.js'
import { logText } from '../report/sanitize.js'
import { mergeShards } from '../shard/merge.js'
import { loadShards, type ShardFile } from '../shard/shards.js'
import { emptyScorecard, finalize } from '../verdict/scorecard.js'
import { VERSION } from '../version.js'
import { emitCard } from './card-out.js'
import { EXIT, type Io } from './io.js'
import { stderrLogger } from './logger.js'
import { parseArgs } from 'node:util'

const OPTIONS = {
  repo: { type: 'string' },
  json: { type: 'string' },
  markdown: { type: 'string' },
  attestation: { type: 'string' },
  quiet: { type: 'boolean', short: 'q' }
} as const

export async function runMerge(argv: string[], io: Io): Promise<number> {
  let parsed: ReturnType<
    typeof parseArgs<{
      args: string[]
      options: typeof OPTIONS
      allowPositionals: true
      strict: true
    }>
  >
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true })
  } catch (error) {
    io.stderr.write(
      `oracle-gate merge: ${logText(error instanceof Error ? error.message : String(error))}\n`
    )
    return EXIT.error
  }
  const v = parsed.values
  if (v.attestation !== undefined && v.json === undefined) {
    io.stderr.write('oracle-gate merge: --attestation needs --json FILE (its subject)\n')
    return EXIT.error
  }
  const repoDir = resolve(io.cwd, v.repo ?? '.')
  const log = stderrLogger(io.stderr, !v.quiet)
  try {
    const files = await readShardFiles(parsed.positionals, io.cwd)
    const card = await mergeShards(loadShards(files), { repoDir, log, env: io.env })
    return emitCard(card, v, io, repoDir)
  } catch (error) {
    log.warning(`gate error: ${logText(error instanceof Error ? error.message : String(error))}`)
    const card = finalize(
      emptyScorecard({ version: VERSION, today: utcToday(), policyPath: DEFAULT_POLICY_PATH }),
      [reasonFromError(error)]
    )
    return emitCard(card, v, io)
  }
}

async function readShardFiles(paths: readonly string[], cwd: string): Promise<ShardFile[]> {
  return Promise.all(
    paths.map(async name => {
      try {
        return { name, text: await readFile(resolve(cwd, name), 'utf8') }
      } catch (error) {
        throw new GateError(
          `merge: cannot read ${logText(name)} (${error instanceof Error ? error.message : String(error)})`
        )
      }
    })
  )
}
