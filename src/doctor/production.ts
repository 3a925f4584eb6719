// doctor, with a production plane: every repository module a voting test imports must be
// production code or instrument. Anything else (a helper under tools/, a module outside
// the production globs) is the merge base's version in the head's vote, so a fix there is
// never measured. Pure: the tracked files and the voting tests' texts come in, the
// imports that resolve to a repository file outside both come out. Direct imports only,
// resolved the way the runners do for the common cases (Python dotted modules from the
// root, src/ and the pytest pythonpath; JavaScript relative specifiers with the usual
// extensions and index files).
import { posix } from 'node:path'

const PY_FROM = /^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+\(?([\w, \t*]+)/gm
const PY_IMPORT = /^[ \t]*import[ \t]+([\w., \t]+)/gm
const JS_SPEC = /(?:\bfrom\s*|\brequire\(\s*|\bimport\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g
const JS_EXT = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']

/** Repository files one voting test imports directly (those that resolve). */
export function importedFiles(
  test: string,
  text: string,
  files: ReadonlySet<string>,
  pythonRoots: readonly string[]
): string[] {
  const found = new Set<string>()
  const first = (candidates: readonly string[]): void => {
    const hit = candidates.find(c => files.has(c))
    if (hit !== undefined) found.add(hit)
  }
  if (test.endsWith('.py')) {
    for (const m of text.matchAll(PY_FROM)) {
      const mod = m[1] ?? ''
      for (const name of (m[2] ?? '').split(',').map(s => s.trim()))
        first(pythonCandidates(test, mod, name, pythonRoots))
      first(pythonCandidates(test, mod, '', pythonRoots))
    }
    for (const m of text.matchAll(PY_IMPORT))
      for (const mod of (m[1] ?? '').split(','))
        first(pythonCandidates(test, mod.trim().split(/\s/)[0] ?? '', '', pythonRoots))
  } else {
    for (const m of text.matchAll(JS_SPEC)) first(jsCandidates(test, m[1] ?? ''))
  }
  return [...found].sort()
}

function pythonCandidates(
  test: string,
  mod: string,
  name: string,
  roots: readonly string[]
): string[] {
  const dots = /^\.*/.exec(mod)?.[0].length ?? 0
  const parts = [...mod.slice(dots).split('.'), ...(name && name !== '*' ? [name] : [])].filter(
    Boolean
  )
  if (parts.length === 0) return []
  let bases = roots
  if (dots > 0) {
    let dir = posix.dirname(test)
    for (let i = 1; i < dots; i++) dir = posix.dirname(dir)
    bases = [dir === '.' ? '' : dir]
  }
  const rel = parts.join('/')
  return bases.flatMap(b => {
    const at = b === '' ? rel : `${b}/${rel}`
    return [`${at}.py`, `${at}/__init__.py`]
  })
}

function jsCandidates(test: string, spec: string): string[] {
  const at = posix.normalize(posix.join(posix.dirname(test), spec))
  const stem = at.replace(/\.(?:c|m)?js$/, '')
  return [
    at,
    ...JS_EXT.map(e => `${at}${e}`),
    ...JS_EXT.map(e => `${stem}${e}`),
    ...JS_EXT.map(e => `${at}/index${e}`)
  ]
}

/**
 * `test: file` for every repository file a voting test imports that is neither
 * production code nor instrument (the doctor finding `import-not-production`).
 */
export function unmeasuredImports(input: {
  voting: ReadonlyMap<string, string>
  files: readonly string[]
  pythonRoots: readonly string[]
  measured: (path: string) => boolean
}): string[] {
  const files = new Set(input.files)
  const out: string[] = []
  for (const [test, text] of input.voting)
    for (const file of importedFiles(test, text, files, input.pythonRoots))
      if (!input.measured(file)) out.push(`${test}: ${file}`)
  return out.sort()
}
