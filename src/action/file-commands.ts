// The runner's file commands (GITHUB_ENV, GITHUB_PATH, GITHUB_OUTPUT, GITHUB_STATE,
// GITHUB_STEP_SUMMARY) after the patch's code ran. The children never see those variables
// (src/exec/env.ts), but the files sit in a folder the same user can list, so a patch
// written to escape can still append `NODE_OPTIONS=--require …` for the steps after the
// gate, or a fake card to the job summary. So the action takes a copy of each file before
// judging and, after, puts back any file that changed and says so: the step's own outputs
// and summary are written only after this, from the card.
import { readFile, stat, truncate, writeFile } from 'node:fs/promises'
import type { Reason } from '../types.js'

const NAMES = ['GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_OUTPUT', 'GITHUB_STATE', 'GITHUB_STEP_SUMMARY']
/** Files up to this size are kept whole (they are empty at a step's start); larger, by size. */
const KEEP_BYTES = 1 << 20

export interface FileCommandCopy {
  name: string
  path: string
  /** -1 when the file did not exist. */
  size: number
  content: Buffer | null
}

async function sizeOf(path: string): Promise<number> {
  return (await stat(path).catch(() => null))?.size ?? -1
}

export async function copyFileCommands(env: NodeJS.ProcessEnv): Promise<FileCommandCopy[]> {
  const copies: FileCommandCopy[] = []
  for (const name of NAMES) {
    const path = env[name]
    if (!path) continue
    const size = await sizeOf(path)
    const content = size >= 0 && size <= KEEP_BYTES ? await readFile(path).catch(() => null) : null
    copies.push({ name, path, size, content })
  }
  return copies
}

/** Puts back every file that changed; one warning reason naming them, or none. */
export async function restoreFileCommands(copies: readonly FileCommandCopy[]): Promise<Reason[]> {
  const changed: string[] = []
  for (const copy of copies) {
    const now = await sizeOf(copy.path)
    const same =
      now === copy.size &&
      (copy.content === null ||
        (await readFile(copy.path).catch(() => null))?.equals(copy.content) === true)
    if (same) continue
    changed.push(copy.name)
    if (copy.content !== null) await writeFile(copy.path, copy.content)
    else if (copy.size >= 0 && now > copy.size) await truncate(copy.path, copy.size)
  }
  if (changed.length === 0) return []
  return [
    {
      rule: 'runner-tampered',
      level: 'failure',
      message: `code run by the gate wrote to the runner's file commands (${changed.join(', ')}), which would set the environment, PATH, outputs or job summary of the steps after it; the files were put back as they were before judging`
    }
  ]
}
