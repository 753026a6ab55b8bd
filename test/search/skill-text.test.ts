import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { PREVIEW_CHARS, skillPreview } from '../../src/main/search/skill-text'

const wholeBody = (body: string): string => body.replace(/\s+/g, ' ').trim().slice(0, PREVIEW_CHARS)

describe('skillPreview', () => {
  it('reads only the start of a long body and gives what collapsing the whole body gives', () => {
    const piece = fc.constantFrom('word', '部署超时', ' ', '  ', '\n', '\n\n\n', '\t', '\u00a0', '\u2028', '\r\n', '𠀀', 'x'.repeat(90), ' '.repeat(300), '\n'.repeat(900))
    const body = fc.array(piece, { maxLength: 120 }).map((p) => p.join(''))
    fc.assert(fc.property(body, (b) => {
      expect(skillPreview(b)).toBe(wholeBody(b))
    }), { numRuns: 500 })
  })

  it('handles bodies that are mostly whitespace before the text starts', () => {
    for (const b of [' '.repeat(5000) + 'start here', '\n'.repeat(799) + 'a b', 'a' + ' '.repeat(3199) + 'b'.repeat(300), '']) {
      expect(skillPreview(b)).toBe(wholeBody(b))
    }
  })
})
