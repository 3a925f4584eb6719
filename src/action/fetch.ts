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
  const shallow = await git.isShallow()
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
  if (!(await git.isShallow())) {
    throw new GateError(
      `${wanted.baseSha.slice(0, 12)} and ${wanted.headSha.slice(0, 12)} have no common ancestor: unrelated histories`
    )
  }
  for (const depth of DEEPEN_STEPS) {
    log.info(`shallow clone: no merge base of base and head yet; deepening by ${depth} commits`)
    await git.fetch({ deepen: depth, refspecs: [wanted.baseSha, wanted.headSha] })
    if (await hasMergeBase(git, wanted)) return
  }
  log.info('shallow clone: still no merge base; fetching the full history (--unshallow)')
  await git.fetch({ unshallow: true, refspecs: [wanted.baseSha, wanted.headSha] })
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
  const depthSpec = depth === undefined ? {} : { depth }
  const byId = await git.tryFetch({ ...depthSpec, refspecs: shas })
  if (byId === null && (await allPresent(git, shas))) return
  // Some servers refuse unadvertised shas; a fork PR's head is advertised as refs/pull/N/head.
  if (pullNumber !== undefined) {
    await git.fetch({
      ...depthSpec,
      refspecs: [`+refs/pull/${pullNumber}/head:refs/remotes/origin/oracle-gate/pull-${pullNumber}`]
    })
    if (await allPresent(git, shas)) return
  }
  if (byId !== null) throw byId
  throw new GateError(
    `fetched from origin but ${shas.map(s => s.slice(0, 12)).join(', ')} is still missing`
  )
}

async function allPresent(git: Git, shas: string[]): Promise<boolean> {
  for (const sha of shas) if (!(await git.hasCommit(sha))) return false
  return true
}

async function hasMergeBase(git: Git, wanted: Wanted): Promise<boolean> {
  return git.hasMergeBase(wanted.baseSha, wanted.headSha)
}
