/**
 * Exact all-pairs cosine similarity join: every pair of documents with cosine ≥ threshold, without a
 * dense N×N matrix.
 *
 * Plain postings accumulation (sparse X·Xᵀ) is O(Σ df²): the few very common terms dominate, yet their
 * weights are small (low idf). So terms are split by document frequency into rare and frequent:
 *   cos(i,j) = rare(i,j) + freq(i,j)  and  freq(i,j) ≤ ‖xᵢᶠ‖·‖xⱼᶠ‖   (Cauchy–Schwarz)
 * Rare parts are accumulated through postings into a dense row accumulator; one sequential scan over the
 * row then verifies exactly (frequent part added) only the pairs where rare(i,j) + ‖xᵢᶠ‖‖xⱼᶠ‖ can still
 * reach the threshold — including pairs that share no rare term at all. The result is exact: the same pairs
 * as the full computation, each score the same sum up to the order of its additions (the last bit).
 *
 * Rows are independent (each rare entry knows its own position in its postings list), so `allPairsAsync`
 * splits them across worker threads over SharedArrayBuffers for large corpora.
 */
import os from 'node:os'
import type { Worker } from 'node:worker_threads'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { TfIdfIndex } from './tfidf'
import { arenaOf, sharedArray, type JoinArena } from './join-arena'
import { joinKernelModule, KERNEL_ARRAYS } from './join-kernel'
import { startWorker } from './warm-workers'
import { BOUND_EPS, dfAscending, frequentDfFor } from './frequent-cut'
import { firstAtOrAfter } from './sorted-ids'

/** Pairs (a < b) with their cosine, in ascending (a, b) order. */
export interface SimilarPairs {
  count: number
  a: Uint32Array
  b: Uint32Array
  score: Float64Array
  /** The frequent-term cut-off the join used (absent when no join ran). */
  frequentDf?: number
  /** Which kernel the worker threads ran (absent when the join ran on this thread). */
  kernel?: 'webassembly' | 'javascript'
}

export interface AllPairsOptions {
  /** Called every few hundred rows with (rows done, total rows). */
  onProgress?: (done: number, total: number) => void
  /** Terms in more documents than this count as "frequent" (default: frequentDfFor). */
  frequentDf?: number
}

export interface AllPairsAsyncOptions extends AllPairsOptions {
  signal?: AbortSignal
  /** Longest stretch of synchronous work before yielding to the event loop (default 30 ms; single-thread mode). */
  sliceMs?: number
  /**
   * Worker threads to split the rows over (0 = run time-sliced on this thread). Default: one per CPU core
   * (at most 4) when the corpus has at least PARALLEL_MIN_DOCS documents, else 0.
   */
  workers?: number
  /**
   * Work of the caller's that does not depend on the pairs, run on this thread once the join is running on worker
   * threads (this thread only waits for them then); never called when the join runs on this thread.
   */
  whileWaiting?: () => void
}

/** Below this many documents, starting workers costs more than it saves. */
export const PARALLEL_MIN_DOCS = 2000


/**
 * The join's arrays, all over SharedArrayBuffers so worker threads read them without copies. The index's own
 * CSR rows are used, each reordered in place while the join runs: its rare entries first, then its frequent
 * ones (each part still in term order), so the join needs no copy of the rows.
 */
export interface JoinData {
  n: number
  threshold: number
  boundEps: number
  /** Row d: rare entries [rowPtr[d], split[d]), frequent entries [split[d], rowPtr[d+1]). */
  rowPtr: Uint32Array
  split: Uint32Array
  colIdx: Uint32Array
  values: Float64Array
  /** For the rare entry at CSR position q: its own slot in its term's postings. */
  rarePos: Uint32Array
  /** Postings (at least those of rare terms), doc ids ascending. */
  postPtr: Uint32Array
  postDoc: Uint32Array
  postVal: Float64Array
  /** L2 norm of each row's frequent part. */
  freqNorm: Float64Array
  vocabSize: number
}

