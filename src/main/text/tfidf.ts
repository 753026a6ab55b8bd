/**
 * TF-IDF index on typed arrays: raw term counts × smooth idf (ln((1+n)/(1+df)) + 1, as scikit-learn),
 * rows L2-normalised, so a dot product is the cosine similarity.
 *
 * Rows are CSR (sorted term ids per document); the inverted index (postings, CSC) lets a query or the
 * all-pairs join touch only the documents that share a term. Built in one pass over flat typed arrays;
 * the postings are in shared memory so the join's worker threads read them without a copy.
 */
import { setImmediate as nextTurn } from 'node:timers/promises'
import { releaseBuffers } from './release-buffers'
import { docTermsAsync, docTermsOf, type DocTerms, type DocTermsOptions, type IndexDoc } from './doc-terms'
import { sharedArray, type JoinArena } from './join-arena'
import { digestRows } from './row-digest'
import { tokenize } from './tokenize'
import { smoothIdf } from './idf'
import { sortIdsByText } from './lexical-order'

export type { IndexDoc } from './doc-terms'

/** With boilerplate limits, the index is that of the documents without their boilerplate lines. */
export interface TfIdfOptions extends DocTermsOptions {
  /** Drop terms found in more than this fraction of documents (default 1 = keep all). */
  maxDfRatio?: number
  /** Drop terms found in fewer than this many documents (default 1 = keep all). */
  minDf?: number
  /**
   * Term ids in lexical order (default), or by document frequency, rarest first (ties lexical): then every row
   * holds its rarer terms before its commoner ones, as the all-pairs join splits them, with no reordering.
   */
  termOrder?: 'lexical' | 'df'
  /** Also digest each row's terms and counts (`rowDigests`, row-digest.ts): for recognising unchanged rows later. */
  rowDigests?: boolean
  /**
   * Where the rows and postings go: an arena lets the join's WebAssembly kernel read them in place (join-arena.ts).
   * Without one (or when it has no room), each is a SharedArrayBuffer of its own.
   */
  arena?: JoinArena
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
  /** Term id → term: sorted lexically, or by document frequency then lexically (`termOrder: 'df'`). */
  readonly vocab: readonly string[]
  readonly termIds: ReadonlyMap<string, number>
  /**
   * A term's id, looked up by binary search in the terms' lexical order: no map of the whole vocabulary is made
   * (for a few lookups in a large one: 250,000 terms of Chinese text took ~0.3 s to map).
   */
  termId(term: string): number | undefined
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
  /** Per row, two numbers: a digest of its terms and counts (only when built with `rowDigests`). */
  readonly rowDigests?: Uint32Array
  /** The weighted terms of one document, heaviest first. */
  termsOf(doc: number): TermWeight[]
  /** Vectorises any text against this index's vocabulary (unknown terms ignored), L2-normalised. */
  vectorize(text: string): SparseVector
  /** The topK documents most similar to `text` (cosine > 0 only), best first, ties by lower doc id. */
  query(text: string, topK: number): QueryHit[]
  /** Cosine similarity of two indexed documents. */
  similarity(a: number, b: number): number
  /**
   * The same index without its postings (documents by term): rows, terms and similarity still answer, query and
   * vectorize throw. For holders of a large index that no longer search it (curation's plan after the join), so
   * the postings' memory can go. (Rows built in an arena keep it whole: a linear memory cannot shrink, and copying
   * the rows out of it cost more at the command's peak than the arena held back; docs/BENCH.md.)
   */
  rowsOnly(): TfIdfIndex
}

/** Builds the TF-IDF index of `docs` (document i = docs[i]). */
export function buildTfIdfIndex(docs: readonly IndexDoc[], options: TfIdfOptions = {}): TfIdfIndex {
  return indexOf(docTermsOf(docs, options), docs.length, options)
}

