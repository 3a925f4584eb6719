// A small GitHub REST API on 127.0.0.1 for end-to-end tests and benchmarks: pulls, pull
// files (Link pagination and the 3000-file cap), check runs (create, update, list for a
// ref), pull reviews, team members, issue comments, and the Actions endpoints a primed base
// is found through (workflow runs, run artifacts, the artifact download's redirect to a blob). Every request's query and JSON body is validated against schemas extracted from
// GitHub's OpenAPI description (__tests__/fixtures/openapi/requests.json, made by
// scripts/extract-openapi.mjs); a request that does not conform gets a 422 and is recorded
// in `invalid`, so tests assert that list is empty.
import { Ajv } from 'ajv'
import type { ValidateFunction } from 'ajv'
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import REQUEST_SCHEMAS from '../fixtures/openapi/requests.json' with { type: 'json' }

// Imported (not read at run time) so that bundles of this helper (bench/) carry the schemas.
const SCHEMAS = REQUEST_SCHEMAS as unknown as {
  source: string
  operations: Record<string, { operationId: string; body?: Schema; query: Schema }>
}

type Schema = { properties?: Record<string, Schema>; items?: Schema; [key: string]: unknown }

export interface FakeFile {
  filename: string
  status: string
  previous_filename?: string
}

export interface FakePull {
  number: number
  headSha: string
  baseSha: string
  baseRef?: string
  headRepo?: string
  files: FakeFile[]
  /** Defaults to files.length; GitHub reports the true count even past the list's cap. */
  changedFiles?: number
  /** The PR's author (default "agent-bot[bot]", type Bot). */
  author?: { login: string; type?: 'User' | 'Bot' }
  /** Reviews, oldest first; tests push to this array between runs. */
  reviews?: FakeReview[]
}

export interface FakeReview {
  login: string
  type?: 'User' | 'Bot'
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED' | 'PENDING'
  commit_id: string
  submitted_at?: string
}

export interface FakeComment {
  id: number
  issue: number
  body: string
  user: { login: string; type: 'User' | 'Bot' }
}

export interface Fault {
  method: string
  path: RegExp
  status: number
  /** How many matching requests fail before the route answers normally. */
  times: number
  message?: string
}

export interface FakeAnnotation {
  path: string
  start_line: number
  end_line: number
  annotation_level: string
  message: string
  title?: string
}

export interface FakeCheckRun {
  id: number
  name: string
  head_sha: string
  external_id: string | null
  status: string
  conclusion: string | null
  details_url: string | null
  started_at: string | null
  completed_at: string | null
  output: { title: string | null; summary: string | null }
  annotations: FakeAnnotation[]
  /** How many requests carried annotations for this run (for batching assertions). */
  annotationRequests: number
}

/** A workflow run the Actions API lists (GET …/actions/workflows/{file}/runs). */
export interface FakeWorkflowRun {
  id: number
  event: string
  head_branch: string | null
  head_sha: string
  /** `.github/workflows/gate.yml` */
  path: string
  status: string
  conclusion: string | null
  /** owner/name of the head repository; defaults to this repository. */
  head_repository?: string
}

/** An artifact of a workflow run; `zip` is what the download redirects to. */
export interface FakeArtifact {
  id: number
  run_id: number
  name: string
  zip: Buffer
  expired?: boolean
  /** Defaults to the zip's sha256; null for an artifact GitHub recorded no digest for. */
  digest?: string | null
}