/**
 * The join kernel: rows [lo, hi) against every later row, pairs appended to `out` in ascending
 * (i, j) order. `acc` (n) and `dense` (vocabSize) must be all zero and are left all zero; `cand` (n) is scratch.
 * Self-contained on purpose — no closures, no module references, no inner functions — because its source
 * text is also what worker threads run.
 */
export function joinRows(d: JoinData, lo: number, hi: number, acc: Float64Array, dense: Float64Array, cand: Uint32Array, out: PairSink): void {
  const n = d.n
  const theta = d.threshold
  const need = theta - d.boundEps
  const rowPtr = d.rowPtr
  const split = d.split
  const colIdx = d.colIdx
  const values = d.values
  const rarePos = d.rarePos
  const postPtr = d.postPtr
  const postDoc = d.postDoc
  const postVal = d.postVal
  const freqNorm = d.freqNorm
  for (let i = lo; i < hi; i++) {
    // Rare part: accumulate through the postings of documents after i. Two lists are walked side by side:
    // each list is a short run somewhere in a large array, so its reads mostly miss the cache, and two
    // independent runs keep twice the reads in flight (about a third less time than one list at a time).
    const f0 = split[i] as number
    let q = rowPtr[i] as number
    for (; q + 1 < f0; q += 2) {
      const w1 = values[q] as number
      const w2 = values[q + 1] as number
      let p1 = (rarePos[q] as number) + 1
      let p2 = (rarePos[q + 1] as number) + 1
      const e1 = postPtr[(colIdx[q] as number) + 1] as number
      const e2 = postPtr[(colIdx[q + 1] as number) + 1] as number
      const both = p1 + Math.min(e1 - p1, e2 - p2)
      for (; p1 < both; p1++, p2++) {
        const j1 = postDoc[p1] as number
        acc[j1] = (acc[j1] as number) + w1 * (postVal[p1] as number)
        const j2 = postDoc[p2] as number
        acc[j2] = (acc[j2] as number) + w2 * (postVal[p2] as number)
      }
      for (; p1 < e1; p1++) {
        const j = postDoc[p1] as number
        acc[j] = (acc[j] as number) + w1 * (postVal[p1] as number)
      }
      for (; p2 < e2; p2++) {
        const j = postDoc[p2] as number
        acc[j] = (acc[j] as number) + w2 * (postVal[p2] as number)
      }
    }
    if (q < f0) {
      const w = values[q] as number
      const end = postPtr[(colIdx[q] as number) + 1] as number
      for (let p = (rarePos[q] as number) + 1; p < end; p++) {
        const j = postDoc[p] as number
        acc[j] = (acc[j] as number) + w * (postVal[p] as number)
      }
    }
    // One sequential scan for the candidates: the bound rare + ‖xᵢᶠ‖‖xⱼᶠ‖ also covers pairs sharing no rare term
    // (rare = 0). Four columns a step with one test for all four when none passes (nearly always): ~a quarter less
    // time than a test per column.
    const bi = freqNorm[i] as number
    let nc = 0
    let j = i + 1
    for (; j + 3 < n; j += 4) {
      const x0 = (acc[j] as number) + bi * (freqNorm[j] as number)
      const x1 = (acc[j + 1] as number) + bi * (freqNorm[j + 1] as number)
      const x2 = (acc[j + 2] as number) + bi * (freqNorm[j + 2] as number)
      const x3 = (acc[j + 3] as number) + bi * (freqNorm[j + 3] as number)
      if (x0 < need && x1 < need && x2 < need && x3 < need) continue
      // cand holds n columns: row i has at most n − i − 1 candidates.
      if (x0 >= need) cand[nc++] = j
      if (x1 >= need) cand[nc++] = j + 1
      if (x2 >= need) cand[nc++] = j + 2
      if (x3 >= need) cand[nc++] = j + 3
    }
    for (; j < n; j++) if ((acc[j] as number) + bi * (freqNorm[j] as number) >= need) cand[nc++] = j
    // The candidates verified exactly: the frequent part added through row i's frequent terms laid out densely.
    const f1 = rowPtr[i + 1] as number
    if (nc > 0) for (let q = f0; q < f1; q++) dense[colIdx[q] as number] = values[q] as number
    for (let c = 0; c < nc; c++) {
      const j = cand[c] as number
      const rare = acc[j] as number
      let f = 0
      const g1 = rowPtr[j + 1] as number
      for (let q = split[j] as number; q < g1; q++) f += (dense[colIdx[q] as number] as number) * (values[q] as number)
      const s = rare + f
      if (s >= theta) {
        if (out.n === out.a.length) {
          // Typed arrays, doubled when full (appendPair, inline: this source stands alone): a third of what arrays
          // of numbers take, and sent back without a copy.
          const size = 2 * out.a.length
          const a = new Uint32Array(size)
          a.set(out.a)
          out.a = a
          const b = new Uint32Array(size)
          b.set(out.b)
          out.b = b
          const ss = new Float64Array(size)
          ss.set(out.s)
          out.s = ss
        }
        out.a[out.n] = i
        out.b[out.n] = j
        out.s[out.n++] = s < 1 ? s : 1
      }
    }
    acc.fill(0, i + 1, n)
    if (nc > 0) for (let q = f0; q < f1; q++) dense[colIdx[q] as number] = 0
  }
}

