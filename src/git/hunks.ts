// Added lines of a diff, with their line numbers at head: what the patch wrote, so that a
// reason can point at the exact line (skip markers, copied literals). One git process for
// all paths, whatever their number.
import type { Git } from './git.js'

/** path (at head) → line number → text of each added line. */
export type AddedLines = Map<string, Map<number, string>>

export async function addedLines(
  git: Git,
  from: string,
  to: string,
  paths?: readonly string[]
): Promise<AddedLines> {
  const result: AddedLines = new Map()
  if (paths !== undefined && paths.length === 0) return result
  // Long path lists go through stdin-less pathspec files would need git 2.25+; chunk instead.
  const chunks = paths === undefined ? [undefined] : chunk(paths, 500)
  for (const part of chunks) parseUnifiedDiff(await git.diffZeroContext(from, to, part), result)
  return result
}

/** Parses `git diff -U0` output into added lines per new path. Pure; exported for tests. */
export function parseUnifiedDiff(diff: string, into: AddedLines = new Map()): AddedLines {
  let current: Map<number, string> | undefined
  let line = 0
  // Lines still due in the current hunk (its header counts them): inside a hunk, an added
  // line that reads `++ x` is `+++ x` in the diff and must not be taken for a file header.
  let oldLeft = 0
  let newLeft = 0
  for (const raw of diff.split('\n')) {
    if (oldLeft > 0 || newLeft > 0) {
      if (raw.startsWith('+')) {
        current?.set(line, raw.slice(1))
        line += 1
        newLeft -= 1
      } else if (raw.startsWith('-')) {
        oldLeft -= 1
      } else if (raw.startsWith(' ')) {
        line += 1
        oldLeft -= 1
        newLeft -= 1
      }
      continue
    }
    if (raw.startsWith('diff --git ')) {
      current = undefined
      continue
    }
    if (raw.startsWith('+++ ')) {
      const target = raw.slice(4)
      if (target === '/dev/null') {
        current = undefined
      } else {
        // git ends the name with a tab when it holds a space (for patch(1)).
        const path = unquote(target.replace(/\t$/, '')).replace(/^b\//, '')
        current = into.get(path) ?? new Map()
        into.set(path, current)
      }
      continue
    }
    if (raw.startsWith('@@')) {
      const match = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(raw)
      line = match ? Number(match[2]) : 0
      oldLeft = match ? Number(match[1] ?? 1) : 0
      newLeft = match ? Number(match[3] ?? 1) : 0
    }
  }
  return into
}

function unquote(path: string): string {
  if (!path.startsWith('"')) return path
  // git quotes paths with special characters C-style; octal escapes are UTF-8 bytes.
  const bytes: number[] = []
  const body = path.slice(1, -1)
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'))
      continue
    }
    const next = body[i + 1]!
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8))
      i += 3
    } else {
      const map: Record<string, number> = {
        n: 10,
        t: 9,
        '"': 34,
        '\\': 92,
        a: 7,
        b: 8,
        f: 12,
        r: 13,
        v: 11
      }
      bytes.push(map[next] ?? next.charCodeAt(0))
      i += 1
    }
  }
  return Buffer.from(bytes).toString('utf8')
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
