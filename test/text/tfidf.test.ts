import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { stripBoilerplate } from '../../src/main/text/boilerplate'
import { PARALLEL_SCAN_MIN_DOCS, scanInWorker } from '../../src/main/text/doc-terms'
import { buildTfIdfIndex, buildTfIdfIndexAsync, postingsFromEntries, rowsFromPostings } from '../../src/main/text/tfidf'
import { tokenize } from '../../src/main/text/tokenize'
import { expectSameIndex } from './same-index'

const words = (s: string): string[] => s.split(/\s+/).filter(Boolean)

/** Straightforward dense reference: smooth idf, raw tf, L2 norm, cosine. */
function denseReference(docs: string[]): { vocab: string[]; rows: number[][] } {
  const vocab = [...new Set(docs.flatMap(words))].sort()
  const n = docs.length
  const df = vocab.map((t) => docs.filter((d) => words(d).includes(t)).length)
  const idf = df.map((f) => Math.log((1 + n) / (1 + f)) + 1)
  const rows = docs.map((d) => {
    const w = words(d)
    const row = vocab.map((t, i) => w.filter((x) => x === t).length * (idf[i] as number))
    const norm = Math.sqrt(row.reduce((a, x) => a + x * x, 0))
    return norm > 0 ? row.map((x) => x / norm) : row
  })
  return { vocab, rows }
}
const dot = (a: number[], b: number[]): number => a.reduce((s, x, i) => s + x * (b[i] as number), 0)

