// Where skip-marker finds the helpers a test imports: the module a test names, read at the
// same revision as the test (head for the head's file, merge base for the base's), parsed
// once per run, and reduced to its marked exports (a skipping helper exported from a
// production file marks the test that calls it). Only files of the repository's tree are
// read; a framework or a third-party package is never a candidate.
import type { GateContext } from '../../context.js'
import { familyOf } from '../../lang.js'
import { normalisePath } from '../../writeset/planes.js'
import { listBlobs, MAX_LINT_BLOB_BYTES, readBlobs } from '../blobs.js'
import { helperExports, type HelperResolver } from './scan.js'
import type { HelperExports } from './markers.js'

/** Extensions a JS/TS import may leave out, in the order resolvers try them. */
const SCRIPT_SUFFIXES = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']

export function helperResolver(ctx: GateContext): HelperResolver {
  const seen = new Map<string, Promise<HelperExports | undefined>>()
  return async (side, from, specifier) => {
    const rev = side === 'head' ? ctx.head : ctx.mergeBase
    const tree = await ctx.trees.get(rev)
    const candidates =
      familyOf(from) === 'python'
        ? pythonCandidates(from, specifier)
        : scriptCandidates(from, specifier)
    const path = candidates.find(p => tree.get(p)?.type === 'blob')
    if (path === undefined) return undefined
    const key = `${rev}\0${path}`
    let found = seen.get(key)
    if (found === undefined) {
      found = readHelper(ctx, rev, path)
      seen.set(key, found)
    }
    return found
  }
}

/** A helper too large to read whole (a generated module) exports no marker the lint sees. */
async function readHelper(
  ctx: GateContext,
  rev: string,
  path: string
): Promise<HelperExports | undefined> {
  const listed = (await listBlobs(ctx.git, rev, [path])).get(path)
  if (listed === undefined || listed.size > MAX_LINT_BLOB_BYTES) return undefined
  const bytes = (await readBlobs(ctx.git, rev, [path])).get(path)
  return bytes === undefined ? undefined : helperExports(path, bytes.toString('utf8'))
}

function dirOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1)
}

/** `./x`, `../src/y.js`: the file itself, with an extension, `.js` read as `.ts`, an index. */
export function scriptCandidates(from: string, specifier: string): string[] {
  if (!specifier.startsWith('.')) return []
  const target = normalisePath(`${dirOf(from)}${specifier}`)
  if (target === '' || target.startsWith('..')) return []
  const stem = target.replace(/\.[cm]?jsx?$/, '')
  return [
    target,
    ...SCRIPT_SUFFIXES.map(s => `${target}${s}`),
    ...SCRIPT_SUFFIXES.map(s => `${stem}${s}`),
    ...SCRIPT_SUFFIXES.map(s => `${target}/index${s}`)
  ].filter(p => familyOf(p) === 'js')
}

/**
 * `.helpers`, `..app.testing` relative to the importing file's package; `app.testing` from
 * the repository root, a `src/` layout, or the test's own folder (pytest puts it on the path).
 */
export function pythonCandidates(from: string, module: string): string[] {
  const dots = /^\.*/.exec(module)![0].length
  const parts = module
    .slice(dots)
    .split('.')
    .filter(p => p !== '')
  const roots: string[] = []
  if (dots > 0) {
    let dir = dirOf(from)
    for (let i = 1; i < dots; i++) dir = dirOf(dir.slice(0, -1))
    roots.push(dir)
  } else {
    roots.push('', 'src/', dirOf(from))
  }
  const out: string[] = []
  for (const root of roots) {
    const base = `${root}${parts.join('/')}`
    if (parts.length > 0) out.push(`${base}.py`)
    out.push(parts.length > 0 ? `${base}/__init__.py` : `${root}__init__.py`)
  }
  return [...new Set(out.map(normalisePath))].filter(p => !p.startsWith('..'))
}