export interface FakeGitHubOptions {
  owner?: string
  repo?: string
  /** Path prefix of the API (GHES serves it under /api/v3). */
  basePath?: string
  /** When set, requests must carry this token. */
  token?: string
  pulls?: FakePull[]
  /** The files endpoint's cap (GitHub: 3000). */
  fileCap?: number
  faults?: Fault[]
  /** Answer POST check-runs with 403 "Resource not accessible by integration" (a fork's token). */
  refuseCheckRuns?: boolean
  checkRuns?: Array<Partial<FakeCheckRun> & { name: string; head_sha: string }>
  /** org/slug → member logins; a team not listed answers 404 (unreadable with this token). */
  teams?: Record<string, string[]>
  /** Existing issue comments (a person's comment that quotes the marker, say). */
  comments?: Array<Omit<FakeComment, 'id'>>
  workflowRuns?: FakeWorkflowRun[]
  artifacts?: FakeArtifact[]
  /** List every workflow run whatever the query asks for (a filter GitHub might not apply). */
  ignoreRunFilters?: boolean
}

export interface RecordedRequest {
  method: string
  path: string
  operation: string | null
  query: Record<string, string>
  body: unknown
  status: number
}

const ajv = new Ajv({ allErrors: true, strict: false })
const ajvQuery = new Ajv({ allErrors: true, strict: false, coerceTypes: true })
for (const a of [ajv, ajvQuery]) a.addFormat('int64', /^-?\d+$/)
for (const a of [ajv, ajvQuery])
  a.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/)

const validators = new Map<
  string,
  { body?: ValidateFunction; query: ValidateFunction; bodySchema?: Schema }
>()
for (const [key, op] of Object.entries(SCHEMAS.operations)) {
  validators.set(key, {
    query: ajvQuery.compile(op.query),
    ...(op.body ? { body: ajv.compile(op.body), bodySchema: op.body } : {})
  })
}

/** Keys the schema does not know: GitHub ignores them, so a typo would fail silently there. */
function unknownKeys(value: unknown, schema: Schema | undefined, at: string): string[] {
  if (!schema || typeof value !== 'object' || value === null) return []
  if (Array.isArray(value))
    return value.flatMap((v, i) => unknownKeys(v, schema.items, `${at}[${i}]`))
  if (!schema.properties) return []
  const out: string[] = []
  for (const [key, v] of Object.entries(value)) {
    const sub = schema.properties[key]
    if (!sub) out.push(`${at}.${key}`)
    else out.push(...unknownKeys(v, sub, `${at}.${key}`))
  }
  return out
}

interface Route {
  method: string
  pattern: RegExp
  operation: string
  handle: (m: RegExpExecArray, query: Record<string, string>, body: unknown) => Reply
}

interface Reply {
  status: number
  json: unknown
  headers?: Record<string, string>
  /** A binary body instead of JSON (the artifact blob). */
  raw?: Buffer
}

export class FakeGitHub {
  readonly requests: RecordedRequest[] = []
  readonly invalid: string[] = []
  readonly checkRuns: FakeCheckRun[] = []
  readonly comments: FakeComment[] = []
  readonly owner: string
  readonly repo: string
  url = ''
  private server: Server | null = null
  private nextId = 1000
  private readonly routes: Route[]

