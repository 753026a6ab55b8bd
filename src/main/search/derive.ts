/**
 * The ranking arrays of the search index (document frequencies, idf, row norms, postings), built from term counts.
 * Pure. One build for both cases: a cold index (every document's terms in hand) and an index where a few documents
 * changed (the unchanged ones' counts taken from the previous postings, so no forward index is needed). The result
 * depends only on the documents' term counts and the term ids, never on the path that built it: every sum runs in
 * term-id order, so over one vocabulary an incremental build equals a full one bit for bit.
 */
import { firstAtOrAfter } from '../text/sorted-ids'
import { smoothIdf } from '../text/idf'


/** The ranking arrays over one list of documents (doc ids = positions in that list). */
export interface Derived {
  active: number
  idf: Float64Array
  df: Uint32Array
  norm: Float64Array
  postPtr: Uint32Array
  postDoc: Uint32Array
  /** Raw term counts; a posting's weight is count × idf / norm (computed by the query for its own terms only). */
  postCount: Uint32Array
}

/** A document as the build sees it: active (ranked) or not, and its terms when they are not in `prev`. */
export interface DeriveDoc {
  active: boolean
  /** This document's id in `prev` (unchanged since), or -1: then `terms`/`counts` are given. */
  prevId: number
  terms?: Uint32Array
  counts?: Uint32Array
}

/** The new documents' entries bucketed by term (each bucket in ascending document id). */
interface FreshPostings {
  ptr: Uint32Array
  doc: Uint32Array
  count: Uint32Array
}

function freshPostings(docs: readonly DeriveDoc[], v: number): FreshPostings {
  const ptr = new Uint32Array(v + 1)
  for (const d of docs) if (d.prevId < 0) for (const t of d.terms!) ptr[t + 1]!++
  for (let t = 0; t < v; t++) ptr[t + 1]! += ptr[t]!
  const doc = new Uint32Array(ptr[v]!)
  const count = new Uint32Array(ptr[v]!)
  const at = ptr.slice(0, v)
  docs.forEach((d, i) => {
    if (d.prevId >= 0) return
    const terms = d.terms!
    const counts = d.counts!
    for (let k = 0; k < terms.length; k++) {
      const slot = at[terms[k]!]!++
      doc[slot] = i
      count[slot] = counts[k]!
    }
  })
  return { ptr, doc, count }
}

/**
 * The postings: per term, the kept entries of `prev` (moved to their new ids) merged with the new documents'
 * entries, in ascending document id. Written term after term, so the pointers come out of the one pass.
 */
