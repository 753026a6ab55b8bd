/**
 * Exact all-pairs cosine similarity join: every pair of documents with cosine ≥ threshold, without a
 * dense N×N matrix.
 *
 * Plain postings accumulation (sparse X·Xᵀ) is O(Σ df²): the few very common terms dominate, yet their
 * weights are small (low idf). So terms are split by document frequency into rare and frequent:
 *   cos(i,j) = rare(i,j) + freq(i,j)  and  freq(i,j) ≤ ‖xᵢᶠ‖·‖xⱼᶠ‖   (Cauchy–Schwarz)
 * Rare parts are accumulated through postings into a dense row accumulator; one sequential scan over the
 * row then verifies exactly (frequent part added) only the pairs where rare(i,j) + ‖xᵢᶠ‖‖xⱼᶠ‖ can still
 * reach the threshold — including pairs that share no rare term at all. The result is exact, identical
 * to the full computation.
 *
 * Rows are independent (each rare entry knows its own position in its postings list), so `allPairsAsync`
 * splits them across worker threads over SharedArrayBuffers for large corpora.
 */
import os from 'node:os'
import { Worker } from 'node:worker_threads'
import type { TfIdfIndex } from './tfidf'

/** Pairs (a < b) with their cosine, in ascending (a, b) order. */
export interface SimilarPairs {
  count: number
  a: Uint32Array
  b: Uint32Array
  score: Float64Array
}

export interface AllPairsOptions {
  /** Called every few hundred rows with (rows done, total rows). */
  onProgress?: (done: number, total: number) => void
  /** Terms in more documents than this count as "frequent" (default: chooseFrequentDf). */
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
}

/** Below this many documents, starting workers costs more than it saves. */
export const PARALLEL_MIN_DOCS = 2000

// Slack for floating-point rounding in bound checks (never in the final threshold test).
const BOUND_EPS = 1e-9

/** Pairs with ‖xᵢᶠ‖·‖xⱼᶠ‖ ≥ limit, counted with two pointers over the norms sorted descending. */
function pairsAbove(sortedDesc: Float64Array, limit: number): number {
  let count = 0
  let j = sortedDesc.length - 1
  for (let i = 0; i < sortedDesc.length; i++) {
    const bi = sortedDesc[i] as number
    while (j > i && bi * (sortedDesc[j] as number) < limit) j--
    if (j <= i) break
    count += j - i
  }
  return count
}

/**
 * Picks the frequent-term cut-off from a cost estimate over candidate cut-offs (df halving from N/2):
 * accumulating the rare postings costs Σ df²/2 over rare terms; each pair whose frequent norms could
 * still reach half the threshold (‖xᵢᶠ‖‖xⱼᶠ‖ ≥ θ/2) may need an exact check costing about one frequent
 * row. Too low a cut-off makes frequent norms large and checks explode; too high keeps the Σ df² cost.
 */
export function chooseFrequentDf(index: TfIdfIndex, threshold: number): number {
  const n = index.docCount
  const v = index.vocab.length
  const order = Uint32Array.from({ length: v }, (_, t) => t).sort((x, y) => (index.df[y] as number) - (index.df[x] as number))
  let rareCost = 0
  for (let t = 0; t < v; t++) rareCost += ((index.df[t] as number) ** 2) / 2
  const norm2 = new Float64Array(n)
  let freqEntries = 0
  let bestCut = Number.MAX_SAFE_INTEGER
  let bestCost = rareCost
  let k = 0
  for (let cut = Math.floor(n / 2); cut >= 4; cut = Math.floor(cut / 2)) {
    // Move every term with df > cut into the frequent set.
    while (k < v && (index.df[order[k] as number] as number) > cut) {
      const t = order[k] as number
      const df = index.df[t] as number
      rareCost -= (df * df) / 2
      freqEntries += df
      for (let q = index.postPtr[t] as number; q < (index.postPtr[t + 1] as number); q++) {
        const w = index.postVal[q] as number
        const d = index.postDoc[q] as number
        norm2[d] = (norm2[d] as number) + w * w
      }
      k++
    }
    const norms = Float64Array.from(norm2, Math.sqrt).sort().reverse()
    const checks = pairsAbove(norms, threshold / 2)
    const cost = rareCost + checks * (freqEntries / Math.max(1, n))
    if (cost < bestCost) {
      bestCost = cost
      bestCut = cut
    }
  }
  return bestCut
}

