// What the project's own CI does to run its tests (issue 25): the environment its test step
// sets (luxon's TZ and LANG: its tests fail in any other zone) and the command it runs, read
// from .github/workflows/*.yml so init can propose them as suite.env and suite.command.
// Only literal values are taken (a `${{ … }}` expression names a secret or a matrix), and
// never a credential or a runner variable. Pure: workflow texts in, a proposal out.
import { parse } from 'yaml'
import { isCredentialName } from '../exec/env.js'

export interface CiProposal {
  /** The workflow file and the step the proposal comes from. */
  source: string
  env: Record<string, string>
  /** The step's command, one line (the first test command it runs). */
  command: string
}

const TEST_COMMAND =
  /\b(npm (run )?test|npm t\b|pnpm (run )?test|yarn (run )?test|bun (run )?test|pytest|vitest|jest|node --test|tox|nox|make test|python[\d.]* -m (pytest|unittest))/

/** Variables a test step may set that the gate sets itself or that describe the runner. */
const IGNORED =
  /^(CI|GITHUB_\w*|RUNNER_\w*|ACTIONS_\w*|FORCE_COLOR|TERM)$|KEY|TOKEN|SECRET|PASSW|AUTH|CREDENTIAL|COOKIE|SESSION/i

type Map = Record<string, unknown>

/** The first test step of the first workflow that has one (files sorted by name). */
export function ciProposal(
  workflows: readonly { path: string; text: string }[]
): CiProposal | null {
  for (const wf of [...workflows].sort((a, b) => a.path.localeCompare(b.path))) {
    let doc: unknown
    try {
      doc = parse(wf.text)
    } catch {
      continue
    }
    const found = testStep(wf.path, asMap(doc))
    if (found !== null) return found
  }
  return null
}

function testStep(path: string, doc: Map | null): CiProposal | null {
  if (doc === null) return null
  const jobs = asMap(doc.jobs) ?? {}
  for (const [jobName, jobValue] of Object.entries(jobs)) {
    const job = asMap(jobValue)
    if (job === null || !Array.isArray(job.steps)) continue
    for (const stepValue of job.steps) {
      const step = asMap(stepValue)
      const run = typeof step?.run === 'string' ? step.run : null
      if (run === null) continue
      const line = run.split('\n').find(l => TEST_COMMAND.test(l))
      if (line === undefined) continue
      const { inline, command } = leadingAssignments(line.trim())
      const env = {
        ...literalEnv(doc.env),
        ...literalEnv(job.env),
        ...literalEnv(step?.env),
        ...inline
      }
      const name = typeof step?.name === 'string' ? step.name : jobName
      return { source: `${path} (job ${jobName}, step ${name})`, env, command }
    }
  }
  return null
}

function asMap(v: unknown): Map | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Map) : null
}

function literalEnv(v: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(asMap(v) ?? {})) {
    if (!/^[A-Za-z_]\w*$/.test(name) || IGNORED.test(name) || isCredentialName(name)) continue
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
      continue
    const text = String(value)
    if (text.includes('${{') || /[\r\n]/.test(text)) continue
    out[name] = text
  }
  return out
}

/** `TZ=UTC LANG=C npm test` → the assignments, and the command after them. */
function leadingAssignments(line: string): { inline: Record<string, string>; command: string } {
  const inline: Record<string, string> = {}
  let rest = line
  for (;;) {
    const m = /^([A-Za-z_]\w*)=("[^"]*"|'[^']*'|[^\s"'$`]*)\s+/.exec(rest)
    if (m?.[1] === undefined) break
    const value = (m[2] ?? '').replace(/^(["'])(.*)\1$/, '$2')
    if (!IGNORED.test(m[1]) && !isCredentialName(m[1]) && !value.includes('$')) inline[m[1]] = value
    rest = rest.slice(m[0].length)
  }
  return { inline, command: rest }
}
