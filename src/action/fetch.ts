// Makes sure the checkout holds what the gate judges: the base tip, the head and their merge
// base. actions/checkout gives a depth-1 clone of the merge ref by default, which has none
// of them; rather than fail, fetch them from origin and say so.
import { GateError } from '../errors.js'
import type { Git } from '../git/git.js'
import type { Logger } from '../types.js'
import { shortSha } from '../json.js'

export interface Wanted {
  baseSha: string
  headSha: string
  /** For a fork's head: refs/pull/N/head lives in the base repository. */
  pullNumber?: number
  /**
   * Refs that hold the commits when the server refuses to send them by id: a merge queue's
   * gh-readonly-queue/… branch (the group's commit) and its base branch.
   */
  refs?: readonly string[]
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
      `the checkout lacks ${missing.map(s => shortSha(s)).join(' and ')}: fetching ${missing.length === 1 ? 'it' : 'them'} from origin`
    )
    await fetchShas(git, missing, shallow ? DEEPEN_STEPS[0] : undefined, fallbackRefspecs(wanted))
  }
  if (await hasMergeBase(git, wanted)) return
  if (!(await git.isShallow())) {
    throw new GateError(
      `${shortSha(wanted.baseSha)} and ${shortSha(wanted.headSha)} have no common ancestor: unrelated histories`
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
      `${shortSha(wanted.baseSha)} and ${shortSha(wanted.headSha)} have no common ancestor even with the full history`
    )
  }
}

/** refs/pull/N/head and the event's refs, each into a ref of its own under origin/oracle-gate/. */
export function fallbackRefspecs(wanted: Wanted): string[] {
  const specs: string[] = []
  if (wanted.pullNumber !== undefined)
    specs.push(
      `+refs/pull/${wanted.pullNumber}/head:refs/remotes/origin/oracle-gate/pull-${wanted.pullNumber}`
    )
  for (const ref of wanted.refs ?? []) {
    const full = ref.startsWith('refs/') ? ref : `refs/heads/${ref}`
    // Only plain ref names: a hostile payload must not smuggle options or refspec syntax.
    if (!/^refs\/[A-Za-z0-9._/-]+$/.test(full) || full.includes('..')) continue
    specs.push(`+${full}:refs/remotes/origin/oracle-gate/${full.slice('refs/'.length)}`)
  }
  return specs
}

async function fetchShas(
  git: Git,
  shas: string[],
  depth: number | undefined,
  refspecs: readonly string[]
): Promise<void> {
  const depthSpec = depth === undefined ? {} : { depth }
  const byId = await git.tryFetch({ ...depthSpec, refspecs: shas })
  if (byId === null && (await allPresent(git, shas))) return
  // Some servers refuse unadvertised shas; a fork PR's head is advertised as refs/pull/N/head,
  // a merge group's commit as its gh-readonly-queue/… branch.
  if (refspecs.length > 0) {
    await git.fetch({ ...depthSpec, refspecs: [...refspecs] })
    if (await allPresent(git, shas)) return
  }
  if (byId !== null) throw byId
  throw new GateError(
    `fetched from origin but ${shas.map(s => shortSha(s)).join(', ')} is still missing`
  )
}

async function allPresent(git: Git, shas: string[]): Promise<boolean> {
  for (const sha of shas) if (!(await git.hasCommit(sha))) return false
  return true
}

async function hasMergeBase(git: Git, wanted: Wanted): Promise<boolean> {
  return git.hasMergeBase(wanted.baseSha, wanted.headSha)
}
