// Fixture integrity: the manifest read from the merge base names each fixture file and the
// sha256 of its bytes. Every file at head must still hash to it, so a patch that rewrites a
// golden file (and its manifest line with it) is caught: the base's manifest is the one
// that counts. A file that already mismatches at the merge base is the base's own policy
// error, reported as such so nobody blames the patch.
import { createHash } from 'node:crypto'
import { posix } from 'node:path'
import { GateError } from '../errors.js'
import { formatIssue, schemaValidator } from '../schema.js'
import validateManifest from '../generated/fixtures.mjs'
import type { Git } from '../git/git.js'
import { shortSha } from '../json.js'
import type { Reason } from '../types.js'
import { readBlobs } from '../git/blobs.js'
import { normalisePath } from '../writeset/planes.js'

export interface FixtureEntry {
  name: string
  /** Repository path (the manifest's `file` resolved against the manifest's folder). */
  path: string
  sha256: string
}

/** Parses a fixture manifest. Throws a config-invalid GateError naming manifest and entry. */
export function parseManifest(text: string, manifestPath: string): FixtureEntry[] {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new GateError(
      `fixture manifest ${manifestPath} is not valid JSON: ${(error as Error).message}`,
      { rule: 'config-invalid', path: manifestPath }
    )
  }
  const [issue] = schemaValidator(validateManifest)(value)
  if (issue) {
    const where = issue.path.length > 0 ? `, entry "${issue.path[0]}"` : ''
    throw new GateError(
      `fixture manifest ${manifestPath}${where} must be {NAME: {file, sha256}} (sha256: 64 hex digits): ${formatIssue(issue)}`,
      { rule: 'config-invalid', path: manifestPath }
    )
  }
  const folder = posix.dirname(normalisePath(manifestPath))
  const entries = value as Record<string, { file: string; sha256: string }>
  return Object.entries(entries).map(([name, { file, sha256 }]) => {
    const bad = (what: string): GateError =>
      new GateError(`fixture manifest ${manifestPath}, entry "${name}": ${what}`, {
        rule: 'config-invalid',
        path: manifestPath
      })
    const path = normalisePath(folder === '.' ? file : `${folder}/${file}`)
    if (path === '' || path === '..' || path.startsWith('../'))
      throw bad(`"file" ${file} leaves the repository`)
    return { name, path, sha256: sha256.toLowerCase() }
  })
}

/** The manifest at the merge base, or null when the policy names none. */
export async function readManifest(
  git: Git,
  mergeBase: string,
  manifestPath: string | undefined
): Promise<FixtureEntry[] | null> {
  if (manifestPath === undefined) return null
  const text = await git.showText(mergeBase, manifestPath)
  if (text === null) {
    throw new GateError(
      `the policy names fixture manifest ${manifestPath}, which does not exist at the merge base ${shortSha(mergeBase)}`,
      {
        rule: 'config-invalid',
        path: manifestPath
      }
    )
  }
  return parseManifest(text, manifestPath)
}

export async function checkFixtures(
  git: Git,
  mergeBase: string,
  head: string,
  manifestPath: string,
  entries: readonly FixtureEntry[]
): Promise<Reason[]> {
  const key = (rev: string, e: FixtureEntry): string => `${rev}:${e.path}`
  const blobs = await readBlobs(
    git,
    entries.flatMap(e => [key(mergeBase, e), key(head, e)])
  )
  const reasons: Reason[] = []
  for (const e of entries) {
    const atBase = blobs.get(key(mergeBase, e)) ?? null
    if (atBase === null || sha256(atBase) !== e.sha256) {
      reasons.push({
        rule: 'config-invalid',
        level: 'failure',
        path: manifestPath,
        message:
          `policy error in the base branch: fixture manifest ${manifestPath}, entry "${e.name}": ${e.path} ` +
          (atBase === null
            ? 'does not exist at the merge base'
            : `at the merge base hashes to ${sha256(atBase)}, not ${e.sha256}`) +
          '. Fix the manifest (or the file) on the base branch; the patch is not to blame.'
      })
      continue
    }
    const atHead = blobs.get(key(head, e)) ?? null
    if (atHead === null) {
      reasons.push({
        rule: 'fixture-digest',
        level: 'failure',
        path: e.path,
        message: `fixture "${e.name}" (${e.path}) is missing at head (${manifestPath} at the merge base lists it)`
      })
    } else if (sha256(atHead) !== e.sha256) {
      reasons.push({
        rule: 'fixture-digest',
        level: 'failure',
        path: e.path,
        message: `fixture "${e.name}" (${e.path}) at head hashes to ${sha256(atHead)}; ${manifestPath} at the merge base says ${e.sha256}`
      })
    }
  }
  return reasons
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex')
}
