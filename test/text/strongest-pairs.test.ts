import { describe, expect, it } from 'vitest'
import { strongestPairs } from '../../src/main/text/strongest-pairs'

/** What the graph did before: every pair sorted by score (stable: ties in pair order), cut to `max`. */
function sortedAll(score: Float64Array, max: number): number[] {
  return Array.from({ length: score.length }, (_, k) => k)
    .sort((x, y) => score[y]! - score[x]!)
    .slice(0, max)
}

describe('strongestPairs', () => {
  it('gives the pairs and the order of a stable sort of all of them, cut to max (many ties, any cut)', () => {
    let seed = 7
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
    for (let round = 0; round < 300; round++) {
      const n = Math.floor(random() * 400)
      // few distinct values: ties at the cut are the usual case
      const levels = 1 + Math.floor(random() * 12)
      const score = Float64Array.from({ length: n }, () => 0.3 + Math.floor(random() * levels) / 20)
      const max = Math.floor(random() * (n + 20))
      expect(strongestPairs({ count: n, score }, max)).toEqual(sortedAll(score, max))
    }
  })

  it('reads only the first `count` scores and takes nothing for a max of 0', () => {
    const score = Float64Array.from([0.5, 0.9, 0.7, 0.99, 0.1])
    expect(strongestPairs({ count: 3, score }, 2)).toEqual([1, 2])
    expect(strongestPairs({ count: 5, score }, 0)).toEqual([])
    expect(strongestPairs({ count: 0, score }, 5)).toEqual([])
  })
})
