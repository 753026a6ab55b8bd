/**
 * Exact all-pairs cosine similarity join: every pair of documents with cosine ≥ threshold, without a
 * dense N×N matrix.
 *
 * Plain postings accumulation (sparse X·Xᵀ) is O(Σ df²): the few very common terms dominate, yet their
 * weights are small (low idf). So terms are split by document frequency into rare and frequent:
 *   cos(i,j) = rare(i,j) + freq(i,j)  and  freq(i,j) ≤ ‖xᵢᶠ‖·‖xⱼᶠ‖   (Cauchy–Schwarz)
 * Rare parts are accumulated through postings; a pair is verified exactly (frequent part added) only when
 * rare(i,j) + ‖xᵢᶠ‖‖xⱼᶠ‖ can still reach the threshold. Pairs sharing no rare term are found from the
 * documents sorted by ‖xᶠ‖. The result is exact, identical to the full computation.
 */
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
  /** Longest stretch of synchronous work before yielding to the event loop (default 30 ms). */
  sliceMs?: number
}

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
  const order = Array.from({ length: v }, (_, t) => t).sort((x, y) => (index.df[y] as number) - (index.df[x] as number))
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

/** Reusable join state; rows are processed in order, so callers can run it in slices. */
export class AllPairsJoin {
  readonly total: number
  /** Terms in more documents than this were treated as frequent. */
  readonly frequentDf: number
  private readonly threshold: number
  private readonly rarePtr: Uint32Array
  private readonly rareIds: Uint32Array
  private readonly rareVals: Float64Array
  private readonly freqPtr: Uint32Array
  private readonly freqIds: Uint32Array
  private readonly freqVals: Float64Array
  private readonly freqNorm: Float64Array
  private readonly byFreqNorm: Uint32Array
  private readonly postPtr: Uint32Array
  private readonly postDoc: Uint32Array
  private readonly postVal: Float64Array
  private readonly cursor: Uint32Array
  private readonly acc: Float64Array
  private readonly mark: Int32Array
  private readonly touched: Uint32Array
  private readonly dense: Float64Array
  private next = 0
  private outA: Uint32Array
  private outB: Uint32Array
  private outS: Float64Array
  private count = 0
  private readonly rowJ: number[] = []
  private readonly rowS: number[] = []

  constructor(index: TfIdfIndex, threshold: number, frequentDf?: number) {
    if (!(threshold > 0 && threshold <= 1)) throw new RangeError(`threshold must be in (0, 1], got ${threshold}`)
    frequentDf ??= chooseFrequentDf(index, threshold)
    this.frequentDf = frequentDf
    const n = index.docCount
    const v = index.vocab.length
    this.total = n
    this.threshold = threshold
    const isFrequent = new Uint8Array(v)
    for (let t = 0; t < v; t++) if ((index.df[t] as number) > frequentDf) isFrequent[t] = 1

    // Split each CSR row into its rare and frequent parts.
    const nnz = index.colIdx.length
    let nFreq = 0
    for (let q = 0; q < nnz; q++) nFreq += isFrequent[index.colIdx[q] as number] as number
    this.rarePtr = new Uint32Array(n + 1)
    this.freqPtr = new Uint32Array(n + 1)
    this.rareIds = new Uint32Array(nnz - nFreq)
    this.rareVals = new Float64Array(nnz - nFreq)
    this.freqIds = new Uint32Array(nFreq)
    this.freqVals = new Float64Array(nFreq)
    this.freqNorm = new Float64Array(n)
    let r = 0
    let f = 0
    for (let d = 0; d < n; d++) {
      let norm2 = 0
      for (let q = index.rowPtr[d] as number; q < (index.rowPtr[d + 1] as number); q++) {
        const t = index.colIdx[q] as number
        const w = index.values[q] as number
        if (isFrequent[t]) {
          this.freqIds[f] = t
          this.freqVals[f++] = w
          norm2 += w * w
        } else {
          this.rareIds[r] = t
          this.rareVals[r++] = w
        }
      }
      this.rarePtr[d + 1] = r
      this.freqPtr[d + 1] = f
      this.freqNorm[d] = Math.sqrt(norm2)
    }
    this.byFreqNorm = Uint32Array.from({ length: n }, (_, i) => i).sort(
      (x, y) => (this.freqNorm[y] as number) - (this.freqNorm[x] as number) || x - y
    )

    // Postings of rare terms only (doc ids ascending).
    this.postPtr = new Uint32Array(v + 1)
    for (let q = 0; q < r; q++) {
      const t = (this.rareIds[q] as number) + 1
      this.postPtr[t] = (this.postPtr[t] as number) + 1
    }
    for (let t = 0; t < v; t++) this.postPtr[t + 1] = (this.postPtr[t + 1] as number) + (this.postPtr[t] as number)
    this.cursor = this.postPtr.slice(0, v)
    this.postDoc = new Uint32Array(r)
    this.postVal = new Float64Array(r)
    const fill = this.postPtr.slice(0, v)
    for (let d = 0; d < n; d++) {
      for (let q = this.rarePtr[d] as number; q < (this.rarePtr[d + 1] as number); q++) {
        const t = this.rareIds[q] as number
        const slot = fill[t] as number
        this.postDoc[slot] = d
        this.postVal[slot] = this.rareVals[q] as number
        fill[t] = slot + 1
      }
    }

    this.acc = new Float64Array(n)
    this.mark = new Int32Array(n).fill(-1)
    this.touched = new Uint32Array(n)
    this.dense = new Float64Array(v)
    const cap = Math.max(16, n)
    this.outA = new Uint32Array(cap)
    this.outB = new Uint32Array(cap)
    this.outS = new Float64Array(cap)
  }