describe('buildTfIdfIndex', () => {
  it('computes smooth idf and L2-normalised rows (worked example)', () => {
    const index = buildTfIdfIndex(['apple banana', 'apple cherry', 'durian'], { tokenizer: words })
    expect(index.vocab).toEqual(['apple', 'banana', 'cherry', 'durian'])
    // n = 3: apple df 2 → ln(4/3)+1; banana df 1 → ln(2)+1
    expect(index.idf[0]).toBeCloseTo(Math.log(4 / 3) + 1, 12)
    expect(index.idf[1]).toBeCloseTo(Math.log(2) + 1, 12)
    const a = Math.log(4 / 3) + 1
    const b = Math.log(2) + 1
    const norm = Math.hypot(a, b)
    const terms = index.termsOf(0)
    expect(terms.map((t) => t.term)).toEqual(['banana', 'apple'])
    expect(terms[0]!.weight).toBeCloseTo(b / norm, 12)
    expect(terms[1]!.weight).toBeCloseTo(a / norm, 12)
    expect(index.similarity(0, 1)).toBeCloseTo((a / norm) ** 2, 12)
    expect(index.similarity(0, 2)).toBe(0)
    expect(index.similarity(2, 2)).toBeCloseTo(1, 12)
  })

  it('keeps sorted term ids per row and postings consistent with rows', () => {
    const index = buildTfIdfIndex(['b a c a', 'c d', 'a d d e', ''], { tokenizer: words })
    for (let d = 0; d < index.docCount; d++) {
      for (let q = index.rowPtr[d]! + 1; q < index.rowPtr[d + 1]!; q++) expect(index.colIdx[q]!).toBeGreaterThan(index.colIdx[q - 1]!)
    }
    let postings = 0
    for (let t = 0; t < index.vocab.length; t++) {
      const docs = Array.from(index.postDoc.subarray(index.postPtr[t]!, index.postPtr[t + 1]!))
      expect(docs).toEqual([...docs].sort((x, y) => x - y))
      expect(docs.length).toBe(index.df[t])
      postings += docs.length
    }
    expect(postings).toBe(index.colIdx.length)
    expect(index.termsOf(3)).toEqual([])
  })

  it('matches a dense reference on random corpora (vectors, similarities, query ranking)', () => {
    const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta', 'eta', 'theta')
    const doc = fc.array(word, { minLength: 0, maxLength: 12 }).map((w) => w.join(' '))
    fc.assert(
      fc.property(fc.array(doc, { minLength: 1, maxLength: 12 }), doc, (docs, queryText) => {
        const index = buildTfIdfIndex(docs, { tokenizer: words })
        const ref = denseReference(docs)
        expect([...index.vocab]).toEqual(ref.vocab)
        for (let i = 0; i < docs.length; i++) {
          for (let j = 0; j < docs.length; j++) {
            expect(index.similarity(i, j)).toBeCloseTo(Math.min(1, dot(ref.rows[i]!, ref.rows[j]!)), 10)
          }
        }
        // The query vector uses the index's idf; compare scores with the reference rows.
        const hits = index.query(queryText, 3)
        const qv = index.vectorize(queryText)
        const qDense = ref.vocab.map(() => 0)
        qv.ids.forEach((t, k) => (qDense[t] = qv.weights[k]!))
        const expected = ref.rows
          .map((row, d) => ({ doc: d, score: Math.min(1, dot(row, qDense)) }))
          .filter((h) => h.score > 1e-12)
          .sort((x, y) => y.score - x.score || x.doc - y.doc)
        expect(hits.length).toBe(Math.min(3, expected.length))
        hits.forEach((h, k) => expect(h.score).toBeCloseTo(expected[k]!.score, 10))
        for (let k = 1; k < hits.length; k++) expect(hits[k]!.score).toBeLessThanOrEqual(hits[k - 1]!.score)
      }),
      { numRuns: 150 }
    )
  })

  it('gives its rows without the postings: the same similarities and terms, searching refused', () => {
    const index = buildTfIdfIndex(['moon river night', 'moon river', 'sun day', 'night sun moon'], { tokenizer: words, rowDigests: true })
    const rows = index.rowsOnly()
    for (let a = 0; a < 4; a++) {
      expect(rows.termsOf(a)).toEqual(index.termsOf(a))
      for (let b = 0; b < 4; b++) expect(rows.similarity(a, b)).toBe(index.similarity(a, b))
    }
    expect([rows.rowPtr, rows.colIdx, rows.values, rows.rowDigests]).toEqual([index.rowPtr, index.colIdx, index.values, index.rowDigests])
    expect(rows.postDoc.length).toBe(0)
    // its term ids as the full index's (made on first use by each)
    expect([...rows.termIds]).toEqual(index.vocab.map((t, i) => [t, i]))
    expect(rows.termIds.get('river')).toBe(index.termIds.get('river'))
    expect(index.query('moon', 2).length).toBe(2)
    expect(() => rows.query('moon', 2)).toThrow(/rows only/)
  })

  it("numbers terms rarest first with termOrder 'df' (ties lexical), and gives the same vectors", () => {
    const docs = ['c a b', 'a b', 'a d', 'a b e', 'd e']
    const lexical = buildTfIdfIndex(docs, { tokenizer: words })
    const byDf = buildTfIdfIndex(docs, { tokenizer: words, termOrder: 'df' })
    // df: a 4, b 3, c 1, d 2, e 2
    expect([...byDf.vocab]).toEqual(['c', 'd', 'e', 'b', 'a'])
    expect(Array.from(byDf.df)).toEqual([1, 2, 2, 3, 4])
    expect([...byDf.termIds.entries()].sort()).toEqual([['a', 4], ['b', 3], ['c', 0], ['d', 1], ['e', 2]])
    for (let d = 0; d < docs.length; d++) {
      for (let q = byDf.rowPtr[d]! + 1; q < byDf.rowPtr[d + 1]!; q++) expect(byDf.colIdx[q]!).toBeGreaterThan(byDf.colIdx[q - 1]!)
      const weights = (index: typeof lexical): Array<[string, number]> => index.termsOf(d).map((t) => [t.term, t.weight])
      weights(byDf).forEach(([term, w], k) => {
        expect(term).toBe(weights(lexical)[k]![0])
        expect(w).toBeCloseTo(weights(lexical)[k]![1], 14)
      })
      for (let e = 0; e < docs.length; e++) expect(byDf.similarity(d, e)).toBeCloseTo(lexical.similarity(d, e), 14)
    }
    expect(byDf.query('a e', 2).map((h) => h.doc)).toEqual(lexical.query('a e', 2).map((h) => h.doc))
  })

  it('query finds the relevant skill in mixed Chinese/English text with the default tokenizer', () => {
    const index = buildTfIdfIndex([
      '计算器 实现 Python calculator with add subtract multiply',
      '讲笑话 joke generator 幽默',
      '快速排序算法 实现经验 sorting algorithms in TypeScript'
    ])
    expect(index.query('排序算法', 3)[0]?.doc).toBe(2)
    expect(index.query('calculators', 3)[0]?.doc).toBe(0)
    expect(index.query('笑话', 1)).toEqual([{ doc: 1, score: expect.any(Number) }])
    expect(index.query('nothing matches zzz', 3)).toEqual([])
    expect(index.query('排序', 0)).toEqual([])
  })

  it('drops terms outside the df limits', () => {
    const index = buildTfIdfIndex(['common rare1', 'common rare2', 'common x'], { tokenizer: words, maxDfRatio: 0.5 })
    expect(index.vocab).not.toContain('common')
    expect(index.vocab).toContain('rare1')
    const min2 = buildTfIdfIndex(['a b', 'a c'], { tokenizer: words, minDf: 2 })
    expect([...min2.vocab]).toEqual(['a'])
  })

  it('handles an empty corpus and rejects bad document ids', () => {
    const index = buildTfIdfIndex([])
    expect(index.docCount).toBe(0)
    expect(index.query('anything', 3)).toEqual([])
    expect(() => index.termsOf(0)).toThrow(RangeError)
  })
})

