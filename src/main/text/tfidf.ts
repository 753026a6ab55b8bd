/**
 * TF-IDF index on typed arrays: raw term counts × smooth idf (ln((1+n)/(1+df)) + 1, as scikit-learn),
 * rows L2-normalised, so a dot product is the cosine similarity.
 *
 * Rows are CSR (sorted term ids per document); the inverted index (postings, CSC) lets a query or the
 * all-pairs join touch only the documents that share a term. Built in one pass over flat typed arrays;
 * the postings are in shared memory so the join's worker threads read them without a copy.
 */
import { Worker } from 'node:worker_threads'
import { boilerplateFlags, lineAt, lineKey, lineText, LineKeys, stripBoilerplate, type BoilerplateOptions } from './boilerplate'
import { TermDictionary, tokenize } from './tokenize'
import { createWordScan, scanDocs, SLOW_LINE, wordScanWorkerSource, type WordScan } from './word-scan'

export interface TfIdfOptions {
  /** Tokenizer to use (default: the shared mixed Chinese/English tokenizer). */
  tokenizer?: (text: string) => string[]
  /** Drop terms found in more than this fraction of documents (default 1 = keep all). */
  maxDfRatio?: number
  /** Drop terms found in fewer than this many documents (default 1 = keep all). */
  minDf?: number
  /** Leave out template boilerplate lines (see boilerplate.ts) with these limits: the index is then that of the stripped documents. */
  boilerplate?: BoilerplateOptions
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

/** A document: its text, or its parts (the text is the parts joined by line breaks; no joined copy is made). */
export type IndexDoc = string | readonly string[]

function textOf(doc: IndexDoc): string {
  return typeof doc === 'string' ? doc : doc.join('\n')
}

/** Total characters of the documents (parts count their line breaks), to size arrays. */
function totalChars(docs: readonly IndexDoc[]): number {
  let chars = 0
  for (const doc of docs) {
    if (typeof doc === 'string') chars += doc.length
    else for (const part of doc) chars += part.length + 1
  }
  return chars
}

/** Pass 1's result: every document's distinct provisional term ids (first-seen order) with their counts. */
class DocTerms {
  readonly dict = new TermDictionary()
  readonly docPtr: Uint32Array
  entTerm: Uint32Array
  entCount: Uint32Array
  nEnt = 0
  /** Line keys for boilerplate (when asked for); document d's lines are [linePtr[d], linePtr[d+1]). */
  readonly lines: LineKeys | undefined
  readonly linePtr: Uint32Array
  /** Documents closed so far (the current one is number `docs`). */
  docs = 0
  /** Per term id: the current document + 1 when it has an entry there, and that entry's position. */
  private inDoc = new Int32Array(1024)
  private entryOf = new Uint32Array(1024)

  constructor(n: number, capacity: number, lineCapacity: number | undefined) {
    this.docPtr = new Uint32Array(n + 1)
    this.entTerm = new Uint32Array(Math.max(1024, capacity))
    this.entCount = new Uint32Array(this.entTerm.length)
    this.lines = lineCapacity === undefined ? undefined : new LineKeys(lineCapacity)
    this.linePtr = new Uint32Array(lineCapacity === undefined ? 0 : n + 1)
  }

  /** Room for `more` entries and for every term id the dictionary has. */
  reserve(more: number): void {
    if (this.nEnt + more > this.entTerm.length) {
      const size = Math.max(this.entTerm.length * 2, this.nEnt + more)
      const nt = new Uint32Array(size)
      nt.set(this.entTerm.subarray(0, this.nEnt))
      this.entTerm = nt
      const nc = new Uint32Array(size)
      nc.set(this.entCount.subarray(0, this.nEnt))
      this.entCount = nc
    }
    const terms = this.dict.terms.length
    if (terms > this.inDoc.length) {
      const size = Math.max(terms, this.inDoc.length * 2)
      const a = new Int32Array(size)
      a.set(this.inDoc)
      this.inDoc = a
      const b = new Uint32Array(size)
      b.set(this.entryOf)
      this.entryOf = b
    }
  }

  /** Counts `count` occurrences of a term in the current document (reserve() first). */
  add(term: number, count: number): void {
    const mark = this.docs + 1
    if (this.inDoc[term] === mark) {
      const e = this.entryOf[term] as number
      this.entCount[e] = (this.entCount[e] as number) + count
      return
    }
    this.inDoc[term] = mark
    this.entryOf[term] = this.nEnt
    this.entTerm[this.nEnt] = term
    this.entCount[this.nEnt++] = count
  }