/** The join's read-only arrays (over SharedArrayBuffers, so worker threads read them without copies). */
export interface JoinData {
  n: number
  threshold: number
  boundEps: number
  /** Rare part of each row (CSR) and, per entry, its own slot in its term's postings. */
  rarePtr: Uint32Array
  rareIds: Uint32Array
  rareVals: Float64Array
  rarePos: Uint32Array
  /** Postings of rare terms only, doc ids ascending. */
  postPtr: Uint32Array
  postDoc: Uint32Array
  postVal: Float64Array
  /** Frequent part of each row (CSR) and its L2 norm. */
  freqPtr: Uint32Array
  freqIds: Uint32Array
  freqVals: Float64Array
  freqNorm: Float64Array
  vocabSize: number
}

/**
 * The join kernel: rows [lo, hi) against every later row, pairs appended to outA/outB/outS in ascending
 * (i, j) order. `acc` (n) and `dense` (vocabSize) must be all zero and are left all zero.
 * Self-contained on purpose — no closures, no module references, no inner functions — because its source
 * text is also what worker threads run.
 */
export function joinRows(d: JoinData, lo: number, hi: number, acc: Float64Array, dense: Float64Array, outA: number[], outB: number[], outS: number[]): void {
  const n = d.n
  const theta = d.threshold
  const need = theta - d.boundEps
  const rarePtr = d.rarePtr
  const rareIds = d.rareIds
  const rareVals = d.rareVals
  const rarePos = d.rarePos
  const postPtr = d.postPtr
  const postDoc = d.postDoc
  const postVal = d.postVal
  const freqPtr = d.freqPtr
  const freqIds = d.freqIds
  const freqVals = d.freqVals
  const freqNorm = d.freqNorm
  for (let i = lo; i < hi; i++) {
    // Rare part: accumulate through the postings of documents after i.
    const r1 = rarePtr[i + 1] as number
    for (let q = rarePtr[i] as number; q < r1; q++) {
      const t = rareIds[q] as number
      const w = rareVals[q] as number
      const end = postPtr[t + 1] as number
      for (let p = (rarePos[q] as number) + 1; p < end; p++) {
        const j = postDoc[p] as number
        acc[j] = (acc[j] as number) + w * (postVal[p] as number)
      }
    }
    const bi = freqNorm[i] as number
    const f0 = freqPtr[i] as number
    const f1 = freqPtr[i + 1] as number
    for (let q = f0; q < f1; q++) dense[freqIds[q] as number] = freqVals[q] as number
    // One sequential scan: the bound rare + ‖xᵢᶠ‖‖xⱼᶠ‖ also covers pairs sharing no rare term (rare = 0).
    for (let j = i + 1; j < n; j++) {
      const rare = acc[j] as number
      if (rare + bi * (freqNorm[j] as number) < need) continue
      let f = 0
      const g1 = freqPtr[j + 1] as number
      for (let q = freqPtr[j] as number; q < g1; q++) f += (dense[freqIds[q] as number] as number) * (freqVals[q] as number)
      const s = rare + f
      if (s >= theta) {
        outA.push(i)
        outB.push(j)
        outS.push(s < 1 ? s : 1)
      }
    }
    acc.fill(0, i + 1, n)
    for (let q = f0; q < f1; q++) dense[freqIds[q] as number] = 0
  }
}

function sharedArray<T extends Uint32Array | Float64Array>(make: new (buf: SharedArrayBuffer) => T, bytesPer: number, length: number): T {
  return new make(new SharedArrayBuffer(Math.max(1, length) * bytesPer))
}