describe('postings from the entries, dealt into buckets of terms first', () => {
  it('gives every term its documents ascending with their counts, whatever the buckets’ size (terms left out included)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.tuple(fc.nat({ max: 60 }), fc.integer({ min: 1, max: 9 })), { maxLength: 25 }), { minLength: 1, maxLength: 50 }),
        fc.array(fc.boolean(), { minLength: 61, maxLength: 61 }),
        fc.integer({ min: 0, max: 6 }),
        (docs, dropped, shift) => {
          // Each document: its distinct provisional terms in the order first seen, with counts; some terms are not kept.
          const entries = docs.map((es) => [...new Map(es).entries()])
          const remap = new Int32Array(61).fill(-1)
          let v = 0
          for (let id = 60; id >= 0; id--) if (!dropped[id]) remap[id] = v++
          const n = entries.length
          const docPtr = new Uint32Array(n + 1)
          entries.forEach((es, d) => (docPtr[d + 1] = docPtr[d]! + es.length))
          const entTerm = Uint32Array.from(entries.flat().map(([id]) => id))
          const entCount = Uint32Array.from(entries.flat().map(([, c]) => c))
          const lists = Array.from({ length: v }, () => [] as Array<[number, number]>)
          entries.forEach((es, d) => es.forEach(([id, c]) => remap[id]! >= 0 && lists[remap[id]!]!.push([d, c])))
          const postPtr = new Uint32Array(v + 1)
          lists.forEach((l, t) => (postPtr[t + 1] = postPtr[t]! + l.length))
          const nnz = postPtr[v]!
          const postDoc = new Uint32Array(nnz)
          const postVal = new Float64Array(nnz)
          postingsFromEntries(n, v, remap, docPtr, entTerm, entCount, postPtr, postDoc, postVal, new Uint32Array(nnz), new Float64Array(nnz), shift)
          expect(Array.from(postDoc)).toEqual(lists.flatMap((l) => l.map(([d]) => d)))
          expect(Array.from(postVal)).toEqual(lists.flatMap((l) => l.map(([, c]) => c)))
        }
      ),
      { numRuns: 300 }
    )
  })
})

describe('rows from the postings, a block of documents per pass', () => {
  it('gives every row its terms ascending with count × idf, whatever the passes’ size (empty rows and documents larger than a pass included)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.tuple(fc.nat({ max: 40 }), fc.integer({ min: 1, max: 9 })), { maxLength: 30 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 50 }),
        (docs, perPass) => {
          // Each document: distinct terms with their counts.
          const rows = docs.map((entries) => [...new Map(entries).entries()].sort((a, b) => a[0] - b[0]))
          const n = rows.length
          const v = 41
          const idf = Float64Array.from({ length: v }, (_, t) => 1 + t / 7)
          const rowPtr = new Uint32Array(n + 1)
          rows.forEach((r, d) => (rowPtr[d + 1] = rowPtr[d]! + r.length))
          const postPtr = new Uint32Array(v + 1)
          for (const r of rows) for (const [t] of r) postPtr[t + 1]!++
          for (let t = 0; t < v; t++) postPtr[t + 1]! += postPtr[t]!
          const nnz = rowPtr[n]!
          const postDoc = new Uint32Array(nnz)
          const postVal = new Float64Array(nnz)
          const fill = postPtr.slice(0, v)
          rows.forEach((r, d) => r.forEach(([t, c]) => { postDoc[fill[t]!] = d; postVal[fill[t]!++] = c }))
          const colIdx = new Uint32Array(nnz)
          const values = new Float64Array(nnz)
          rowsFromPostings(n, v, idf, rowPtr, postPtr, postDoc, postVal, colIdx, values, perPass)
          expect(Array.from(colIdx)).toEqual(rows.flatMap((r) => r.map(([t]) => t)))
          expect(Array.from(values)).toEqual(rows.flatMap((r) => r.map(([t, c]) => c * idf[t]!)))
        }
      ),
      { numRuns: 300 }
    )
  })
})

