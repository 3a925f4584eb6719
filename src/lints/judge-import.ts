// `judge-import`: a test file imports an LLM client or names an LLM API host. Judged on the
// test files the patch adds or changes, as they are at head. What a test already did at
// the merge base is the base's problem, not the patch's: reported as a warning.
import type { GateContext } from '../context.js'
import { byCodeUnit } from '../json.js'
import type { Git } from '../git/git.js'
import type { Level, Reason } from '../types.js'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { basePath, type LintFiles } from './files.js'
import { judgeHits, judgeList, prefilterStrings, type JudgeHit, type JudgeList } from './judges.js'
import { languageOf } from './parsers.js'
import type { LintInput } from './registry.js'
import type { SourceFacts } from './source.js'

/** Reasons per file, and unchanged base files warned about, before a summary takes over. */
const PER_FILE_CAP = 10
const BASE_FILE_CAP = 10

const ADVICE =
  'a test on a test plane must not ask a model whether the code is right: its answer is ' +
  'neither reproducible nor independent of the agent that wrote the patch. Assert against ' +
  'expected values instead, or keep model-graded evaluation outside the gate; the list is ' +
  'set by lints.judge_modules (and lints.judge_modules_replace).'

export async function judgeImport(
  { ctx, files, facts }: LintInput,
  level: Level
): Promise<Reason[]> {
  const list = judgeList(ctx.policy.lints)
  const reasons: Reason[] = []
  const head = await facts.at(
    ctx.head,
    files.tests.map(r => r.path),
    'test'
  )
  const hitsOf = new Map<string, JudgeHit[]>()
  for (const [path, f] of head) {
    const hits = judgeHits(f, list)
    if (hits.length > 0) hitsOf.set(path, hits)
  }

  // The same judge in the base version of the same file was not brought by the patch.
  const baseOf = new Map<string, string>()
  for (const row of files.tests) {
    const old = basePath(row)
    if (old !== undefined && hitsOf.has(row.path)) baseOf.set(row.path, old)
  }
  const base = await facts.at(ctx.mergeBase, [...baseOf.values()], 'test')
  for (const [path, hits] of [...hitsOf].sort(byPath)) {
    const old = baseOf.get(path)
    const baseFacts = old === undefined ? undefined : base.get(old)
    const before = new Set(baseFacts ? judgeHits(baseFacts, list).map(hitKey) : [])
    // New judges are kept first, so the cap can only ever drop warnings or extra
    // failures, never the file's only failure; the kept ones are reported in line order.
    const kept = [
      ...hits.filter(h => !before.has(hitKey(h))),
      ...hits.filter(h => before.has(hitKey(h)))
    ]
      .slice(0, PER_FILE_CAP)
      .sort((a, b) => a.line - b.line)
    kept.forEach((hit, i) => {
      const more =
        i === kept.length - 1 && hits.length > kept.length
          ? ` (${hits.length - kept.length} more in this file)`
          : ''
      if (before.has(hitKey(hit))) {
        const message = `${describe(hit)}, as it already did at the merge base (not introduced by this patch)${more}: ${ADVICE}`
        reasons.push(reason(path, hit, 'warning', message))
      } else {
        reasons.push(reason(path, hit, level, `${describe(hit)}${more}: ${ADVICE}`))
      }
    })
  }

  reasons.push(...(await unchangedBaseTests(ctx, files, facts, list)))
  return reasons
}

/**
 * Warnings about test files the patch leaves alone that already hold a judge at the merge
 * base. The base tree is the run's listing (shared with the other stages); a fixed-string git grep over its untouched test files
 * (only those: a monorepo's sources can be gigabytes) picks the candidates so the whole
 * suite is not parsed on every run; the parser then decides, as for the patch's own files.
 */
async function unchangedBaseTests(
  ctx: GateContext,
  files: LintFiles,
  facts: SourceFacts,
  list: JudgeList
): Promise<Reason[]> {
  const touched = new Set<string>()
  for (const row of ctx.writeSet) {
    touched.add(row.path)
    if (row.previous_path !== undefined) touched.add(row.previous_path)
  }
  const tests = [...(await ctx.trees.get(ctx.mergeBase)).values()]
    .filter(e => e.type === 'blob' && !touched.has(e.path))
    .map(e => e.path)
    .filter(p => languageOf(p) !== undefined && files.roleOf(p) === 'test')
  const candidates = await grepFiles(
    ctx.git,
    ctx.mergeBase,
    tests,
    prefilterStrings(list),
    ctx.tempDir
  )
  if (candidates.length === 0) return []
  const base = await facts.at(ctx.mergeBase, candidates, 'test')
  const flagged: Array<[string, JudgeHit]> = []
  for (const [path, f] of [...base].sort(byPath)) {
    const first = judgeHits(f, list)[0]
    if (first) flagged.push([path, first])
  }
  const reasons = flagged
    .slice(0, BASE_FILE_CAP)
    .map(([path, hit]) =>
      reason(
        path,
        hit,
        'warning',
        `${describe(hit)} at the merge base (a test this patch does not change; not counted against it): ${ADVICE}`
      )
    )
  if (flagged.length > BASE_FILE_CAP) {
    reasons.push({
      rule: 'judge-import',
      level: 'warning',
      message: `${flagged.length - BASE_FILE_CAP} more unchanged test file(s) at the merge base import an LLM client or name an LLM endpoint`
    })
  }
  return reasons
}

/** Paths per git grep call: keeps the command line well under any OS limit. */
const PATHS_PER_GREP = 1000

/** Which of `paths` at `rev` contain any of `strings` (case-insensitive, fixed strings). */
async function grepFiles(
  git: Git,
  rev: string,
  paths: string[],
  strings: string[],
  tempDir: string
): Promise<string[]> {
  if (strings.length === 0 || paths.length === 0) return []
  const patterns = join(tempDir, 'judge-import.patterns')
  await writeFile(patterns, strings.join('\n') + '\n')
  const prefix = `${rev}:`
  const found: string[] = []
  for (let i = 0; i < paths.length; i += PATHS_PER_GREP) {
    const part = paths.slice(i, i + PATHS_PER_GREP)
    for (const p of await git.grepFiles(rev, patterns, { ignoreCase: true, paths: part })) {
      found.push(p.startsWith(prefix) ? p.slice(prefix.length) : p)
    }
  }
  return found
}

/** The reason carries path and line; the message says what and why. */
function describe(hit: JudgeHit): string {
  return hit.kind === 'import'
    ? `test imports ${hit.what}, an LLM client (judge list entry "${hit.entry}")`
    : `test names the LLM API host ${hit.what}`
}

function reason(path: string, hit: JudgeHit, level: Level, message: string): Reason {
  return { rule: 'judge-import', level, path, line: hit.line, message }
}

function hitKey(hit: JudgeHit): string {
  return `${hit.kind}\0${hit.what}`
}

function byPath<T>([a]: [string, T], [b]: [string, T]): number {
  return byCodeUnit(a, b)
}
