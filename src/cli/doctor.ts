// `oracle-gate doctor`: is the instrument at a commit fit to vote? Runs the locked suite
// there several times and reports flakes, duplicate and shadowed ids, plane and glob
// mistakes and the src/ layout import trap. Exit codes: 0 fit, 1 not fit (a blocker), 4
// usage or a run that could not be made (no policy, setup failed).
import { writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { utcToday } from '../clock.js'
import { doctorMarkdown } from '../doctor/markdown.js'
import { doctor } from '../doctor/run.js'
import { DEFAULT_POLICY_PATH } from '../policy/load.js'
import { logText } from '../report/sanitize.js'
import { EXIT, parseFlags, type Io } from './io.js'
import { stderrLogger } from './logger.js'

export const DOCTOR_USAGE = `Usage: oracle-gate doctor [--ref REF] [--runs N] [--repo DIR] [--policy PATH]
                         [--owner WHO] [--today YYYY-MM-DD] [--json FILE] [--markdown FILE]

Runs the locked suite of REF (default HEAD; policy read at REF) N times (default 3) in a
temporary worktree, and reports voting tests by file, runtimes, tests that flake across
runs (with proposed ledger rows), collection errors (file and cause), duplicate and
shadowed test ids, test files on no plane,
voting files without tests, globs matching nothing, the src/ layout import trap and the
runner configuration found. Markdown on stdout (or --markdown FILE), JSON with --json FILE.
Exit codes: 0 fit to vote, 1 not fit (a blocker is listed), 4 usage or the run failed.
`

export async function runDoctor(argv: string[], io: Io): Promise<number> {
  const parsed = parseFlags(argv, {
    ref: { type: 'string' },
    runs: { type: 'string' },
    repo: { type: 'string' },
    policy: { type: 'string' },
    owner: { type: 'string' },
    today: { type: 'string' },
    json: { type: 'string' },
    markdown: { type: 'string' },
    help: { type: 'boolean', short: 'h' }
  })
  if ('error' in parsed) {
    io.stderr.write(`oracle-gate doctor: ${logText(parsed.error)}\n${DOCTOR_USAGE}`)
    return EXIT.error
  }
  const v = parsed.values
  if (v.help) {
    io.stdout.write(DOCTOR_USAGE)
    return EXIT.ok
  }
  const runs = Number(v.runs ?? '3')
  if (!Number.isInteger(runs) || runs < 1 || runs > 50) {
    io.stderr.write('oracle-gate doctor: --runs takes a whole number from 1 to 50\n')
    return EXIT.error
  }
  try {
    const report = await doctor({
      repoDir: resolve(io.cwd, v.repo ?? '.'),
      ref: v.ref ?? 'HEAD',
      policyPath: v.policy ?? DEFAULT_POLICY_PATH,
      runs,
      today: v.today ?? utcToday(),
      owner: v.owner ?? 'unassigned',
      log: stderrLogger(io.stderr, true),
      env: io.env
    })
    const md = doctorMarkdown(report)
    if (v.json) await writeFile(resolve(io.cwd, v.json), JSON.stringify(report, null, 2) + '\n')
    if (v.markdown) await writeFile(resolve(io.cwd, v.markdown), md)
    else io.stdout.write(md)
    io.stderr.write(
      report.fit ? 'doctor: fit to vote\n' : 'doctor: NOT fit to vote (see the blockers)\n'
    )
    return report.fit ? EXIT.ok : 1
  } catch (error) {
    io.stderr.write(
      `oracle-gate doctor: ${logText(error instanceof Error ? error.message : String(error))}\n`
    )
    return EXIT.error
  }
}
