// Files the runner could not collect, from what one run printed and reported (issue 25):
// pytest's "ERROR collecting" sections and `<collection>` cases, jest's "Test suite failed
// to run" (jest-junit leaves such a suite out of its report), vitest's "No test suite found"
// and its file-level cases (a case named after its own file). A voting file whose every case
// is such a failure holds no vote: every PR would see it red (path-to-regexp's cases.spec.ts
// is data, not a test). Pure: log text and observations in, files and causes out.
import type { Observation } from '../replay/transitions.js'

export interface CollectionError {
  file: string
  cause: string
}

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g

/** Collection errors a run's output names (worktree: its absolute path, to relativise). */
export function logCollectionErrors(log: string, worktree: string): CollectionError[] {
  const lines = log.replace(ANSI, '').split(/\r?\n/)
  const found = new Map<string, string>()
  const add = (file: string, cause: string): void => {
    const rel = relative(file.trim(), worktree)
    if (rel !== '' && (!found.has(rel) || found.get(rel) === '')) found.set(rel, cause.trim())
  }
  let jestFail: string | null = null
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    const pytestSection = /^_+ ERROR collecting (\S+) _+$/.exec(line)
    if (pytestSection?.[1] !== undefined) add(pytestSection[1], pytestCause(lines, i + 1))
    const summary = /^ERROR (\S+\.py)(?: - (.*))?$/.exec(line)
    if (summary?.[1] !== undefined) add(summary[1], summary[2] ?? '')
    const fail = /^\s*FAIL\s+(\S+)/.exec(line)
    if (fail?.[1] !== undefined) jestFail = fail[1]
    if (/●\s+Test suite failed to run/.test(line) && jestFail !== null)
      add(jestFail, nextText(lines, i + 1))
    const vitest = /No test suite found in file (\S+)/.exec(line)
    if (vitest?.[1] !== undefined) add(vitest[1], 'No test suite found in file')
  }
  return [...found].map(([file, cause]) => ({ file, cause: cause.slice(0, 300) }))
}

/** Observations that are a whole file failing to load, not a test failing. */
export function isFileLevel(o: Observation): boolean {
  if (o.id.endsWith('::<collection>')) return true
  return o.file !== null && o.id === `${o.file}::${o.file}`
}

/** The section's `E   …` line (the exception), else its first line (import file mismatch). */
function pytestCause(lines: readonly string[], from: number): string {
  let first = ''
  for (let i = from; i < lines.length && i < from + 200; i++) {
    const line = lines[i] ?? ''
    if (/^(_{3,}|={3,}|-{3,})/.test(line)) break
    if (/^E\s+\S/.test(line)) return line.replace(/^E\s+/, '')
    if (first === '' && line.trim() !== '') first = line.trim()
  }
  return first
}

function nextText(lines: readonly string[], from: number): string {
  for (let i = from; i < lines.length && i < from + 10; i++) {
    const t = (lines[i] ?? '').trim()
    if (t !== '') return t
  }
  return ''
}

function relative(file: string, worktree: string): string {
  const prefix = worktree.endsWith('/') ? worktree : `${worktree}/`
  return file.startsWith(prefix) ? file.slice(prefix.length) : file.replace(/^\.\//, '')
}
