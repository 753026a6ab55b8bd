/**
 * The persistent search index of one library: for every skill file its stat key (size, mtime, inode, ctime), what
 * a listing shows of it, and its term counts; plus the TF-IDF arrays derived from them. It is brought up to date
 * from the files on every use — a file whose stat changed is read again — so an answer is never stale, and it is
 * saved in the user's cache folder (never in the library) so the next process starts warm.
 *
 * Ranking is `query_skill`'s: raw term counts × smooth idf over the active skills, L2-normalised rows, cosine with
 * the query, ties to the earlier path, the best match returned even at score 0.
 */
import { lowerBound } from '../../shared/sorted'
import { smoothIdf } from '../text/idf'
import type { LoadError, Skill } from '../../shared/types'
import { CACHED_REASONS_VERSION, CACHED_SKILLS_VERSION, reasonFromCache } from '../../shared/coded-reason'
import type { Candidate, LibraryWalk } from '../store/walk'
import { isRegularFile, KEY_CTIME, KEY_INO, KEY_MTIME, KEY_SIZE, lstatKey } from '../store/stat-key'
import { skillFileAt } from '../store/walk'
import { TermDictionary, tokenize, TOKENIZER_VERSION } from '../text/tokenize'
import { encodeIndex, IndexFile } from './codec'
import type { DeltaDoc, IndexDelta } from './delta'
import { deriveRanking, type Derived } from './derive'
import { readDocs, readSkills, type ReadBatch, type ReadDoc } from './read-docs'
import { readDocsInParallel } from './read-parallel'
import type { ListedSkill } from './skill-text'

export { indexedText, listedSkill, type ListedSkill } from './skill-text'

/** One skill file as the index knows it: as read (read-docs.ts), or still in the saved index file. */
interface IndexedDoc extends Omit<ReadDoc, 'json' | 'preview'> {
  /** Undefined: still only in the open saved file, at `baseRow` (see listingInFile), or kept as `previewBytes`. */
  preview?: string
  /** The same text as the saved file holds it (UTF-8): decoded only when a caller reads previews. */
  previewBytes?: Buffer
  /** ok: the ListedSkill as JSON; else why the file does not load (its words and code, or an older file's words). Undefined: still in the saved file, or kept as `jsonBytes`. */
  json?: string
  /** The same text as the saved file holds it (UTF-8, a view of the file's section): decoded only when listed, written back as is. */
  jsonBytes?: Buffer
  /** Term ids and counts (active skills only), for documents read in this process or from a delta; the others' are in the postings. */
  terms?: Uint32Array
  counts?: Uint32Array
  /** Row in the saved base index this document is unchanged from (-1: read since; it belongs in a delta). */
  baseRow: number
}

/** Documents changed since the saved index beyond which the whole index is written again rather than a delta. */
export const MAX_DELTA_DOCS = 256

/** Query terms looked up by a scan of the vocabulary before a map of it is built (a map of 400,000 words: ~100 ms). */
const SCANNED_TERM_LOOKUPS = 64

/**
 * Whether a document's listing text and preview are still only in the open saved file (at its `baseRow`): a
 * document loaded from the file until they are read; every document read or taken from a delta carries them.
 */
function listingInFile(d: IndexedDoc): boolean {
  return d.preview === undefined && d.previewBytes === undefined
}

/** The load error of a document that does not load, from its saved reason (with its code; words only in older files). */
function loadErrorFromCache(rel: string, text: string): LoadError {
  const why = reasonFromCache(text)
  const e: LoadError = { path: rel, reason: why.reason, kind: 'unreadable' }
  if (why.messageCode) {
    e.messageCode = why.messageCode
    e.params = why.params
  }
  return e
}

/** A document's listing text, decoded from the saved bytes the first time it is needed. */
function jsonText(d: IndexedDoc): string {
  d.json ??= d.jsonBytes!.toString('utf8')
  return d.json
}

/** A document's preview, decoded from the saved bytes the first time it is needed. */
function previewText(d: IndexedDoc): string {
  d.preview ??= d.previewBytes!.toString('utf8')
  return d.preview
}

/** A listed skill's preview as text (a listing hands it over as the saved bytes when it has not been decoded). */
export function listedPreview(s: Pick<ListedText, 'preview'>): string {
  return typeof s.preview === 'string' ? s.preview : s.preview.toString('utf8')
}

