import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import os from 'node:os'
import { allPairs, allPairsAsync, joinWorkerCount, PARALLEL_MIN_DOCS, prepareJoin, sharedTopTerms, type SimilarPairs } from '../../src/main/text/all-pairs'
import { buildTfIdfIndex, type TfIdfIndex } from '../../src/main/text/tfidf'

const words = (s: string): string[] => s.split(/\s+/).filter(Boolean)

function bruteForce(index: TfIdfIndex, threshold: number): Array<[number, number, number]> {
  const out: Array<[number, number, number]> = []
  for (let a = 0; a < index.docCount; a++) {
    for (let b = a + 1; b < index.docCount; b++) {
      const s = index.similarity(a, b)
      if (s >= threshold) out.push([a, b, s])
    }
  }
  return out
}

const asTriples = (p: SimilarPairs): Array<[number, number, number]> =>
  Array.from({ length: p.count }, (_, k) => [p.a[k]!, p.b[k]!, p.score[k]!] as [number, number, number])

function expectSamePairs(got: Array<[number, number, number]>, want: Array<[number, number, number]>): void {
  // Scores near the threshold can fall either side by rounding; compare away from it exactly.
  expect(got.map(([a, b]) => `${a}-${b}`)).toEqual(want.map(([a, b]) => `${a}-${b}`))
  got.forEach(([, , s], k) => expect(s).toBeCloseTo(want[k]![2], 10))
}

describe('allPairs', () => {
  it('finds exactly the pairs a brute-force join finds, for any frequent-term cut-off', () => {
    const word = fc.constantFrom('a1', 'b2', 'c3', 'd4', 'e5', 'f6', 'g7', 'h8', 'i9', 'j10', 'k11')
    const doc = fc.array(word, { minLength: 0, maxLength: 10 }).map((w) => w.join(' '))
    fc.assert(
      fc.property(
        fc.array(doc, { minLength: 1, maxLength: 25 }),
        fc.constantFrom(0.3, 0.5, 0.7, 0.9, 1),
        fc.integer({ min: 0, max: 30 }),
        fc.constantFrom('lexical' as const, 'df' as const),
        (docs, threshold, frequentDf, termOrder) => {
          const index = buildTfIdfIndex(docs, { tokenizer: words, termOrder })
          const want = bruteForce(index, threshold).filter(([, , s]) => Math.abs(s - threshold) > 1e-9)
          const got = asTriples(allPairs(index, threshold, { frequentDf })).filter(([, , s]) => Math.abs(s - threshold) > 1e-9)
          expectSamePairs(got, want)
        }
      ),
      { numRuns: 300 }
    )
  })

  it('finds every pair when a row has over a thousand candidates', () => {
    // 1,300 documents over 6 words: each early row's bound passes for over a thousand later columns (the kernel's
    // candidate list holds one slot per document), with all terms rare, all frequent, or a cut between.
    const docs = Array.from({ length: 1300 }, (_, i) => ['u1', 'u2', 'u3', 'u4', 'u5', 'u6'].filter((_, k) => (i >> k) % 2 === 0 || k === i % 6).join(' '))
    const index = buildTfIdfIndex(docs, { tokenizer: words })
    const want = bruteForce(index, 0.2).filter(([, , s]) => Math.abs(s - 0.2) > 1e-9)
    expect(want.length).toBeGreaterThan(500_000)
    for (const frequentDf of [0, 400, 5000]) {
      const got = asTriples(allPairs(index, 0.2, { frequentDf })).filter(([, , s]) => Math.abs(s - 0.2) > 1e-9)
      // One comparison for half a million pairs (an expect per pair would take most of a minute).
      expect(got.length).toBe(want.length)
      let mismatch = -1
      for (let k = 0; k < got.length && mismatch < 0; k++) {
        const [a, b, s] = got[k]!
        const [wa, wb, ws] = want[k]!
        if (a !== wa || b !== wb || Math.abs(s - ws) > 1e-10) mismatch = k
      }
      expect(mismatch, `first differing pair at cut ${frequentDf}`).toBe(-1)
    }
  })

  it('finds duplicates with score 1 and returns pairs in ascending (a, b) order', () => {
    const index = buildTfIdfIndex(['x y z', 'p q', 'x y z', 'p q r', 'x y z'], { tokenizer: words })
    const pairs = allPairs(index, 0.99)
    expect(asTriples(pairs).map(([a, b, s]) => [a, b, Number(s.toFixed(9))])).toEqual([
      [0, 2, 1],
      [0, 4, 1],
      [2, 4, 1]
    ])
  })

  it('reports progress up to the total and rejects a bad threshold', () => {
    const index = buildTfIdfIndex(Array.from({ length: 600 }, (_, i) => `w${i % 7} w${i % 11} common`), { tokenizer: words })
    const seen: number[] = []
    allPairs(index, 0.5, { onProgress: (done, total) => seen.push(done / total) })
    expect(seen.at(-1)).toBe(1)
    expect(seen.length).toBeGreaterThan(1)
    expect(() => allPairs(index, 0)).toThrow(RangeError)
    expect(() => allPairs(index, 1.5)).toThrow(RangeError)
  })

  it('async variant gives the same result, yields to the event loop and can be aborted', async () => {
    const docs = Array.from({ length: 800 }, (_, i) => `w${i % 13} w${i % 17} v${i % 5} common`)
    const index = buildTfIdfIndex(docs, { tokenizer: words })
    const sync = allPairs(index, 0.5)
    let ticks = 0
    const timer = setInterval(() => ticks++, 0)
    const asyncRes = await allPairsAsync(index, 0.5, { sliceMs: 1 })
    clearInterval(timer)
    expect(asTriples(asyncRes)).toEqual(asTriples(sync))
    expect(ticks).toBeGreaterThan(0)
    const controller = new AbortController()
    const pending = allPairsAsync(index, 0.5, { sliceMs: 1, signal: controller.signal, onProgress: () => controller.abort(new Error('stop')) })
    await expect(pending).rejects.toThrow('stop')
  })
})