/** Where the kernel appends its pairs: the first `n` entries of a, b, s are filled (they grow as needed). */
export interface PairSink {
  a: Uint32Array
  b: Uint32Array
  s: Float64Array
  n: number
}

/** An empty sink with room for `capacity` pairs. */
export function pairSink(capacity = 1024): PairSink {
  const size = Math.max(1, capacity)
  return { a: new Uint32Array(size), b: new Uint32Array(size), s: new Float64Array(size), n: 0 }
}

/**
 * Makes room for `extra` more pairs, at least doubling the arrays when they are full. Self-contained (no module
 * references): the join's worker program pastes its source. The kernel grows its sink inline, one pair at a time, in
 * its innermost loop.
 */
export function reservePairs(out: PairSink, extra: number): void {
  if (out.n + extra <= out.a.length) return
  const size = Math.max(2 * out.a.length, out.n + extra)
  const a = new Uint32Array(size)
  a.set(out.a)
  out.a = a
  const b = new Uint32Array(size)
  b.set(out.b)
  out.b = b
  const s = new Float64Array(size)
  s.set(out.s)
  out.s = s
}

/** Appends a pair (the arrays grow as needed). */
export function appendPair(out: PairSink, a: number, b: number, s: number): void {
  reservePairs(out, 1)
  out.a[out.n] = a
  out.b[out.n] = b
  out.s[out.n++] = s
}

/** A prepared join: its data and the way back to the index as it was (rows in term order). */
export interface PreparedJoin {
  data: JoinData
  frequentDf: number
  /** Whether the index's own rows were reordered for the join (restore() puts them back). */
  reordered: boolean
  /** The arena holding every array of `data`, when the index was built in one: the WebAssembly kernel can run. */
  arena?: JoinArena
  /** Puts the index's rows back in term order (idempotent). Call when the join is over, finished or not. */
  restore(): void
}

/**
 * Splits every row of the index into its rare and frequent parts and notes each rare entry's slot in its
 * postings. An index whose term ids follow document frequency (`termOrder: 'df'`) already holds each row's rare
 * terms first: only the boundaries are found. Otherwise the rows are reordered — in place when the index keeps
 * them in shared memory (the index must not be read until restore()), else in a shared copy.
 */