/** The same index, with the text scanned by two threads on large corpora (see doc-terms.ts). */
export async function buildTfIdfIndexAsync(docs: readonly IndexDoc[], options: TfIdfOptions & { workers?: number } = {}): Promise<TfIdfIndex> {
  const terms = await docTermsAsync(docs, options)
  if (options.signal) {
    // A turn of the event loop first: a Ctrl-C that came during the scan is seen before the index is built.
    await nextTurn()
    options.signal.throwIfAborted()
  }
  const index = indexOf(terms, docs.length, options)
  // The scan's arrays are the index's no more (~60 MB at 20,000 skills): given back before the join adds its own.
  releaseBuffers([terms.docPtr, terms.entTerm, terms.entCount, terms.linePtr, terms.lines?.key, terms.lines?.start])
  return index
}

/** Pass 2: df/idf, CSR rows and postings from the documents' term counts. */
function indexOf(terms: DocTerms, n: number, options: TfIdfOptions): TfIdfIndex {
  const tok = options.tokenizer ?? tokenize
  const { dict, docPtr, entTerm, entCount, nEnt } = terms
  const provCount = dict.terms.length
  const provDf = new Uint32Array(provCount)
  for (let e = 0; e < nEnt; e++) {
    const id = entTerm[e] as number
    provDf[id] = (provDf[id] as number) + 1
  }

  // Keep terms within the df limits; final ids follow lexical order (then, when asked, document frequency).
  const maxDf = (options.maxDfRatio ?? 1) * n
  // A term seen only in boilerplate lines has df 0: never kept.
  const minDf = Math.max(1, options.minDf ?? 1)
  // The kept terms' provisional ids in their final order (no term looked up by its text).
  let keptIds: number[] = []
  for (let id = 0; id < provCount; id++) {
    const f = provDf[id] as number
    if (f >= minDf && f <= maxDf) keptIds.push(id)
  }
  const texts = dict.terms
  keptIds = sortIdsByText(keptIds, texts)
  const lexicalIds = keptIds
  if (options.termOrder === 'df') keptIds = byDocumentFrequency(keptIds, n, provDf)
  const v = keptIds.length
  const kept = new Array<string>(v)
  const remap = new Int32Array(provCount).fill(-1)
  const df = new Uint32Array(v)
  for (let t = 0; t < v; t++) {
    const id = keptIds[t] as number
    kept[t] = texts[id] as string
    remap[id] = t
    df[t] = provDf[id] as number
  }
  // What each row is made of (its kept terms and their counts), for recognising it in a later build.
  const digests = options.rowDigests ? digestRows(docPtr.subarray(0, n + 1), entTerm, entCount, dict.terms, remap) : undefined
  const idf = new Float64Array(v)
  for (let t = 0; t < v; t++) idf[t] = smoothIdf(n, df[t] as number)

  // Two counting sorts instead of a sort per row: the entries go to the postings by term (documents in order, so
  // each list comes out with ascending doc ids, holding the raw counts), then back to the rows by walking the
  // terms in order (so each row comes out with ascending term ids).
  const rowPtr = new Uint32Array(n + 1)
  // Usually every term a document has is kept (no df limits): its row is then exactly its entries.
  let keepsAll = true
  for (let id = 0; id < provCount && keepsAll; id++) if ((provDf[id] as number) > 0 && (remap[id] as number) < 0) keepsAll = false
  if (keepsAll) rowPtr.set(docPtr.subarray(0, n + 1))
  else {
    for (let d = 0; d < n; d++) {
      let count = 0
      for (let e = docPtr[d] as number; e < (docPtr[d + 1] as number); e++) if ((remap[entTerm[e] as number] as number) >= 0) count++
      rowPtr[d + 1] = (rowPtr[d] as number) + count
    }
  }
  const nnz = rowPtr[n] as number
  const postPtr = new Uint32Array(v + 1)
  for (let t = 0; t < v; t++) postPtr[t + 1] = (postPtr[t] as number) + (df[t] as number)
  // Rows and postings live in shared memory: the all-pairs join's worker threads read them without a copy.
  const postDoc = sharedArray(Uint32Array, nnz, options.arena)
  const postVal = sharedArray(Float64Array, nnz, options.arena)
  const colIdx = sharedArray(Uint32Array, nnz, options.arena)
  const values = sharedArray(Float64Array, nnz, options.arena)
  postingsFromEntries(n, v, remap, docPtr, entTerm, entCount, postPtr, postDoc, postVal, colIdx, values)
  rowsFromPostings(n, v, idf, rowPtr, postPtr, postDoc, postVal, colIdx, values)
  // Each row's L2 norm summed in term order (so it does not depend on where in a text a term first appears).
  const norms = new Float64Array(n)
  for (let d = 0; d < n; d++) {
    const r1 = rowPtr[d + 1] as number
    let norm2 = 0
    for (let q = rowPtr[d] as number; q < r1; q++) norm2 += (values[q] as number) * (values[q] as number)
    const norm = Math.sqrt(norm2)
    norms[d] = norm
    if (norm > 0) for (let q = rowPtr[d] as number; q < r1; q++) values[q] = (values[q] as number) / norm
  }
  // The postings' values, computed as the rows' were (count × idf, then / norm): bit for bit the same numbers.
  for (let t = 0; t < v; t++) {
    const w = idf[t] as number
    for (let p = postPtr[t] as number; p < (postPtr[t + 1] as number); p++) {
      const norm = norms[postDoc[p] as number] as number
      const x = (postVal[p] as number) * w
      postVal[p] = norm > 0 ? x / norm : x
    }
  }

  // Final ids in their terms' lexical order (termId's binary search), when the ids follow document frequency.
  const lexical = options.termOrder === 'df' ? Uint32Array.from(lexicalIds, (id) => remap[id] as number) : undefined
  return new Index(n, kept, undefined, idf, df, rowPtr, colIdx, values, postPtr, postDoc, postVal, tok, digests, lexical)
}