describe('sharedTopTerms', () => {
  it('lists the shared terms that contribute most, heaviest first', () => {
    const index = buildTfIdfIndex(['apple apple banana common', 'apple banana common', 'common other'], { tokenizer: words })
    expect(sharedTopTerms(index, 0, 1, 2)).toEqual(['apple', 'banana'])
    expect(sharedTopTerms(index, 0, 2, 5)).toEqual(['common'])
    expect(sharedTopTerms(index, 0, 1, 0)).toEqual([])
  })
})

describe('allPairsAsync on worker threads', () => {
  // Every 50th document repeats its predecessor, so every threshold has pairs.
  const corpus = (n: number): string[] =>
    Array.from({ length: n }, (_, i) => (i % 50 === 1 ? i - 1 : i)).map((i) => `w${i % 13} w${i % 17} v${i % 5} u${(i * 7) % 23} common${i % 2} t${Math.floor(i / 40)}`)

  it('gives exactly the single-thread result, in the same order, with progress to the total', async () => {
    const index = buildTfIdfIndex(corpus(700), { tokenizer: words })
    for (const threshold of [0.3, 0.5, 0.8]) {
      const sync = allPairs(index, threshold)
      const seen: number[] = []
      const par = await allPairsAsync(index, threshold, { workers: 2, onProgress: (done, total) => seen.push(done / total) })
      expect(par.count).toBeGreaterThan(0)
      expect(asTriples(par)).toEqual(asTriples(sync))
      expect(seen.at(-1)).toBe(1)
    }
    // The automatically chosen frequent-term cut-off is exact too.
    const away = (p: Array<[number, number, number]>): Array<[number, number, number]> => p.filter(([, , x]) => Math.abs(x - 0.5) > 1e-9)
    expectSamePairs(away(asTriples(allPairs(index, 0.5))), away(bruteForce(index, 0.5)))
  })

  it('runs the caller’s other work while the workers join, and none when the join runs on this thread', async () => {
    const index = buildTfIdfIndex(corpus(700), { tokenizer: words })
    const calls: string[] = []
    const par = await allPairsAsync(index, 0.5, { workers: 2, onProgress: (done, total) => done === total && calls.push('joined'), whileWaiting: () => calls.push('meanwhile') })
    expect(calls).toEqual(['meanwhile', 'joined'])
    expect(asTriples(par)).toEqual(asTriples(allPairs(index, 0.5)))
    await allPairsAsync(index, 0.5, { workers: 0, whileWaiting: () => calls.push('on this thread') })
    expect(calls).toEqual(['meanwhile', 'joined'])
  })

  it('uses the index’s shared postings or copies plain ones, with the same result', async () => {
    const index = buildTfIdfIndex(corpus(300), { tokenizer: words })
    expect(index.postDoc.buffer).toBeInstanceOf(SharedArrayBuffer)
    const plain: TfIdfIndex = Object.assign(Object.create(Object.getPrototypeOf(index) as object) as TfIdfIndex, index, {
      colIdx: Uint32Array.from(index.colIdx),
      values: Float64Array.from(index.values),
      postDoc: Uint32Array.from(index.postDoc),
      postVal: Float64Array.from(index.postVal)
    })
    const plainRows = Array.from(plain.colIdx)
    expect(asTriples(await allPairsAsync(plain, 0.5, { workers: 2 }))).toEqual(asTriples(allPairs(index, 0.5)))
    expect(Array.from(plain.colIdx)).toEqual(plainRows)
  })

  it('leaves the index exactly as it was (rows back in term order), finished, aborted or single-threaded', async () => {
    const index = buildTfIdfIndex(corpus(900), { tokenizer: words })
    const rows = (): [number[], number[]] => [Array.from(index.colIdx), Array.from(index.values)]
    const before = rows()
    await allPairsAsync(index, 0.5, { workers: 2 })
    expect(rows()).toEqual(before)
    allPairs(index, 0.3, { frequentDf: 3 })
    expect(rows()).toEqual(before)
    await allPairsAsync(index, 0.5, { workers: 0, sliceMs: 1 })
    expect(rows()).toEqual(before)
    const controller = new AbortController()
    const pending = allPairsAsync(index, 0.05, { workers: 2, signal: controller.signal })
    controller.abort(new Error('cancelled'))
    await expect(pending).rejects.toThrow('cancelled')
    expect(rows()).toEqual(before)
    expect(index.similarity(0, 1)).toBeCloseTo(bruteForce(index, 0).find(([a, b]) => a === 0 && b === 1)?.[2] ?? 0, 12)
  })

  it('takes the rows of an index numbered by document frequency as they lie, on workers too', async () => {
    const index = buildTfIdfIndex(corpus(900), { tokenizer: words, termOrder: 'df' })
    const lexical = buildTfIdfIndex(corpus(900), { tokenizer: words })
    const rows = (): [number[], number[]] => [Array.from(index.colIdx), Array.from(index.values)]
    const before = rows()
    const pairs = (p: SimilarPairs): string[] => asTriples(p).map(([a, b, s]) => `${a}-${b} ${s.toFixed(12)}`)
    for (const frequentDf of [undefined, 3, 40]) {
      // While the join runs (its last progress report comes before it is over), the rows are as they were.
      const during: Array<[number[], number[]]> = []
      const par = await allPairsAsync(index, 0.5, { workers: 2, frequentDf, onProgress: () => during.push(rows()) })
      expect(par.count).toBeGreaterThan(0)
      expect(during.length).toBeGreaterThan(0)
      for (const seen of during) expect(seen).toEqual(before)
      expect(pairs(par)).toEqual(pairs(allPairs(lexical, 0.5, { frequentDf })))
      expect(asTriples(par)).toEqual(asTriples(allPairs(index, 0.5, { frequentDf })))
      expect(rows()).toEqual(before)
    }
    const prepared = prepareJoin(index, 0.5, 40)
    expect(prepared.reordered).toBe(false)
    prepared.restore()
    const preparedLexical = prepareJoin(lexical, 0.5, 40)
    expect(preparedLexical.reordered).toBe(true)
    preparedLexical.restore()
    // An index in lexical order has its rows reordered meanwhile (and put back after).
    const lexicalRows = (): number[] => Array.from(lexical.colIdx)
    const lexicalBefore = lexicalRows()
    let reordered = false
    await allPairsAsync(lexical, 0.5, { workers: 2, frequentDf: 40, onProgress: () => (reordered ||= lexicalRows().join() !== lexicalBefore.join()) })
    expect(reordered).toBe(true)
    expect(lexicalRows()).toEqual(lexicalBefore)
  })

  it('rejects with the abort reason and stops its workers', async () => {
    const index = buildTfIdfIndex(corpus(3000), { tokenizer: words })
    const controller = new AbortController()
    const pending = allPairsAsync(index, 0.05, { workers: 2, signal: controller.signal })
    controller.abort(new Error('cancelled'))
    await expect(pending).rejects.toThrow('cancelled')
    const already = new AbortController()
    already.abort(new Error('before start'))
    await expect(allPairsAsync(index, 0.5, { workers: 2, signal: already.signal })).rejects.toThrow('before start')
  })
})

describe('how many workers the join takes', () => {
  it('none below the parallel size, one for a few thousand skills, then one per 5,000 up to the cores (at most 4)', () => {
    const cores = Math.max(1, Math.min(4, os.availableParallelism()))
    expect(joinWorkerCount(PARALLEL_MIN_DOCS - 1)).toBe(0)
    expect(joinWorkerCount(PARALLEL_MIN_DOCS)).toBe(1)
    expect(joinWorkerCount(3000)).toBe(1)
    expect(joinWorkerCount(5001)).toBe(Math.min(cores, 2))
    expect(joinWorkerCount(20_000)).toBe(Math.min(cores, 4))
    expect(joinWorkerCount(1_000_000)).toBe(cores)
  })
})
