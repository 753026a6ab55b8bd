import fs from 'node:fs'
import path from 'node:path'
import type { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { similarityParts } from '../../src/main/curate/proposals'
import { openLibrary } from '../../src/main/store/library'
import type { IndexDoc } from '../../src/main/text/doc-terms'
import { documentKey } from '../../src/main/text/document-key'
import { StreamedScan } from '../../src/main/text/streamed-scan'
import { buildTfIdfIndexAsync, type TfIdfIndex } from '../../src/main/text/tfidf'
import { tempDir } from '../curate/fixtures'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'

/** Documents that take every path of the scan: plain words, CamelCase and letter–digit runs, Chinese lines, template lines. */
function mixedDocs(n: number): string[][] {
  const docs: string[][] = []
  for (let i = 0; i < n; i++) {
    const body = [
      '## When to use',
      'Use this skill when the deployment pipeline fails on a flaky integration test.',
      `Step ${i % 7}: run the RetryPolicy${i % 5} check with k8s v1.${i % 30}`,
      i % 3 === 0 ? `部署失败时先检查日志，然后重试第${i % 9}步。` : `Check the service word${i} and the word${i % 50} again.`,
      i % 11 === 0 ? 'Ünïcode line with naïve café words' : 'Keep the logs.'
    ].join('\n')
    docs.push([`Skill ${i}: handle flaky deploys ${i % 13}`, i % 4 === 0 ? '' : `When deploy number ${i % 17} breaks`, body])
  }
  return docs
}

function streamOf(docs: readonly IndexDoc[]): StreamedScan {
  const scan = StreamedScan.start()
  if (!scan) throw new Error('no worker thread')
  for (const doc of docs) scan.add(doc)
  scan.end()
  return scan
}

function expectSameIndex(got: TfIdfIndex, want: TfIdfIndex): void {
  expect(got.vocab).toEqual(want.vocab)
  for (const key of ['df', 'rowPtr', 'colIdx', 'values', 'postPtr', 'postDoc', 'postVal'] as const) expect(Array.from(got[key]), key).toEqual(Array.from(want[key]))
}

// As curation builds it: boilerplate out, terms by document frequency.
const OPTIONS = { boilerplate: {}, termOrder: 'df' as const }

describe('the streamed text scan', () => {
  it('builds the same index as the scan on this thread, over many batches and every kind of line', async () => {
    const docs = mixedDocs(2300)
    const streamed = streamOf(docs)
    const got = await buildTfIdfIndexAsync(docs, { ...OPTIONS, streamed })
    expect(streamed.deliveredDocs).toBe(docs.length)
    const want = await buildTfIdfIndexAsync(docs, { ...OPTIONS, workers: 0 })
    expect(want.vocab.length).toBeGreaterThan(100)
    expectSameIndex(got, want)
  }, 60_000)

  it('keys on this thread the batches that wait for the worker, every key in its place', async () => {
    // Fed at once, 24 batches: those past the first few in flight wait, and this thread keys them.
    const docs = mixedDocs(12_000)
    const streamed = streamOf(docs)
    const got = await buildTfIdfIndexAsync(docs, { ...OPTIONS, streamed })
    expect(streamed.keyedHere).toBeGreaterThan(0)
    expect(streamed.keyedHere).toBeLessThan(24)
    expect(streamed.keys()).toEqual(docs.map(documentKey))
    expectSameIndex(got, await buildTfIdfIndexAsync(docs, { ...OPTIONS, workers: 0 }))
  }, 60_000)

  it.skipIf(!HAS_REAL_DATA)('builds the same index on the real SKILL.md corpora', async () => {
    // Read from a copy: a listing never writes, but the real data is never handed to the store directly.
    const dir = tempDir('streamed-real')
    for (const corpus of fs.readdirSync(realPath('skills'))) fs.cpSync(realPath('skills', corpus), path.join(dir, corpus), { recursive: true })
    const skills = (await (await openLibrary(dir)).list()).skills
    expect(skills.length).toBeGreaterThan(600)
    const docs = skills.map(similarityParts)
    const streamed = streamOf(docs)
    const got = await buildTfIdfIndexAsync(docs, { ...OPTIONS, streamed })
    expect(streamed.deliveredDocs).toBe(docs.length)
    expectSameIndex(got, await buildTfIdfIndexAsync(docs, { ...OPTIONS, workers: 0 }))
    // The worker keyed every document as documentKey does.
    expect(streamed.keys()).toEqual(docs.map(documentKey))
  }, 60_000)

  it('is not used for documents other than those it was fed, and the build is still right', async () => {
    const docs = mixedDocs(1200)
    const other = docs.map((d, i) => (i === 700 ? [d[0] as string, d[1] as string, `${d[2]} changed`] : d))
    const streamed = streamOf(docs)
    const got = await buildTfIdfIndexAsync(other, { ...OPTIONS, streamed })
    expect(streamed.deliveredDocs).toBe(0)
    expect(streamed.keys()).toBeUndefined()
    expect(streamed.covers(docs)).toBe(false) // closed
    expectSameIndex(got, await buildTfIdfIndexAsync(other, { ...OPTIONS, workers: 0 }))
  }, 60_000)

  it('falls back to scanning here when its worker dies part way', async () => {
    const docs = mixedDocs(3000)
    const streamed = StreamedScan.start()!
    for (const doc of docs) streamed.add(doc)
    // Stopped before it can have scanned six batches.
    void (streamed as unknown as { worker: Worker }).worker.terminate()
    streamed.end()
    const got = await buildTfIdfIndexAsync(docs, { ...OPTIONS, streamed })
    expect(streamed.deliveredDocs).toBeLessThan(docs.length)
    expectSameIndex(got, await buildTfIdfIndexAsync(docs, { ...OPTIONS, workers: 0 }))
  }, 60_000)

  it('covers nothing once closed, even after a complete scan', async () => {
    const docs = mixedDocs(700)
    const streamed = streamOf(docs)
    await buildTfIdfIndexAsync(docs, { ...OPTIONS, streamed })
    expect(streamed.deliveredDocs).toBe(docs.length)
    expect(streamed.covers(docs)).toBe(true)
    streamed.close()
    expect(streamed.covers(docs)).toBe(false)
  }, 60_000)

  it('refuses documents after its end', () => {
    const streamed = streamOf([['a', '', 'b']])
    expect(() => streamed.add(['c', '', 'd'])).toThrow(/after end/)
    streamed.close()
  })
})