  constructor(readonly options: FakeGitHubOptions = {}) {
    this.owner = options.owner ?? 'acme'
    this.repo = options.repo ?? 'widget'
    for (const run of options.checkRuns ?? []) this.checkRuns.push(this.newRun(run))
    for (const c of options.comments ?? []) this.comments.push({ ...c, id: this.nextId++ })
    const repoPath = `${options.basePath ?? ''}/repos/([^/]+)/([^/]+)`
    this.routes = [
      {
        method: 'GET',
        pattern: new RegExp(`^${repoPath}/pulls/(\\d+)$`),
        operation: 'GET /repos/{owner}/{repo}/pulls/{pull_number}',
        handle: m => this.getPull(Number(m[3]))
      },
      {
        method: 'GET',
        pattern: new RegExp(`^${repoPath}/pulls/(\\d+)/files$`),
        operation: 'GET /repos/{owner}/{repo}/pulls/{pull_number}/files',
        handle: (m, q) => this.listFiles(Number(m[3]), q, m[0])
      },
      {
        method: 'POST',
        pattern: new RegExp(`^${repoPath}/check-runs$`),
        operation: 'POST /repos/{owner}/{repo}/check-runs',
        handle: (_m, _q, b) => this.createRun(b)
      },
      {
        method: 'PATCH',
        pattern: new RegExp(`^${repoPath}/check-runs/(\\d+)$`),
        operation: 'PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}',
        handle: (m, _q, b) => this.updateRun(Number(m[3]), b)
      },
      {
        method: 'GET',
        pattern: new RegExp(`^${repoPath}/check-runs/(\\d+)/annotations$`),
        operation: 'GET /repos/{owner}/{repo}/check-runs/{check_run_id}/annotations',
        handle: (m, q) => this.listAnnotations(Number(m[3]), q, m[0])
      },
      {
        method: 'GET',
        pattern: new RegExp(`^${repoPath}/pulls/(\\d+)/reviews$`),
        operation: 'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews',
        handle: (m, q) => this.listReviews(Number(m[3]), q, m[0])
      },
      {
        method: 'GET',
        pattern: new RegExp(`^${options.basePath ?? ''}/orgs/([^/]+)/teams/([^/]+)/members$`),
        operation: 'GET /orgs/{org}/teams/{team_slug}/members',
        handle: (m, q) => this.listMembers(`${m[1]}/${m[2]}`, q, m[0])
      },
      {
        method: 'GET',
        pattern: new RegExp(`^${repoPath}/issues/(\\d+)/comments$`),
        operation: 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
        handle: (m, q) => this.listComments(Number(m[3]), q, m[0])
      },
      {
        method: 'POST',
        pattern: new RegExp(`^${repoPath}/issues/(\\d+)/comments$`),
        operation: 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
        handle: (m, _q, b) => this.createComment(Number(m[3]), b)
      },
      {
        method: 'PATCH',
        pattern: new RegExp(`^${repoPath}/issues/comments/(\\d+)$`),
        operation: 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
        handle: (m, _q, b) => this.updateComment(Number(m[3]), b)
      },
      {
        method: 'GET',
        pattern: new RegExp(`^${repoPath}/actions/workflows/([^/]+)/runs$`),
        operation: 'GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs',
        handle: (m, q) => this.listWorkflowRuns(decodeURIComponent(m[3] ?? ''), q)
      },
      {
        method: 'GET',
        pattern: new RegExp(`^${repoPath}/actions/runs/(\\d+)/artifacts$`),
        operation: 'GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts',
        handle: (m, q) => this.listArtifacts(Number(m[3]), q)
      },
      {
        method: 'GET',
        pattern: new RegExp(`^${repoPath}/actions/artifacts/(\\d+)/([^/]+)$`),
        operation: 'GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}',
        handle: m => this.downloadArtifact(Number(m[3]), m[4] ?? '')
      },
      {
        method: 'GET',
        pattern: new RegExp(`^${repoPath}/commits/([^/]+)/check-runs$`),
        operation: 'GET /repos/{owner}/{repo}/commits/{ref}/check-runs',
        handle: (m, q) => this.listRuns(decodeURIComponent(m[3] ?? ''), q)
      }
    ]
  }

  static async start(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
    const fake = new FakeGitHub(options)
    await fake.listen()
    return fake
  }

  /** The value for GITHUB_API_URL. */
  get apiUrl(): string {
    return `${this.url}${this.options.basePath ?? ''}`
  }

  get repository(): string {
    return `${this.owner}/${this.repo}`
  }

  /** Requests made, optionally only those of one operation ("POST /repos/{owner}/{repo}/check-runs"). */
  calls(operation?: string): RecordedRequest[] {
    return operation ? this.requests.filter(r => r.operation === operation) : this.requests
  }

  async listen(): Promise<void> {
    this.server = createServer((req, res) => void this.serve(req, res))
    await new Promise<void>(resolve => this.server?.listen(0, '127.0.0.1', resolve))
    const { port } = this.server.address() as AddressInfo
    this.url = `http://127.0.0.1:${port}`
  }

