import { describe, expect, it } from 'vitest'
import { allPairs, allPairsAsync, type SimilarPairs } from '../../src/main/text/all-pairs'
import { docTermsAsync, PARALLEL_SCAN_MIN_DOCS } from '../../src/main/text/doc-terms'
import { buildTfIdfIndex } from '../../src/main/text/tfidf'
import { releaseWarmWorkers, startWorker, warmWorkerCount, warmWorkers } from '../../src/main/text/warm-workers'

const words = (s: string): string[] => s.split(/\s+/).filter(Boolean)
const asTriples = (p: SimilarPairs): Array<[number, number, number]> => Array.from({ length: p.count }, (_, k) => [p.a[k]!, p.b[k]!, p.score[k]!])

describe('warm workers (started ahead of need)', () => {
  it('runs a program in a warm worker with its workerData, as in a worker started for it; one worker per program', async () => {
    warmWorkers(2)
    expect(warmWorkerCount()).toBe(2)
    const source = `const { parentPort, workerData } = require('node:worker_threads'); parentPort.postMessage(workerData.a + workerData.b)`
    const run = (a: number, b: number): Promise<number> =>
      new Promise((resolve, reject) => {
        const w = startWorker(source, { a, b })
        w.once('message', (m: number) => resolve(m))
        w.once('error', reject)
      })
    expect(await run(2, 3)).toBe(5)
    expect(warmWorkerCount()).toBe(1)
    expect(await run(10, 20)).toBe(30)
    expect(warmWorkerCount()).toBe(0)
    // none left warm: a worker is started for the program
    expect(await run(1, 1)).toBe(2)
  })

  it('the similarity join and the text scan in warm workers give exactly their results without', async () => {
    const corpus = Array.from({ length: 900 }, (_, i) => (i % 50 === 1 ? i - 1 : i)).map((i) => `w${i % 13} w${i % 17} v${i % 5} u${(i * 7) % 23} common${i % 2} t${Math.floor(i / 40)}`)
    const index = buildTfIdfIndex(corpus, { tokenizer: words })
    warmWorkers(2)
    const warm = await allPairsAsync(index, 0.5, { workers: 2 })
    expect(warmWorkerCount()).toBe(0)
    expect(warm.count).toBeGreaterThan(0)
    expect(asTriples(warm)).toEqual(asTriples(allPairs(index, 0.5)))

    const docs = Array.from({ length: PARALLEL_SCAN_MIN_DOCS + 10 }, (_, i) => [`title ${i % 97}`, `retry the upload ${i % 31} times`, `body words w${i % 211} running connected`])
    const cold = await docTermsAsync(docs, { boilerplate: {} })
    warmWorkers(1)
    const warmed = await docTermsAsync(docs, { boilerplate: {} })
    expect(warmWorkerCount()).toBe(0)
    const rows = (t: typeof cold): string[] =>
      Array.from({ length: docs.length }, (_, d) => {
        const out: string[] = []
        for (let e = t.docPtr[d]!; e < t.docPtr[d + 1]!; e++) out.push(`${t.dict.terms[t.entTerm[e]!]}:${t.entCount[e]}`)
        return out.sort().join(' ')
      })
    expect(rows(warmed)).toEqual(rows(cold))
  })

  it('releases idle workers, all of them or those beyond a number to keep', () => {
    warmWorkers(3)
    expect(warmWorkerCount()).toBe(3)
    releaseWarmWorkers(2)
    expect(warmWorkerCount()).toBe(2)
    releaseWarmWorkers()
    expect(warmWorkerCount()).toBe(0)
  })
})
