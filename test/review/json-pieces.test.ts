import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { chunked, jsonPieces } from '../../src/main/review/json-pieces'

describe('jsonPieces', () => {
  it('joins to exactly JSON.stringify(value, null, indent)', () => {
    const member = fc.oneof(fc.jsonValue(), fc.array(fc.jsonValue(), { maxLength: 4 }), fc.constant(undefined), fc.constant([]))
    fc.assert(
      fc.property(fc.dictionary(fc.string(), member), fc.integer({ min: 1, max: 4 }), (value, indent) => {
        expect([...jsonPieces(value, indent)].join('')).toBe(JSON.stringify(value, null, indent))
      }),
      { numRuns: 500 }
    )
  })

  it('keeps line breaks and quotes inside strings as JSON escapes', () => {
    const value = { proposals: [{ before: 'a\n"b"\n', after: null }], errors: [] }
    expect([...jsonPieces(value, 2)].join('')).toBe(JSON.stringify(value, null, 2))
    expect(() => [...jsonPieces(value, 0)]).toThrow(RangeError)
  })
})

describe('chunked', () => {
  it('keeps the text and its order, in chunks of at least the size (but the last)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 20 })), fc.integer({ min: 1, max: 50 }), (pieces, size) => {
        const chunks = [...chunked(pieces, size, '\n')]
        expect(chunks.join('')).toBe(pieces.join('') + '\n')
        chunks.slice(0, -1).forEach((c) => expect(c.length).toBeGreaterThanOrEqual(size))
      })
    )
  })
})
