import { describe, expect, it } from 'vitest'
import { asciiWordChars, forEachWordRun } from '../../src/main/text/word-runs'

describe('runs of word characters', () => {
  it('gives every maximal run of ASCII word characters and non-ASCII ones, in order, told apart by whether it is all ASCII', () => {
    const pieces = ['a', 'Z', '09', '_', "'", '-', ' ', '.', '\n', 'é', '中文', '—', '😀', 'x-y', "it's"]
    let seed = 3
    const random = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n)
    // Non-ASCII: anything outside \x00-\x7f.
    /* eslint-disable no-control-regex */
    for (const [extra, pattern] of [
      ['_', /(?:[A-Za-z0-9_]|[^\x00-\x7f])+/g],
      ["_'-", /(?:[A-Za-z0-9_'-]|[^\x00-\x7f])+/g]
    ] as const) {
      const table = asciiWordChars(extra)
      for (let k = 0; k < 500; k++) {
        let text = ''
        for (let n = random(30); n >= 0; n--) text += pieces[random(pieces.length)]
        const runs: string[] = []
        forEachWordRun(
          text,
          table,
          (s, e) => runs.push(`ascii:${text.slice(s, e)}`),
          (s, e) => runs.push(`other:${text.slice(s, e)}`)
        )
        const expected = (text.match(pattern) ?? []).map((r) => (/[^\x00-\x7f]/.test(r) ? `other:${r}` : `ascii:${r}`))
        expect(runs, JSON.stringify(text)).toEqual(expected)
        /* eslint-enable no-control-regex */
      }
    }
  })
})
