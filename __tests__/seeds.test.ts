import { describe, expect, it } from 'vitest'
import { GateError } from '../src/errors.js'
import type { SeedSettings } from '../src/policy/types.js'
import { parseAnswers, parseCorpus, scoreSeeds, seedLines } from '../src/replay/seeds.js'

const SETTINGS: SeedSettings = {
  corpus: 'oracle/seeds.json',
  command: 'x',
  min_hits: 1,
  min_distance: 8,
  distance: 'simhash',
  timeout: 60
}
const big = (x: number): object => ({
  x,
  note: 'a long shared description of the failing input that makes the payload larger',
  tags: ['a', 'b']
})

describe('corpus', () => {
  it('reads one group or a list of groups, ids as strings', () => {
    const one = parseCorpus(
      JSON.stringify({ property: 'p', seeds: [{ id: 1, payload: { a: 1 } }] }),
      'c.json'
    )
    expect(one).toEqual([{ id: '1', property: 'p', payload: { a: 1 } }])
    const list = parseCorpus(
      JSON.stringify([
        { property: 'p', seeds: [{ id: 'a', payload: 1 }] },
        { property: 'q', seeds: [{ id: 'b', payload: null }] }
      ]),
      'c.json'
    )
    expect(list.map(s => `${s.property}/${s.id}`)).toEqual(['p/a', 'q/b'])
  })

  it('rejects bad JSON, bad shapes and duplicate ids with the corpus path', () => {
    expect(() => parseCorpus('{', 'c.json')).toThrow(GateError)
    expect(() => parseCorpus('{"seeds": []}', 'c.json')).toThrow(/property/)
    expect(() => parseCorpus('{"property": "p", "seeds": [{"payload": 1}]}', 'c.json')).toThrow(
      /"id"/
    )
    expect(() =>
      parseCorpus(
        '{"property": "p", "seeds": [{"id": 1, "payload": 1}, {"id": "1", "payload": 2}]}',
        'c.json'
      )
    ).toThrow(/twice/)
    // The shape comes from src/replay/seeds.schema.json; the message names the place.
    expect(() =>
      parseCorpus('[{"property": "p", "seeds": [{"id": true, "payload": 1}]}]', 'c.json')
    ).toThrow(/seed corpus c\.json\[0\] must be .*: seeds\/0\/id: expected string,number/)
    expect(() => parseCorpus('{"property": 7, "seeds": []}', 'c.json')).toThrow(
      /property: expected string/
    )
  })

  it('writes JSON Lines {id, property, payload} and reads {id, ok} lines, ignoring stray output', () => {
    expect(seedLines([{ id: 'a', property: 'p', payload: { x: 1 } }])).toBe(
      '{"id":"a","property":"p","payload":{"x":1}}\n'
    )
    const answers = parseAnswers(
      'hello\n{"id": "a", "ok": true}\n{"id": 2, "ok": false}\n{"id": "c", "ok": "yes"}\n{broken\n'
    )
    expect([...answers]).toEqual([
      ['a', true],
      ['2', false]
    ])
  })
})

describe('scoring', () => {
  const seeds = [
    { id: 's10', property: 'p', payload: big(-10) },
    { id: 's2', property: 'p', payload: big(-2) },
    { id: 's3', property: 'p', payload: { entirely: 'different', n: [1, 2, 3] } },
    { id: 's4', property: 'p', payload: big(4) }
  ]

  it('hits fail on base and pass on head; near duplicates collapse, in natural id order', () => {
    const base = new Map([
      ['s10', false],
      ['s2', false],
      ['s3', false],
      ['s4', true]
    ])
    const head = new Map([
      ['s10', true],
      ['s2', true],
      ['s3', true],
      ['s4', true]
    ])
    const r = scoreSeeds(seeds, base, head, { ...SETTINGS, min_hits: 2 })
    expect(r.summary).toEqual({
      oracle_hits: 2,
      raw_fail_to_pass: 3,
      min_distance: 8,
      hit_ids: ['s2', 's3']
    })
    expect(r.reasons).toEqual([])
  })

  it('fewer distinct hits than min_hits is insufficient-hits', () => {
    const base = new Map([
      ['s10', false],
      ['s2', false]
    ])
    const head = new Map([
      ['s10', true],
      ['s2', true]
    ])
    const r = scoreSeeds(seeds, base, head, { ...SETTINGS, min_hits: 2 })
    expect(r.reasons.map(x => x.rule)).toEqual(['insufficient-hits'])
    expect(r.reasons[0]).toMatchObject({ level: 'failure', path: 'oracle/seeds.json' })
  })

  it('pass on base, fail or no answer on head is a seed regression; an unanswered base seed is never a hit', () => {
    const base = new Map([
      ['s4', true],
      ['s3', true]
    ])
    const head = new Map([
      ['s4', false],
      ['s10', true]
    ])
    const r = scoreSeeds(seeds, base, head, { ...SETTINGS, min_hits: 0 })
    expect(r.reasons.map(x => x.rule)).toEqual(['seed-regression'])
    expect(r.reasons[0]?.message).toMatch(/2 seed\(s\).*s3, s4/)
    expect(r.summary.raw_fail_to_pass).toBe(0)
  })

  it('sha256 distance keeps near duplicates and warns', () => {
    const base = new Map([
      ['s10', false],
      ['s2', false]
    ])
    const head = new Map([
      ['s10', true],
      ['s2', true]
    ])
    const r = scoreSeeds(seeds, base, head, { ...SETTINGS, distance: 'sha256' })
    expect(r.summary.hit_ids).toEqual(['s2', 's10'])
    expect(r.reasons).toEqual([expect.objectContaining({ rule: 'diagnostic', level: 'warning' })])
  })
})