/** Splits the index into the join's rare/frequent parts (shared memory). */
export function prepareJoin(index: TfIdfIndex, threshold: number, frequentDf?: number): JoinData & { frequentDf: number } {
  if (!(threshold > 0 && threshold <= 1)) throw new RangeError(`threshold must be in (0, 1], got ${threshold}`)
  frequentDf ??= chooseFrequentDf(index, threshold)
  const n = index.docCount
  const v = index.vocab.length
  const isFrequent = new Uint8Array(v)
  for (let t = 0; t < v; t++) if ((index.df[t] as number) > frequentDf) isFrequent[t] = 1

  // Split each CSR row into its rare and frequent parts.
  const nnz = index.colIdx.length
  let nFreq = 0
  for (let q = 0; q < nnz; q++) nFreq += isFrequent[index.colIdx[q] as number] as number
  const nRare = nnz - nFreq
  const rarePtr = sharedArray(Uint32Array, 4, n + 1)
  const freqPtr = sharedArray(Uint32Array, 4, n + 1)
  const rareIds = sharedArray(Uint32Array, 4, nRare)
  const rareVals = sharedArray(Float64Array, 8, nRare)
  const rarePos = sharedArray(Uint32Array, 4, nRare)
  const freqIds = sharedArray(Uint32Array, 4, nFreq)
  const freqVals = sharedArray(Float64Array, 8, nFreq)
  const freqNorm = sharedArray(Float64Array, 8, n)
  let r = 0
  let f = 0
  for (let d = 0; d < n; d++) {
    let norm2 = 0
    for (let q = index.rowPtr[d] as number; q < (index.rowPtr[d + 1] as number); q++) {
      const t = index.colIdx[q] as number
      const w = index.values[q] as number
      if (isFrequent[t]) {
        freqIds[f] = t
        freqVals[f++] = w
        norm2 += w * w
      } else {
        rareIds[r] = t
        rareVals[r++] = w
      }
    }
    rarePtr[d + 1] = r
    freqPtr[d + 1] = f
    freqNorm[d] = Math.sqrt(norm2)
  }

  // Postings of rare terms only (counting sort by term: doc ids come out ascending).
  const postPtr = sharedArray(Uint32Array, 4, v + 1)
  for (let q = 0; q < r; q++) {
    const t = (rareIds[q] as number) + 1
    postPtr[t] = (postPtr[t] as number) + 1
  }
  for (let t = 0; t < v; t++) postPtr[t + 1] = (postPtr[t + 1] as number) + (postPtr[t] as number)
  const postDoc = sharedArray(Uint32Array, 4, r)
  const postVal = sharedArray(Float64Array, 8, r)
  const fill = postPtr.slice(0, v)
  for (let d = 0; d < n; d++) {
    for (let q = rarePtr[d] as number; q < (rarePtr[d + 1] as number); q++) {
      const t = rareIds[q] as number
      const slot = fill[t] as number
      postDoc[slot] = d
      postVal[slot] = rareVals[q] as number
      rarePos[q] = slot
      fill[t] = slot + 1
    }
  }
  return { n, threshold, boundEps: BOUND_EPS, rarePtr, rareIds, rareVals, rarePos, postPtr, postDoc, postVal, freqPtr, freqIds, freqVals, freqNorm, vocabSize: v, frequentDf }
}

function packPairs(a: number[], b: number[], s: number[]): SimilarPairs {
  return { count: a.length, a: Uint32Array.from(a), b: Uint32Array.from(b), score: Float64Array.from(s) }
}

/** Reusable join state; rows are processed in order, so callers can run it in slices. */
export class AllPairsJoin {
  readonly total: number
  /** Terms in more documents than this were treated as frequent. */
  readonly frequentDf: number
  private readonly data: JoinData
  private readonly acc: Float64Array
  private readonly dense: Float64Array
  private next = 0
  private readonly outA: number[] = []
  private readonly outB: number[] = []
  private readonly outS: number[] = []

  constructor(index: TfIdfIndex, threshold: number, frequentDf?: number) {
    const data = prepareJoin(index, threshold, frequentDf)
    this.data = data
    this.frequentDf = data.frequentDf
    this.total = data.n
    this.acc = new Float64Array(data.n)
    this.dense = new Float64Array(data.vocabSize)
  }

  /** Rows processed so far. */
  get done(): number {
    return this.next
  }

