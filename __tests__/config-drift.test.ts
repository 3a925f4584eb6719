// The pure halves of runner-tampered by the resolved configuration (src/replay/config-drift.ts,
// src/reporters/node/config-record.mjs): the record the reporters build (digest per option,
// the root written as <root>, functions by source, the volatile keys out, aliases with their
// package probe) and the comparison of the head's record with the base's (which options
// drifted, which aliases point a package elsewhere, which changed file is named).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { configDrift } from '../src/replay/config-drift.js'
import type { WatchRecord } from '../src/replay/tripwires.js'
// @ts-expect-error: the reporters are plain ESM without declarations
import { aliasOf, canonical, configRecord } from '../src/reporters/node/config-record.mjs'

type Record_ = { keys: Record<string, string>; aliases: unknown[]; deps: string[] }
const recordOf = configRecord as (
  runner: string,
  root: string,
  read: () => { parts: Record<string, unknown>; aliases: unknown[]; deps: string[] }
) => Record_
const record = (
  runner: string,
  root: string,
  parts: Record<string, unknown>,
  aliases: unknown[],
  deps: string[]
): Record_ => recordOf(runner, root, () => ({ parts, aliases, deps }))
const alias = aliasOf as (find: unknown, to: string, root: string) => Record<string, unknown>

const root = mkdtempSync(join(tmpdir(), 'og-drift-'))
mkdirSync(join(root, 'node_modules', 'chai'), { recursive: true })
writeFileSync(join(root, 'node_modules', 'chai', 'package.json'), '{}')
afterAll(() => rmSync(root, { recursive: true, force: true }))

const runs = (fields: Record_ | null): WatchRecord[] => [
  {
    fed: false,
    started: 1,
    watched: 0,
    dropped: 0,
    events: fields === null ? [] : [{ t: 'config', runner: 'vitest', ...fields }]
  }
]

const BASE = { include: ['oracle/**'], testTimeout: 5000, root, outputFile: '/tmp/a.xml' }

function drift(head: Record_, base = record('vitest', root, { test: BASE }, [], [])) {
  const changed = new Map([['src/settings.js', 3]])
  return configDrift({ base: runs(base), head: runs(head), changed, fallback: 'policy.yml' })
}

describe('config-record: what a run says its configuration became', () => {
  it('the root is <root> and only the drawn places (report path, token, seed) are left out', () => {
    const other = '/elsewhere/wt'
    const a = record('vitest', root, { test: BASE }, [], [])
    const b = record(
      'vitest',
      other,
      { test: { ...BASE, root: other, outputFile: '/b.xml' } },
      [],
      []
    )
    expect(a.keys).toEqual(b.keys)
    expect(Object.keys(a.keys)).toEqual(['test.include', 'test.root', 'test.testTimeout'])
    expect(canonical({ b: 1, a: { seed: 4, token: 'x', c: /x/ } }, root)).toBe(
      '{"a":{"c":"regexp:/x/","seed":4,"token":"x"},"b":1}'
    )
  })

  it('a plugin option named seed or a nested token is digested; the drawn paths are not', () => {
    const run = (seed: number, drawn: string, plugin: object) =>
      record(
        'vitest',
        root,
        {
          test: {
            ...BASE,
            outputFile: `/${drawn}.xml`,
            api: { token: drawn, port: 1 },
            sequence: { seed, shuffle: false },
            plugins: [plugin]
          }
        },
        [],
        []
      )
    const honest = run(1, 'a', { seed: 1, opts: { token: 't' } })
    expect(run(2, 'b', { seed: 1, opts: { token: 't' } }).keys).toEqual(honest.keys)
    expect(run(1, 'a', { seed: 9, opts: { token: 't' } }).keys['test.plugins']).not.toBe(
      honest.keys['test.plugins']
    )
    expect(run(1, 'a', { seed: 1, opts: { token: 'u' } }).keys['test.plugins']).not.toBe(
      honest.keys['test.plugins']
    )
    const jest = (seed: number, projectSeed: number) =>
      record(
        'jest',
        root,
        { global: { seed, outputFile: `/${seed}` }, project0: { seed: projectSeed } },
        [],
        []
      )
    expect(jest(1, 3).keys).toEqual(jest(2, 3).keys)
    expect(jest(1, 3).keys['project0.seed']).not.toBe(jest(1, 4).keys['project0.seed'])
  })

  it('the run’s temp folder is written by its role (jest’s cacheDirectory lies in a per-run TMPDIR)', () => {
    const cache = join(tmpdir(), 'jest_rs')
    expect(canonical({ cacheDirectory: cache }, '/work/checkout')).toBe(
      '{"cacheDirectory":"<tmp>/jest_rs"}'
    )
    expect(canonical({ cacheDirectory: '/var/cache/jest' }, '/work/checkout')).toBe(
      '{"cacheDirectory":"/var/cache/jest"}'
    )
  })

  it('a value the config imports cannot choose its digest (toJSON, getters, proxies)', () => {
    const plain = record('vitest', root, { test: { setupFiles: [] } }, [], [])
    const lying = Object.assign(['src/boot.js'], { toJSON: () => [] })
    expect(record('vitest', root, { test: { setupFiles: lying } }, [], []).keys).not.toEqual(
      plain.keys
    )
    const getter = {
      get setupFiles() {
        return []
      }
    }
    expect(record('vitest', root, { test: getter }, [], []).keys).not.toEqual(plain.keys)
    const proxy = new Proxy({}, { get: () => [] })
    expect(record('vitest', root, { test: { setupFiles: proxy } }, [], []).keys).not.toEqual(
      plain.keys
    )
  })

  it('a record that cannot be built says so, and the gate fails the head on it', () => {
    const broken = recordOf('vitest', root, () => {
      throw new Error('boom')
    })
    expect(broken).toEqual({ runner: 'vitest', error: 'boom' })
    const reasons = drift(broken as never)
    expect(reasons.map(r => [r.rule, r.level, r.path])).toEqual([
      ['runner-tampered', 'failure', 'policy.yml']
    ])
  })

  it('a function is compared by its source, so a changed callback is a changed option', () => {
    const f = record('vitest', root, { test: { onConsoleLog: () => false } }, [], [])
    const g = record('vitest', root, { test: { onConsoleLog: () => true } }, [], [])
    expect(f.keys['test.onConsoleLog']).not.toBe(g.keys['test.onConsoleLog'])
  })

  it('an alias knows whether it matches an installed package; deps are made relative', () => {
    expect(alias('chai', join(root, 'src/fake.js'), root)).toEqual({
      find: 'chai',
      to: 'src/fake.js',
      package: true
    })
    expect(alias(/^chai$/, join(root, 'src/fake.js'), root).package).toBe(true)
    expect(alias('@app', join(root, 'src'), root).package).toBe(false)
    expect(alias('^@app/(.*)$', '<rootDir>/src/$1', root).package).toBe(false)
    const deps = record('jest', root, {}, [], [join(root, 'src/a.js'), '/outside/b.js']).deps
    expect(deps).toEqual(['src/a.js'])
  })
})