/** Terms per bucket of postingsFromEntries' first pass (a bucket's postings are then written close together). */
const TERMS_PER_BUCKET_SHIFT = 8

/**
 * The first counting sort: each kept entry to its term's postings (documents ascending, raw counts). Written in one
 * walk, consecutive entries go to thousands of lists far apart; so the entries are first dealt into buckets of 256
 * terms (a few hundred places written at a time), then each bucket's entries to their lists, which lie together.
 * The rows' arrays, not written yet, hold the buckets: `colIdx` the terms, `values`' bytes the documents and counts.
 * In process at 20,000 skills this and the rows' sort after it take ~13 % less time. Exported for its test.
 */
export function postingsFromEntries(
  n: number,
  v: number,
  remap: Int32Array,
  docPtr: Uint32Array,
  entTerm: Uint32Array,
  entCount: Uint32Array,
  postPtr: Uint32Array,
  postDoc: Uint32Array,
  postVal: Float64Array,
  colIdx: Uint32Array,
  values: Float64Array,
  shift = TERMS_PER_BUCKET_SHIFT
): void {
  const nnz = colIdx.length
  const buckets = (v >>> shift) + 1
  const bucketFill = new Uint32Array(buckets)
  for (let b = 0; b < buckets; b++) bucketFill[b] = postPtr[Math.min(v, b << shift)] as number
  const docOf = new Uint32Array(values.buffer, values.byteOffset, nnz)
  const countOf = new Uint32Array(values.buffer, values.byteOffset + 4 * nnz, nnz)
  for (let d = 0; d < n; d++) {
    for (let e = docPtr[d] as number; e < (docPtr[d + 1] as number); e++) {
      const t = remap[entTerm[e] as number] as number
      if (t < 0) continue
      const b = t >>> shift
      const s = bucketFill[b] as number
      colIdx[s] = t
      docOf[s] = d
      countOf[s] = entCount[e] as number
      bucketFill[b] = s + 1
    }
  }
  const fill = postPtr.slice(0, v)
  for (let s = 0; s < nnz; s++) {
    const t = colIdx[s] as number
    const slot = fill[t] as number
    postDoc[slot] = docOf[s] as number
    postVal[slot] = countOf[s] as number
    fill[t] = slot + 1
  }
}

/** Row entries each pass of rowsFromPostings writes: their colIdx and values take ~6 MB. */
const ROW_ENTRIES_PER_PASS = 1 << 19