export function prepareJoin(index: TfIdfIndex, threshold: number, frequentDf?: number): PreparedJoin {
  if (!(threshold > 0 && threshold <= 1)) throw new RangeError(`threshold must be in (0, 1], got ${threshold}`)
  frequentDf ??= frequentDfFor(index, threshold)
  const n = index.docCount
  const v = index.vocab.length
  const nnz = index.colIdx.length
  // An index built in an arena (tfidf's `arena`) gets the join's own arrays there too, for the WebAssembly kernel.
  const arena = arenaOfIndex(index)
  const rowPtr = sharedArray(Uint32Array, n + 1, arena)
  rowPtr.set(index.rowPtr)
  const split = sharedArray(Uint32Array, n, arena)
  const freqNorm = sharedArray(Float64Array, n, arena)
  const inPlace = index.colIdx.buffer instanceof SharedArrayBuffer && index.values.buffer instanceof SharedArrayBuffer
  const colIdx = inPlace ? index.colIdx : sharedArray(Uint32Array, nnz)
  const values = inPlace ? index.values : sharedArray(Float64Array, nnz)
  if (!inPlace) {
    colIdx.set(index.colIdx)
    values.set(index.values)
  }
  let restore = (): void => undefined
  const ordered = dfAscending(index.df)
  if (ordered) {
    // Terms [0, firstFrequent) are the rare ones, and every row lists them first.
    let firstFrequent = 0
    while (firstFrequent < v && (index.df[firstFrequent] as number) <= frequentDf) firstFrequent++
    for (let d = 0; d < n; d++) {
      const r1 = rowPtr[d + 1] as number
      const r = firstAtOrAfter(colIdx, rowPtr[d] as number, r1, firstFrequent)
      split[d] = r
      let norm2 = 0
      for (let q = r; q < r1; q++) norm2 += (values[q] as number) * (values[q] as number)
      freqNorm[d] = Math.sqrt(norm2)
    }
  } else {
    restore = partitionRows(index, frequentDf, rowPtr, split, colIdx, values, freqNorm)
    if (!inPlace) restore = () => undefined
  }

  // Postings: the index's own when they are in shared memory (a rare term's list is complete there, and
  // frequent terms' lists are never read), else a shared copy. Each rare entry notes its own slot.
  const shared = index.postDoc.buffer instanceof SharedArrayBuffer && index.postVal.buffer instanceof SharedArrayBuffer
  const postPtr = shared && !arena ? index.postPtr : sharedArray(Uint32Array, v + 1, arena)
  const postDoc = shared ? index.postDoc : sharedArray(Uint32Array, nnz)
  const postVal = shared ? index.postVal : sharedArray(Float64Array, nnz)
  if (postPtr !== index.postPtr) postPtr.set(index.postPtr)
  if (!shared) {
    postDoc.set(index.postDoc)
    postVal.set(index.postVal)
  }
  const rarePos = sharedArray(Uint32Array, nnz, arena)
  const fill = postPtr.slice(0, v)
  for (let d = 0; d < n; d++) {
    for (let q = rowPtr[d] as number; q < (split[d] as number); q++) {
      const t = colIdx[q] as number
      const slot = fill[t] as number
      rarePos[q] = slot
      fill[t] = slot + 1
    }
  }
  let restored = false
  const data: JoinData = { n, threshold, boundEps: BOUND_EPS, rowPtr, split, colIdx, values, rarePos, postPtr, postDoc, postVal, freqNorm, vocabSize: v }
  // An arena that ran out of room mid-way leaves some arrays outside it: then the JavaScript kernel runs.
  const whole = arena !== undefined && KERNEL_ARRAYS.every((name) => arenaOf(data[name]) === arena)
  return {
    data,
    frequentDf,
    reordered: inPlace && !ordered,
    ...(whole ? { arena } : {}),
    restore: () => {
      if (restored) return
      restored = true
      restore()
    }
  }
}

/** The arena the index's rows and postings were built in, when all four lie in the same one. */
function arenaOfIndex(index: TfIdfIndex): JoinArena | undefined {
  const arena = arenaOf(index.colIdx)
  return arena && arenaOf(index.values) === arena && arenaOf(index.postDoc) === arena && arenaOf(index.postVal) === arena ? arena : undefined
}

/**
 * Stable partition of each row (rows in term order): rare entries move to the front, frequent ones (kept aside)
 * follow; fills split and freqNorm. Returns what puts the rows back in term order.
 */