  async close(): Promise<void> {
    const server = this.server
    if (!server) return
    server.closeAllConnections()
    await new Promise<void>(resolve => server.close(() => resolve()))
    this.server = null
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url)
    const method = req.method ?? 'GET'
    const query = Object.fromEntries(url.searchParams)
    const raw = await readBody(req)
    let body: unknown = undefined
    const route = this.routes.find(r => r.method === method && r.pattern.test(url.pathname))
    const record: RecordedRequest = {
      method,
      path: url.pathname,
      operation: route?.operation ?? null,
      query,
      body: undefined,
      status: 0
    }
    this.requests.push(record)
    const send = (reply: Reply): void => {
      record.status = reply.status
      res.writeHead(reply.status, {
        'content-type': reply.raw ? 'application/zip' : 'application/json; charset=utf-8',
        ...(reply.headers ?? {})
      })
      res.end(reply.raw ?? JSON.stringify(reply.json))
    }
    // The signed blob URL a download redirects to: another host on GitHub, no API token.
    const blob = /^\/_blobs\/artifact-(\d+)\.zip$/.exec(url.pathname)
    if (blob && method === 'GET') {
      const artifact = this.options.artifacts?.find(a => a.id === Number(blob[1]))
      return artifact
        ? send({ status: 200, json: null, raw: artifact.zip })
        : send({ status: 404, json: { message: 'BlobNotFound' } })
    }
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw)
        record.body = body
      } catch {
        this.invalid.push(`${method} ${url.pathname}: body is not JSON`)
        return send({ status: 400, json: { message: 'Problems parsing JSON' } })
      }
    }
    if (this.options.token !== undefined) {
      const auth = req.headers.authorization ?? ''
      if (auth !== `token ${this.options.token}` && auth !== `Bearer ${this.options.token}`) {
        return send({ status: 401, json: { message: 'Bad credentials' } })
      }
    }
    if (!route) {
      this.invalid.push(`${method} ${url.pathname}: no such endpoint in the fake`)
      return send({ status: 404, json: { message: 'Not Found' } })
    }
    const problems = this.validate(route.operation, query, body)
    if (problems.length > 0) {
      this.invalid.push(`${route.operation}: ${problems.join('; ')}`)
      return send({ status: 422, json: { message: 'Validation Failed', errors: problems } })
    }
    const fault = (this.options.faults ?? []).find(
      f => f.times > 0 && f.method === method && f.path.test(url.pathname)
    )
    if (fault) {
      fault.times -= 1
      return send({
        status: fault.status,
        json: { message: fault.message ?? `injected ${fault.status}` }
      })
    }
    const match = route.pattern.exec(url.pathname) as RegExpExecArray
    const repoScoped = route.operation.startsWith(`${route.method} /repos/`)
    if (repoScoped && (match[1] !== this.owner || match[2] !== this.repo))
      return send({ status: 404, json: { message: 'Not Found' } })
    send(route.handle(match, query, body))
  }

  private validate(operation: string, query: Record<string, string>, body: unknown): string[] {
    const v = validators.get(operation)
    if (!v) return [`no schema for ${operation}`]
    const problems: string[] = []
    if (!v.query({ ...query }))
      problems.push(...(v.query.errors ?? []).map(e => `query${e.instancePath} ${e.message}`))
    if (v.body) {
      if (body === undefined) problems.push('a JSON body is required')
      else if (!v.body(body))
        problems.push(...(v.body.errors ?? []).map(e => `body${e.instancePath} ${e.message}`))
      problems.push(
        ...unknownKeys(body, v.bodySchema, 'body').map(k => `${k} is not in the schema`)
      )
    } else if (body !== undefined) {
      problems.push('unexpected body')
    }
    return problems
  }

  private pull(number: number): FakePull | undefined {
    return (this.options.pulls ?? []).find(p => p.number === number)
  }

  private getPull(number: number): Reply {
    const pull = this.pull(number)
    if (!pull) return { status: 404, json: { message: 'Not Found' } }
    const repo = { full_name: this.repository, name: this.repo, owner: { login: this.owner } }
    return {
      status: 200,
      json: {
        number: pull.number,
        state: 'open',
        user: { login: pull.author?.login ?? 'agent-bot[bot]', type: pull.author?.type ?? 'Bot' },
        changed_files: pull.changedFiles ?? pull.files.length,
        head: {
          sha: pull.headSha,
          ref: `agent/pr-${pull.number}`,
          repo: pull.headRepo ? { ...repo, full_name: pull.headRepo } : repo
        },
        base: { sha: pull.baseSha, ref: pull.baseRef ?? 'main', repo }
      }
    }
  }

  private listFiles(number: number, query: Record<string, string>, path: string): Reply {
    const pull = this.pull(number)
    if (!pull) return { status: 404, json: { message: 'Not Found' } }
    // GitHub caps per_page at 100 and the whole list at 3000 files.
    const perPage = Math.min(Number(query.per_page ?? 30), 100)
    const page = Number(query.page ?? 1)
    const cap = this.options.fileCap ?? 3000
    const start = (page - 1) * perPage
    const items = start >= cap ? [] : pull.files.slice(start, Math.min(start + perPage, cap))
    const links = this.links(path, page, pull.files.length, perPage)
    return {
      status: 200,
      json: items.map(f => ({
        sha: '0'.repeat(40),
        filename: f.filename,
        status: f.status,
        additions: 1,
        deletions: 0,
        changes: 1,
        ...(f.previous_filename ? { previous_filename: f.previous_filename } : {})
      })),
      ...(links ? { headers: { link: links } } : {})
    }
  }

  /** A Link header like GitHub's, or '' on a single page. */
  private links(path: string, page: number, total: number, perPage: number): string {
    const last = Math.max(1, Math.ceil(total / perPage))
    const link = (p: number, rel: string): string =>
      `<${this.url}${path}?per_page=${perPage}&page=${p}>; rel="${rel}"`
    return [
      ...(page < last ? [link(page + 1, 'next'), link(last, 'last')] : []),
      ...(page > 1 ? [link(1, 'first'), link(page - 1, 'prev')] : [])
    ].join(', ')
  }

  /** One page of a list, with GitHub's Link header. */
  private page<T>(items: readonly T[], query: Record<string, string>, path: string): Reply {
    const perPage = Math.min(Number(query.per_page ?? 30), 100)
    const page = Number(query.page ?? 1)
    const links = this.links(path, page, items.length, perPage)
    return {
      status: 200,
      json: items.slice((page - 1) * perPage, page * perPage),
      ...(links ? { headers: { link: links } } : {})
    }
  }

  private listReviews(number: number, query: Record<string, string>, path: string): Reply {
    const pull = this.pull(number)
    if (!pull) return { status: 404, json: { message: 'Not Found' } }
    const reviews = (pull.reviews ?? []).map((r, i) => ({
      id: 500 + i,
      node_id: `R_${i}`,
      user: { login: r.login, id: 9000 + i, type: r.type ?? 'User' },
      body: '',
      state: r.state,
      html_url: `https://github.example/${this.repository}/pull/${number}#pullrequestreview-${500 + i}`,
      pull_request_url: `${this.url}/repos/${this.repository}/pulls/${number}`,
      commit_id: r.commit_id,
      submitted_at: r.submitted_at ?? new Date(Date.UTC(2026, 5, 1, 0, i)).toISOString(),
      author_association: 'MEMBER'
    }))
    return this.page(reviews, query, path)
  }

  private listMembers(team: string, query: Record<string, string>, path: string): Reply {
    const members = this.options.teams?.[team]
    if (!members) return { status: 404, json: { message: 'Not Found' } }
    return this.page(
      members.map((login, i) => ({ login, id: 7000 + i, type: 'User' })),
      query,
      path
    )
  }

  private listComments(number: number, query: Record<string, string>, path: string): Reply {
    const comments = this.comments.filter(c => c.issue === number).map(c => this.commentJson(c))
    return this.page(comments, query, path)
  }

  private commentJson(c: FakeComment): unknown {
    return {
      id: c.id,
      node_id: `IC_${c.id}`,
      body: c.body,
      user: { login: c.user.login, type: c.user.type },
      html_url: `https://github.example/${this.repository}/pull/${c.issue}#issuecomment-${c.id}`
    }
  }

  private createComment(number: number, body: unknown): Reply {
    if (this.options.refuseCheckRuns) {
      return { status: 403, json: { message: 'Resource not accessible by integration' } }
    }
    const comment: FakeComment = {
      id: this.nextId++,
      issue: number,
      body: String((body as { body: unknown }).body),
      user: { login: 'github-actions[bot]', type: 'Bot' }
    }
    this.comments.push(comment)
    return { status: 201, json: this.commentJson(comment) }
  }

  private updateComment(id: number, body: unknown): Reply {
    const comment = this.comments.find(c => c.id === id)
    if (!comment) return { status: 404, json: { message: 'Not Found' } }
    if (comment.user.type !== 'Bot')
      return { status: 403, json: { message: 'Resource not accessible by integration' } }
    comment.body = String((body as { body: unknown }).body)
    return { status: 200, json: this.commentJson(comment) }
  }

  private newRun(init: Partial<FakeCheckRun> & { name: string; head_sha: string }): FakeCheckRun {
    return {
      id: this.nextId++,
      external_id: null,
      status: 'queued',
      conclusion: null,
      details_url: null,
      started_at: null,
      completed_at: null,
      output: { title: null, summary: null },
      annotations: [],
      annotationRequests: 0,
      ...init
    }
  }

  private runJson(run: FakeCheckRun): unknown {
    const { annotations, annotationRequests: _requests, ...rest } = run
    return { ...rest, output: { ...run.output, annotations_count: annotations.length } }
  }

  private apply(run: FakeCheckRun, body: Record<string, unknown>): void {
    for (const key of [
      'name',
      'external_id',
      'status',
      'conclusion',
      'details_url',
      'started_at',
      'completed_at'
    ] as const) {
      if (typeof body[key] === 'string')
        (run as unknown as Record<string, unknown>)[key] = body[key]
    }
    if (typeof body.conclusion === 'string') run.status = 'completed'
    if (body.status === 'in_progress') {
      run.conclusion = null
      run.completed_at = null
    }
    const output = body.output as
      { title?: string; summary?: string; annotations?: FakeAnnotation[] } | undefined
    if (output) {
      if (output.title !== undefined) run.output.title = output.title
      if (output.summary !== undefined) run.output.summary = output.summary
      if (output.annotations?.length) {
        // Like GitHub: annotations are appended, never replaced.
        run.annotations.push(...output.annotations)
        run.annotationRequests += 1
      }
    }
  }

  private createRun(body: unknown): Reply {
    if (this.options.refuseCheckRuns) {
      return {
        status: 403,
        json: {
          message: 'Resource not accessible by integration',
          documentation_url: 'https://docs.github.com/rest/checks/runs#create-a-check-run',
          status: '403'
        }
      }
    }
    const b = body as Record<string, unknown>
    const run = this.newRun({ name: String(b.name), head_sha: String(b.head_sha) })
    this.apply(run, b)
    this.checkRuns.push(run)
    return { status: 201, json: this.runJson(run) }
  }

  private updateRun(id: number, body: unknown): Reply {
    const run = this.checkRuns.find(r => r.id === id)
    if (!run) return { status: 404, json: { message: 'Not Found' } }
    this.apply(run, body as Record<string, unknown>)
    return { status: 200, json: this.runJson(run) }
  }

  private listAnnotations(id: number, query: Record<string, string>, path: string): Reply {
    const run = this.checkRuns.find(r => r.id === id)
    if (!run) return { status: 404, json: { message: 'Not Found' } }
    const perPage = Math.min(Number(query.per_page ?? 30), 100)
    const page = Number(query.page ?? 1)
    const slice = run.annotations.slice((page - 1) * perPage, page * perPage)
    const links = this.links(path, page, run.annotations.length, perPage)
    return {
      status: 200,
      ...(links ? { headers: { link: links } } : {}),
      json: slice.map(a => ({
        ...a,
        start_column: null,
        end_column: null,
        title: a.title ?? null,
        raw_details: null,
        blob_href: ''
      }))
    }
  }

  private workflowRunJson(run: FakeWorkflowRun): unknown {
    const api = `${this.url}/repos/${this.repository}/actions/runs/${run.id}`
    const repository = { id: 1, full_name: this.repository, name: this.repo }
    return {
      id: run.id,
      node_id: `WFR_${run.id}`,
      name: 'oracle-gate',
      head_branch: run.head_branch,
      head_sha: run.head_sha,
      path: run.path,
      display_title: 'a commit',
      run_number: run.id,
      run_attempt: 1,
      event: run.event,
      status: run.status,
      conclusion: run.conclusion,
      workflow_id: 77,
      url: api,
      html_url: `https://github.example/${this.repository}/actions/runs/${run.id}`,
      pull_requests: [],
      created_at: '2026-06-01T00:00:00Z',
      updated_at: '2026-06-01T00:05:00Z',
      jobs_url: `${api}/jobs`,
      logs_url: `${api}/logs`,
      check_suite_url: `${this.url}/repos/${this.repository}/check-suites/${run.id}`,
      artifacts_url: `${api}/artifacts`,
      cancel_url: `${api}/cancel`,
      rerun_url: `${api}/rerun`,
      workflow_url: `${this.url}/repos/${this.repository}/actions/workflows/77`,
      head_commit: null,
      repository,
      head_repository: { ...repository, full_name: run.head_repository ?? this.repository }
    }
  }

  /** GitHub's filters: the workflow file, event, branch, head_sha, and status or conclusion. */
  private listWorkflowRuns(file: string, query: Record<string, string>): Reply {
    const keep = (r: FakeWorkflowRun): boolean =>
      this.options.ignoreRunFilters === true ||
      ((r.path.split('/').pop() ?? '') === file &&
        (query.event === undefined || r.event === query.event) &&
        (query.branch === undefined || r.head_branch === query.branch) &&
        (query.head_sha === undefined || r.head_sha === query.head_sha) &&
        (query.status === undefined || r.status === query.status || r.conclusion === query.status))
    const runs = (this.options.workflowRuns ?? []).filter(keep)
    return {
      status: 200,
      json: { total_count: runs.length, workflow_runs: runs.map(r => this.workflowRunJson(r)) }
    }
  }

  private artifactJson(a: FakeArtifact): unknown {
    const run = this.options.workflowRuns?.find(r => r.id === a.run_id)
    const api = `${this.url}/repos/${this.repository}/actions/artifacts/${a.id}`
    const digest =
      a.digest === undefined
        ? `sha256:${createHash('sha256').update(a.zip).digest('hex')}`
        : a.digest
    return {
      id: a.id,
      node_id: `A_${a.id}`,
      name: a.name,
      size_in_bytes: a.zip.length,
      url: api,
      archive_download_url: `${api}/zip`,
      expired: a.expired ?? false,
      created_at: '2026-06-01T00:05:00Z',
      expires_at: '2026-09-01T00:05:00Z',
      updated_at: '2026-06-01T00:05:00Z',
      digest,
      workflow_run: {
        id: a.run_id,
        repository_id: 1,
        head_repository_id: 1,
        head_branch: run?.head_branch ?? 'main',
        head_sha: run?.head_sha ?? '0'.repeat(40)
      }
    }
  }

  private listArtifacts(runId: number, query: Record<string, string>): Reply {
    const artifacts = (this.options.artifacts ?? []).filter(
      a => a.run_id === runId && (query.name === undefined || a.name === query.name)
    )
    return {
      status: 200,
      json: { total_count: artifacts.length, artifacts: artifacts.map(a => this.artifactJson(a)) }
    }
  }

  private downloadArtifact(id: number, format: string): Reply {
    const artifact = this.options.artifacts?.find(a => a.id === id)
    if (!artifact || format !== 'zip') return { status: 404, json: { message: 'Not Found' } }
    if (artifact.expired) return { status: 410, json: { message: 'Artifact has expired' } }
    return {
      status: 302,
      json: null,
      headers: { location: `${this.url}/_blobs/artifact-${id}.zip` }
    }
  }

  private listRuns(ref: string, query: Record<string, string>): Reply {
    const runs = this.checkRuns.filter(
      r => r.head_sha === ref && (query.check_name === undefined || r.name === query.check_name)
    )
    const perPage = Math.min(Number(query.per_page ?? 30), 100)
    const page = Number(query.page ?? 1)
    return {
      status: 200,
      json: {
        total_count: runs.length,
        check_runs: runs.slice((page - 1) * perPage, page * perPage).map(r => this.runJson(r))
      }
    }
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

// ---------------------------------------------------------------------------------------
// Running the bundled action as GitHub's runner would: env, event file, output files.

export interface ActionRunOptions {
  /** dist/index.js */
  entry: string
  workspace: string
  eventName: string
  payload: unknown
  inputs: Record<string, string>
  apiUrl: string
  repository: string
  env?: Record<string, string>
  timeoutMs?: number
}

export interface ActionRun {
  code: number | null
  stdout: string
  stderr: string
  outputs: Record<string, string>
  summary: string
  runnerTemp: string
}

/** Parses a GITHUB_OUTPUT file (`name<<DELIM` … `DELIM` blocks, or `name=value`). */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line)
    if (heredoc?.[1] && heredoc[2]) {
      const value: string[] = []
      while (++i < lines.length && lines[i] !== heredoc[2]) value.push(lines[i] ?? '')
      out[heredoc[1]] = value.join('\n')
    } else if (line.includes('=')) {
      out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1)
    }
  }
  return out
}

