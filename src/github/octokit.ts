// The one REST client of a run: built once in run() and handed to every endpoint module, so
// retries, throttling and the API address are decided in one place.
import { retry } from '@octokit/plugin-retry'
import { throttling } from '@octokit/plugin-throttling'
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
}

const GateOctokit = Octokit.plugin(retry, throttling)

/** Rate limits are waited out when the wait is short; a long wait fails the run (closed). */
const MAX_RATE_LIMIT_WAIT_SEC = 120

export function createClient(options: ClientOptions): GitHubClient {
  const { log } = options
  const retries = options.retries ?? 3
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
    retry: { retries },
    throttle: {
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
