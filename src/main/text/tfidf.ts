/**
 * TF-IDF index on typed arrays: raw term counts × smooth idf (ln((1+n)/(1+df)) + 1, as scikit-learn),
 * rows L2-normalised, so a dot product is the cosine similarity.
 *
 * Rows are CSR (sorted term ids per document); the inverted index (postings, CSC) lets a query or the
 * all-pairs join touch only the documents that share a term.
 */
import { tokenize } from './tokenize'

export interface TfIdfOptions {
  /** Tokenizer to use (default: the shared mixed Chinese/English tokenizer). */
  tokenizer?: (text: string) => string[]
  /** Drop terms found in more than this fraction of documents (default 1 = keep all). */
  maxDfRatio?: number
  /** Drop terms found in fewer than this many documents (default 1 = keep all). */
  minDf?: number
}

export interface QueryHit {
  doc: number
  score: number
}

export interface TermWeight {
  term: string
  weight: number
}

/** A sparse, L2-normalised query or document vector. */
export interface SparseVector {
  ids: Uint32Array
  weights: Float64Array
}

export interface TfIdfIndex {
  readonly docCount: number
  /** Term id → term, sorted (so term ids follow lexical order). */
  readonly vocab: readonly string[]
  readonly termIds: ReadonlyMap<string, number>
  /** Smooth idf per term id. */
  readonly idf: Float64Array
  /** Documents per term id. */
  readonly df: Uint32Array
  /** CSR rows: doc d's entries are [rowPtr[d], rowPtr[d+1]). */
  readonly rowPtr: Uint32Array
  readonly colIdx: Uint32Array
  readonly values: Float64Array
  /** Postings (CSC): term t's entries are [postPtr[t], postPtr[t+1]), doc ids ascending. */
  readonly postPtr: Uint32Array
  readonly postDoc: Uint32Array
  readonly postVal: Float64Array
  /** The weighted terms of one document, heaviest first. */
  termsOf(doc: number): TermWeight[]
  /** Vectorises any text against this index's vocabulary (unknown terms ignored), L2-normalised. */
  vectorize(text: string): SparseVector
  /** The topK documents most similar to `text` (cosine > 0 only), best first, ties by lower doc id. */
  query(text: string, topK: number): QueryHit[]
  /** Cosine similarity of two indexed documents. */
  similarity(a: number, b: number): number
}

/** Builds the TF-IDF index of `docs` (document i = docs[i]). */
export function buildTfIdfIndex(docs: readonly string[], options: TfIdfOptions = {}): TfIdfIndex {
  const tok = options.tokenizer ?? tokenize
  const n = docs.length

  // Pass 1: tokenize, count terms per doc with provisional ids (first-seen order).
  const provisional = new Map<string, number>()
  const provDf: number[] = []
  const docTerms: Uint32Array[] = []
  const docCounts: Uint32Array[] = []
  const local = new Map<number, number>()
  for (let d = 0; d < n; d++) {
    local.clear()
    for (const term of tok(docs[d] as string)) {
      let id = provisional.get(term)
      if (id === undefined) {
        id = provisional.size
        provisional.set(term, id)
        provDf.push(0)
      }
      local.set(id, (local.get(id) ?? 0) + 1)
    }
    const ids = new Uint32Array(local.size)
    const counts = new Uint32Array(local.size)
    let k = 0
    for (const [id, c] of local) {
      ids[k] = id
      counts[k] = c
      k++
      provDf[id] = (provDf[id] as number) + 1
    }
    docTerms.push(ids)
    docCounts.push(counts)
  }

  // Keep terms within the df limits; final ids follow lexical order.
  const maxDf = (options.maxDfRatio ?? 1) * n
  const minDf = options.minDf ?? 1
  const kept: string[] = []
  for (const [term, id] of provisional) {
    const f = provDf[id] as number
    if (f >= minDf && f <= maxDf) kept.push(term)
  }
  kept.sort()
  const termIds = new Map<string, number>()
  kept.forEach((t, i) => termIds.set(t, i))
  const remap = new Int32Array(provisional.size).fill(-1)
  for (const [term, id] of provisional) {
    const finalId = termIds.get(term)
    if (finalId !== undefined) remap[id] = finalId
  }
  const v = kept.length
  const df = new Uint32Array(v)
  for (const [term, id] of provisional) {
    const finalId = termIds.get(term)
    if (finalId !== undefined) df[finalId] = provDf[id] as number
  }
  const idf = new Float64Array(v)
  for (let t = 0; t < v; t++) idf[t] = Math.log((1 + n) / (1 + (df[t] as number))) + 1

  // Pass 2: CSR with sorted term ids and normalised weights.
  const rowPtr = new Uint32Array(n + 1)
  let nnz = 0
  for (let d = 0; d < n; d++) {
    const ids = docTerms[d] as Uint32Array
    for (let k = 0; k < ids.length; k++) if ((remap[ids[k] as number] as number) >= 0) nnz++
    rowPtr[d + 1] = nnz
  }
  const colIdx = new Uint32Array(nnz)
  const values = new Float64Array(nnz)
  const order: number[] = []
  for (let d = 0; d < n; d++) {
    const ids = docTerms[d] as Uint32Array
    const counts = docCounts[d] as Uint32Array
    order.length = 0
    for (let k = 0; k < ids.length; k++) if ((remap[ids[k] as number] as number) >= 0) order.push(k)
    order.sort((a, b) => (remap[ids[a] as number] as number) - (remap[ids[b] as number] as number))
    let p = rowPtr[d] as number
    let norm = 0
    const start = p
    for (const k of order) {
      const t = remap[ids[k] as number] as number
      const w = (counts[k] as number) * (idf[t] as number)
      colIdx[p] = t
      values[p] = w
      norm += w * w
      p++
    }
    norm = Math.sqrt(norm)
    if (norm > 0) for (let q = start; q < p; q++) values[q] = (values[q] as number) / norm
    docTerms[d] = EMPTY
    docCounts[d] = EMPTY
  }

  // Postings: counting sort of CSR entries by term; doc ids come out ascending.
  const postPtr = new Uint32Array(v + 1)
  for (let q = 0; q < nnz; q++) {
    const t = (colIdx[q] as number) + 1
    postPtr[t] = (postPtr[t] as number) + 1
  }
  for (let t = 0; t < v; t++) postPtr[t + 1] = (postPtr[t + 1] as number) + (postPtr[t] as number)
  const fill = postPtr.slice(0, v)
  const postDoc = new Uint32Array(nnz)
  const postVal = new Float64Array(nnz)
  for (let d = 0; d < n; d++) {
    for (let q = rowPtr[d] as number; q < (rowPtr[d + 1] as number); q++) {
      const t = colIdx[q] as number
      const slot = fill[t] as number
      postDoc[slot] = d
      postVal[slot] = values[q] as number
      fill[t] = slot + 1
    }
  }

  return new Index(n, kept, termIds, idf, df, rowPtr, colIdx, values, postPtr, postDoc, postVal, tok)
}

