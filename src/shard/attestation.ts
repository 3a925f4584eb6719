// The verdict as an in-toto Statement v1 with the test-result v0.1 predicate: its subject
// is the scorecard file (name and sha256 of the bytes written), so a signature over the
// Statement (actions/attest in the example workflow) vouches for that exact scorecard. The
// predicate's configuration names what the verdict was measured with: the policy (its
// sha256 at the merge base), the instrument digest, and the merge base, base tip and head
// commits. Test names are canonical ids: passedTests the fail→pass hits, failedTests the
// voting tests that failed on the head or vanished, warnedTests the flaky ones; the
// pass→pass count stays in the scorecard. Pure, except `policyDigest` (one git read).
import { createHash } from 'node:crypto'
import { basename } from 'node:path'
import { Git } from '../git/git.js'
import type { Scorecard } from '../types.js'

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1'
export const TEST_RESULT_PREDICATE = 'https://in-toto.io/attestation/test-result/v0.1'

interface Descriptor {
  name?: string
  uri?: string
  digest?: Record<string, string>
  annotations?: Record<string, unknown>
}

export interface Statement {
  _type: typeof STATEMENT_TYPE
  subject: Descriptor[]
  predicateType: typeof TEST_RESULT_PREDICATE
  predicate: {
    result: 'PASSED' | 'WARNED' | 'FAILED'
    configuration: Descriptor[]
    url?: string
    passedTests: string[]
    warnedTests: string[]
    failedTests: string[]
  }
}

export interface StatementInput {
  card: Scorecard
  /** The scorecard file as written (its bytes are the subject's digest). */
  scorecardPath: string
  scorecardBytes: string | Buffer
  /** `sha256:<hex>` of the policy file at the merge base, when known. */
  policyDigest?: string
  /** The run that produced the verdict (a GitHub Actions run), when there is one. */
  url?: string
}

export function statementOf(input: StatementInput): Statement {
  const { card } = input
  const sha256 = createHash('sha256').update(input.scorecardBytes).digest('hex')
  const warned = card.reasons.some(r => r.level === 'warning')
  const result = card.verdict !== 'merge' ? 'FAILED' : warned ? 'WARNED' : 'PASSED'
  const t = card.transitions
  const statement: Statement = {
    _type: STATEMENT_TYPE,
    subject: [{ name: basename(input.scorecardPath), digest: { sha256 } }],
    predicateType: TEST_RESULT_PREDICATE,
    predicate: {
      result,
      configuration: configuration(card, input.policyDigest),
      passedTests: [...t.fail_to_pass],
      warnedTests: [...new Set(card.flakes.map(f => f.test))].sort(),
      failedTests: [...new Set([...t.pass_to_fail, ...t.fail_to_fail, ...t.vanished])].sort()
    }
  }
  if (input.url) statement.predicate.url = input.url
  return statement
}

function configuration(card: Scorecard, policyDigest: string | undefined): Descriptor[] {
  const hex = (d: string): string | null => /^sha256:([0-9a-f]{64})$/.exec(d)?.[1] ?? null
  const out: Descriptor[] = []
  const policy = policyDigest ? hex(policyDigest) : null
  out.push({
    name: card.policy_path,
    ...(policy ? { digest: { sha256: policy } } : { uri: `file:${card.policy_path}` }),
    annotations: { verdict: card.verdict, gate_version: card.version, today: card.today }
  })
  const instrument = hex(card.oracle.base_digest)
  if (instrument) out.push({ name: 'oracle-gate/instrument', digest: { sha256: instrument } })
  const commit = (name: string, sha: string | undefined): void => {
    if (sha && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(sha))
      out.push({ name, digest: { gitCommit: sha } })
  }
  commit('merge-base', card.base)
  commit('base', card.base_ref)
  commit('head', card.head)
  return out
}

/** `sha256:<hex>` of the policy file at the card's merge base (empty bytes when absent). */
export async function policyDigest(
  repoDir: string,
  card: Scorecard,
  env: NodeJS.ProcessEnv
): Promise<string | undefined> {
  if (!card.base) return undefined
  const bytes = await new Git(repoDir, env).showFile(card.base, card.policy_path).catch(() => null)
  return `sha256:${createHash('sha256')
    .update(bytes ?? Buffer.alloc(0))
    .digest('hex')}`
}

/** The Actions run URL from the runner's variables, when they are all there. */
export function runUrl(env: NodeJS.ProcessEnv): string | undefined {
  const server = env['GITHUB_SERVER_URL']
  const repo = env['GITHUB_REPOSITORY']
  const id = env['GITHUB_RUN_ID']
  if (!server || !repo || !id || !/^\d+$/.test(id)) return undefined
  return `${server}/${repo}/actions/runs/${id}`
}