/** A listed skill as JSON text (a `ListedSkill`), with what is needed to place it without parsing. */
export interface ListedText {
  skill_id: string
  path: string
  legacy: boolean
  /** The JSON text, or its UTF-8 bytes as saved (printed as they are, decoded only to be parsed). */
  json: string | Buffer
  /** The start of the body as one line (what a list row shows), or its UTF-8 bytes as saved (see listedPreview). */
  preview: string | Buffer
}

/** A listed skill parsed. */
export function parseListed(s: ListedText): ListedSkill {
  return JSON.parse(typeof s.json === 'string' ? s.json : s.json.toString('utf8')) as ListedSkill
}

export interface SearchHit {
  /** Library-relative path of the skill file. */
  path: string
  skillId: string
  score: number
}

function sameStat(d: IndexedDoc, key: Float64Array): boolean {
  return d.size === key[KEY_SIZE] && d.mtimeMs === key[KEY_MTIME] && d.ino === key[KEY_INO] && d.ctimeMs === key[KEY_CTIME]
}

export class SearchIndex {
  private docs: IndexedDoc[] = []
  /** The saved file the documents were loaded from; their listing text and terms are read from it when needed. */
  private file: IndexFile | null = null
  private vocab: string[] = []
  private termIds: Map<string, number> | null = null
  /** Query terms looked up by scanning the vocabulary (before a map of it is built). */
  private termsScanned = 0
  private dict: TermDictionary | null = null
  /** The ranking arrays, and the document list they were built over (when that is not `docs`, they are rebuilt from it). */
  private derived: Derived | null = null
  private derivedDocs: IndexedDoc[] | null = null
  /** The saved ranking arrays are read at their first use (`deferSavedRanking`). */
  private rankingDeferred = false
  /** The saved index the documents with `baseRow >= 0` are unchanged from (and how many words its vocabulary had). */
  private base: { nonce: string; paths: string[]; vocab: number } | null = null
  /** Changed since it was loaded or saved. */
  dirty = false

  constructor(readonly root: string) {}

  get size(): number {
    return this.docs.length
  }

  // ---- keeping it current ----------------------------------------------------------------------

  /**
   * Brings the index in line with a walk of the library: one lstat per file, and a read (parse, tokenize) of
   * each file that is new or whose stat changed — on worker threads too when there are many (a cold build).
   * Returns how many documents changed (added, changed, removed).
   */
  async sync(walk: LibraryWalk): Promise<number> {
    // Both lists are sorted by path: walked side by side.
    const docs = this.docs
    const kept: (IndexedDoc | null)[] = []
    const toRead: Candidate[] = []
    const key = new Float64Array(5)
    let j = 0
    let gone = 0
    for (const c of walk.candidates) {
      while (j < docs.length && docs[j]!.rel < c.rel) {
        j++
        gone++
      }
      const old = j < docs.length && docs[j]!.rel === c.rel ? docs[j++] : undefined
      if (old && lstatKey(c.abs, key) && sameStat(old, key)) {
        kept.push(old)
        continue
      }
      kept.push(null)
      toRead.push(c)
    }
    const changed = toRead.length + gone + (docs.length - j)
    if (changed === 0) return 0
    // Each batch is taken in as it comes: this thread's own while the workers still read theirs.
    const read: IndexedDoc[] = []
    await readDocsInParallel(toRead, { onBatch: (batch) => this.adoptInto(batch, read), dict: this.dictionary() })
    let r = 0
    this.replaceDocs(kept.map((d) => d ?? read[r++]!))
    return changed
  }

  /** Documents from read batches (in their order), their terms mapped into this index's vocabulary. */
  private adopt(batches: ReadBatch[]): IndexedDoc[] {
    const out: IndexedDoc[] = []
    for (const b of batches) this.adoptInto(b, out)
    return out
  }

  /** Appends a read batch's documents to `out`, their terms mapped into this index's vocabulary. */
  private adoptInto(b: ReadBatch, out: IndexedDoc[]): void {
    const dict = this.dictionary()
    // A batch read with this dictionary has its ids already.
    const global = b.terms === dict.terms ? null : Uint32Array.from(b.terms, (t) => dict.idOf(t))
    b.docs.forEach((d, k) => {
      const from = b.ptr[k]!
      const to = b.ptr[k + 1]!
      const terms = global ? new Uint32Array(to - from) : b.ids.slice(from, to)
      if (global) for (let e = from; e < to; e++) terms[e - from] = global[b.ids[e]!]!
      out.push({ ...d, baseRow: -1, terms, counts: b.counts.slice(from, to) })
    })
    this.vocab = dict.terms
    this.termIds = null
  }

