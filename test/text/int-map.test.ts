import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { IntMap } from '../../src/main/text/int-map'

describe('a map of small integers in typed arrays', () => {
  it('answers as a Map does, through its growth, for keys up to 2^30 - 1', () => {
    const key = fc.oneof(fc.integer({ min: 0, max: 2 ** 30 - 1 }), fc.integer({ min: 0, max: 3000 }))
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.integer({ min: -1, max: 1e6 })), { maxLength: 3000 }), (entries) => {
        const map = new IntMap()
        const expected = new Map<number, number>()
        for (const [k, v] of entries) {
          map.set(k, v)
          expected.set(k, v)
        }
        expect(map.size).toBe(expected.size)
        for (const [k, v] of expected) expect(map.get(k)).toBe(v)
        for (const [k] of entries) expect(map.get(k + 1)).toBe(expected.get(k + 1))
      }),
      { numRuns: 100 }
    )
  })

  it('refuses a key it cannot hold', () => {
    expect(() => new IntMap().set(2 ** 30, 1)).toThrow(RangeError)
    expect(() => new IntMap().set(-1, 1)).toThrow(RangeError)
  })
})
