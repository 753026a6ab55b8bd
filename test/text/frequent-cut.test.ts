import { describe, expect, it } from 'vitest'
import { bandsOf, chooseFrequentDf, ESTIMATED_CUT_MIN_DOCS, frequentDfFor, frequentParts } from '../../src/main/text/frequent-cut'
import { buildTfIdfIndex } from '../../src/main/text/tfidf'

const words = (s: string): string[] => s.split(/\s+/).filter(Boolean)

/** A corpus whose words' document frequencies span every candidate cut: word w appears with probability ~1/(1 + w/3). */
function skewedCorpus(seed: number, docs: number): string[] {
  let x = seed
  const random = (): number => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32)
  return Array.from({ length: docs }, () => {
    const out: string[] = []
    for (let w = 0; w < 400; w++) if (random() < 1 / (1 + w / 3)) for (let r = 1 + Math.floor(random() * 3); r > 0; r--) out.push(`w${w}`)
    return out.join(' ')
  })
}

function cutsFor(n: number): number[] {
  const cuts: number[] = []
  for (let c = Math.floor(n / 8); c >= 4; c = Math.floor(c / 2)) cuts.push(c)
  return cuts
}

describe('the frequent parts of each row at every candidate cut', () => {
  it('are the same to the bit summed by runs of bands (terms by document frequency) as looked up entry by entry', () => {
    for (const [seed, n] of [[1, 40], [2, 97], [3, 250], [4, 600]] as const) {
      const index = buildTfIdfIndex(skewedCorpus(seed, n), { tokenizer: words, termOrder: 'df' })
      const cuts = cutsFor(n)
      const band = bandsOf(index.df, cuts)
      // every band occurs, so runs of every length are summed
      expect(new Set(band).size).toBe(cuts.length + 1)
      const byRuns = frequentParts(index, band, cuts.length, true)
      const byLookup = frequentParts(index, band, cuts.length, false)
      expect(byRuns.len).toEqual(byLookup.len)
      expect(byRuns.norm2).toEqual(byLookup.norm2)
      // and each is what its definition says: terms with df above the cut
      for (let c = 0; c < cuts.length; c++) {
        for (let d = 0; d < n; d += 7) {
          let w2 = 0
          let len = 0
          for (let q = index.rowPtr[d]!; q < index.rowPtr[d + 1]!; q++) {
            if (index.df[index.colIdx[q]!]! > cuts[c]!) {
              w2 += index.values[q]! ** 2
              len++
            }
          }
          expect(byRuns.len[c]![d]).toBe(len)
          expect(byRuns.norm2[c]![d]).toBeCloseTo(w2, 12)
        }
      }
    }
  })

  it('picks the same cut for an index by document frequency as for the same corpus in lexical order', () => {
    for (const [seed, n] of [[5, 120], [6, 400]] as const) {
      const corpus = skewedCorpus(seed, n)
      const byDf = buildTfIdfIndex(corpus, { tokenizer: words, termOrder: 'df' })
      const lexical = buildTfIdfIndex(corpus, { tokenizer: words })
      const cut = chooseFrequentDf(byDf, 0.5)
      expect(cut).toBeLessThanOrEqual(Math.floor(n / 8))
      expect(chooseFrequentDf(lexical, 0.5)).toBe(cut)
    }
  })

  it('takes n/16 for a small corpus without estimating, and the estimate from ESTIMATED_CUT_MIN_DOCS documents on', () => {
    const small = buildTfIdfIndex(skewedCorpus(7, 400), { tokenizer: words, termOrder: 'df' })
    expect(frequentDfFor(small, 0.5)).toBe(25)
    expect(frequentDfFor(buildTfIdfIndex(skewedCorpus(8, 40), { tokenizer: words, termOrder: 'df' }), 0.5)).toBe(4)
    const large = buildTfIdfIndex(skewedCorpus(9, ESTIMATED_CUT_MIN_DOCS), { tokenizer: words, termOrder: 'df' })
    expect(frequentDfFor(large, 0.5)).toBe(chooseFrequentDf(large, 0.5))
    expect(frequentDfFor(large, 0.5)).not.toBe(Math.floor(ESTIMATED_CUT_MIN_DOCS / 16))
  }, 60_000)
})