  /** Rows processed so far. */
  get done(): number {
    return this.next
  }

  /** Processes up to `rows` more rows; returns true when every row is done. */
  step(rows: number): boolean {
    const end = Math.min(this.total, this.next + rows)
    for (let i = this.next; i < end; i++) this.row(i)
    this.next = end
    return this.next >= this.total
  }

  /** The pairs found so far (all of them once step() returned true). */
  result(): SimilarPairs {
    return { count: this.count, a: this.outA.slice(0, this.count), b: this.outB.slice(0, this.count), score: this.outS.slice(0, this.count) }
  }

  private row(i: number): void {
    const { acc, mark, touched, postPtr, postDoc, postVal, cursor, freqNorm, dense } = this
    const theta = this.threshold
    let nt = 0
    // Rare part: accumulate through postings of docs after i (cursor[t] sits on doc i's own entry).
    for (let q = this.rarePtr[i] as number; q < (this.rarePtr[i + 1] as number); q++) {
      const t = this.rareIds[q] as number
      const w = this.rareVals[q] as number
      const self = cursor[t] as number
      cursor[t] = self + 1
      const end = postPtr[t + 1] as number
      for (let p = self + 1; p < end; p++) {
        const j = postDoc[p] as number
        if (mark[j] !== i) {
          mark[j] = i
          acc[j] = 0
          touched[nt++] = j
        }
        acc[j] = (acc[j] as number) + w * (postVal[p] as number)
      }
    }
    const bi = freqNorm[i] as number
    const fStart = this.freqPtr[i] as number
    const fEnd = this.freqPtr[i + 1] as number
    for (let q = fStart; q < fEnd; q++) dense[this.freqIds[q] as number] = this.freqVals[q] as number
    this.rowJ.length = 0
    this.rowS.length = 0
    for (let k = 0; k < nt; k++) {
      const j = touched[k] as number
      const rare = acc[j] as number
      if (rare + bi * (freqNorm[j] as number) + BOUND_EPS < theta) continue
      const s = rare + this.freqDot(j)
      if (s >= theta) this.keep(j, s)
    }
    // Pairs with no rare term in common: only possible when ‖xᵢᶠ‖‖xⱼᶠ‖ ≥ θ.
    if (bi > 0) {
      for (let k = 0; k < this.total; k++) {
        const j = this.byFreqNorm[k] as number
        if (bi * (freqNorm[j] as number) + BOUND_EPS < theta) break
        if (j <= i || mark[j] === i) continue
        const s = this.freqDot(j)
        if (s >= theta) this.keep(j, s)
      }
    }
    for (let q = fStart; q < fEnd; q++) dense[this.freqIds[q] as number] = 0
    // Emit this row's pairs in ascending j for a deterministic order.
    const order = this.rowJ.map((_, k) => k).sort((x, y) => (this.rowJ[x] as number) - (this.rowJ[y] as number))
    for (const k of order) this.emit(i, this.rowJ[k] as number, Math.min(1, this.rowS[k] as number))
  }

  private freqDot(j: number): number {
    let s = 0
    for (let q = this.freqPtr[j] as number; q < (this.freqPtr[j + 1] as number); q++) {
      s += (this.dense[this.freqIds[q] as number] as number) * (this.freqVals[q] as number)
    }
    return s
  }

  private keep(j: number, s: number): void {
    this.rowJ.push(j)
    this.rowS.push(s)
  }

  private emit(a: number, b: number, s: number): void {
    if (this.count === this.outA.length) {
      const grow = <T extends Uint32Array | Float64Array>(arr: T, make: (n: number) => T): T => {
        const next = make(arr.length * 2)
        next.set(arr)
        return next
      }
      this.outA = grow(this.outA, (n) => new Uint32Array(n))
      this.outB = grow(this.outB, (n) => new Uint32Array(n))
      this.outS = grow(this.outS, (n) => new Float64Array(n))
    }
    this.outA[this.count] = a
    this.outB[this.count] = b
    this.outS[this.count] = s
    this.count++
  }
}

const PROGRESS_ROWS = 256

/** All pairs with cosine ≥ threshold, synchronously (use allPairsAsync on a UI thread). */
export function allPairs(index: TfIdfIndex, threshold: number, options: AllPairsOptions = {}): SimilarPairs {
  const join = new AllPairsJoin(index, threshold, options.frequentDf)
  while (!join.step(PROGRESS_ROWS)) options.onProgress?.(join.done, join.total)
  options.onProgress?.(join.done, join.total)
  return join.result()
}

/** Same as allPairs, in time slices that yield to the event loop; rejects with the signal's reason when aborted. */
export async function allPairsAsync(index: TfIdfIndex, threshold: number, options: AllPairsAsyncOptions = {}): Promise<SimilarPairs> {
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
