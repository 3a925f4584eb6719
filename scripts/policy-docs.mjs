// Renders docs/policy.md from src/policy/schema.json, so the reference cannot drift from
// what the validator accepts. `node scripts/policy-docs.mjs` rewrites the file; a test
// fails when the committed file differs from what this renders.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

function typeOf(node) {
  if (node.const !== undefined) return `\`${JSON.stringify(node.const)}\``
  if (node.enum) return node.enum.map(v => `\`${v}\``).join(' \\| ')
  if (node.oneOf) return node.oneOf.map(typeOf).join(' or ')
  if (node.type === 'array') return `list of ${node.items?.type ?? 'any'}`
  if (
    node.type === 'object' &&
    node.additionalProperties &&
    typeof node.additionalProperties === 'object'
  )
    return `map of ${node.additionalProperties.type}`
  return node.type ?? 'any'
}

/** How docs/policy.md words each `x-unite` rule (src/policy/unite.ts applies them). */
const UNITE_WORDS = {
  union: 'union',
  intersection: 'intersection',
  stricter: 'stricter',
  agree: 'must agree',
  min: 'smaller',
  'min-by-key': 'smaller, per key',
  max: 'larger',
  or: 'either (or)',
  and: 'both (and)',
  recurse: 'per key'
}

function uniteOf(node) {
  const words = UNITE_WORDS[node['x-unite']]
  if (words === undefined) throw new Error(`no x-unite rule: ${JSON.stringify(node)}`)
  const order = node['x-unite-order'] ? ` (${node['x-unite-order'].join(' < ')})` : ''
  const nocase = node['x-unite-nocase'] ? ' (case-folded)' : ''
  return `${words}${order}${nocase}`
}

function rows(node, prefix, required, out) {
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    const path = prefix ? `${prefix}.${key}` : key
    const def =
      child.default === undefined
        ? required.includes(key)
          ? '**required**'
          : '—'
        : `\`${JSON.stringify(child.default)}\``
    out.push(
      `| \`${path}\` | ${typeOf(child)} | ${def} | ${uniteOf(child)} | ${(child.description ?? '').replace(/\|/g, '\\|')} |`
    )
    if (child.type === 'object' && child.properties) rows(child, path, child.required ?? [], out)
  }
  return out
}

export function render(schema) {
  return [
    '# Policy reference',
    '',
    '<!-- Generated from src/policy/schema.json by scripts/policy-docs.mjs; do not edit by hand. -->',
    '',
    `${schema.description}`,
    '',
    'Unknown keys are errors. Every error names the file, the line and column, and the key.',
    '',
    'The **united** column says how the policy at the merge base and the policy at the base',
    "tip combine for each key (the `x-unite` annotation of the schema): **union** (either's",
    'entries: protections), **intersection** (entries both allow: permissions; list entries',
    'that are mappings pair on their other fields and intersect their lists), **stricter**',
    '(the later value in the order shown), **smaller** / **larger**, **either (or)** /',
    '**both (and)**, **per key** (a mapping united key by key) and **must agree** (a',
    'difference is a config-invalid error asking to rebase onto the base branch).',
    '',
    '| key | type | default | united | meaning |',
    '|---|---|---|---|---|',
    ...rows(schema, '', schema.required ?? [], []),
    ''
  ].join('\n')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const schema = JSON.parse(readFileSync(join(root, 'src/policy/schema.json'), 'utf8'))
  writeFileSync(join(root, 'docs/policy.md'), render(schema))
  console.log('wrote docs/policy.md')
}
