// One canonical test id, `path/to/file::name`, whatever runner wrote the report. Planes,
// ledger rows, classes and the card all key on it, so the mapping must give the same id
// on base and head. docs/replay.md documents every dialect's mapping.
import { readFileSync } from 'node:fs'
import { isAbsolute, join, relative } from 'node:path'
import {
  JVM_EXTENSIONS as JVM_EXT,
  SCRIPT_PATH as JS_EXT,
  SOURCE_PATH as SOURCE_EXT
} from '../lang.js'
import type { Plane } from '../types.js'
import { normalisePath } from '../writeset/planes.js'
import type { RawCase } from './junit.js'
import type { RunnerKind } from './runners.js'

/** What the mapping may know about the worktree a report came from. */
export interface IdContext {
  /** Absolute root of the worktree. */
  root: string
  /** Repository-relative files present in the worktree, sorted. */
  files: readonly string[]
  planeOf(path: string): Plane
  /** File text, or null (cached by the implementation). */
  read(path: string): string | null
  /** Module path of go.mod at the root, when there is one. */
  goModule?: string
  /** The report directory relative to the root (suite.report), for Maven modules. */
  reportDir?: string
  /**
   * The merge base's files (node:test titles): a title found only in a file outside this
   * list gets a provisional mapping. Without it every file counts as the merge base's.
   */
  literalFiles?: readonly string[]
  /**
   * The suite's runner. For jest the gate writes the report with its own jest-junit
   * templates (JEST_JUNIT_ENV): classname is the describe chain, name the title.
   */
  runner?: RunnerKind | null
  /**
   * pytest's rootdir in the merge base (pyroot.ts), repository-relative: xunit2 classnames
   * and xunit1 files are relative to it. Absent or '' for the root.
   */
  pyRoot?: string
}

/**
 * jest-junit settings for every jest run of the gate (environment variables win over the
 * project's own jest-junit options): the file on each case, and the describe chain apart
 * from the title, so that jest ids take the one form vitest and node:test ids have.
 */
export const JEST_JUNIT_ENV: Readonly<Record<string, string>> = {
  JEST_JUNIT_ADD_FILE_ATTRIBUTE: 'true',
  JEST_JUNIT_CLASSNAME: '{classname}',
  JEST_JUNIT_TITLE: '{title}',
  JEST_JUNIT_ANCESTOR_SEPARATOR: ' > '
}

export interface TestId {
  id: string
  /** The test's file, or null when the report does not say and it could not be found. */
  file: string | null
  /** node:test: the file was found only among files the head wrote (see canonicalId). */
  provisional?: true
}

const PY = /\.py$/
const PLANE_RANK: Record<Plane, number> = {
  voting: 0,
  protected: 1,
  drafts: 2,
  in_diff: 3,
  other: 4,
  source: 5
}

/**
 * The canonical id. With a file and the titles of a JS/TS test (describe blocks outermost
 * first, then the test's own title): `path::Describe > Inner > title`, the one form of
 * vitest, jest and node:test ids in the replay, the ledger and the lints. With a report
 * entry and the worktree it came from: that entry's id and file, per docs/replay.md.
 */
export function canonicalId(file: string, titles: readonly string[]): string
export function canonicalId(c: RawCase, ctx: IdContext, index?: FileIndex): TestId
export function canonicalId(
  c: RawCase | string,
  ctx: IdContext | readonly string[],
  index?: FileIndex
): TestId | string {
  if (typeof c === 'string') return `${c}::${(ctx as readonly string[]).join(' > ')}`
  return caseId(c, ctx as IdContext, index ?? new FileIndex(ctx as IdContext))
}

