import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain .mjs script without type declarations
import { render } from '../scripts/policy-docs.mjs'
import schema from '../src/policy/schema.json' with { type: 'json' }
import { RULE_VERDICT } from '../src/verdict/verdict.js'

const root = join(import.meta.dirname, '..')

describe('documentation stays in sync', () => {
  it('docs/policy.md is what scripts/policy-docs.mjs renders from the schema', () => {
    const committed = readFileSync(join(root, 'docs/policy.md'), 'utf8')
    expect(committed).toBe((render as (s: unknown) => string)(schema))
  })

  it('the policy reference names every key of the schema', () => {
    const text = readFileSync(join(root, 'docs/policy.md'), 'utf8')
    const walk = (node: { properties?: Record<string, unknown> }, prefix: string): string[] =>
      Object.entries(node.properties ?? {}).flatMap(([k, v]) => {
        const path = prefix ? `${prefix}.${k}` : k
        return [path, ...walk(v as { properties?: Record<string, unknown> }, path)]
      })
    for (const key of walk(schema, '')) expect(text).toContain(`\`${key}\``)
  })

  it('action.yml declares the contract inputs and outputs and runs on node24', () => {
    const action = readFileSync(join(root, 'action.yml'), 'utf8')
    expect(action).toMatch(/using: node24/)
    expect(action).toMatch(/main: dist\/index\.js/)
    for (const input of ['token', 'policy', 'check-name', 'today', 'working-directory'])
      expect(action).toMatch(new RegExp(`\\n  ${input}:`))
    for (const output of ['verdict', 'merge', 'oracle-hits', 'scorecard'])
      expect(action).toMatch(new RegExp(`\\n  ${output}:`))
  })

  it('docs/rules.md has one row per rule id, with the verdict the code gives it', () => {
    const text = readFileSync(join(root, 'docs/rules.md'), 'utf8')
    const rows = new Map(
      [...text.matchAll(/^\| `([a-z-]+)` \| `([a-z-]+)` \|/gm)].map(m => [m[1], m[2]])
    )
    expect([...rows.keys()].sort()).toEqual(Object.keys(RULE_VERDICT).sort())
    for (const [rule, verdict] of Object.entries(RULE_VERDICT)) expect(rows.get(rule)).toBe(verdict)
  })
})