/** The variables GitHub's runner sets for a step of this action (both runners use them). */
export function runnerEnv(
  options: ActionRunOptions,
  files: { runnerTemp: string; eventPath: string; summaryPath: string }
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: 'C.UTF-8',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: options.eventName,
    GITHUB_EVENT_PATH: files.eventPath,
    GITHUB_STEP_SUMMARY: files.summaryPath,
    GITHUB_WORKSPACE: options.workspace,
    GITHUB_REPOSITORY: options.repository,
    GITHUB_API_URL: options.apiUrl,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_RUN_ID: '4242',
    RUNNER_TEMP: files.runnerTemp,
    ...Object.fromEntries(
      Object.entries(options.inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])
    ),
    ...(options.env ?? {})
  }
}

export async function runBundledAction(options: ActionRunOptions): Promise<ActionRun> {
  const runnerTemp = await mkdtemp(join(tmpdir(), 'og-runner-'))
  const eventPath = join(runnerTemp, 'event.json')
  const outputPath = join(runnerTemp, 'output.txt')
  const summaryPath = join(runnerTemp, 'summary.md')
  await writeFile(eventPath, JSON.stringify(options.payload))
  await writeFile(outputPath, '')
  await writeFile(summaryPath, '')
  const env = runnerEnv(options, { runnerTemp, eventPath, summaryPath })
  env.GITHUB_OUTPUT = outputPath
  const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    resolve => {
      execFile(
        process.execPath,
        [options.entry],
        {
          cwd: options.workspace,
          env,
          timeout: options.timeoutMs ?? 120_000,
          maxBuffer: 64 * 1024 * 1024
        },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : null) : 0
          resolve({ code, stdout, stderr })
        }
      )
    }
  )
  return {
    ...result,
    outputs: parseOutputFile(await readFile(outputPath, 'utf8')),
    summary: await readFile(summaryPath, 'utf8'),
    runnerTemp
  }
}
