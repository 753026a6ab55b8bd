/**
 * Pass 1 of the index build: every document's distinct terms with their counts (as provisional term ids), and
 * with boilerplate lines taken out when asked. The text is scanned by word-scan.ts (on large corpora by this
 * thread and a worker, each taking part of the documents); each distinct word becomes its term once
 * (`TermDictionary`), and what the scan leaves to the general tokenizer goes through `tokenize`.
 */
import { boilerplateFlags, lineAt, lineKey, LineKeys, stripBoilerplate, type BoilerplateOptions } from './boilerplate'
import { TermDictionary } from './tokenize'
import { resized } from './typed-arrays'
import type { IndexDoc } from './index-doc'
import type { StreamedScan } from './streamed-scan'
import { startWorker } from './warm-workers'
import { createWordScan, scanDocs, SLOW_LINE, wordScanWorkerSource, type WordScan } from './word-scan'

export interface DocTermsOptions {
  /** Tokenizer to use (default: the shared mixed Chinese/English tokenizer, through the word scan). */
  tokenizer?: (text: string) => string[]
  /** Leave out template boilerplate lines (see boilerplate.ts) with these limits. */
  boilerplate?: BoilerplateOptions
  /**
   * Documents whose pass-1 results an earlier build kept (the default tokenizer only): they are not scanned. The
   * table's arrays may be taken over (and changed): it is the caller's no more.
   */
  reuse?: ReusedTerms
  /**
   * Given the pass-1 results of every document (before boilerplate lines are taken out), synchronously, when at
   * least one document was scanned: for keeping them (the arrays are changed after the call returns).
   */
  onScanned?: (table: TermTable) => void
  /**
   * A scan already fed these documents on a worker (streamed-scan.ts): used when it covers exactly them and no
   * earlier results are reused, else closed and the documents scanned as usual. Async builds only.
   */
  streamed?: StreamedScan
  /** Stops an async build between the streamed scan's chunks and before the index (it rejects with an AbortError). */
  signal?: AbortSignal
  /**
   * The dictionary the terms go into (docTermsOf only; default a new one): a caller that keeps one vocabulary
   * gets its own ids back and maps nothing afterwards.
   */
  dict?: TermDictionary
}

/** Pass-1 results of documents as a table: terms (before boilerplate is taken out) and line keys. */
export interface TermTable {
  vocab: readonly string[]
  /** Document r's entries are [docPtr[r], docPtr[r+1]), its lines [linePtr[r], linePtr[r+1]). */
  docPtr: Uint32Array
  entTerm: Uint32Array
  entCount: Uint32Array
  linePtr: Uint32Array
  lineKey: Int32Array
  lineStart: Uint32Array
}

/** A table of earlier results and, per document of this build, its row there (-1: scan it). */
export interface ReusedTerms {
  table: TermTable
  rowOf: Int32Array
}

export type { IndexDoc }

export function textOf(doc: IndexDoc): string {
  return typeof doc === 'string' ? doc : doc.join('\n')
}

/**
 * The line of a document's text that starts at `start`, without joining its parts: a line never crosses from one
 * part to the next (a line break joins them), so it is the part's line at the same place.
 */