  /** Closes the current document. */
  endDoc(): void {
    this.docPtr[++this.docs] = this.nEnt
    if (this.lines) this.linePtr[this.docs] = this.lines.count
  }
}

/** A distinct word of a scan (lowercase ASCII codes) as a string. */
function wordOf(scan: WordScan, w: number): string {
  const off = scan.wordAt[2 * w] as number
  const len = scan.wordAt[2 * w + 1] as number
  let word = ''
  for (let k = 0; k < len; k += 4096) word += String.fromCharCode.apply(null, scan.pool.subarray(off + k, off + Math.min(len, k + 4096)) as unknown as number[])
  return word
}

/** Adds the documents docs[first, …) that `scan` covers: its words as terms, its slow pieces through tokenize. */
function collectScan(scan: WordScan, docs: readonly IndexDoc[], first: number, out: DocTerms): void {
  const dict = out.dict
  const termOfLocal = new Int32Array(scan.words)
  for (let w = 0; w < scan.words; w++) termOfLocal[w] = dict.termOfWord(wordOf(scan, w))
  const count = scan.docPtr.length - 1
  out.reserve(scan.nEnt)
  let slow = 0
  for (let d = 0; d < count; d++) {
    const doc = docs[first + d] as IndexDoc
    for (let e = scan.docPtr[d] as number; e < (scan.docPtr[d + 1] as number); e++) {
      const t = termOfLocal[scan.entWord[e] as number] as number
      if (t >= 0) out.add(t, scan.entCount[e] as number)
    }
    for (; slow < scan.nSlow && scan.slow[4 * slow] === d; slow++) {
      const part = typeof doc === 'string' ? doc : (doc[scan.slow[4 * slow + 1] as number] as string)
      const ids = tokenize(part.slice(scan.slow[4 * slow + 2], scan.slow[4 * slow + 3])).map((term) => dict.idOf(term))
      out.reserve(ids.length)
      for (const id of ids) out.add(id, 1)
    }
    if (out.lines) {
      let text: string | undefined
      for (let k = scan.linePtr[d] as number; k < (scan.linePtr[d + 1] as number); k++) {
        let key = scan.lineKey[k] as number
        const start = scan.lineStart[k] as number
        if (key === SLOW_LINE) key = lineKey(lineAt((text ??= textOf(doc)), start))
        out.lines.push(key, start)
      }
    }
    out.endDoc()
  }
}

/** Documents from this many on are scanned by two threads (below, a worker costs more than it saves). */
export const PARALLEL_SCAN_MIN_DOCS = 4000

/** An empty pass-1 result sized for the documents. */
function docTermsFor(n: number, chars: number, options: TfIdfOptions): DocTerms {
  return new DocTerms(n, Math.ceil(chars / 8), options.boilerplate !== undefined ? Math.ceil(chars / 32) + n : undefined)
}

/** Pass 1 on this thread. */
function docTermsOf(docs: readonly IndexDoc[], options: TfIdfOptions, chars: number): DocTerms {
  const out = docTermsFor(docs.length, chars, options)
  const tok = options.tokenizer
  if (tok) {
    for (const doc of docs) {
      const ids = tok(doc as string).map((term) => out.dict.idOf(term))
      out.reserve(ids.length)
      for (const id of ids) out.add(id, 1)
      out.endDoc()
    }
    return out
  }
  const scan = createWordScan(docs.length, chars, options.boilerplate !== undefined)
  scanDocs(scan, docs, 0, docs.length)
  collectScan(scan, docs, 0, out)
  return out
}

/** Builds the TF-IDF index of `docs` (document i = docs[i]). */
export function buildTfIdfIndex(docs: readonly IndexDoc[], options: TfIdfOptions = {}): TfIdfIndex {
  const prepared = prepareDocs(docs, options)
  return indexOf(docTermsOf(prepared, options, totalChars(prepared)), prepared, options)
}

/**
 * The same index, with the text scanned by two threads on large corpora (a worker takes the second half;
 * when it cannot run, this thread does it all).
 */
export async function buildTfIdfIndexAsync(docs: readonly IndexDoc[], options: TfIdfOptions & { workers?: number } = {}): Promise<TfIdfIndex> {
  const prepared = prepareDocs(docs, options)
  const chars = totalChars(prepared)
  const n = prepared.length
  if (options.tokenizer || n < PARALLEL_SCAN_MIN_DOCS || options.workers === 0) return indexOf(docTermsOf(prepared, options, chars), prepared, options)
  // Split by text length: the worker takes a little more, since this thread also turns both scans into terms
  // (its own while the worker still scans).
  let split = 0
  let ownChars = 0
  for (; split < n && ownChars < chars * 0.45; split++) ownChars += totalChars([prepared[split] as IndexDoc])
  const rest = prepared.slice(split)
  const scanned = scanInWorker(rest, chars - ownChars, options.boilerplate !== undefined)
  // Claimed before this thread starts its own part, so a worker error cannot go unhandled meanwhile.
  const settled = scanned.then(
    (scan) => scan,
    () => undefined
  )
  const own = createWordScan(split, ownChars, options.boilerplate !== undefined)
  scanDocs(own, prepared, 0, split)
  const out = docTermsFor(n, chars, options)
  collectScan(own, prepared, 0, out)
  const worker = await settled
  const restScan = worker ?? createWordScan(n - split, chars - ownChars, options.boilerplate !== undefined)
  if (!worker) scanDocs(restScan, prepared, split, n - split)
  collectScan(restScan, prepared, split, out)
  return indexOf(out, prepared, options)
}

/** Scans documents on a worker thread (rejects when the worker cannot start or fails). */
export function scanInWorker(docs: readonly IndexDoc[], chars: number, withLines: boolean): Promise<WordScan> {
  return new Promise<WordScan>((resolve, reject) => {
    const worker = new Worker(wordScanWorkerSource(), { eval: true, workerData: { docs, chars, withLines } })
    worker.once('message', (scan: WordScan) => {
      resolve(scan)
      void worker.terminate()
    })
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`word scan worker stopped (exit code ${code})`)))
  })
}