  /** The vocabulary as a dictionary new terms are added to (it only grows: ids in the postings keep their meaning). */
  private dictionary(): TermDictionary {
    if (!this.dict) {
      this.dict = new TermDictionary()
      for (const t of this.vocab) this.dict.idOf(t)
    }
    return this.dict
  }

  /**
   * Reloads the files at these library paths (written by some process, as the ledger or a file notification says);
   * returns how many were re-read or removed. Each is read again even when its stat looks unchanged: a rewrite of
   * the same size within the filesystem's timestamp tick leaves size, mtime and ctime as they were.
   */
  refreshPaths(rels: readonly string[]): number {
    let changed = 0
    const docs = [...this.docs]
    const key = new Float64Array(5)
    for (const rel of rels) {
      const kind = skillFileAt(rel)
      if (!kind) continue
      const at = this.position(docs, rel)
      const here = docs[at]?.rel === rel
      if (!lstatKey(`${this.root}/${rel}`, key) || !isRegularFile(key)) {
        if (here) {
          docs.splice(at, 1)
          changed++
        }
        continue
      }
      const doc = this.adopt([readDocs([{ abs: `${this.root}/${rel}`, rel, ...kind }])])[0]!
      if (here) docs[at] = doc
      else docs.splice(at, 0, doc)
      changed++
    }
    if (changed > 0) this.replaceDocs(docs)
    return changed
  }

  private position(docs: IndexedDoc[], rel: string): number {
    return lowerBound(docs, rel, (d) => d.rel)
  }

  private replaceDocs(docs: IndexedDoc[]): void {
    // The ranking arrays stay: the next query rebuilds them from these and the changed documents' terms.
    this.docs = docs
    this.dirty = true
  }

  /** Reads the listing texts of the documents that came from the saved file, then lets it go. */
  private loadListings(): void {
    const file = this.file
    if (!file) return
    let jsonPtr: Uint32Array, json: Buffer, previews: Buffer, previewEnd: Uint32Array
    try {
      jsonPtr = file.u32('jsonPtr')
      json = file.buffer('json')
      // Kept as bytes, split at the line breaks (a UTF-8 line break byte is never part of another character): a
      // listing printed as JSON never decodes them.
      previews = file.buffer('previews')
      const rows = jsonPtr.length - 1
      previewEnd = new Uint32Array(rows)
      let at = 0
      for (let r = 0; r < rows; r++) {
        const end = previews.indexOf(10, at)
        // Every row but the last ends at a line break; the last at the end of the section, with none inside.
        if (r < rows - 1 ? end < 0 : end >= 0) throw new Error('damaged')
        previewEnd[r] = end < 0 ? previews.length : end
        at = end + 1
      }
      if (rows !== file.header.docs || jsonPtr[rows] !== json.length) throw new Error('damaged')
      for (let r = 0; r < rows; r++) if (jsonPtr[r]! > jsonPtr[r + 1]!) throw new Error('damaged')
    } catch {
      // A damaged saved index costs a re-read of those files, never a wrong answer; the whole index is written again.
      this.closeFile()
      const damaged = this.docs.filter(listingInFile)
      const again = readDocs(damaged.map((d) => ({ abs: `${this.root}/${d.rel}`, rel: d.rel, format: skillFileAt(d.rel)?.format ?? 'agiagent', legacy: d.legacy })))
      damaged.forEach((d, i) => {
        d.json = again.docs[i]!.json
        d.preview = again.docs[i]!.preview
      })
      this.base = null
      this.dirty = true
      return
    }
    for (const d of this.docs) {
      if (!listingInFile(d)) continue
      d.jsonBytes = json.subarray(jsonPtr[d.baseRow]!, jsonPtr[d.baseRow + 1]!)
      d.previewBytes = previews.subarray(d.baseRow === 0 ? 0 : previewEnd[d.baseRow - 1]! + 1, previewEnd[d.baseRow]!)
    }
    this.closeFile()
  }