function mergePostings(prev: Derived | null, moved: Int32Array, fresh: FreshPostings, v: number): { postPtr: Uint32Array; postDoc: Uint32Array; postCount: Uint32Array } {
  const prevPtr = prev?.postPtr ?? new Uint32Array(1)
  const prevDoc = prev?.postDoc ?? new Uint32Array(0)
  const prevCount = prev?.postCount ?? new Uint32Array(0)
  const prevV = prevPtr.length - 1
  const { ptr: fPtr, doc: fDoc, count: fCount } = fresh
  const cap = prevDoc.length + fDoc.length
  const postPtr = new Uint32Array(v + 1)
  const postDoc = new Uint32Array(cap)
  const postCount = new Uint32Array(cap)
  // Files edited in place (the usual change): every kept document stays at its id. A term's postings are then
  // the previous ones with the dropped documents' entries taken out and the new entries put in: block copies
  // between those few places instead of an entry-by-entry merge.
  const dropped = inPlaceDrops(moved)
  let out = 0
  for (let t = 0; t < v; t++) {
    let f = fPtr[t]!
    const fEnd = fPtr[t + 1]!
    if (dropped && t < prevV) {
      let q = prevPtr[t]!
      const qEnd = prevPtr[t + 1]!
      let k = 0
      for (;;) {
        const fresh = f < fEnd ? fDoc[f]! : -1
        const drop = k < dropped.length ? dropped[k]! : -1
        if (fresh < 0 && drop < 0) break
        const stop = fresh < 0 ? drop : drop < 0 ? fresh : Math.min(fresh, drop)
        const at = firstAtOrAfter(prevDoc, q, qEnd, stop)
        postDoc.set(prevDoc.subarray(q, at), out)
        postCount.set(prevCount.subarray(q, at), out)
        out += at - q
        q = at
        // An entry at `stop` is a dropped document's (a kept document never has a new one's id): left out.
        if (q < qEnd && prevDoc[q] === stop) q++
        if (drop === stop) k++
        if (fresh === stop) {
          postDoc[out] = stop
          postCount[out++] = fCount[f++]!
        }
      }
      postDoc.set(prevDoc.subarray(q, qEnd), out)
      postCount.set(prevCount.subarray(q, qEnd), out)
      out += qEnd - q
      postPtr[t + 1] = out
      continue
    }
    if (t < prevV) {
      const qEnd = prevPtr[t + 1]!
      for (let q = prevPtr[t]!; q < qEnd; q++) {
        const from = prevDoc[q]!
        const to = moved[from]!
        if (to < 0) continue
        while (f < fEnd && fDoc[f]! < to) {
          postDoc[out] = fDoc[f]!
          postCount[out++] = fCount[f++]!
        }
        postDoc[out] = to
        postCount[out++] = prevCount[q]!
      }
    }
    while (f < fEnd) {
      postDoc[out] = fDoc[f]!
      postCount[out++] = fCount[f++]!
    }
    postPtr[t + 1] = out
  }
  return { postPtr, postDoc: postDoc.subarray(0, out), postCount: postCount.subarray(0, out) }
}

/**
 * The dropped previous documents, sorted, when every kept one stays at its id (null otherwise, or when more than a
 * few are dropped: each costs a binary search per term).
 */
function inPlaceDrops(moved: Int32Array): Uint32Array | null {
  const dropped: number[] = []
  for (let i = 0; i < moved.length; i++) {
    const to = moved[i]!
    if (to === i) continue
    if (to >= 0 || dropped.length === 8) return null
    dropped.push(i)
  }
  return Uint32Array.from(dropped)
}

/** Row norms, summed in term-id order (the same order whichever way the postings were built). */
function rowNorms(n: number, postPtr: Uint32Array, postDoc: Uint32Array, postCount: Uint32Array, idf: Float64Array): Float64Array {
  const sq = new Float64Array(n)
  const v = idf.length
  for (let t = 0; t < v; t++) {
    const f = idf[t]!
    const qEnd = postPtr[t + 1]!
    for (let q = postPtr[t]!; q < qEnd; q++) {
      const w = postCount[q]! * f
      const d = postDoc[q]!
      sq[d] = sq[d]! + w * w
    }
  }
  for (let i = 0; i < n; i++) sq[i] = Math.sqrt(sq[i]!)
  return sq
}

/**
 * Builds the ranking arrays for `docs` over a vocabulary of `vocabSize` terms. Documents with `prevId >= 0` take
 * their counts from `prev`'s postings (null `prev`: every document must carry its terms).
 */
export function deriveRanking(docs: readonly DeriveDoc[], vocabSize: number, prev: Derived | null): Derived {
  const n = docs.length
  const v = vocabSize
  // Where each previous document went (-1: changed or gone).
  const moved = new Int32Array(prev ? prev.norm.length : 0).fill(-1)
  let active = 0
  for (let i = 0; i < n; i++) {
    const d = docs[i]!
    if (d.active) active++
    if (d.prevId >= 0) moved[d.prevId] = i
  }
  const { postPtr, postDoc, postCount } = mergePostings(prev, moved, freshPostings(docs, v), v)
  // Only active documents carry terms, so a term's postings are its document frequency.
  const df = new Uint32Array(v)
  const idf = new Float64Array(v)
  for (let t = 0; t < v; t++) {
    df[t] = postPtr[t + 1]! - postPtr[t]!
    idf[t] = smoothIdf(active, df[t]!)
  }
  return { active, idf, df, norm: rowNorms(n, postPtr, postDoc, postCount, idf), postPtr, postDoc, postCount }
}
