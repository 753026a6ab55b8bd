/**
 * The index builder's text scan on a worker thread, fed while the documents are still being read. A first run on
 * a large library spends its first second reading files on one thread; the scan (word-scan.ts) then ran after it.
 * Streamed, the worker scans each batch as it is posted, so reading and scanning overlap, and this thread only
 * turns the worker's words into terms (doc-terms.ts).
 *
 * The worker keeps one word table across batches: each chunk it posts back carries its documents' entries by
 * local word id and only the words first seen in it, so every distinct word crosses once and becomes a term once.
 * It also keys each document (document-key.ts) while it has the text: a first run's term cache needs the keys,
 * and computing them there takes them off this thread. When the worker falls behind (a batch has to wait for room in
 * flight), this thread keys that batch itself as it queues it: reading is then ahead, and the worker, the slower of
 * the two, has less to do (at 20,000 skills it was the first phase's last thread to finish).
 * A chunk is one posted batch, in order. The result is only used for exactly the documents it was fed (the
 * caller checks with `covers`); anything else, or a worker that fails, falls back to the ordinary scan.
 */
import type { Worker } from 'node:worker_threads'
import type { IndexDoc } from './index-doc'
import { DOCUMENT_KEY_BYTES, DOCUMENT_KEY_SOURCE, documentKey } from './document-key'
import { startWorker } from './warm-workers'
import { createWordScan, scanDocs, type WordScan } from './word-scan'

/** Below this many documents the scan takes less time than a worker takes to start: nothing is streamed. */
export const STREAMED_SCAN_MIN_DOCS = 2000

/** Documents posted to the worker at a time: small enough that it starts early, large enough to cost little. */
const BATCH_DOCS = 512
/**
 * Batches posted and not yet scanned, at most: reading outpaces the worker, and every posted batch is a copy of its
 * texts until the worker has scanned it (unbounded, they added ~30 MB to the command's peak at 20,000 skills).
 * Enough that the worker does not run dry while this thread is busy between the batches' replies.
 */
const MAX_IN_FLIGHT = 8

/** One batch's scan: its documents' entries and lines (as a WordScan's), and the words first seen in it. */
export interface ScanChunk extends Pick<WordScan, 'docPtr' | 'entWord' | 'entCount' | 'nEnt' | 'slow' | 'nSlow' | 'lineKey' | 'lineStart' | 'nLines' | 'linePtr'> {
  /** Word ids [words0, words) are new in this chunk; word w is newPool[newWordAt[2(w - words0)] …, length newWordAt[2(w - words0) + 1]). */
  words0: number
  words: number
  newPool: Uint8Array
  newWordAt: Uint32Array
  /** Each document's key (document-key.ts), concatenated; empty when this thread keyed the batch. */
  keys: string
}

/** What the worker is posted: a batch, and whether this thread keyed it already. */
interface Batch {
  docs: IndexDoc[]
  keyed: boolean
}

export class StreamedScan {
  /** The documents fed so far, in order. */
  readonly docs: IndexDoc[] = []
  private batch: IndexDoc[] = []
  /** Full batches waiting for room in flight. */
  private waitingBatches: Batch[] = []
  /** Batches posted so far, and those handed out by next(). */
  private batches = 0
  private deliveredBatches = 0
  /** Keys of the batches this thread keyed, by batch number, until next() hands the batch out. */
  private keysHere = new Map<number, string>()
  /** How many batches this thread keyed (the worker was behind when they were queued). */
  keyedHere = 0
  private inFlight = 0
  private ended = false
  private stopped = false
  private received: ScanChunk[] = []
  private delivered = 0
  private keyChunks: string[] = []
  private scannedDocs = 0
  private failure: Error | undefined
  private wake: (() => void) | undefined

  private constructor(
    private readonly worker: Worker,
    private readonly onScanned: (() => void) | undefined
  ) {
    worker.on('message', (chunk: ScanChunk) => {
      this.received.push(chunk)
      this.scannedDocs += chunk.docPtr.length - 1
      this.inFlight--
      this.postWaiting()
      this.stopWhenDone()
      this.notify()
    })
    worker.once('error', (err) => this.fail(err))
    worker.once('exit', (code) => this.fail(new Error(`streamed scan worker stopped (exit code ${code})`)))
  }

  /**
   * A scan on a new worker thread (line keys always recorded: they serve with or without boilerplate), or undefined
   * when none can start. `onScanned` is called once the worker has scanned every document and stopped.
   */
  static start(onScanned?: () => void): StreamedScan | undefined {
    try {
      return new StreamedScan(startWorker(streamedScanWorkerSource(), { withLines: true }), onScanned)
    } catch {
      return undefined
    }
  }

  /** Feeds the next document (posted with the next full batch). */
  add(doc: IndexDoc): void {
    if (this.ended) throw new Error('streamed scan: document added after end()')
    this.docs.push(doc)
    this.batch.push(doc)
    if (this.batch.length >= BATCH_DOCS) this.post()
  }

  /** No more documents: the last batch goes now, and the worker stops once it has scanned everything. */
  end(): void {
    if (this.ended) return
    this.ended = true
    this.post()
    this.stopWhenDone()
    // Never keeps the process alive on its own (a run that stops before using the scan).
    this.worker.unref()
  }

  /** Stops the worker (the scan is not wanted, or no longer): from now on it covers nothing, even when complete. */
  close(): void {
    this.ended = true
    this.failure ??= new Error('streamed scan closed')
    this.notify()
    void this.worker.terminate()
  }

