// `oracle-gate prime --out FILE`: measures the base side of one commit (the default
// branch's tip, normally) with that commit's own instrument and stores it with its
// fingerprint, so `check --base-results FILE` on a PR whose merge base is that commit
// need not run the base suite again (src/prime/, docs/replay.md "Primed base results").
import { resolve } from 'node:path'
import { DEFAULT_POLICY_PATH } from '../policy/load.js'
import { primeCommit } from '../prime/prime.js'
import { logText } from '../report/sanitize.js'
import { EXIT, parseFlags, type Io } from './io.js'
import { stderrLogger } from './logger.js'

export async function runPrime(argv: string[], io: Io): Promise<number> {
  const parsed = parseFlags(argv, {
    out: { type: 'string' },
    commit: { type: 'string' },
    repo: { type: 'string' },
    policy: { type: 'string' },
    label: { type: 'string' },
    quiet: { type: 'boolean', short: 'q' }
  })
  if ('error' in parsed) {
    io.stderr.write(`oracle-gate prime: ${logText(parsed.error)}\n`)
    return EXIT.error
  }
  const { values } = parsed
  if (!values.out) {
    io.stderr.write('oracle-gate prime: --out FILE is required\n')
    return EXIT.error
  }
  const out = resolve(io.cwd, values.out)
  const commit = values.commit ?? 'HEAD'
  const label = values.label ?? `oracle-gate prime of ${commit} (local)`
  const result = await primeCommit(
    {
      repoDir: resolve(io.cwd, values.repo ?? '.'),
      base: commit,
      policyPath: values.policy ?? DEFAULT_POLICY_PATH,
      log: stderrLogger(io.stderr, !values.quiet),
      env: io.env
    },
    out,
    { kind: 'local', label }
  )
  const { card } = result
  if (!result.written) {
    io.stderr.write(`oracle-gate prime: no primed result written: ${logText(result.why)}\n`)
    return EXIT.error
  }
  io.stderr.write(`oracle-gate prime: wrote ${logText(out)} for ${card.base || commit}\n`)
  return EXIT.ok
}