/** Documents as the tokenizer takes them: strings (stripped of boilerplate first) for a custom tokenizer. */
function prepareDocs(docs: readonly IndexDoc[], options: TfIdfOptions): readonly IndexDoc[] {
  if (!options.tokenizer) return docs
  return options.boilerplate ? stripBoilerplate(docs.map(textOf), options.boilerplate) : docs.map(textOf)
}

/** Pass 2 on: boilerplate lines taken out, df/idf, CSR rows and postings. */
function indexOf(terms: DocTerms, docs: readonly IndexDoc[], options: TfIdfOptions): TfIdfIndex {
  const tok = options.tokenizer ?? tokenize
  const n = docs.length
  const { dict, docPtr, lines, linePtr, entTerm, entCount } = terms
  let nEnt = terms.nEnt
  if (lines && !options.tokenizer) {
    const docText = (d: number): string => textOf(docs[d] as IndexDoc)
    const flags = boilerplateFlags(n, docText, lines, linePtr, options.boilerplate)
    if (flags) nEnt = dropLines(docText, lines, linePtr, flags, dict, docPtr, entTerm, entCount)
  }
  const provCount = dict.terms.length
  const provDf = new Uint32Array(provCount)
  for (let e = 0; e < nEnt; e++) {
    const id = entTerm[e] as number
    provDf[id] = (provDf[id] as number) + 1
  }

  // Keep terms within the df limits; final ids follow lexical order.
  const maxDf = (options.maxDfRatio ?? 1) * n
  // A term seen only in boilerplate lines has df 0: never kept.
  const minDf = Math.max(1, options.minDf ?? 1)
  const kept: string[] = []
  for (let id = 0; id < provCount; id++) {
    const f = provDf[id] as number
    if (f >= minDf && f <= maxDf) kept.push(dict.terms[id] as string)
  }
  kept.sort()
  const termIds = new Map<string, number>()
  kept.forEach((t, i) => termIds.set(t, i))
  const v = kept.length
  const remap = new Int32Array(provCount).fill(-1)
  const df = new Uint32Array(v)
  for (let id = 0; id < provCount; id++) {
    const finalId = termIds.get(dict.terms[id] as string)
    if (finalId === undefined) continue
    remap[id] = finalId
    df[finalId] = provDf[id] as number
  }
  const idf = new Float64Array(v)
  for (let t = 0; t < v; t++) idf[t] = Math.log((1 + n) / (1 + (df[t] as number))) + 1

  // CSR rows: each document's final term ids sorted (a small sort per document, in cache), its L2 norm summed in
  // that order (so it does not depend on where in a text a term first appears), values normalised.
  const rowPtr = new Uint32Array(n + 1)
  for (let d = 0; d < n; d++) {
    let count = 0
    for (let e = docPtr[d] as number; e < (docPtr[d + 1] as number); e++) if ((remap[entTerm[e] as number] as number) >= 0) count++
    rowPtr[d + 1] = (rowPtr[d] as number) + count
  }
  const nnz = rowPtr[n] as number
  // Rows and postings live in shared memory: the all-pairs join's worker threads read them without a copy.
  const colIdx = new Uint32Array(new SharedArrayBuffer(nnz * 4))
  const values = new Float64Array(new SharedArrayBuffer(nnz * 8))
  const countOfFinal = new Uint32Array(v)
  const postPtr = new Uint32Array(v + 1)
  // Each row's term ids are sorted in a scratch array (by sortIds: TypedArray.prototype.sort was the slowest
  // part of the build).
  let longest = 0
  for (let d = 0; d < n; d++) longest = Math.max(longest, (rowPtr[d + 1] as number) - (rowPtr[d] as number))
  const scratch = new Uint32Array(longest)
  for (let d = 0; d < n; d++) {
    const r0 = rowPtr[d] as number
    const r1 = rowPtr[d + 1] as number
    let k = 0
    for (let e = docPtr[d] as number; e < (docPtr[d + 1] as number); e++) {
      const t = remap[entTerm[e] as number] as number
      if (t < 0) continue
      scratch[k++] = t
      countOfFinal[t] = entCount[e] as number
      postPtr[t + 1] = (postPtr[t + 1] as number) + 1
    }
    sortIds(scratch, 0, k - 1)
    colIdx.set(scratch.subarray(0, k), r0)
    let q: number
    let norm2 = 0
    for (q = r0; q < r1; q++) {
      const t = colIdx[q] as number
      const w = (countOfFinal[t] as number) * (idf[t] as number)
      values[q] = w
      norm2 += w * w
    }
    const norm = Math.sqrt(norm2)
    if (norm > 0) for (q = r0; q < r1; q++) values[q] = (values[q] as number) / norm
  }
  // Postings (CSC) by counting sort on the term id: documents in order, so each list comes out with ascending doc ids.
  for (let t = 0; t < v; t++) postPtr[t + 1] = (postPtr[t + 1] as number) + (postPtr[t] as number)
  const postDoc = new Uint32Array(new SharedArrayBuffer(nnz * 4))
  const postVal = new Float64Array(new SharedArrayBuffer(nnz * 8))
  const fill = postPtr.slice(0, v)
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

/** Sorts a[lo..hi] (distinct values) ascending: quicksort with median-of-three, insertion sort on short runs. */
function sortIds(a: Uint32Array, lo: number, hi: number): void {
  while (hi - lo > 16) {
    const mid = (lo + hi) >>> 1
    // Median of three to a[hi], then partition around it.
    if ((a[mid] as number) < (a[lo] as number)) swap(a, mid, lo)
    if ((a[hi] as number) < (a[lo] as number)) swap(a, hi, lo)
    if ((a[mid] as number) < (a[hi] as number)) swap(a, mid, hi)
    const pivot = a[hi] as number
    let i = lo
    for (let j = lo; j < hi; j++) {
      if ((a[j] as number) < pivot) swap(a, i++, j)
    }
    swap(a, i, hi)
    // Recurse into the smaller side, loop on the larger (bounded stack).
    if (i - lo < hi - i) {
      sortIds(a, lo, i - 1)
      lo = i + 1
    } else {
      sortIds(a, i + 1, hi)
      hi = i - 1
    }
  }
  for (let i = lo + 1; i <= hi; i++) {
    const x = a[i] as number
    let j = i - 1
    while (j >= lo && (a[j] as number) > x) {
      a[j + 1] = a[j] as number
      j--
    }
    a[j + 1] = x
  }
}

function swap(a: Uint32Array, i: number, j: number): void {
  const t = a[i] as number
  a[i] = a[j] as number
  a[j] = t
}

/**
 * Takes the terms of the flagged (boilerplate) lines out of their documents' counts, then compacts the
 * entries (a term left with count 0 leaves its document). Each distinct line text is tokenized once.
 * Returns the new number of entries; docPtr is rewritten in place.
 */
function dropLines(
  docText: (d: number) => string,
  lines: LineKeys,
  linePtr: Uint32Array,
  flags: Uint8Array,
  dict: TermDictionary,
  docPtr: Uint32Array,
  entTerm: Uint32Array,
  entCount: Uint32Array
): number {
  const termsOfLine = new Map<string, number[]>()
  const slotOf = new Int32Array(dict.terms.length)
  let out = 0
  let first = 0
  const n = docPtr.length - 1
  for (let d = 0; d < n; d++) {
    const last = docPtr[d + 1] as number
    let doc: string | undefined
    for (let k = linePtr[d] as number; k < (linePtr[d + 1] as number); k++) {
      if (flags[k] !== 1) continue
      if (doc === undefined) {
        doc = docText(d)
        for (let e = first; e < last; e++) slotOf[entTerm[e] as number] = e
      }
      const text = lineText(doc, lines, k)
      let ids = termsOfLine.get(text)
      if (ids === undefined) {
        ids = tokenize(text).map((term) => dict.idOf(term))
        termsOfLine.set(text, ids)
      }
      for (const id of ids) entCount[slotOf[id] as number] = (entCount[slotOf[id] as number] as number) - 1
    }
    docPtr[d] = out
    for (let e = first; e < last; e++) {
      if (entCount[e] === 0) continue
      entTerm[out] = entTerm[e] as number
      entCount[out++] = entCount[e] as number
    }
    first = last
  }
  docPtr[n] = out
  return out
}

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