  /** Closes the saved file (everything needed from it is in memory). */
  closeFile(): void {
    this.file?.close()
    this.file = null
  }

  // ---- ranking ------------------------------------------------------------------------------

  /**
   * df, idf, row norms and the postings (doc ids ascending) of the current documents: the saved or last arrays
   * when the documents are the same, else rebuilt from them and the changed documents' own terms.
   */
  private ensureDerived(): Derived {
    if (this.rankingDeferred) {
      this.rankingDeferred = false
      // The documents' own terms are not in memory: without the saved arrays nothing can be derived.
      if (!this.loadSavedRanking()) throw new Error('the saved search index has damaged ranking arrays')
    }
    if (this.derived && this.derivedDocs === this.docs) return this.derived
    const prevId = new Map<IndexedDoc, number>()
    this.derivedDocs?.forEach((d, i) => prevId.set(d, i))
    this.derived = deriveRanking(
      this.docs.map((d) => ({ active: d.ok && !d.legacy, prevId: prevId.get(d) ?? -1, terms: d.terms, counts: d.counts })),
      this.vocab.length,
      this.derived
    )
    this.derivedDocs = this.docs
    return this.derived
  }

  private idOfTerm(term: string): number | undefined {
    // The dictionary a build or an update used holds the vocabulary already (its ids are the vocabulary's).
    if (this.dict) return this.dict.find(term)
    if (!this.termIds) {
      // A process that answers one query looks a few terms up: a scan of the vocabulary for each costs far less than
      // a map of its hundreds of thousands of words. A daemon, after a few queries, builds the map.
      if (this.termsScanned < SCANNED_TERM_LOOKUPS) {
        this.termsScanned++
        const id = this.vocab.indexOf(term)
        return id < 0 ? undefined : id
      }
      this.termIds = new Map()
      this.vocab.forEach((t, i) => this.termIds!.set(t, i))
    }
    return this.termIds.get(term)
  }

  /** Number of active skills (those a query can return). */
  get activeCount(): number {
    return this.ensureDerived().active
  }

