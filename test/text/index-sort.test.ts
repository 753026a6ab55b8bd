import type { Worker } from 'node:worker_threads'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { generateCorpus } from '../../bench/cluster-corpus'
import { TWO_THREAD_SORT_MIN_ENTRIES } from '../../src/main/text/index-sort'
import { JoinArena } from '../../src/main/text/join-arena'
import { buildTfIdfIndexAsync, type TfIdfIndex } from '../../src/main/text/tfidf'
import { releaseWarmWorkers, warmWorkerCount, warmWorkers } from '../../src/main/text/warm-workers'
import * as warm from '../../src/main/text/warm-workers'

function expectSameIndex(got: TfIdfIndex, want: TfIdfIndex): void {
  expect(got.vocab).toEqual(want.vocab)
  for (const key of ['df', 'idf', 'rowPtr', 'colIdx', 'values', 'postPtr', 'postDoc', 'postVal'] as const) {
    const a = got[key]
    const b = want[key]
    expect(a.length, key).toBe(b.length)
    // Compared as bits: the two-thread sort must give the one-thread numbers exactly.
    expect(Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)), key).toBe(0)
  }
}

// A corpus over the two-thread sort's size, built as curation builds it; the text scanned on this thread (the warm
// worker is left for the sort).
const { docs } = generateCorpus(9000, 3)
const OPTIONS = { boilerplate: {}, termOrder: 'df' as const, workers: 0 }

afterEach(() => releaseWarmWorkers())

describe("the index's counting sorts on two threads", () => {
  it('give the one-thread index to the last bit, in an arena and without one', async () => {
    const want = await buildTfIdfIndexAsync(docs, { ...OPTIONS, workers: 0 })
    expect(want.postPtr[want.vocab.length]).toBeGreaterThan(TWO_THREAD_SORT_MIN_ENTRIES)
    for (const arena of [JoinArena.create(), undefined]) {
      warmWorkers(1)
      const helpers = vi.spyOn(warm, 'startWorker')
      const got = await buildTfIdfIndexAsync(docs, { ...OPTIONS, sortHelper: true, ...(arena ? { arena } : {}) })
      // The sort took the warm worker.
      expect(helpers).toHaveBeenCalledTimes(1)
      expect(warmWorkerCount()).toBe(0)
      helpers.mockRestore()
      expectSameIndex(got, want)
    }
  }, 120_000)

  it('finish the helper’s half on this thread when the helper dies', async () => {
    const want = await buildTfIdfIndexAsync(docs, { ...OPTIONS, workers: 0 })
    warmWorkers(1)
    // The helper is stopped as soon as it is handed its half.
    const start = warm.startWorker
    const spy = vi.spyOn(warm, 'startWorker').mockImplementation((source: string, data: unknown): Worker => {
      const worker = start(source, data)
      void worker.terminate()
      return worker
    })
    try {
      expectSameIndex(await buildTfIdfIndexAsync(docs, { ...OPTIONS, sortHelper: true }), want)
      expect(spy).toHaveBeenCalledTimes(1)
    } finally {
      spy.mockRestore()
    }
  }, 120_000)

  it('stay on one thread with no warm worker waiting', async () => {
    expect(warmWorkerCount()).toBe(0)
    const want = await buildTfIdfIndexAsync(docs, { ...OPTIONS, workers: 0 })
    expectSameIndex(await buildTfIdfIndexAsync(docs, { ...OPTIONS, sortHelper: true }), want)
  }, 120_000)
})
