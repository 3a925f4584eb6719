// Extracts from GitHub's OpenAPI description the request schemas (JSON bodies and query
// parameters) of the endpoints oracle-gate calls, into a small committed fixture that the
// fake GitHub server of the tests validates every request against.
//
//   npm install --no-save @octokit/openapi     (temporarily; it is not a dependency)
//   node scripts/extract-openapi.mjs [path/to/api.github.com.json]
//
// Add an endpoint to OPERATIONS when the action starts calling it, and re-run.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const source =
  process.argv[2] ?? join(root, 'node_modules/@octokit/openapi/generated/api.github.com.json')
const out = join(root, '__tests__/fixtures/openapi/requests.json')

const OPERATIONS = [
  ['get', '/repos/{owner}/{repo}/pulls/{pull_number}'],
  ['get', '/repos/{owner}/{repo}/pulls/{pull_number}/files'],
  ['post', '/repos/{owner}/{repo}/check-runs'],
  ['patch', '/repos/{owner}/{repo}/check-runs/{check_run_id}'],
  ['get', '/repos/{owner}/{repo}/commits/{ref}/check-runs'],
  ['get', '/repos/{owner}/{repo}/check-runs/{check_run_id}/annotations'],
  // instrument_approvers: reviews of the PR and the members of an approving team
  ['get', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews'],
  ['get', '/orgs/{org}/teams/{team_slug}/members'],
  // comment: the sticky PR comment
  ['get', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['post', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['patch', '/repos/{owner}/{repo}/issues/comments/{comment_id}'],
  // primed-base: auto: the push run of this workflow at the merge base, and its artifact
  ['get', '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs'],
  ['get', '/repos/{owner}/{repo}/actions/runs/{run_id}/artifacts'],
  ['get', '/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}']
]

// Documentation and vendor keys are not validation; ajv's strict mode rejects some of them.
const DROP = new Set(['description', 'example', 'examples', 'externalDocs', 'summary'])

const spec = JSON.parse(readFileSync(source, 'utf8'))

function resolveRef(ref) {
  if (!ref.startsWith('#/')) throw new Error(`external $ref ${ref}`)
  return ref
    .slice(2)
    .split('/')
    .reduce((node, key) => node[key.replace(/~1/g, '/').replace(/~0/g, '~')], spec)
}

function inline(node, seen = []) {
  if (Array.isArray(node)) return node.map(n => inline(n, seen))
  if (node === null || typeof node !== 'object') return node
  if (typeof node.$ref === 'string') {
    if (seen.includes(node.$ref)) throw new Error(`recursive $ref ${node.$ref}`)
    return inline(resolveRef(node.$ref), [...seen, node.$ref])
  }
  const out = {}
  for (const [key, value] of Object.entries(node)) {
    if (DROP.has(key) || key.startsWith('x-')) continue
    // `properties` maps names to schemas: a property may well be called "description".
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inline(v, seen)]))
        : inline(value, seen)
  }
  return out
}

const operations = {}
for (const [method, path] of OPERATIONS) {
  const op = spec.paths[path]?.[method]
  if (!op) throw new Error(`${method.toUpperCase()} ${path} is not in ${source}`)
  const entry = { operationId: op.operationId }
  const body = op.requestBody?.content?.['application/json']?.schema
  if (body) entry.body = inline(body)
  const params = [...(spec.paths[path].parameters ?? []), ...(op.parameters ?? [])].map(p =>
    inline(p)
  )
  const query = params.filter(p => p.in === 'query')
  entry.query = {
    type: 'object',
    properties: Object.fromEntries(query.map(p => [p.name, p.schema])),
    required: query.filter(p => p.required).map(p => p.name),
    additionalProperties: false
  }
  operations[`${method.toUpperCase()} ${path}`] = entry
}

let version = spec.info?.version
try {
  version = JSON.parse(readFileSync(join(dirname(source), '..', 'package.json'), 'utf8')).version
} catch {
  // a bare description file: its info.version is all there is
}
mkdirSync(dirname(out), { recursive: true })
writeFileSync(
  out,
  JSON.stringify(
    {
      source: `@octokit/openapi ${version}, generated/api.github.com.json (openapi ${spec.openapi})`,
      operations
    },
    null,
    2
  ) + '\n'
)
console.log(`wrote ${Object.keys(operations).length} operation(s) to ${out}`)