function partitionRows(index: TfIdfIndex, frequentDf: number, rowPtr: Uint32Array, split: Uint32Array, colIdx: Uint32Array, values: Float64Array, freqNorm: Float64Array): () => void {
  const n = index.docCount
  const v = index.vocab.length
  const isFrequent = new Uint8Array(v)
  for (let t = 0; t < v; t++) if ((index.df[t] as number) > frequentDf) isFrequent[t] = 1
  let longest = 0
  for (let d = 0; d < n; d++) longest = Math.max(longest, (rowPtr[d + 1] as number) - (rowPtr[d] as number))
  const asideIds = new Uint32Array(longest)
  const asideVals = new Float64Array(longest)
  for (let d = 0; d < n; d++) {
    const r1 = rowPtr[d + 1] as number
    let r = rowPtr[d] as number
    let f = 0
    let norm2 = 0
    for (let q = r; q < r1; q++) {
      const t = colIdx[q] as number
      const w = values[q] as number
      if (isFrequent[t]) {
        asideIds[f] = t
        asideVals[f++] = w
        norm2 += w * w
      } else {
        colIdx[r] = t
        values[r++] = w
      }
    }
    split[d] = r
    colIdx.set(asideIds.subarray(0, f), r)
    values.set(asideVals.subarray(0, f), r)
    freqNorm[d] = Math.sqrt(norm2)
  }
  return () => mergeRowsBack(rowPtr, split, colIdx, values, asideIds, asideVals)
}

/** Merges each row's rare and frequent parts (each in term order) back into one run in term order. */
function mergeRowsBack(rowPtr: Uint32Array, split: Uint32Array, colIdx: Uint32Array, values: Float64Array, ids: Uint32Array, vals: Float64Array): void {
  for (let d = 0; d < split.length; d++) {
    const r0 = rowPtr[d] as number
    const s = split[d] as number
    const r1 = rowPtr[d + 1] as number
    if (s === r0 || s === r1) continue
    // Copy the rare part aside, then merge from the front (the write position never passes the frequent read position).
    const rare = s - r0
    ids.set(colIdx.subarray(r0, s))
    vals.set(values.subarray(r0, s))
    let a = 0
    let b = s
    let w = r0
    while (a < rare && b < r1) {
      if ((ids[a] as number) < (colIdx[b] as number)) {
        colIdx[w] = ids[a] as number
        values[w++] = vals[a++] as number
      } else {
        colIdx[w] = colIdx[b] as number
        values[w++] = values[b++] as number
      }
    }
    while (a < rare) {
      colIdx[w] = ids[a] as number
      values[w++] = vals[a++] as number
    }
  }
}

/** Reusable join state; rows are processed in order, so callers can run it in slices. close() when done. */
export class AllPairsJoin {
  readonly total: number
  /** Terms in more documents than this were treated as frequent. */
  readonly frequentDf: number
  private readonly prepared: PreparedJoin
  private readonly acc: Float64Array
  private readonly dense: Float64Array
  private readonly cand: Uint32Array
  private next = 0
  private readonly out = pairSink()

  constructor(index: TfIdfIndex, threshold: number, frequentDf?: number) {
    this.prepared = prepareJoin(index, threshold, frequentDf)
    this.frequentDf = this.prepared.frequentDf
    this.total = this.prepared.data.n
    this.acc = new Float64Array(this.total)
    this.dense = new Float64Array(this.prepared.data.vocabSize)
    this.cand = new Uint32Array(this.total)
  }

  /** Rows processed so far. */
  get done(): number {
    return this.next
  }

  /** Processes up to `rows` more rows; returns true when every row is done. */
  step(rows: number): boolean {
    const end = Math.min(this.total, this.next + Math.max(1, rows))
    joinRows(this.prepared.data, this.next, end, this.acc, this.dense, this.cand, this.out)
    this.next = end
    return this.next >= this.total
  }

  /** The pairs found so far (all of them once step() returned true). */
  result(): SimilarPairs {
    const { a, b, s, n } = this.out
    return { count: n, a: a.slice(0, n), b: b.slice(0, n), score: s.slice(0, n), frequentDf: this.frequentDf }
  }