export function lineOfDoc(doc: IndexDoc, start: number): string {
  if (typeof doc === 'string') return lineAt(doc, start)
  let offset = start
  for (const part of doc) {
    if (offset <= part.length) return lineAt(part, offset)
    offset -= part.length + 1
  }
  return ''
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
export class DocTerms {
  readonly dict: TermDictionary
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

  constructor(n: number, capacity: number, lineCapacity: number | undefined, dict = new TermDictionary()) {
    this.dict = dict
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
      this.entTerm = resized(this.entTerm, size, this.nEnt)
      this.entCount = resized(this.entCount, size, this.nEnt)
    }
    const terms = this.dict.terms.length
    if (terms > this.inDoc.length) {
      const size = Math.max(terms, this.inDoc.length * 2)
      this.inDoc = resized(this.inDoc, size)
      this.entryOf = resized(this.entryOf, size)
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

  /** Appends an entry for a term the current document does not have yet (reserve() first). */
  push(term: number, count: number): void {
    this.entTerm[this.nEnt] = term
    this.entCount[this.nEnt++] = count
  }

  /**
   * The pass-1 results a table holds for exactly these documents, in its order: its arrays are taken over (the
   * caller gives them up), its vocabulary numbered in its order.
   */
  static adopt(t: TermTable, withLines: boolean): DocTerms {
    const n = t.docPtr.length - 1
    const out = new DocTerms(n, 0, withLines ? 0 : undefined)
    for (const term of t.vocab) out.dict.idOf(term)
    out.docPtr.set(t.docPtr)
    out.entTerm = t.entTerm
    out.entCount = t.entCount
    out.nEnt = t.entTerm.length
    if (out.lines) {
      out.linePtr.set(t.linePtr)
      out.lines.key = t.lineKey
      out.lines.start = t.lineStart
      out.lines.count = t.lineKey.length
    }
    out.docs = n
    return out
  }

  /** The results so far as a table (views of this object's arrays: valid until they change). */
  table(): TermTable {
    const lines = this.lines ?? new LineKeys(0)
    return {
      vocab: this.dict.terms,
      docPtr: this.docPtr.subarray(0, this.docs + 1),
      entTerm: this.entTerm.subarray(0, this.nEnt),
      entCount: this.entCount.subarray(0, this.nEnt),
      linePtr: this.lines ? this.linePtr.subarray(0, this.docs + 1) : new Uint32Array(this.docs + 1),
      lineKey: lines.key.subarray(0, lines.count),
      lineStart: lines.start.subarray(0, lines.count)
    }
  }

  /** Closes the current document. */
  endDoc(): void {
    this.docPtr[++this.docs] = this.nEnt
    if (this.lines) this.linePtr[this.docs] = this.lines.count
  }
}

/** The word of `len` lowercase ASCII codes at pool[off…] as a string. */
function wordAt(pool: Uint8Array, off: number, len: number): string {
  let word = ''
  for (let k = 0; k < len; k += 4096) word += String.fromCharCode.apply(null, pool.subarray(off + k, off + Math.min(len, k + 4096)) as unknown as number[])
  return word
}

/** The scanned entries collectScan reads (a WordScan's, or a streamed chunk's). */
type ScannedDocs = Pick<WordScan, 'docPtr' | 'entWord' | 'entCount' | 'nEnt' | 'slow' | 'nSlow' | 'lineKey' | 'lineStart' | 'linePtr'>

/** Adds the documents docs[first, …) that `scan` covers: its words as terms, its slow pieces through tokenize. */
function collectScan(scan: WordScan, docs: readonly IndexDoc[], first: number, out: DocTerms): void {
  const termOfLocal = new Int32Array(scan.words)
  for (let w = 0; w < scan.words; w++) termOfLocal[w] = out.dict.termOfWord(wordAt(scan.pool, scan.wordAt[2 * w] as number, scan.wordAt[2 * w + 1] as number))
  collectEntries(scan, termOfLocal, docs, first, out)
}

/** collectScan's second half: the entries of docs[first, …), their local word ids mapped by termOfLocal. */
function collectEntries(scan: ScannedDocs, termOfLocal: Int32Array, docs: readonly IndexDoc[], first: number, out: DocTerms): void {
  const dict = out.dict
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
      const ids: number[] = []
      dict.pushTermIds(part.slice(scan.slow[4 * slow + 2], scan.slow[4 * slow + 3]), ids)
      // Room also for the later documents' scanned entries, which the reserve above counted on: a typed array
      // drops writes past its end without a word.
      out.reserve(ids.length + scan.nEnt - (scan.docPtr[d + 1] as number))
      for (const id of ids) out.add(id, 1)
    }
    if (out.lines) {
      for (let k = scan.linePtr[d] as number; k < (scan.linePtr[d + 1] as number); k++) {
        let key = scan.lineKey[k] as number
        const start = scan.lineStart[k] as number
        if (key === SLOW_LINE) key = lineKey(lineOfDoc(doc, start))
        out.lines.push(key, start)
      }
    }
    out.endDoc()
  }
}

/** Documents from this many on are scanned by two threads (below, a worker costs more than it saves). */
export const PARALLEL_SCAN_MIN_DOCS = 4000

/** An empty pass-1 result sized for the documents. */
function docTermsFor(n: number, chars: number, options: DocTermsOptions): DocTerms {
  return new DocTerms(n, Math.ceil(chars / 8), options.boilerplate !== undefined ? Math.ceil(chars / 32) + n : undefined, options.dict)
}