describe('configDrift: the head against the base', () => {
  it('the same options: nothing; no record on either side: nothing', () => {
    expect(drift(record('vitest', root, { test: BASE }, [], ['src/settings.js']))).toEqual([])
    const head = record('vitest', root, { test: { ...BASE, retry: 3 } }, [], [])
    const changed = new Map([['src/settings.js', 3]])
    expect(configDrift({ base: runs(null), head: runs(head), changed, fallback: 'p' })).toEqual([])
  })

  it('an option that drifted names the changed file of the config graph at its first line', () => {
    const deps = [join(root, 'src/settings.js'), join(root, 'vitest.config.js')]
    const head = record('vitest', root, { test: { ...BASE, setupFiles: ['x'] } }, [], deps)
    const reasons = drift(head)
    expect(reasons.map(r => [r.rule, r.level, r.path, r.line])).toEqual([
      ['runner-tampered', 'failure', 'src/settings.js', 3]
    ])
    expect(reasons[0]?.message).toContain('test.setupFiles')
  })

  it('a drift with no changed file in the graph is named at the config file', () => {
    const head = record(
      'vitest',
      root,
      { test: { ...BASE, retry: 2 } },
      [],
      [join(root, 'vitest.config.js')]
    )
    expect(drift(head).map(r => [r.rule, r.path])).toEqual([
      ['runner-tampered', 'vitest.config.js']
    ])
  })

  it('a new alias between own files is honest; one for a package is runner-tampered', () => {
    const deps = [join(root, 'src/settings.js')]
    const own = alias('@rates', join(root, 'src/rates'), root)
    const pkg = alias('chai', join(root, 'src/fake.js'), root)
    expect(drift(record('vitest', root, { test: BASE }, [own], deps))).toEqual([])
    const reasons = drift(record('vitest', root, { test: BASE }, [own, pkg], deps))
    expect(reasons.map(r => r.path)).toEqual(['src/settings.js'])
    expect(reasons[0]?.message).toContain('"chai" to "src/fake.js"')
    // The same package alias already at the base: not the patch's.
    const base = record('vitest', root, { test: BASE }, [pkg], [])
    expect(drift(record('vitest', root, { test: BASE }, [pkg], deps), base)).toEqual([])
  })
})
