import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { lineAt } from '../../src/main/text/boilerplate'
import { lineOfDoc } from '../../src/main/text/doc-terms'

describe('lineOfDoc', () => {
  it('gives the line of the joined text at every line start, without joining the parts', () => {
    const piece = fc.stringMatching(/^[ab\n ]{0,12}$/)
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 4 }), (parts) => {
        const text = parts.join('\n')
        const starts = [0]
        for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1)
        for (const start of starts) {
          expect(lineOfDoc(parts, start)).toBe(lineAt(text, start))
          expect(lineOfDoc(text, start)).toBe(lineAt(text, start))
        }
      }),
      { numRuns: 400 }
    )
  })

  it('finds a line in the body after a title and usage conditions', () => {
    const parts = ['Deploy with retries', 'when a deploy times out', '## Steps\n- retry twice\n- then roll back']
    const text = parts.join('\n')
    expect(lineOfDoc(parts, text.indexOf('- retry'))).toBe('- retry twice')
    expect(lineOfDoc(parts, text.indexOf('when'))).toBe('when a deploy times out')
  })
})
