// What a primed base result was measured with, and whether that is what this run would
// measure with. A stored base side is only as good as the match: any field that differs
// (or is missing) means the base is run again, so the comparison names every difference.
// Pure: the caller gathers the inputs (collect.ts).
export interface RunnerFacts {
  os: string
  arch: string
  release: string
  /** GitHub-hosted runners: ImageOS / ImageVersion, empty elsewhere. */
  image_os: string
  image_version: string
}

export interface Fingerprint {
  /** The commit whose base side was measured (the merge base a judge run must have). */
  commit: string
  /** The oracle digest of that commit's instrument (instrument/digest.ts). */
  instrument_digest: string
  /** sha256 of the policy file's bytes at that commit. */
  policy_digest: string
  /** The policy's suite section (command, setup, reruns, timeouts…) as canonical JSON. */
  suite_command: string
  /** Lockfile path → git blob id at that commit. */
  lockfiles: Record<string, string>
  runner: RunnerFacts
  gate_version: string
}

/** Human names of the fields, for the reason a stored result is refused. */
const LABELS: Record<keyof Fingerprint, string> = {
  commit: 'commit',
  instrument_digest: 'instrument digest',
  policy_digest: 'policy digest',
  suite_command: 'suite command',
  lockfiles: 'lockfiles',
  runner: 'runner OS/image',
  gate_version: 'gate version'
}

/** One line per differing field ("instrument digest: stored X, this run Y"); [] = match. */
export function fingerprintDifferences(stored: Fingerprint, wanted: Fingerprint): string[] {
  const out: string[] = []
  for (const key of Object.keys(LABELS) as (keyof Fingerprint)[]) {
    const a = canonical(stored[key])
    const b = canonical(wanted[key])
    if (a !== b) out.push(`${LABELS[key]}: stored ${short(a)}, this run ${short(b)}`)
  }
  return out
}

/** JSON with object keys sorted, so key order never makes two equal values differ. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0
    )
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

function short(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}…` : s
}

/** Lockfiles the fingerprint covers, by base name (any directory). */
export const LOCKFILE_NAMES: ReadonlySet<string> = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'bun.lock',
  'poetry.lock',
  'uv.lock',
  'Pipfile.lock',
  'pdm.lock',
  'requirements.txt',
  'go.sum',
  'Cargo.lock',
  'Gemfile.lock',
  'composer.lock'
])

/** Lockfile path → blob id among a tree's entries. Pure. */
export function lockfileDigests(
  entries: Iterable<{ path: string; sha: string }>
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const e of entries) {
    const name = e.path.slice(e.path.lastIndexOf('/') + 1)
    if (LOCKFILE_NAMES.has(name)) out[e.path] = e.sha
  }
  return out
}