  /** Documents whose scan has been handed out by next() so far (all of them once a build used this scan). */
  get deliveredDocs(): number {
    return this.delivered
  }

  /**
   * Every document's key (text/document-key.ts), in order, once next() has handed out every chunk (a build used
   * this scan); else undefined.
   */
  keys(): string[] | undefined {
    if (!this.ended || this.delivered !== this.docs.length) return undefined
    const all = this.keyChunks.join('')
    const width = 2 * DOCUMENT_KEY_BYTES
    const keys = new Array<string>(this.docs.length)
    for (let d = 0; d < keys.length; d++) keys[d] = all.slice(width * d, width * (d + 1))
    return keys
  }

  /** True when the scan was fed exactly these documents (the same parts, in the same order) and nothing more comes. */
  covers(docs: readonly IndexDoc[]): boolean {
    if (!this.ended || this.failure || docs.length !== this.docs.length) return false
    for (let d = 0; d < docs.length; d++) if (!sameDoc(docs[d] as IndexDoc, this.docs[d] as IndexDoc)) return false
    return true
  }

  /** The next chunk in order; undefined after the last. Rejects when the worker failed. */
  async next(): Promise<ScanChunk | undefined> {
    for (;;) {
      if (this.received.length > 0) {
        const chunk = this.received.shift() as ScanChunk
        this.delivered += chunk.docPtr.length - 1
        const n = this.deliveredBatches++
        this.keyChunks.push(chunk.keys || (this.keysHere.get(n) ?? ''))
        this.keysHere.delete(n)
        return chunk
      }
      if (this.ended && this.delivered === this.docs.length) return undefined
      if (this.failure) throw this.failure
      // Someone waits for the worker now: it keeps the process alive meanwhile.
      this.worker.ref()
      await new Promise<void>((resolve) => (this.wake = resolve))
      this.worker.unref()
    }
  }

  private stopWhenDone(): void {
    if (!this.ended || this.scannedDocs !== this.docs.length || this.stopped) return
    this.stopped = true
    void this.worker.terminate()
    this.onScanned?.()
  }

  /** Queues the current batch and posts what there is room for. */
  private post(): void {
    if (this.batch.length > 0) {
      // No room in flight: the worker is behind, so the batch is keyed here while it waits.
      const keyed = this.inFlight >= MAX_IN_FLIGHT
      if (keyed) {
        this.keysHere.set(this.batches, this.batch.map(documentKey).join(''))
        this.keyedHere++
      }
      this.batches++
      this.waitingBatches.push({ docs: this.batch, keyed })
    }
    this.batch = []
    this.postWaiting()
  }

  private postWaiting(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.waitingBatches.length > 0 && !this.stopped) {
      this.worker.postMessage(this.waitingBatches.shift())
      this.inFlight++
    }
  }

  private fail(err: Error): void {
    // A worker that stopped after posting every chunk did its work.
    if (this.ended && this.scannedDocs === this.docs.length) return this.notify()
    this.failure ??= err
    this.notify()
  }

  private notify(): void {
    const wake = this.wake
    this.wake = undefined
    wake?.()
  }
}

function sameDoc(a: IndexDoc, b: IndexDoc): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** Source text of the worker: scans each posted batch with one word table kept across batches, posts a ScanChunk back. */
export function streamedScanWorkerSource(): string {
  // __name: the helper some TypeScript loaders (tsx) wrap inner functions with to keep their names.
  return `
const { parentPort, workerData } = require('node:worker_threads')
const { hash } = require('node:crypto')
const __name = (fn) => fn
const documentKey = ${DOCUMENT_KEY_SOURCE}
const createWordScan = ${createWordScan.toString()}
const scanDocs = ${scanDocs.toString()}
const withLines = workerData.withLines
let table = null
parentPort.on('message', ({ docs, keyed }) => {
  let chars = 0
  for (const doc of docs) {
    if (typeof doc === 'string') chars += doc.length
    else for (const part of doc) chars += part.length + 1
  }
  const s = createWordScan(docs.length, chars, withLines)
  if (table) Object.assign(s, table)
  const words0 = s.words
  const pool0 = s.poolEnd
  scanDocs(s, docs, 0, docs.length)
  table = { mask: s.mask, slots: s.slots, pool: s.pool, poolEnd: s.poolEnd, wordAt: s.wordAt, words: s.words, countOf: s.countOf }
  const newWordAt = s.wordAt.slice(2 * words0, 2 * s.words)
  for (let k = 0; k < newWordAt.length; k += 2) newWordAt[k] -= pool0
  // Only the filled part of each array crosses (they are sized for the worst case: about twice what is used).
  const chunk = {
    docPtr: s.docPtr, entWord: s.entWord.slice(0, s.nEnt), entCount: s.entCount.slice(0, s.nEnt), nEnt: s.nEnt,
    slow: s.slow.slice(0, 4 * s.nSlow), nSlow: s.nSlow,
    lineKey: s.lineKey.slice(0, s.nLines), lineStart: s.lineStart.slice(0, s.nLines), nLines: s.nLines, linePtr: s.linePtr,
    words0, words: s.words, newPool: s.pool.slice(pool0, s.poolEnd), newWordAt, keys: keyed ? '' : docs.map(documentKey).join('')
  }
  const arrays = [chunk.docPtr, chunk.entWord, chunk.entCount, chunk.slow, chunk.lineKey, chunk.lineStart, chunk.linePtr, chunk.newPool, chunk.newWordAt]
  parentPort.postMessage(chunk, arrays.map((a) => a.buffer))
})
`
}