/**
 * The second counting sort: the postings walked term by term, each entry written to its document's row. Written
 * in one walk, consecutive entries land in thousands of rows far apart (a cache and TLB miss each at 20,000
 * skills); so the walk is made once per block of documents whose rows hold ~ROW_ENTRIES_PER_PASS entries, each term
 * resuming where the last block stopped (its postings are in document order). Each pass then writes into a few MB
 * (in process at 20,000 skills: ~25 % less time for this step), and the rows are the same to the bit. Exported for
 * its test (passes of a few entries).
 */
export function rowsFromPostings(
  n: number,
  v: number,
  idf: Float64Array,
  rowPtr: Uint32Array,
  postPtr: Uint32Array,
  postDoc: Uint32Array,
  postVal: Float64Array,
  colIdx: Uint32Array,
  values: Float64Array,
  entriesPerPass = ROW_ENTRIES_PER_PASS
): void {
  const rowFill = rowPtr.slice(0, n)
  const cursor = postPtr.slice(0, v)
  for (let d0 = 0; d0 < n; ) {
    // The block's end: the first document whose row starts ROW_ENTRIES_PER_PASS entries after this block's.
    let d1 = d0 + 1
    const limit = (rowPtr[d0] as number) + entriesPerPass
    while (d1 < n && (rowPtr[d1] as number) < limit) d1++
    for (let t = 0; t < v; t++) {
      const w = idf[t] as number
      const end = postPtr[t + 1] as number
      let p = cursor[t] as number
      for (; p < end; p++) {
        const d = postDoc[p] as number
        if (d >= d1) break
        const q = rowFill[d] as number
        colIdx[q] = t
        values[q] = (postVal[p] as number) * w
        rowFill[d] = q + 1
      }
      cursor[t] = p
    }
    d0 = d1
  }
}

/** Term ids (in lexical order of their terms) stably sorted by document frequency, rarest first: a counting sort. */
function byDocumentFrequency(ids: readonly number[], n: number, dfOf: Uint32Array): number[] {
  const start = new Uint32Array(n + 2)
  for (const id of ids) start[(dfOf[id] as number) + 1] = (start[(dfOf[id] as number) + 1] as number) + 1
  for (let f = 1; f <= n + 1; f++) start[f] = (start[f] as number) + (start[f - 1] as number)
  const out = new Array<number>(ids.length)
  for (const id of ids) {
    const f = dfOf[id] as number
    out[start[f] as number] = id
    start[f] = (start[f] as number) + 1
  }
  return out
}

class Index implements TfIdfIndex {
  constructor(
    readonly docCount: number,
    readonly vocab: readonly string[],
    /** Made on first use: curation's build never looks a term up by its text. */
    private ids: ReadonlyMap<string, number> | undefined,
    readonly idf: Float64Array,
    readonly df: Uint32Array,
    readonly rowPtr: Uint32Array,
    readonly colIdx: Uint32Array,
    readonly values: Float64Array,
    readonly postPtr: Uint32Array,
    readonly postDoc: Uint32Array,
    readonly postVal: Float64Array,
    private readonly tok: (text: string) => string[],
    readonly rowDigests?: Uint32Array,
    /** Term ids in their terms' lexical order; undefined when the ids are in that order already. */
    private readonly lexical?: Uint32Array
  ) {}

  termId(term: string): number | undefined {
    if (this.ids) return this.ids.get(term)
    const { vocab, lexical } = this
    let lo = 0
    let hi = vocab.length - 1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      const id = lexical ? (lexical[mid] as number) : mid
      const t = vocab[id] as string
      if (t === term) return id
      if (t < term) lo = mid + 1
      else hi = mid - 1
    }
    return undefined
  }

  get termIds(): ReadonlyMap<string, number> {
    if (!this.ids) {
      const ids = new Map<string, number>()
      this.vocab.forEach((t, i) => ids.set(t, i))
      this.ids = ids
    }
    return this.ids
  }

  rowsOnly(): TfIdfIndex {
    const none = new Uint32Array(this.vocab.length + 1)
    const tok = (): string[] => {
      throw new Error('this index keeps rows only: it cannot search')
    }
    return new Index(this.docCount, this.vocab, this.ids, this.idf, this.df, this.rowPtr, this.colIdx, this.values, none, new Uint32Array(0), new Float64Array(0), tok, this.rowDigests, this.lexical)
  }

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