  /** Gives the index its rows back in term order (the join cannot step any more). */
  close(): void {
    this.prepared.restore()
    this.next = this.total
  }
}

const PROGRESS_ROWS = 256

/**
 * All pairs with cosine ≥ threshold, synchronously on this thread (use allPairsAsync on a UI thread). The
 * index's rows are reordered while the join runs and put back before it returns.
 */
export function allPairs(index: TfIdfIndex, threshold: number, options: AllPairsOptions = {}): SimilarPairs {
  const join = new AllPairsJoin(index, threshold, options.frequentDf)
  try {
    while (!join.step(PROGRESS_ROWS)) options.onProgress?.(join.done, join.total)
    options.onProgress?.(join.done, join.total)
    return join.result()
  } finally {
    join.close()
  }
}

/** Same as allPairs without blocking the event loop (worker threads, or time slices); rejects with the signal's reason when aborted. */
export async function allPairsAsync(index: TfIdfIndex, threshold: number, options: AllPairsAsyncOptions = {}): Promise<SimilarPairs> {
  options.signal?.throwIfAborted()
  const workers = options.workers ?? joinWorkerCount(index.docCount)
  if (workers > 0 && index.docCount > 1) {
    try {
      return await allPairsParallel(index, threshold, workers, options)
    } catch (err) {
      // Aborted: say so. A worker that could not run (no threads in this host, a transformed kernel source)
      // must not cost the result: the same join runs on this thread instead.
      options.signal?.throwIfAborted()
      if (!(err instanceof WorkerFailure)) throw err
    }
  }
  const join = new AllPairsJoin(index, threshold, options.frequentDf)
  try {
    const sliceMs = options.sliceMs ?? 30
    let rows = 16
    for (;;) {
      options.signal?.throwIfAborted()
      const started = performance.now()
      const finished = join.step(rows)
      const took = performance.now() - started
      // Adapt the slice so each one lasts about sliceMs.
      rows = Math.max(1, Math.min(4096, Math.round(took > 0 ? (rows * sliceMs) / took : rows * 2)))
      options.onProgress?.(join.done, join.total)
      if (finished) return join.result()
      await nextTurn()
    }
  } finally {
    join.close()
  }
}

/**
 * Documents a join worker takes on, about, before another one pays: below it the join of a few thousand skills is
 * tens of milliseconds, less than a second worker's start-up (~30 ms of CPU, on a core this thread needs then).
 */
const DOCS_PER_WORKER = 5000

/** Worker threads allPairsAsync uses by default for `docs` documents. */
export function joinWorkerCount(docs: number): number {
  return docs >= PARALLEL_MIN_DOCS ? Math.min(defaultWorkers(), Math.ceil(docs / DOCS_PER_WORKER)) : 0
}

function defaultWorkers(): number {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length
  return Math.max(1, Math.min(4, cores))
}

/** Rows a worker claims at a time: small enough to balance (early rows cost more), large enough to be cheap. */
const CHUNK_ROWS = 32

/** What a worker sends back: its chunks' start rows and pair ranges, and the pairs. */
interface WorkerResult {
  chunkStart: Uint32Array
  chunkEnd: Uint32Array
  a: Uint32Array
  b: Uint32Array
  s: Float64Array
}