  /**
   * The `top` active skills most similar to `text`, best first (ties: the earlier path). As upstream, the best
   * match is always returned, even at score 0; [] only when there is no active skill.
   */
  query(text: string, top: number): SearchHit[] {
    const { idf, norm, postPtr, postDoc, postCount, active } = this.ensureDerived()
    if (active === 0 || !(top > 0)) return []
    const counts = new Map<number, number>()
    for (const term of tokenize(text)) {
      const id = this.idOfTerm(term)
      if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1)
    }
    const ids = Uint32Array.from(counts.keys()).sort()
    const weights = new Float64Array(ids.length)
    let qn = 0
    ids.forEach((t, i) => {
      const w = counts.get(t)! * idf[t]!
      weights[i] = w
      qn += w * w
    })
    qn = Math.sqrt(qn)
    const scores = new Float64Array(this.docs.length)
    const touched: number[] = []
    for (let i = 0; i < ids.length; i++) {
      const t = ids[i]!
      const w = qn > 0 ? weights[i]! / qn : weights[i]!
      const f = idf[t]!
      for (let q = postPtr[t]!; q < postPtr[t + 1]!; q++) {
        const d = postDoc[q]!
        if (scores[d] === 0) touched.push(d)
        // The document's weight of this term: count × idf, over its row norm.
        const dw = postCount[q]! * f
        scores[d] = scores[d]! + w * (norm[d]! > 0 ? dw / norm[d]! : dw)
      }
    }
    const best: { doc: number; score: number }[] = []
    for (const d of touched) {
      const s = Math.min(1, scores[d]!)
      if (!(s > 0)) continue
      if (best.length === top) {
        const last = best[best.length - 1]!
        if (s < last.score || (s === last.score && d > last.doc)) continue
      }
      let i = best.length
      while (i > 0 && best[i - 1]!.score < s) i--
      while (i > 0 && best[i - 1]!.score === s && best[i - 1]!.doc > d) i--
      best.splice(i, 0, { doc: d, score: s })
      if (best.length > top) best.pop()
    }
    if (best.length === 0) {
      const first = this.docs.findIndex((d) => d.ok && !d.legacy)
      best.push({ doc: first, score: 0 })
    }
    return best.map((b) => ({ path: this.docs[b.doc]!.rel, skillId: this.docs[b.doc]!.id, score: b.score }))
  }

  // ---- listing ------------------------------------------------------------------------------

  /**
   * What a listing of the library shows, from the index alone: every skill (everything but its body) and every
   * file that does not load, in path order; with `duplicates`, the active ids two files share.
   */
  listing(includeLegacy: boolean): { skills: ListedSkill[]; errors: LoadError[] } {
    const { skills, errors } = this.listingTexts(includeLegacy)
    return { skills: skills.map(parseListed), errors }
  }

  /** The same listing with each skill still as its saved JSON text (a caller that only prints it parses nothing). */
  listingTexts(includeLegacy: boolean): { skills: ListedText[]; errors: LoadError[] } {
    this.loadListings()
    const skills: ListedText[] = []
    const errors: LoadError[] = []
    for (const d of this.docs) {
      if (!d.ok) errors.push(loadErrorFromCache(d.rel, jsonText(d)))
      else if (includeLegacy || !d.legacy) skills.push({ skill_id: d.id, path: d.rel, legacy: d.legacy, json: d.json ?? d.jsonBytes!, preview: d.preview ?? d.previewBytes! })
    }
    return { skills, errors }
  }

  /** The path of the skill with this id (active preferred), as the index knows it. */
  pathOf(id: string): string | undefined {
    let legacy: string | undefined
    for (const d of this.docs) {
      if (!d.ok || d.id !== id) continue
      if (!d.legacy) return d.rel
      legacy ??= d.rel
    }
    return legacy
  }

  // ---- persistence --------------------------------------------------------------------------

  /** The whole index as a file, named by `nonce` (a delta written later names the index it applies to). */
  toBuffer(nonce: string): Buffer {
    this.loadListings()
    const docs = this.docs
    const n = docs.length
    const stat = new Float64Array(n * 4)
    const flags = new Uint8Array(n)
    docs.forEach((d, i) => {
      const o = i * 4
      stat[o] = d.size
      stat[o + 1] = d.mtimeMs
      stat[o + 2] = d.ino
      stat[o + 3] = d.ctimeMs
      flags[i] = (d.ok ? 1 : 0) | (d.legacy ? 2 : 0)
    })
    const der = this.ensureDerived()
    const text = (parts: string[]): Uint8Array => Buffer.from(parts.join('\n'), 'utf8')
    const json = docs.map((d) => d.jsonBytes ?? Buffer.from(d.json!, 'utf8'))
    const jsonPtr = new Uint32Array(n + 1)
    json.forEach((b, i) => (jsonPtr[i + 1] = jsonPtr[i]! + b.length))
    return encodeIndex(
      { tokenizer: TOKENIZER_VERSION, reasons: CACHED_REASONS_VERSION, root: this.root, docs: n, vocab: this.vocab.length, nnz: der.postDoc.length, derived: true, nonce },
      {
        paths: text(docs.map((d) => d.rel)),
        ids: text(docs.map((d) => d.id)),
        stat,
        flags,
        jsonPtr,
        json: Buffer.concat(json),
        // One line each: a preview's whitespace is collapsed to spaces.
        previews: text(docs.map(previewText)),
        vocab: text(this.vocab),
        df: der.df,
        norm: der.norm,
        postPtr: der.postPtr,
        postDoc: der.postDoc,
        postCount: der.postCount
      }
    )
  }

  /** The saved index this one is a delta away from (null: none, or it must be written whole). */
  get baseNonce(): string | null {
    return this.base?.nonce ?? null
  }

  /** Records that the whole index was saved under `nonce`: every document is now unchanged from it. */
  markSaved(nonce: string): void {
    this.base = { nonce, paths: this.docs.map((d) => d.rel), vocab: this.vocab.length }
    this.docs.forEach((d, i) => (d.baseRow = i))
    this.dirty = false
  }

  /**
   * What changed since the saved index, with the ranking arrays over the documents as they are now; null when
   * there is no saved index or too much has changed for a delta.
   */
  deltaSinceBase(): { delta: IndexDelta; ranking: Derived; docs: number; vocab: number } | null {
    if (!this.base) return null
    const changed = this.docs.filter((d) => d.baseRow < 0)
    if (changed.length > MAX_DELTA_DOCS || changed.some((d) => !d.terms)) return null
    const present = new Uint8Array(this.base.paths.length)
    for (const d of this.docs) if (d.baseRow >= 0) present[d.baseRow] = 1
    // A path read again is replaced by its new document, not gone.
    const reread = new Set(changed.map((d) => d.rel))
    const gone: string[] = []
    present.forEach((p, row) => {
      const rel = this.base!.paths[row]!
      if (!p && !reread.has(rel)) gone.push(rel)
    })
    if (gone.length > MAX_DELTA_DOCS) return null
    const docs: DeltaDoc[] = changed.map((d) => ({
      rel: d.rel,
      size: d.size,
      mtimeMs: d.mtimeMs,
      ino: d.ino,
      ctimeMs: d.ctimeMs,
      ok: d.ok,
      legacy: d.legacy,
      id: d.id,
      json: jsonText(d),
      preview: previewText(d),
      terms: Array.from(d.terms!, (t) => this.vocab[t]!),
      counts: Array.from(d.counts!)
    }))
    const delta = { base: this.base.nonce, root: this.root, tokenizer: TOKENIZER_VERSION, reasons: CACHED_REASONS_VERSION, vocab: this.vocab.slice(this.base.vocab), gone, docs }
    return { delta, ranking: this.ensureDerived(), docs: this.docs.length, vocab: this.vocab.length }
  }

  /**
   * Applies a delta written for this saved index (right after loading it): its words join the vocabulary, its
   * documents replace or join the saved ones, its gone paths leave; its ranking arrays (from `file`) are used when
   * they fit the result ('ranked'), else they are rebuilt at the first query ('applied'). False (and nothing
   * changed) when the delta does not belong to this index or does not fit it.
   */
  applyDelta(delta: IndexDelta, file: IndexFile | null): 'ranked' | 'applied' | false {
    // A delta of another reasons version is passed over: its documents are read again (see fromFile).
    if (!this.base || delta.base !== this.base.nonce || delta.root !== this.root || delta.tokenizer !== TOKENIZER_VERSION || delta.reasons !== CACHED_REASONS_VERSION) return false
    if (this.vocab.length !== this.base.vocab) return false
    const gone = new Set(delta.gone)
    const byRel = new Map(delta.docs.map((d) => [d.rel, d]))
    if (byRel.size !== delta.docs.length || delta.docs.some((d) => gone.has(d.rel) || !skillFileAt(d.rel))) return false
    const docs: IndexedDoc[] = []
    for (const d of this.docs) if (!gone.has(d.rel) && !byRel.has(d.rel)) docs.push(d)
    if (docs.length + gone.size + byRel.size < this.docs.length) return false
    // The added words first, in the writer's order: the saved arrays' term ids mean the same here.
    const dict = new TermDictionary()
    for (const t of this.vocab) dict.idOf(t)
    for (const t of delta.vocab) dict.idOf(t)
    if (dict.terms.length !== this.vocab.length + delta.vocab.length) return false
    for (const d of delta.docs) {
      const terms = Uint32Array.from(d.terms, (t) => dict.idOf(t))
      const doc: IndexedDoc = { rel: d.rel, size: d.size, mtimeMs: d.mtimeMs, ino: d.ino, ctimeMs: d.ctimeMs, ok: d.ok, legacy: d.legacy, id: d.id, json: d.json, preview: d.preview, baseRow: -1, terms, counts: Uint32Array.from(d.counts) }
      docs.splice(this.position(docs, d.rel), 0, doc)
    }
    this.dict = dict
    this.vocab = dict.terms
    this.termIds = null
    this.docs = docs
    const ranking = file ? readRanking(file, docs) : null
    if (!ranking) return 'applied'
    this.derived = ranking
    this.derivedDocs = docs
    return 'ranked'
  }

  /**
   * Leaves the saved ranking arrays in the file until something ranks, counts or saves (a listing never does). A
   * damaged section then makes that step throw (saving catches it; the next full load rebuilds the index).
   */
  deferSavedRanking(): void {
    if (this.file && !this.derived) this.rankingDeferred = true
  }

  /** Reads the saved index's ranking arrays (over its own documents); false when they are damaged. */
  loadSavedRanking(): boolean {
    const base = this.derivedDocs
    const ranking = this.file && base ? readRanking(this.file, base) : null
    if (!ranking) return false
    this.derived = ranking
    return true
  }

  /**
   * An index over skills already in memory, in their order (ties go to the earlier one): the same ranking with
   * no library folder behind it — a store's listing ranked as it is (a fake store, a reflection that must see the
   * skills it just wrote). It only ranks: it has no files to list, keep current or save.
   */
  static ofSkills(skills: readonly Skill[]): SearchIndex {
    const index = new SearchIndex('')
    index.docs = index.adopt([readSkills(skills)])
    return index
  }

  /**
   * The index saved in `file` without its ranking arrays (`loadSavedRanking`, or a delta's), or null when it is
   * not a usable index of this root (another tokenizer or codec version, another library, a damaged file). Listing
   * texts are read from the same open file when first needed. Every array read is checked against the others.
   */
  static fromFile(path: string, root: string): SearchIndex | null {
    const file = IndexFile.open(path)
    if (!file) return null
    const h = file.header
    try {
      if (h.tokenizer !== TOKENIZER_VERSION || h.root !== root || !h.derived || typeof h.nonce !== 'string') throw new Error('not usable here')
      const n = h.docs
      const v = h.vocab
      const paths = n > 0 ? file.text('paths').split('\n') : []
      const ids = n > 0 ? file.text('ids').split('\n') : []
      const vocab = v > 0 ? file.text('vocab').split('\n') : []
      const stat = file.f64('stat')
      const flags = file.bytes('flags')
      if (paths.length !== n || ids.length !== n || vocab.length !== v || stat.length !== n * 4 || flags.length !== n) throw new Error('damaged')
      const index = new SearchIndex(root)
      for (let i = 0; i < n; i++) {
        if (i > 0 && !(paths[i - 1]! < paths[i]!)) throw new Error('damaged')
        const ok = (flags[i]! & 1) === 1
        const legacy = (flags[i]! & 2) === 2
        index.docs.push({ rel: paths[i]!, size: stat[i * 4]!, mtimeMs: stat[i * 4 + 1]!, ino: stat[i * 4 + 2]!, ctimeMs: stat[i * 4 + 3]!, ok, legacy, id: ids[i]!, baseRow: i })
      }
      // Reasons saved under another version (an older build's words) are read again: their files' keys match nothing.
      // Before version 3 a loaded skill's saved JSON had no `load_warnings`, before 5 a front matter holding a second
      // YAML document loaded without what followed it: every file is read again once (CACHED_SKILLS_VERSION).
      if (h.reasons !== CACHED_REASONS_VERSION) for (const d of index.docs) if (!d.ok || !(h.reasons! >= CACHED_SKILLS_VERSION)) d.mtimeMs = NaN
      index.vocab = vocab
      index.derivedDocs = index.docs
      index.base = { nonce: h.nonce, paths, vocab: v }
      index.file = file
      return index
    } catch {
      file.close()
      return null
    }
  }
}