function caseId(c: RawCase, ctx: IdContext, index: FileIndex): TestId {
  if (c.file && ctx.runner === 'node-test') {
    // The gate's node:test reporter names the file relative to the run's directory: taken
    // when it is a file of the worktree (a suite run from a subfolder falls through).
    const path = toRepoPath(c.file, ctx.root)
    if (index.has(path)) return { id: `${path}::${nodeChain(c).join(' > ')}`, file: path }
  } else if (c.file) return fromFileAttribute(c, toRepoPath(c.file, ctx.root), ctx, index)

  const classPath = normalisePath(c.classname)
  // vitest (and reporters configured like it): the classname is the file.
  if (SOURCE_EXT.test(classPath) && index.has(classPath)) {
    return { id: `${classPath}::${c.name}`, file: classPath }
  }

  const py = pythonModule(c, index, '') ?? (ctx.pyRoot ? pythonModule(c, index, ctx.pyRoot) : null)
  if (py) return py

  const go = goTest(c, ctx, index)
  if (go) return go

  const jvm = jvmClass(c, ctx, index)
  if (jvm) return jvm

  // Reporters that name a suite after its file (jest-junit with suiteNameTemplate={filepath}).
  for (let i = c.suites.length - 1; i >= 0; i--) {
    const suite = normalisePath(c.suites[i] ?? '')
    if (suite !== '' && SOURCE_EXT.test(suite) && index.has(suite))
      return { id: ctx.runner === 'jest' ? jestId(suite, c) : `${suite}::${c.name}`, file: suite }
  }

  // node:test's junit reporter names neither file nor class ("test"): the describe chain
  // is the name, and the file is found by the outermost title written as a literal.
  if (c.classname === 'test' || c.classname === '') {
    const chain = nodeChain(c)
    const file = index.fileWithLiteral(chain[0] ?? c.name)
    // Found only in a file the head wrote: good enough for the patch's own passing tests,
    // never for a failure (a voting test with a computed title must not be pulled off its
    // plane by a patch that spells the title).
    if (file && index.headWritten(file))
      return { id: `${file}::${chain.join(' > ')}`, file, provisional: true }
    if (file) return { id: `${file}::${chain.join(' > ')}`, file }
  }

  return { id: c.classname ? `${c.classname}::${c.name}` : c.name, file: null }
}

/** A node:test case's describe chain and title. */
function nodeChain(c: RawCase): string[] {
  return [...c.suites.filter(s => s !== ''), c.name]
}

/** jest-junit written with JEST_JUNIT_ENV: the classname is the describe chain. */
function jestId(path: string, c: RawCase): string {
  return canonicalId(path, c.classname === '' ? [c.name] : [c.classname, c.name])
}

