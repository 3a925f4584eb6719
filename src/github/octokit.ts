// The one REST client of a run: built once in run() and handed to every endpoint module, so
// retries, throttling and the API address are decided in one place.
import { retry } from '@octokit/plugin-retry'
import { throttling } from '@octokit/plugin-throttling'
import type { ThrottlingOptions } from '@octokit/plugin-throttling'
import { Octokit } from '@octokit/rest'
import { GateError } from '../errors.js'
import type { Logger } from '../types.js'

export type GitHubClient = Octokit

/** owner/name of the repository the API calls address. */
export interface RepoRef {
  owner: string
  repo: string
}

export interface ClientOptions {
  token: string
  /** GITHUB_API_URL: api.github.com, a GHES /api/v3 address or a local test server. */
  baseUrl?: string
  log: Logger
  /** Retries of a 5xx / rate-limited request before it becomes a gate error. */
  retries?: number
  timing?: ClientTiming
}

/** How long the client waits when GitHub asks it to; the defaults are GitHub's. */
export interface ClientTiming {
  /** Milliseconds per second of a requested wait (retry backoff, Retry-After); 1000. */
  msPerSecond?: number
  /** Spacing of write requests (GitHub asks for about a second between them); true. */
  spaceWrites?: boolean
}

type WriteGroup = NonNullable<Exclude<ThrottlingOptions, { enabled: false }>['write']>
/**
 * A limiter that runs each job at once, for the plugin's write and notification groups when
 * writes are not spaced. The plugin only ever calls `.key(id).schedule(options, job)` on
 * them; a real Bottleneck group would need the bottleneck package as a dependency.
 */
const UNSPACED = {
  key: () => ({ schedule: <T>(_options: unknown, job: () => Promise<T>) => job() })
} as unknown as WriteGroup

const GateOctokit = Octokit.plugin(retry, throttling)

/** Rate limits are waited out when the wait is short; a long wait fails the run (closed). */
const MAX_RATE_LIMIT_WAIT_SEC = 120

export function createClient(options: ClientOptions): GitHubClient {
  const { log } = options
  const retries = options.retries ?? 3
  const msPerSecond = options.timing?.msPerSecond ?? 1000
  const unspaced =
    options.timing?.spaceWrites === false ? { write: UNSPACED, notifications: UNSPACED } : {}
  const onLimit =
    (kind: string) =>
    (
      retryAfter: number,
      request: { method: string; url: string },
      _octokit: unknown,
      retryCount: number
    ): boolean => {
      const again = retryCount < retries && retryAfter <= MAX_RATE_LIMIT_WAIT_SEC
      log.warning(
        `GitHub ${kind} on ${request.method} ${request.url}: ${again ? `retrying in ${retryAfter} s` : 'giving up'} (attempt ${retryCount + 1})`
      )
      return again
    }
  return new GateOctokit({
    auth: options.token,
    ...(options.baseUrl ? { baseUrl: options.baseUrl.replace(/\/+$/, '') } : {}),
    userAgent: 'oracle-gate',
    retry: { retries, retryAfterBaseValue: msPerSecond },
    throttle: {
      retryAfterBaseValue: msPerSecond,
      ...unspaced,
      onRateLimit: onLimit('rate limit'),
      onSecondaryRateLimit: onLimit('secondary rate limit')
    },
    // Octokit's own chatter (deprecations, retries) goes to the step log, never to stdout
    // where a stray line could be read as a workflow command.
    log: {
      debug: () => undefined,
      info: () => undefined,
      warn: (message: string) => log.warning(message),
      error: (message: string) => log.warning(message)
    }
  }) as unknown as GitHubClient
}

/** "owner/name" (GITHUB_REPOSITORY) → RepoRef; throws on anything else. */
export function parseRepo(fullName: string | undefined): RepoRef {
  const match = /^([^/\s]+)\/([^/\s]+)$/.exec(fullName ?? '')
  if (!match?.[1] || !match[2]) {
    throw new GateError(`GITHUB_REPOSITORY must be "owner/name", got "${fullName ?? ''}"`, {
      rule: 'config-invalid'
    })
  }
  return { owner: match[1], repo: match[2] }
}

/** HTTP status of an Octokit RequestError, or undefined for anything else. */
export function httpStatus(error: unknown): number | undefined {
  if (typeof error === 'object' && error !== null && 'status' in error) {
    const status = (error as { status: unknown }).status
    return typeof status === 'number' ? status : undefined
  }
  return undefined
}
