import { describe, expect, it } from 'vitest'
import { canonicalJson } from '../src/json.js'
import {
  hamming64,
  keepDistinct,
  payloadDistance,
  popcount32,
  simhash
} from '../src/replay/simhash.js'

const ORDER = {
  order_id: 'A-1001',
  items: [
    { sku: 'apple', qty: 3, price: 1.25 },
    { sku: 'pear', qty: 1, price: 0.8 }
  ],
  currency: 'EUR',
  coupon: null,
  customer: { name: 'Ada Lovelace', tier: 'gold', since: '2019-04-01' }
}

describe('canonical JSON', () => {
  it('sorts keys at every level and drops whitespace, so key order does not move the hash', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 0, y: 1 }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[1,{"y":1,"z":0}]},"b":1}'
    )
    expect(simhash(canonicalJson({ a: 1, b: 2 }))).toEqual(simhash(canonicalJson({ b: 2, a: 1 })))
  })
})

describe('SimHash distance', () => {
  const d = payloadDistance('simhash')

  it('one small scalar changed inside a larger payload stays under 8 bits', () => {
    for (let qty = 0; qty < 100; qty++) {
      const near = structuredClone(ORDER)
      ;(near.items[0] as { qty: number }).qty = qty
      expect(d(ORDER, near)).toBeLessThan(8)
    }
  })

  it('unrelated payloads are far apart', () => {
    const unrelated = [
      ORDER,
      { x: 1 },
      { name: 'totally different', list: [9, 8, 7] },
      [1, 2, 3],
      'a plain string payload',
      { zz: { yy: { xx: 'deep' } } }
    ]
    for (let i = 0; i < unrelated.length; i++) {
      for (let j = i + 1; j < unrelated.length; j++)
        expect(d(unrelated[i], unrelated[j])).toBeGreaterThanOrEqual(16)
    }
  })

  it('identical payloads are 0 apart; popcount and hamming are exact', () => {
    expect(d(ORDER, structuredClone(ORDER))).toBe(0)
    expect(popcount32(0xffffffff)).toBe(32)
    expect(popcount32(0b1011)).toBe(3)
    expect(hamming64([0, 0], [0xf0, 1])).toBe(5)
  })

  it('sha256 puts distinct near-duplicates ~128 bits apart: it filters nothing', () => {
    const sha = payloadDistance('sha256')
    const near = structuredClone(ORDER)
    ;(near.items[0] as { qty: number }).qty = 4
    expect(sha(ORDER, near)).toBeGreaterThan(90)
    expect(sha(ORDER, structuredClone(ORDER))).toBe(0)
  })
})

describe('greedy keep', () => {
  it('keeps in order each item at least min away from every kept one', () => {
    const items = [
      { id: 'a', p: ORDER },
      { id: 'b', p: { ...ORDER, currency: 'USD' } },
      { id: 'c', p: { unrelated: true, values: [1, 2, 3, 4] } },
      { id: 'd', p: { ...ORDER, order_id: 'A-1002' } }
    ]
    const kept = keepDistinct(items, i => i.p, 8, payloadDistance('simhash'))
    expect(kept.map(i => i.id)).toEqual(['a', 'c'])
    expect(keepDistinct(items, i => i.p, 0, payloadDistance('simhash')).map(i => i.id)).toEqual([
      'a',
      'b',
      'c',
      'd'
    ])
  })
})
