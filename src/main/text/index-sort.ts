/**
 * The index build's two counting sorts (tfidf.ts), for a range of term ids: its entries go to the postings by term
 * (documents in order), then back to the rows (terms in order). Split at a term, two threads do the two halves at
 * once with nothing shared but their writes, which never meet: postings of different terms, and in each row the
 * lower half's terms before the upper half's (the upper half starts each row after the row's lower terms, which it
 * counts on its way through the entries). The result is the one-thread sort's to the last bit.
 *
 * `sortTermRange` is self-contained on purpose — no closures, no module references — because its source text is also
 * what the helper thread runs.
 */
import type { Worker } from 'node:worker_threads'
import { startWorker, warmWorkerCount } from './warm-workers'

/** What one thread's half reads and writes (for a helper, every array in shared memory). */
export interface TermRangeSort {
  n: number
  /** Document d's entries are [docPtr[d], docPtr[d+1]) of entTerm (provisional ids) and entCount. */
  docPtr: Uint32Array
  entTerm: Uint32Array
  entCount: Uint32Array
  /** Provisional id → final term id (-1: not kept). */
  remap: Int32Array
  postPtr: Uint32Array
  rowPtr: Uint32Array
  idf: Float64Array
  postDoc: Uint32Array
  postVal: Float64Array
  colIdx: Uint32Array
  values: Float64Array
  /** The term ids this thread sorts: [lo, hi). */
  lo: number
  hi: number
}

/** Sorts the entries of terms [lo, hi) into the postings (raw counts) and the rows (count × idf). */
export function sortTermRange(s: TermRangeSort): void {
  const { n, docPtr, entTerm, entCount, remap, postPtr, rowPtr, idf, postDoc, postVal, colIdx, values, lo, hi } = s
  const fill = postPtr.slice(lo, hi)
  const rowFill = rowPtr.slice(0, n)
  for (let d = 0; d < n; d++) {
    let below = 0
    for (let e = docPtr[d] as number; e < (docPtr[d + 1] as number); e++) {
      const t = remap[entTerm[e] as number] as number
      if (t < lo) {
        if (t >= 0) below++
        continue
      }
      if (t >= hi) continue
      const slot = fill[t - lo] as number
      postDoc[slot] = d
      postVal[slot] = entCount[e] as number
      fill[t - lo] = slot + 1
    }
    // This half's terms come after the row's lower terms.
    rowFill[d] = (rowFill[d] as number) + below
  }
  for (let t = lo; t < hi; t++) {
    const w = idf[t] as number
    for (let p = postPtr[t] as number; p < (postPtr[t + 1] as number); p++) {
      const d = postDoc[p] as number
      const q = rowFill[d] as number
      colIdx[q] = t
      values[q] = (postVal[p] as number) * w
      rowFill[d] = q + 1
    }
  }
}

/** Below this many entries one thread sorts them: a helper's start and the shared copies cost more than they save. */
export const TWO_THREAD_SORT_MIN_ENTRIES = 1_500_000

/**
 * Sorts every term, on this thread and a waiting warm worker (warm-workers.ts) when there is one and the index is
 * large, else on this thread alone (the caller warmed that worker for this: see TfIdfOptions.sortHelper). The outputs must be in shared memory. A helper that fails leaves its half to
 * this thread (its writes are the same numbers at the same places, so doing them again is harmless).
 */
export async function sortTerms(s: Omit<TermRangeSort, 'lo' | 'hi'>, v: number): Promise<void> {
  const nnz = s.postPtr[v] as number
  // The entries must already be shared (pass 1 writes them so): a copy would add their size to the command's peak.
  const inShared = s.entTerm.buffer instanceof SharedArrayBuffer && s.entCount.buffer instanceof SharedArrayBuffer
  if (nnz < TWO_THREAD_SORT_MIN_ENTRIES || v < 2 || !inShared || warmWorkerCount() === 0) return sortTermRange({ ...s, lo: 0, hi: v })
  // The split: about half the entries on each side.
  let split = 1
  while (split < v - 1 && (s.postPtr[split] as number) < nnz / 2) split++
  const upper: TermRangeSort = { ...s, docPtr: shared(s.docPtr), entTerm: shared(s.entTerm), entCount: shared(s.entCount), remap: shared(s.remap), postPtr: shared(s.postPtr), rowPtr: shared(s.rowPtr), idf: shared(s.idf), lo: split, hi: v }
  let worker: Worker | undefined
  const helped = new Promise<boolean>((resolve) => {
    try {
      worker = startWorker(sortWorkerSource(), upper)
    } catch {
      resolve(false)
      return
    }
    worker.once('message', () => resolve(true))
    worker.once('error', () => resolve(false))
    worker.once('exit', () => resolve(false))
  })
  sortTermRange({ ...s, lo: 0, hi: split })
  if (!(await helped)) sortTermRange(upper)
  void worker?.terminate()
}

/** `a` in shared memory (a worker reads it without a copy of its own): itself when it is there already, else a copy. */
function shared<T extends Uint32Array | Int32Array | Float64Array>(a: T): T {
  if (a.buffer instanceof SharedArrayBuffer) return a
  const out = new (a.constructor as new (buffer: SharedArrayBuffer) => T)(new SharedArrayBuffer(a.length * a.BYTES_PER_ELEMENT))
  out.set(a)
  return out
}

function sortWorkerSource(): string {
  // __name: the helper some TypeScript loaders (tsx) wrap inner functions with to keep their names.
  return `
const { parentPort, workerData } = require('node:worker_threads')
const __name = (fn) => fn
const sortTermRange = ${sortTermRange.toString()}
sortTermRange(workerData)
parentPort.postMessage(true)
`
}