/**
 * The ranking arrays saved in `file` (an index or a delta) for these documents, or null when they do not fit them
 * (other counts, a damaged section, ids out of range).
 */
function readRanking(file: IndexFile, docs: readonly IndexedDoc[]): Derived | null {
  const h = file.header
  const n = docs.length
  const v = h.vocab
  try {
    if (h.docs !== n) return null
    const der = { df: file.u32('df'), norm: file.f64('norm'), postPtr: file.u32('postPtr'), postDoc: file.u32('postDoc'), postCount: file.u32('postCount') }
    if (der.df.length !== v || der.norm.length !== n || der.postPtr.length !== v + 1 || der.postPtr[v] !== h.nnz || der.postDoc.length !== h.nnz || der.postCount.length !== h.nnz) return null
    for (let t = 0; t < v; t++) if (der.postPtr[t]! > der.postPtr[t + 1]! || der.df[t] !== der.postPtr[t + 1]! - der.postPtr[t]!) return null
    for (let k = 0; k < der.postDoc.length; k++) if (der.postDoc[k]! >= n || der.postCount[k]! < 1) return null
    let active = 0
    for (const d of docs) if (d.ok && !d.legacy) active++
    const idf = new Float64Array(v)
    for (let t = 0; t < v; t++) idf[t] = smoothIdf(active, der.df[t]!)
    return { active, idf, ...der }
  } catch {
    return null
  }
}