const EMPTY = new Uint32Array(0)

class Index implements TfIdfIndex {
  constructor(
    readonly docCount: number,
    readonly vocab: readonly string[],
    readonly termIds: ReadonlyMap<string, number>,
    readonly idf: Float64Array,
    readonly df: Uint32Array,
    readonly rowPtr: Uint32Array,
    readonly colIdx: Uint32Array,
    readonly values: Float64Array,
    readonly postPtr: Uint32Array,
    readonly postDoc: Uint32Array,
    readonly postVal: Float64Array,
    private readonly tok: (text: string) => string[]
  ) {}

  termsOf(doc: number): TermWeight[] {
    this.checkDoc(doc)
    const out: TermWeight[] = []
    for (let q = this.rowPtr[doc] as number; q < (this.rowPtr[doc + 1] as number); q++) {
      out.push({ term: this.vocab[this.colIdx[q] as number] as string, weight: this.values[q] as number })
    }
    return out.sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0))
  }

  vectorize(text: string): SparseVector {
    const counts = new Map<number, number>()
    for (const term of this.tok(text)) {
      const id = this.termIds.get(term)
      if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1)
    }
    const ids = Uint32Array.from(counts.keys()).sort()
    const weights = new Float64Array(ids.length)
    let norm = 0
    ids.forEach((t, i) => {
      const w = (counts.get(t) as number) * (this.idf[t] as number)
      weights[i] = w
      norm += w * w
    })
    norm = Math.sqrt(norm)
    if (norm > 0) for (let i = 0; i < weights.length; i++) weights[i] = (weights[i] as number) / norm
    return { ids, weights }
  }

  query(text: string, topK: number): QueryHit[] {
    if (!(topK > 0) || this.docCount === 0) return []
    const { ids, weights } = this.vectorize(text)
    const scores = new Float64Array(this.docCount)
    const touched: number[] = []
    for (let i = 0; i < ids.length; i++) {
      const t = ids[i] as number
      const w = weights[i] as number
      for (let q = this.postPtr[t] as number; q < (this.postPtr[t + 1] as number); q++) {
        const d = this.postDoc[q] as number
        if (scores[d] === 0) touched.push(d)
        scores[d] = (scores[d] as number) + w * (this.postVal[q] as number)
      }
    }
    // Keep the best topK in a small sorted array (topK is small: 3 for query_skill).
    const best: QueryHit[] = []
    for (const d of touched) {
      const s = Math.min(1, scores[d] as number)
      if (!(s > 0)) continue
      if (best.length === topK) {
        const last = best[best.length - 1] as QueryHit
        if (s < last.score || (s === last.score && d > last.doc)) continue
      }
      let i = best.length
      while (i > 0 && (best[i - 1] as QueryHit).score < s) i--
      while (i > 0 && (best[i - 1] as QueryHit).score === s && (best[i - 1] as QueryHit).doc > d) i--
      best.splice(i, 0, { doc: d, score: s })
      if (best.length > topK) best.pop()
    }
    return best
  }

  similarity(a: number, b: number): number {
    this.checkDoc(a)
    this.checkDoc(b)
    let p = this.rowPtr[a] as number
    let q = this.rowPtr[b] as number
    const pe = this.rowPtr[a + 1] as number
    const qe = this.rowPtr[b + 1] as number
    let dot = 0
    // Merge-join on the sorted term ids.
    while (p < pe && q < qe) {
      const tp = this.colIdx[p] as number
      const tq = this.colIdx[q] as number
      if (tp === tq) dot += (this.values[p++] as number) * (this.values[q++] as number)
      else if (tp < tq) p++
      else q++
    }
    return Math.min(1, dot)
  }

  private checkDoc(doc: number): void {
    if (!Number.isInteger(doc) || doc < 0 || doc >= this.docCount) throw new RangeError(`no document ${doc} (index has ${this.docCount})`)
  }
}