// The worker program: a loop claiming chunks of rows from a shared counter, each joined by the WebAssembly kernel
// when the join's arrays lie in an arena (workerData.wasm), else by joinRows (its own source text, pasted here).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const joinRows = ${joinRows.toString()}
const reservePairs = ${reservePairs.toString()}
const d = workerData.data
const claim = new Int32Array(workerData.counters)
const out = { a: new Uint32Array(1024), b: new Uint32Array(1024), s: new Float64Array(1024), n: 0 }
let joinChunk
const wasm = workerData.wasm
if (wasm) {
  const kernel = new WebAssembly.Instance(wasm.module, { env: { memory: wasm.memory } }).exports
  kernel.setup(d.threshold, d.threshold - d.boundEps, d.n, ...wasm.offsets)
  const outJ = new Uint32Array(wasm.memory.buffer, wasm.offsets[wasm.offsets.length - 2], d.n)
  const outS = new Float64Array(wasm.memory.buffer, wasm.offsets[wasm.offsets.length - 1], d.n)
  joinChunk = (lo, hi) => {
    for (let i = lo; i < hi; i++) {
      const found = kernel.row(i)
      reservePairs(out, found)
      out.a.fill(i, out.n, out.n + found)
      out.b.set(outJ.subarray(0, found), out.n)
      out.s.set(outS.subarray(0, found), out.n)
      out.n += found
    }
  }
} else {
  const acc = new Float64Array(d.n)
  const dense = new Float64Array(d.vocabSize)
  const cand = new Uint32Array(d.n)
  joinChunk = (lo, hi) => joinRows(d, lo, hi, acc, dense, cand, out)
}
const chunkStart = [], chunkEnd = []
for (;;) {
  const lo = Atomics.add(claim, 0, workerData.chunk)
  if (lo >= d.n) break
  const hi = Math.min(d.n, lo + workerData.chunk)
  chunkStart.push(lo)
  joinChunk(lo, hi)
  chunkEnd.push(out.n)
  Atomics.add(claim, 1, hi - lo)
}
const res = { chunkStart: Uint32Array.from(chunkStart), chunkEnd: Uint32Array.from(chunkEnd), a: out.a, b: out.b, s: out.s }
parentPort.postMessage(res, [res.chunkStart.buffer, res.chunkEnd.buffer, res.a.buffer, res.b.buffer, res.s.buffer])
`

/** A worker thread failed to start or run the kernel (not an abort). */
class WorkerFailure extends Error {}

/** The join split over `workers` threads sharing the index arrays; pairs come back in the same order as allPairs. */
async function allPairsParallel(index: TfIdfIndex, threshold: number, workers: number, options: AllPairsAsyncOptions): Promise<SimilarPairs> {
  const prepared = prepareJoin(index, threshold, options.frequentDf)
  try {
    return { ...(await runWorkers(prepared.data, workers, options, prepared.arena)), frequentDf: prepared.frequentDf }
  } finally {
    prepared.restore()
  }
}

async function runWorkers(data: JoinData, workers: number, options: AllPairsAsyncOptions, arena?: JoinArena): Promise<SimilarPairs> {
  const n = data.n
  // counters[0]: next row to claim; counters[1]: rows finished (progress).
  const counters = new SharedArrayBuffer(8)
  const done = new Int32Array(counters)
  const threads: Worker[] = []
  const results: Array<Promise<WorkerResult>> = []
  const count = Math.min(workers, Math.ceil(n / CHUNK_ROWS))
  const wasm = arena ? kernelFor(data, arena, count) : undefined
  const kernel = wasm ? 'webassembly' : 'javascript'
  for (let w = 0; w < count; w++) {
    let worker: Worker
    try {
      worker = startWorker(WORKER_SOURCE, { data, counters, chunk: CHUNK_ROWS, ...(wasm ? { wasm: wasm[w] } : {}) })
    } catch (err) {
      for (const t of threads) void t.terminate()
      throw new WorkerFailure(`cannot start a similarity worker: ${(err as Error).message}`)
    }
    threads.push(worker)
    results.push(
      new Promise<WorkerResult>((resolve, reject) => {
        worker.once('message', (m: WorkerResult) => resolve(m))
        worker.once('error', (err) => reject(new WorkerFailure(`similarity worker failed: ${err.message}`)))
        worker.once('exit', (code) => reject(new WorkerFailure(`similarity worker stopped (exit code ${code})`)))
      })
    )
  }
  let timer: NodeJS.Timeout | undefined
  let onAbort: (() => void) | undefined
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(options.signal?.reason)
    options.signal?.addEventListener('abort', onAbort, { once: true })
  })
  try {
    if (options.onProgress) timer = setInterval(() => options.onProgress?.(Math.min(n, Atomics.load(done, 1)), n), 100)
    options.whileWaiting?.()
    const parts = await Promise.race([Promise.all(results), aborted])
    options.onProgress?.(n, n)
    return { ...mergeChunks(parts), kernel }
  } finally {
    clearInterval(timer)
    if (onAbort) options.signal?.removeEventListener('abort', onAbort)
    // Waited for: a worker's heap is only given back when it has exited, and what follows the join allocates.
    await Promise.all(threads.map((t) => t.terminate().catch(() => undefined)))
  }
}

/** What a worker needs to run the WebAssembly kernel: the module, the memory, and its `setup` offsets. */
interface WasmKernel {
  module: WebAssembly.Module
  memory: WebAssembly.Memory
  /** Byte offsets: the join's arrays (KERNEL_ARRAYS order), then this thread's acc, dense, outJ and outS. */
  offsets: number[]
}

/**
 * The WebAssembly kernel for each of `threads` workers: every array of the join lies in `arena`, and each thread
 * gets its own accumulator, dense row and pair output there (allocated before the workers start: they take their
 * offsets with them). Undefined when the kernel cannot be compiled here or the arena has no room: the JavaScript
 * kernel runs.
 */
function kernelFor(data: JoinData, arena: JoinArena, threads: number): WasmKernel[] | undefined {
  const module = joinKernelModule()
  if (!module) return undefined
  const shared = KERNEL_ARRAYS.map((name) => data[name].byteOffset)
  const kernels: WasmKernel[] = []
  for (let t = 0; t < threads; t++) {
    const own = [arena.alloc(Float64Array, data.n), arena.alloc(Float64Array, data.vocabSize), arena.alloc(Uint32Array, data.n), arena.alloc(Float64Array, data.n)]
    if (own.some((a) => a === undefined)) return undefined
    kernels.push({ module, memory: arena.memory, offsets: [...shared, ...own.map((a) => (a as Uint32Array | Float64Array).byteOffset)] })
  }
  return kernels
}

/** Concatenates the workers' chunks in row order. */
function mergeChunks(parts: readonly WorkerResult[]): SimilarPairs {
  const chunks: Array<{ start: number; part: WorkerResult; from: number; to: number }> = []
  let count = 0
  for (const part of parts) {
    let from = 0
    for (let c = 0; c < part.chunkStart.length; c++) {
      const to = part.chunkEnd[c] as number
      chunks.push({ start: part.chunkStart[c] as number, part, from, to })
      count += to - from
      from = to
    }
  }
  chunks.sort((x, y) => x.start - y.start)
  const a = new Uint32Array(count)
  const b = new Uint32Array(count)
  const score = new Float64Array(count)
  let k = 0
  for (const { part, from, to } of chunks) {
    a.set(part.a.subarray(from, to), k)
    b.set(part.b.subarray(from, to), k)
    score.set(part.s.subarray(from, to), k)
    k += to - from
  }
  return { count, a, b, score }
}

/** The terms that contribute most to the similarity of documents a and b (for evidence). */
export function sharedTopTerms(index: TfIdfIndex, a: number, b: number, n: number): string[] {
  const contrib: Array<{ term: string; c: number }> = []
  let p = index.rowPtr[a] as number
  let q = index.rowPtr[b] as number
  const pe = index.rowPtr[a + 1] as number
  const qe = index.rowPtr[b + 1] as number
  while (p < pe && q < qe) {
    const tp = index.colIdx[p] as number
    const tq = index.colIdx[q] as number
    if (tp === tq) {
      contrib.push({ term: index.vocab[tp] as string, c: (index.values[p] as number) * (index.values[q] as number) })
      p++
      q++
    } else if (tp < tq) p++
    else q++
  }
  contrib.sort((x, y) => y.c - x.c || (x.term < y.term ? -1 : x.term > y.term ? 1 : 0))
  return contrib.slice(0, Math.max(0, n)).map((x) => x.term)
}
