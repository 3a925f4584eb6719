// `oracle-gate check|init|ledger`, --help, --version. Usage errors exit 4 (the gate could
// not decide); `check` writes a scorecard in every outcome, usage errors included.
import { writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { utcToday } from '../clock.js'
import { check, type CheckOptions } from '../gate.js'
import { GateError, reasonFromError } from '../errors.js'
import { DEFAULT_POLICY_PATH } from '../policy/load.js'
import { primedBase } from '../prime/source.js'
import { readPrimed } from '../prime/store.js'
import { logText } from '../report/sanitize.js'
import { checkShard } from '../shard/run.js'
import { parseShard } from '../shard/split.js'
import { emptyScorecard, finalize } from '../verdict/scorecard.js'
import { VERSION } from '../version.js'
import { EXIT, folderProblem, parseFlags, type Io } from './io.js'
import { stderrLogger } from './logger.js'
import { runDoctor } from './doctor.js'
import { runInit } from './init.js'
import { runLedgerCommand } from './ledger.js'
import { emitCard } from './card-out.js'
import { runMerge } from './merge.js'
import { runPrime } from './prime.js'
import { humanSummary } from './summary.js'

export const USAGE = `oracle-gate ${VERSION}: may an agent's pull request merge?

Usage:
  oracle-gate check --base REF [--head REF] [--repo DIR] [--policy PATH]
                    [--today YYYY-MM-DD] [--json FILE] [--markdown FILE] [--quiet]
                    [--base-results FILE] [--attestation FILE]
                    [--shard I/N --out FILE]
  oracle-gate merge FILE... [--repo DIR] [--json FILE] [--markdown FILE]
                    [--attestation FILE]
  oracle-gate prime --out FILE [--commit REF] [--repo DIR] [--policy PATH]
  oracle-gate init [--repo DIR] [--policy PATH] [--force]
  oracle-gate doctor [--ref REF] [--runs N] [--json FILE] [--markdown FILE]   (doctor --help)
  oracle-gate ledger add|check|list [options]   (oracle-gate ledger --help)
  oracle-gate --help | --version

check   judges HEAD (or --head) against the merge base with --base. The policy, ledger,
        fixtures, seeds and runner configuration are read from the merge base.
        Prints progress and a summary on stderr, the scorecard JSON on stdout
        (or into --json FILE).
prime   measures the base side of --commit (default HEAD) and stores it with its
        fingerprint; check --base-results FILE reuses it when the merge base and the
        fingerprint match, and runs the base as usual otherwise (the reason is logged).
--shard I/N --out FILE  runs only shard I of N of the voting test files on both sides
        and writes a shard scorecard (exit 0 unless the shard ended in error);
merge   merges the N shard scorecards into one verdict (an error when a shard is
        missing, duplicated, foreign or altered); --repo is the checkout of the commits.
--attestation FILE  an in-toto Statement (test-result predicate) over the --json file.
init    writes a commented starter policy (default ${DEFAULT_POLICY_PATH}).

Exit codes: 0 merge, 1 product, 2 policy, 3 no-vote, 4 error.
`

const defaultIo = (): Io => ({
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env
})

/** The subcommands, each with its own flags (and --help). */
const COMMANDS: Readonly<Record<string, (argv: string[], io: Io) => Promise<number>>> = {
  check: runCheck,
  init: runInit,
  ledger: runLedgerCommand,
  prime: runPrime,
  merge: runMerge,
  doctor: runDoctor
}

export async function main(argv: string[], io: Io = defaultIo()): Promise<number> {
  const [command, ...rest] = argv
  switch (command) {
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      io.stdout.write(USAGE)
      return command === undefined ? EXIT.error : EXIT.ok
    case '-v':
    case '--version':
    case 'version':
      io.stdout.write(`${VERSION}\n`)
      return EXIT.ok
  }
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined
  if (run) return run(rest, io)
  io.stderr.write(`oracle-gate: unknown command "${logText(command)}"\n\n${USAGE}`)
  return EXIT.error
}

async function runCheck(argv: string[], io: Io): Promise<number> {
  const parsed = parseFlags(argv, {
    base: { type: 'string' },
    head: { type: 'string' },
    repo: { type: 'string' },
    policy: { type: 'string' },
    today: { type: 'string' },
    json: { type: 'string' },
    markdown: { type: 'string' },
    quiet: { type: 'boolean', short: 'q' },
    'base-results': { type: 'string' },
    attestation: { type: 'string' },
    shard: { type: 'string' },
    out: { type: 'string' },
    help: { type: 'boolean', short: 'h' }
  })
  if ('error' in parsed) return usageFailure(io, parsed.error, {})
  const v = parsed.values
  if (v.help) {
    io.stdout.write(USAGE)
    return EXIT.ok
  }
  if (!v.base) return usageFailure(io, '--base REF is required', v)
  if (v.attestation !== undefined && v.json === undefined)
    return usageFailure(io, '--attestation needs --json FILE (its subject)', v)
  const repoDir = resolve(io.cwd, v.repo ?? '.')
  const missing = folderProblem(repoDir)
  if (missing !== null) return usageFailure(io, `--repo: ${missing}`, v)
  const options = {
    repoDir,
    base: v.base,
    ...(v.head !== undefined ? { head: v.head } : {}),
    policyPath: v.policy ?? DEFAULT_POLICY_PATH,
    ...(v.today !== undefined ? { today: v.today } : {}),
    log: stderrLogger(io.stderr, !v.quiet),
    env: io.env,
    ...(v['base-results'] !== undefined
      ? {
          baseSource: primedBase(() => readPrimed(resolve(io.cwd, v['base-results'] ?? '')), io.env)
        }
      : {})
  }
  if (v.shard !== undefined || v.out !== undefined) return runShardCheck(options, v, io)
  return emitCard(await check(options), v, io, repoDir)
}

/** `check --shard I/N --out FILE`: the shard scorecard into FILE (src/shard/run.ts). */
async function runShardCheck(
  options: CheckOptions,
  v: { shard?: string; out?: string; today?: string; policy?: string; json?: string },
  io: Io
): Promise<number> {
  const shard = v.shard === undefined ? '--out FILE needs --shard I/N' : parseShard(v.shard)
  if (typeof shard === 'string') return usageFailure(io, shard, v)
  if (v.out === undefined) return usageFailure(io, '--shard I/N needs --out FILE', v)
  const card = await checkShard({ ...options, shard })
  await writeFile(resolve(io.cwd, v.out), JSON.stringify(card, null, 2) + '\n')
  io.stderr.write(humanSummary(card))
  io.stderr.write(`oracle-gate: shard ${shard.index}/${shard.total} written to ${logText(v.out)}\n`)
  return card.verdict === 'error' ? EXIT.error : EXIT.ok
}

async function usageFailure(
  io: Io,
  message: string,
  v: { json?: string; markdown?: string; today?: string; policy?: string }
): Promise<number> {
  io.stderr.write(`oracle-gate check: ${logText(message)}\n(see oracle-gate check --help)\n`)
  const card = finalize(
    emptyScorecard({
      version: VERSION,
      today: v.today ?? utcToday(),
      policyPath: v.policy ?? DEFAULT_POLICY_PATH
    }),
    [reasonFromError(new GateError(`usage: ${message}`, { rule: 'config-invalid' }))]
  )
  return emitCard(card, v, io)
}