function fromFileAttribute(c: RawCase, written: string, ctx: IdContext, index: FileIndex): TestId {
  const path = underPyRoot(written, ctx, index)
  if (ctx.runner === 'jest' && JS_EXT.test(path)) return { id: jestId(path, c), file: path }
  if (PY.test(path)) {
    // The module as pytest names it: relative to its rootdir.
    const module = written.slice(0, -3).replace(/\//g, '.')
    // pytest reports a module that failed to collect as a case named after the module.
    if (c.classname === '' && c.name === module) return { id: `${path}::<collection>`, file: path }
    if (c.classname.startsWith(`${module}.`)) {
      const classes = c.classname.slice(module.length + 1).split('.')
      return { id: [path, ...classes, c.name].join('::'), file: path }
    }
  }
  return { id: `${path}::${c.name}`, file: path }
}

/** A .py path pytest wrote relative to its rootdir, when it is a file only from there. */
function underPyRoot(path: string, ctx: IdContext, index: FileIndex): string {
  if (!ctx.pyRoot || !PY.test(path) || index.has(path)) return path
  const rooted = `${ctx.pyRoot}/${path}`
  return index.has(rooted) ? rooted : path
}

/**
 * pytest xunit2 (no file attribute): the longest dotted prefix that is a .py file, under
 * `root` (pytest's rootdir; '' for the repository root).
 */
function pythonModule(c: RawCase, index: FileIndex, root: string): TestId | null {
  const collection = c.classname === '' && /^[\w.]+$/.test(c.name)
  const dotted = collection ? c.name : c.classname
  if (!/^[\w.]+$/.test(dotted)) return null
  const parts = dotted.split('.')
  for (let i = parts.length; i >= 1; i--) {
    const file = `${root === '' ? '' : `${root}/`}${parts.slice(0, i).join('/')}.py`
    if (!index.has(file)) continue
    if (collection && i === parts.length) return { id: `${file}::<collection>`, file }
    if (collection) continue
    return { id: [file, ...parts.slice(i), c.name].join('::'), file }
  }
  return null
}

/** go-junit-report / gotestsum: classname is the package import path. */
function goTest(c: RawCase, ctx: IdContext, index: FileIndex): TestId | null {
  const mod = ctx.goModule
  if (!mod || (c.classname !== mod && !c.classname.startsWith(`${mod}/`))) return null
  const dir = c.classname === mod ? '' : c.classname.slice(mod.length + 1)
  const top = c.name.split('/')[0] ?? c.name
  const declares = new RegExp(`^func\\s+${escapeRegExp(top)}\\s*\\(`, 'm')
  const candidates = index.filesIn(dir).filter(f => f.endsWith('_test.go'))
  const file = candidates.find(f => declares.test(ctx.read(f) ?? ''))
  if (file) return { id: `${file}::${c.name}`, file }
  return { id: `${dir === '' ? '.' : dir}::${c.name}`, file: null }
}

/** Maven Surefire / Gradle: classname is the fully qualified class, `$` for nested ones. */
function jvmClass(c: RawCase, ctx: IdContext, index: FileIndex): TestId | null {
  if (!/^[\w$]+(\.[\w$]+)+$/.test(c.classname) && !/^[A-Z][\w$]*$/.test(c.classname)) return null
  const [outer = '', ...nested] = c.classname.split('$')
  const rel = outer.replace(/\./g, '/')
  const matches = index.all.filter(f =>
    JVM_EXT.some(ext => f === `${rel}${ext}` || f.endsWith(`/${rel}${ext}`))
  )
  if (matches.length === 0) return null
  // In a multi-module build, prefer the module that owns the report directory.
  const moduleRoot = ctx.reportDir?.replace(/(^|\/)(target|build)\/.*$/, '')
  const file =
    (moduleRoot ? matches.find(f => f.startsWith(`${moduleRoot}/`)) : undefined) ?? matches[0] ?? ''
  return { id: [file, ...nested, c.name].join('::'), file }
}

/** Paths from reports are absolute or relative to the worktree; ids are repository-relative. */
export function toRepoPath(file: string, root: string): string {
  const path = isAbsolute(file) ? relative(root, file) : file
  return normalisePath(path)
}

/** Lookups over the worktree's files, built once per report. */
export class FileIndex {
  readonly all: readonly string[]
  private readonly set: Set<string>
  private readonly literalCache = new Map<string, string | null>()
  private byPlane: string[] | null = null
  private baseSet: Set<string> | null = null

  constructor(private readonly ctx: IdContext) {
    this.all = ctx.files
    this.set = new Set(ctx.files)
  }

  has(path: string): boolean {
    return this.set.has(path)
  }

  filesIn(dir: string): string[] {
    const prefix = dir === '' ? '' : `${dir}/`
    return this.all.filter(f => f.startsWith(prefix) && !f.slice(prefix.length).includes('/'))
  }

  /**
   * The JS/TS file that spells `title` as a string literal. Files on the voting plane are
   * searched first, then drafts, in-diff and the rest, so a patch cannot pull a voting test
   * off its plane by repeating its title in a file of its own.
   */
  fileWithLiteral(title: string): string | null {
    const cached = this.literalCache.get(title)
    if (cached !== undefined) return cached
    const needles = [`'${title}'`, `"${title}"`, `\`${title}\``, JSON.stringify(title)]
    let found: string | null = null
    for (const file of this.jsFilesByPlane()) {
      const text = this.ctx.read(file)
      if (text !== null && needles.some(n => text.includes(n))) {
        found = file
        break
      }
    }
    this.literalCache.set(title, found)
    return found
  }

  /** A file the merge base does not have (the head wrote it): its mapping is provisional. */
  headWritten(file: string): boolean {
    const base = this.ctx.literalFiles
    if (base === undefined) return false
    this.baseSet ??= new Set(base)
    return !this.baseSet.has(file)
  }

  /**
   * Test files only (never production code, which could spell a title on purpose), the
   * merge base's first (voting, drafts, in-diff, the rest), then those the head wrote.
   */
  private jsFilesByPlane(): string[] {
    if (this.byPlane === null) {
      const js = this.all.filter(
        f => JS_EXT.test(f) && !f.includes('node_modules/') && this.ctx.planeOf(f) !== 'source'
      )
      this.byPlane = js
        .map(f => ({ f, rank: PLANE_RANK[this.ctx.planeOf(f)] + (this.headWritten(f) ? 10 : 0) }))
        .sort((a, b) => a.rank - b.rank || (a.f < b.f ? -1 : a.f > b.f ? 1 : 0))
        .map(x => x.f)
    }
    return this.byPlane
  }
}

/** An IdContext over a worktree on disk. */
export function worktreeIdContext(
  root: string,
  files: readonly string[],
  planeOf: (path: string) => Plane,
  reportDir?: string,
  more: Pick<IdContext, 'literalFiles' | 'runner'> & { pyRoot?: string | undefined } = {}
): IdContext {
  const cache = new Map<string, string | null>()
  const read = (path: string): string | null => {
    if (!cache.has(path)) {
      try {
        cache.set(path, readFileSync(join(root, path), 'utf8'))
      } catch {
        cache.set(path, null)
      }
    }
    return cache.get(path) ?? null
  }
  const ctx: IdContext = { root, files: [...files].sort(), planeOf, read }
  const goMod = read('go.mod')
  const module = goMod?.match(/^module\s+(\S+)/m)?.[1]
  if (module) ctx.goModule = module
  if (reportDir) ctx.reportDir = normalisePath(reportDir)
  if (more.literalFiles) ctx.literalFiles = more.literalFiles
  if (more.runner) ctx.runner = more.runner
  if (more.pyRoot) ctx.pyRoot = more.pyRoot
  return ctx
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
