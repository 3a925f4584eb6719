// Makes sure the checkout holds what the gate judges: the base tip, the head and their merge
// base. actions/checkout gives a depth-1 clone of the merge ref by default, which has none
// of them; rather than fail, fetch them from origin and say so.
import { GateError } from '../errors.js'
import type { Git } from '../git/git.js'
import type { Logger } from '../types.js'

export interface Wanted {
  baseSha: string
  headSha: string
  /** For a fork's head: refs/pull/N/head lives in the base repository. */
  pullNumber?: number
}

/** Depths tried, in order, before giving up on a shallow clone and unshallowing it. */
const DEEPEN_STEPS = [50, 500, 5000]

export async function ensureCommits(git: Git, wanted: Wanted, log: Logger): Promise<void> {
  const shallow = (await git.run(['rev-parse', '--is-shallow-repository'])).trim() === 'true'
  const missing = []
  for (const sha of [wanted.baseSha, wanted.headSha])
    if (!(await git.hasCommit(sha))) missing.push(sha)
  if (missing.length > 0) {
    log.info(
      `the checkout lacks ${missing.map(s => s.slice(0, 12)).join(' and ')}: fetching ${missing.length === 1 ? 'it' : 'them'} from origin`
    )
    await fetchShas(git, missing, shallow ? DEEPEN_STEPS[0] : undefined, wanted.pullNumber)
  }
  if (await hasMergeBase(git, wanted)) return
  if (!(await isShallow(git))) {
    throw new GateError(
      `${wanted.baseSha.slice(0, 12)} and ${wanted.headSha.slice(0, 12)} have no common ancestor: unrelated histories`
    )
  }
  for (const depth of DEEPEN_STEPS) {
    log.info(`shallow clone: no merge base of base and head yet; deepening by ${depth} commits`)
    await fetch(git, ['--deepen', String(depth), 'origin', wanted.baseSha, wanted.headSha])
    if (await hasMergeBase(git, wanted)) return
  }
  log.info('shallow clone: still no merge base; fetching the full history (--unshallow)')
  await fetch(git, ['--unshallow', 'origin', wanted.baseSha, wanted.headSha])
  if (!(await hasMergeBase(git, wanted))) {
    throw new GateError(
      `${wanted.baseSha.slice(0, 12)} and ${wanted.headSha.slice(0, 12)} have no common ancestor even with the full history`
    )
  }
}

async function fetchShas(
  git: Git,
  shas: string[],
  depth: number | undefined,
  pullNumber: number | undefined
): Promise<void> {
  const depthArgs = depth === undefined ? [] : ['--depth', String(depth)]
  const byId = await git.exec([
    'fetch',
    '--no-tags',
    '--no-recurse-submodules',
    ...depthArgs,
    'origin',
    ...shas
  ])
  if (byId.code === 0 && (await allPresent(git, shas))) return
  // Some servers refuse unadvertised shas; a fork PR's head is advertised as refs/pull/N/head.
  if (pullNumber !== undefined) {
    await fetch(git, [
      ...depthArgs,
      'origin',
      `+refs/pull/${pullNumber}/head:refs/remotes/origin/oracle-gate/pull-${pullNumber}`
    ])
    if (await allPresent(git, shas)) return
  }
  if (byId.code !== 0) throw git.failure(['fetch', 'origin', ...shas], byId)
  throw new GateError(
    `fetched from origin but ${shas.map(s => s.slice(0, 12)).join(', ')} is still missing`
  )
}

async function fetch(git: Git, args: string[]): Promise<void> {
  await git.run(['fetch', '--no-tags', '--no-recurse-submodules', ...args])
}

async function allPresent(git: Git, shas: string[]): Promise<boolean> {
  for (const sha of shas) if (!(await git.hasCommit(sha))) return false
  return true
}

async function isShallow(git: Git): Promise<boolean> {
  return (await git.run(['rev-parse', '--is-shallow-repository'])).trim() === 'true'
}

async function hasMergeBase(git: Git, wanted: Wanted): Promise<boolean> {
  const result = await git.exec(['merge-base', wanted.baseSha, wanted.headSha])
  return result.code === 0
}