/** Pass 1 on this thread (`docs` as prepareDocs gives them). */
function scanHere(docs: readonly IndexDoc[], options: DocTermsOptions, chars: number): DocTerms {
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

/** Pass 1 on this thread. */
export function docTermsOf(docs: readonly IndexDoc[], options: DocTermsOptions = {}): DocTerms {
  const prepared = prepareDocs(docs, options)
  return dropBoilerplate(scanHere(prepared, options, totalChars(prepared)), prepared, options)
}

/**
 * Pass 1 with the text scanned by two threads on large corpora: a worker takes the documents from about 45 % of
 * the text on (this thread also turns both scans into terms, its own while the worker still scans); when the
 * worker cannot run, this thread scans them too.
 */
export async function docTermsAsync(docs: readonly IndexDoc[], options: DocTermsOptions & { workers?: number } = {}): Promise<DocTerms> {
  const prepared = prepareDocs(docs, options)
  const reuse = options.tokenizer ? undefined : options.reuse
  let terms: DocTerms
  const streamed = options.streamed
  const early = streamed && !reuse && !options.tokenizer && streamed.covers(prepared) ? await collectStreamed(prepared, options, streamed) : undefined
  if (!early) streamed?.close()
  if (early) {
    terms = early
    if (terms.docs > 0) options.onScanned?.(terms.table())
  } else if (!reuse) {
    terms = await scanAll(prepared, options)
    if (terms.docs > 0) options.onScanned?.(terms.table())
  } else {
    const todo: number[] = []
    for (let d = 0; d < prepared.length; d++) if ((reuse.rowOf[d] as number) < 0) todo.push(d)
    const fresh = todo.length > 0 ? await scanAll(todo.map((d) => prepared[d] as IndexDoc), options) : undefined
    // The usual warm case: the table holds exactly these documents in this order (nothing changed since it was saved).
    terms = !fresh && isIdentity(reuse) ? DocTerms.adopt(reuse.table, options.boilerplate !== undefined) : assemble(prepared, options, reuse, fresh)
    if (fresh) options.onScanned?.(terms.table())
  }
  return dropBoilerplate(terms, prepared, options)
}

function isIdentity({ table, rowOf }: ReusedTerms): boolean {
  if (table.docPtr.length !== rowOf.length + 1) return false
  for (let d = 0; d < rowOf.length; d++) if (rowOf[d] !== d) return false
  return true
}

/**
 * Pass 1 for every document: its rows of the table when it has one, else its part of `fresh` (the scan of the
 * documents without one, in order). The same result as scanning them all: only term ids may be numbered otherwise.
 * The table's terms keep their ids, so its rows are copied as they are, a run of consecutive rows at a time.
 */
function assemble(docs: readonly IndexDoc[], options: DocTermsOptions, reuse: ReusedTerms, fresh: DocTerms | undefined): DocTerms {
  const n = docs.length
  const { table, rowOf } = reuse
  const out = docTermsFor(n, totalChars(docs), options)
  for (const term of table.vocab) out.dict.idOf(term)
  // A table naming a term twice cannot keep its ids: its rows are then copied term by term.
  const sameIds = out.dict.terms.length === table.vocab.length
  const fromTable = new Int32Array(sameIds ? 0 : table.vocab.length).fill(-1)
  const freshTable = fresh?.table()
  const fromFresh = new Int32Array(fresh ? fresh.dict.terms.length : 0).fill(-1)
  let f = 0
  for (let d = 0; d < n; ) {
    const r = rowOf[d] as number
    if (r >= 0 && sameIds) {
      // the longest run of documents whose rows follow one another in the table
      let end = d + 1
      while (end < n && rowOf[end] === r + (end - d)) end++
      copyRows(out, table, r, r + (end - d))
      d = end
      continue
    }
    const src = r >= 0 ? table : (freshTable as TermTable)
    const row = r >= 0 ? r : f++
    const map = r >= 0 ? fromTable : fromFresh
    const e0 = src.docPtr[row] as number
    const e1 = src.docPtr[row + 1] as number
    // Term ids first (a new term grows the dictionary), then room, then the entries (distinct within a document).
    for (let e = e0; e < e1; e++) {
      const t = src.entTerm[e] as number
      if ((map[t] as number) < 0) map[t] = out.dict.idOf(src.vocab[t] as string)
    }
    out.reserve(e1 - e0)
    for (let e = e0; e < e1; e++) out.push(map[src.entTerm[e] as number] as number, src.entCount[e] as number)
    if (out.lines) for (let k = src.linePtr[row] as number; k < (src.linePtr[row + 1] as number); k++) out.lines.push(src.lineKey[k] as number, src.lineStart[k] as number)
    out.endDoc()
    d++
  }
  return out
}

/** Appends the table's rows [r0, r1) as documents, entries and lines copied whole (the table's term ids are out's). */
function copyRows(out: DocTerms, table: TermTable, r0: number, r1: number): void {
  const e0 = table.docPtr[r0] as number
  const e1 = table.docPtr[r1] as number
  out.reserve(e1 - e0)
  out.entTerm.set(table.entTerm.subarray(e0, e1), out.nEnt)
  out.entCount.set(table.entCount.subarray(e0, e1), out.nEnt)
  const entryShift = out.nEnt - e0
  out.nEnt += e1 - e0
  const lines = out.lines
  const k0 = table.linePtr[r0] as number
  const lineShift = lines ? lines.count - k0 : 0
  if (lines) lines.pushAll(table.lineKey, table.lineStart, k0, table.linePtr[r1] as number)
  for (let r = r0; r < r1; r++) {
    out.docPtr[out.docs + 1] = (table.docPtr[r + 1] as number) + entryShift
    if (lines) out.linePtr[out.docs + 1] = (table.linePtr[r + 1] as number) + lineShift
    out.docs++
  }
}

/**
 * Pass 1 from a streamed scan that covers `docs`, its chunks collected as they come; undefined when its worker
 * failed (the caller scans them itself).
 */
async function collectStreamed(docs: readonly IndexDoc[], options: DocTermsOptions, streamed: StreamedScan): Promise<DocTerms | undefined> {
  const out = docTermsFor(docs.length, totalChars(docs), options)
  let termOfLocal = new Int32Array(1024)
  let first = 0
  try {
    for (let chunk = await streamed.next(); chunk; chunk = await streamed.next()) {
      options.signal?.throwIfAborted()
      if (chunk.words > termOfLocal.length) termOfLocal = resized(termOfLocal, Math.max(chunk.words, 2 * termOfLocal.length))
      for (let w = chunk.words0; w < chunk.words; w++) {
        const at = 2 * (w - chunk.words0)
        termOfLocal[w] = out.dict.termOfWord(wordAt(chunk.newPool, chunk.newWordAt[at] as number, chunk.newWordAt[at + 1] as number))
      }
      collectEntries(chunk, termOfLocal, docs, first, out)
      first += chunk.docPtr.length - 1
    }
  } catch (err) {
    // Stopped: not a reason to scan here instead.
    if (options.signal?.aborted) {
      streamed.close()
      throw err
    }
    return undefined
  }
  return first === docs.length ? out : undefined
}

/** Pass 1 without taking boilerplate out: on this thread, or with a worker on large corpora. */
async function scanAll(prepared: readonly IndexDoc[], options: DocTermsOptions & { workers?: number }): Promise<DocTerms> {
  const chars = totalChars(prepared)
  const n = prepared.length
  if (options.tokenizer || n < PARALLEL_SCAN_MIN_DOCS || options.workers === 0) return scanHere(prepared, options, chars)
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
  return out
}

/** Scans documents on a worker thread (rejects when the worker cannot start or fails). */
export function scanInWorker(docs: readonly IndexDoc[], chars: number, withLines: boolean): Promise<WordScan> {
  return new Promise<WordScan>((resolve, reject) => {
    const worker = startWorker(wordScanWorkerSource(), { docs, chars, withLines })
    worker.once('message', (scan: WordScan) => {
      resolve(scan)
      void worker.terminate()
    })
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`word scan worker stopped (exit code ${code})`)))
  })
}

