// `oracle-gate prime --out FILE`: measures the base side of one commit (the default
// branch's tip, normally) with that commit's own instrument and stores it with its
// fingerprint, so `check --base-results FILE` on a PR whose merge base is that commit
// need not run the base suite again (src/prime/, docs/replay.md "Primed base results").
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { resolve } from 'node:path'
import { check } from '../gate.js'
import { DEFAULT_POLICY_PATH } from '../policy/load.js'
import { primingBase } from '../prime/source.js'
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
  // A stale file from an earlier run must never be mistaken for this run's result.
  await rm(out, { force: true })
  const commit = values.commit ?? 'HEAD'
  const repoDir = resolve(io.cwd, values.repo ?? '.')
  const label = values.label ?? `oracle-gate prime of ${commit} (local)`
  const card = await check({
    repoDir,
    base: commit,
    head: commit,
    policyPath: values.policy ?? DEFAULT_POLICY_PATH,
    log: stderrLogger(io.stderr, !values.quiet),
    env: io.env,
    baseSource: primingBase(out, { kind: 'local', label }, io.env),
    // The head would be the same commit: one suite run (with its reruns) is the whole cost.
    baseOnly: true
  })
  if (card.verdict === 'error' || !existsSync(out)) {
    await rm(out, { force: true })
    const why = card.reasons.filter(r => r.level === 'failure').map(r => r.message)
    io.stderr.write(
      `oracle-gate prime: no primed result written: ${logText(why.join('; ') || 'the base side was not measured')}\n`
    )
    return EXIT.error
  }
  io.stderr.write(`oracle-gate prime: wrote ${logText(out)} for ${card.base || commit}\n`)
  return EXIT.ok
}