describe('the default tokenizer’s fast path', () => {
  it('builds exactly the index that tokenize() strings would give', () => {
    const docs = [
      'Sorting arrays in TypeScript: use Array.prototype.sort with a comparator.',
      'Deploy with docker compose; check the HEALTH endpoint, then the logs.\nRetry on HTTP503.',
      '使用快速排序处理大数据集 quicksort 排序算法',
      'gpt4o and l2s models, utf8 text, café naïve',
      '',
      'Sorting arrays quickly. Sorting, again!'
    ]
    const fast = buildTfIdfIndex(docs)
    expectSameIndex(fast, buildTfIdfIndex(docs, { tokenizer: (s) => tokenize(s) }))
    expect(fast.vocab).toContain('gpt4o')
    expect(fast.query('sorting an array', 1)[0]!.doc).toBe(5)
  })
})

describe('boilerplate left out while indexing', () => {
  const sameIndex = expectSameIndex

  it('gives exactly the index of the stripped documents, whatever the case, spacing or script of the lines', () => {
    const line = fc.constantFrom(
      'Rube MCP must be connected', '  rube   MCP must be CONNECTED ', 'Rube\tMCP must be connected', '## Workflow', '## workflow',
      '---', '', '   ', '- call the tool', 'Use ZohoDesk tools', 'Use Docker Hub', '使用 MCP 工具', '使用  MCP 工具 ', 'Ünïcode Line', 'ünïcode line',
      'K\u212a elvin', 'kk elvin', 'a\u00a0b', 'a b', '```', 'x1 gpt4o', 'X1 GPT4o', 'sorting arrays', 'Sorting, arrays!'
    )
    const doc = fc.array(line, { maxLength: 8 }).map((ls) => ls.join('\n'))
    fc.assert(
      fc.property(fc.array(doc, { minLength: 0, maxLength: 30 }), fc.integer({ min: 1, max: 6 }), (docs, minDocs) => {
        const options = { minDocs }
        sameIndex(buildTfIdfIndex(docs, { boilerplate: options }), buildTfIdfIndex(stripBoilerplate(docs, options)))
        sameIndex(buildTfIdfIndex(docs, { boilerplate: options, tokenizer: (s) => tokenize(s) }), buildTfIdfIndex(stripBoilerplate(docs, options)))
        // A document given as parts (joined by line breaks) is the same document.
        const parts = docs.map((d, i) => (i % 2 === 0 ? d.split('\n') : [d]))
        sameIndex(buildTfIdfIndex(parts, { boilerplate: options }), buildTfIdfIndex(stripBoilerplate(docs, options)))
        sameIndex(buildTfIdfIndex(parts), buildTfIdfIndex(docs))
      }),
      { numRuns: 300 }
    )
  })
})

describe('buildTfIdfIndexAsync (the text scanned by two threads)', () => {
  const corpus = (n: number): string[][] =>
    Array.from({ length: n }, (_, i) => [`Skill ${i % 97}`, i % 3 === 0 ? '使用 MCP 工具' : 'Use when sorting', `Rube MCP must be connected\n- step ${i % 13} of HTTPServer\n- gpt4o l2s naïve ${i % 7}`])

  it('builds exactly the single-thread index, boilerplate included', async () => {
    const docs = corpus(PARALLEL_SCAN_MIN_DOCS + 500)
    for (const options of [{}, { boilerplate: {} }]) {
      expectSameIndex(await buildTfIdfIndexAsync(docs, options), buildTfIdfIndex(docs, options))
    }
  })

  it('really scans on a worker thread (the kernel’s own source runs there)', async () => {
    const scan = await scanInWorker(corpus(50), 10_000, true)
    expect(scan.nEnt).toBeGreaterThan(0)
    expect(scan.nLines).toBe(50 * 5)
  })
})

describe('termId (binary search in lexical order)', () => {
  it('finds every term as the map does, in lexical and document-frequency order, and no other', () => {
    const docs = Array.from({ length: 60 }, (_, i) => `部署超时 retry${i % 7} upload files w${i % 13} common ${i % 3 === 0 ? 'rare' + i : ''} 数据${i % 5}`)
    for (const termOrder of ['lexical', 'df'] as const) {
      const index = buildTfIdfIndex(docs, { termOrder })
      expect(index.vocab.length).toBeGreaterThan(20)
      const fresh = buildTfIdfIndex(docs, { termOrder })
      for (const term of index.vocab) expect(fresh.termId(term)).toBe(index.termIds.get(term))
      for (const absent of ['', 'zzz', 'aaa', '部署超', 'retry99', '\uffff']) expect(fresh.termId(absent)).toBeUndefined()
    }
  })
})