/** Documents as the tokenizer takes them: strings (stripped of boilerplate first) for a custom tokenizer. */
function prepareDocs(docs: readonly IndexDoc[], options: DocTermsOptions): readonly IndexDoc[] {
  if (!options.tokenizer) return docs
  return options.boilerplate ? stripBoilerplate(docs.map(textOf), options.boilerplate) : docs.map(textOf)
}

/** Takes the boilerplate lines (found from the line keys the scan recorded) out of the counts. */
function dropBoilerplate(terms: DocTerms, docs: readonly IndexDoc[], options: DocTermsOptions): DocTerms {
  if (!terms.lines || options.tokenizer) return terms
  const lineOf = (d: number, start: number): string => lineOfDoc(docs[d] as IndexDoc, start)
  const flagged: string[] = []
  const flags = boilerplateFlags(docs.length, lineOf, terms.lines, terms.linePtr, options.boilerplate, flagged)
  if (flags) terms.nEnt = dropLines(flagged, terms.linePtr, flags, terms.dict, terms.docPtr, terms.entTerm, terms.entCount)
  return terms
}

/**
 * Takes the terms of the flagged (boilerplate) lines out of their documents' counts, then compacts the
 * entries (a term left with count 0 leaves its document). Each distinct line text is tokenized once.
 * `flagged`: the flagged lines' texts in line order (boilerplateFlags cut them out already, and their strings
 * keep their hash for the lookups here). Returns the new number of entries; docPtr is rewritten in place.
 */
function dropLines(
  flagged: readonly string[],
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
  let next = 0
  const n = docPtr.length - 1
  for (let d = 0; d < n; d++) {
    const last = docPtr[d + 1] as number
    let slotsSet = false
    for (let k = linePtr[d] as number; k < (linePtr[d + 1] as number); k++) {
      if (flags[k] !== 1) continue
      if (!slotsSet) {
        slotsSet = true
        for (let e = first; e < last; e++) slotOf[entTerm[e] as number] = e
      }
      const text = flagged[next++] as string
      let ids = termsOfLine.get(text)
      if (ids === undefined) {
        ids = []
        dict.pushTermIds(text, ids)
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