  /** Processes up to `rows` more rows; returns true when every row is done. */
  step(rows: number): boolean {
    const end = Math.min(this.total, this.next + Math.max(1, rows))
    joinRows(this.data, this.next, end, this.acc, this.dense, this.outA, this.outB, this.outS)
    this.next = end
    return this.next >= this.total
  }

  /** The pairs found so far (all of them once step() returned true). */
  result(): SimilarPairs {
    return packPairs(this.outA, this.outB, this.outS)
  }
}

const PROGRESS_ROWS = 256

/** All pairs with cosine ≥ threshold, synchronously on this thread (use allPairsAsync on a UI thread). */
export function allPairs(index: TfIdfIndex, threshold: number, options: AllPairsOptions = {}): SimilarPairs {
  const join = new AllPairsJoin(index, threshold, options.frequentDf)
  while (!join.step(PROGRESS_ROWS)) options.onProgress?.(join.done, join.total)
  options.onProgress?.(join.done, join.total)
  return join.result()
}

/** Same as allPairs without blocking the event loop (worker threads, or time slices); rejects with the signal's reason when aborted. */
export async function allPairsAsync(index: TfIdfIndex, threshold: number, options: AllPairsAsyncOptions = {}): Promise<SimilarPairs> {
  options.signal?.throwIfAborted()
  const workers = options.workers ?? (index.docCount >= PARALLEL_MIN_DOCS ? defaultWorkers() : 0)
  if (workers > 0 && index.docCount > 1) return allPairsParallel(index, threshold, workers, options)
  const join = new AllPairsJoin(index, threshold, options.frequentDf)
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
    await new Promise<void>((resolve) => setImmediate(resolve))
  }
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

// The worker program: the kernel's own source text plus a loop claiming chunks of rows from a shared counter.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const joinRows = ${joinRows.toString()}
const d = workerData.data
const claim = new Int32Array(workerData.counters)
const acc = new Float64Array(d.n)
const dense = new Float64Array(d.vocabSize)
const outA = [], outB = [], outS = [], chunkStart = [], chunkEnd = []
for (;;) {
  const lo = Atomics.add(claim, 0, workerData.chunk)
  if (lo >= d.n) break
  const hi = Math.min(d.n, lo + workerData.chunk)
  chunkStart.push(lo)
  joinRows(d, lo, hi, acc, dense, outA, outB, outS)
  chunkEnd.push(outA.length)
  Atomics.add(claim, 1, hi - lo)
}
const res = { chunkStart: Uint32Array.from(chunkStart), chunkEnd: Uint32Array.from(chunkEnd), a: Uint32Array.from(outA), b: Uint32Array.from(outB), s: Float64Array.from(outS) }
parentPort.postMessage(res, [res.chunkStart.buffer, res.chunkEnd.buffer, res.a.buffer, res.b.buffer, res.s.buffer])
`

/** The join split over `workers` threads sharing the index arrays; pairs come back in the same order as allPairs. */
async function allPairsParallel(index: TfIdfIndex, threshold: number, workers: number, options: AllPairsAsyncOptions): Promise<SimilarPairs> {
  const data = prepareJoin(index, threshold, options.frequentDf)
  const n = data.n
  // counters[0]: next row to claim; counters[1]: rows finished (progress).
  const counters = new SharedArrayBuffer(8)
  const done = new Int32Array(counters)
  const threads: Worker[] = []
  const results: Array<Promise<WorkerResult>> = []
  for (let w = 0; w < Math.min(workers, Math.ceil(n / CHUNK_ROWS)); w++) {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { data, counters, chunk: CHUNK_ROWS } })
    threads.push(worker)
    results.push(
      new Promise<WorkerResult>((resolve, reject) => {
        worker.once('message', (m: WorkerResult) => resolve(m))
        worker.once('error', reject)
        worker.once('exit', (code) => reject(new Error(`similarity worker stopped (exit code ${code})`)))
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
    const parts = await Promise.race([Promise.all(results), aborted])
    options.onProgress?.(n, n)
    return mergeChunks(parts)
  } finally {
    clearInterval(timer)
    if (onAbort) options.signal?.removeEventListener('abort', onAbort)
    for (const t of threads) void t.terminate()
  }
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
