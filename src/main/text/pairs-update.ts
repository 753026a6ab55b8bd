/**
 * The join's pairs brought up to date instead of found again, after some skills changed (an edit, a skill added or
 * retired). Pure.
 *
 * A row of the TF-IDF index is its document's terms with count × idf, normalised. Rows are recognised across builds
 * by a digest of their terms and counts (row-digest.ts), so a document whose text did not change finds its earlier
 * row whatever happened to the others. Its weights still move when an idf moves (a term now in more or fewer
 * documents, a corpus of another size), but by a bounded amount: with r = idf_before / idf_now per term, the unit
 * row moved by at most ε = 2·‖(u_t·(1 − r_t))‖ (u the row now), so a cosine moved by at most ε_a + ε_b.
 *
 * The kept pairs are complete at a level L below the plan's threshold (every pair at or above L is in the list).
 * After the update they are complete at L' = L + 2·max ε: a pair at or above L' now was at or above L before, so
 * it is in the earlier list, and its cosine is computed again (taken as it was when neither row moved). Rows whose
 * text is new or changed, and rows that moved more than a share of the margin, are compared with every row. When
 * that is more work than a budget, or L' would pass the threshold, the caller runs the whole join (at the lower
 * level again). The pairs are those the join finds, each score the same sum up to the order of its additions.
 */
import { appendPair, pairSink, type PairSink, type SimilarPairs } from './all-pairs'
import type { TfIdfIndex } from './tfidf'
import { smoothIdf } from './idf'

/** What an earlier join found, and what its index was made of. */
export interface EarlierJoin {
  /** Its documents and each term's document frequency then (for the idf each term had). */
  docs: number
  vocab: readonly string[]
  df: Uint32Array
  /** Its rows' digests (row-digest.ts, two numbers per row). */
  digests: Uint32Array
  /** Every pair with cosine ≥ level is in `pairs` (and only those). */
  level: number
  /** Its pairs (read when needed: undefined when they can no longer be had). */
  pairs(): SimilarPairs | undefined
}

export interface UpdateLimits {
  /** The plan's threshold: the new level must stay at or below it. */
  threshold: number
  /** A row that moved more than this is compared with every row instead of bounded. */
  maxDrift: number
  /** Posting entries the rows compared again may read (else undefined: run the join). */
  maxWork: number
}

export interface UpdatedPairs {
  pairs: SimilarPairs
  /** The level the pairs are complete at (≥ the earlier level, ≤ the threshold). */
  level: number
  /** Rows compared with every row (their text is new, or they moved more than maxDrift). */
  rejoined: number
  /** Kept pairs whose cosine was computed again (one of their rows moved). */
  rescored: number
}

// Rounding slack in the drift bound (never in a threshold test).
const DRIFT_EPS = 1e-12

/**
 * For each row of this index, the row of the earlier one with the same digest (-1: none), each earlier row
 * matched at most once (identical rows are interchangeable).
 */
export function matchRows(digests: Uint32Array, earlier: Uint32Array): Int32Array {
  const n = digests.length / 2
  const m = earlier.length / 2
  // Earlier rows by their first lane; rows sharing it are chained (duplicates, or a first-lane collision).
  const first = new Map<number, number>()
  const next = new Int32Array(m).fill(-1)
  for (let p = m - 1; p >= 0; p--) {
    const key = earlier[2 * p] as number
    const head = first.get(key)
    if (head !== undefined) next[p] = head
    first.set(key, p)
  }
  const used = new Uint8Array(m)
  const prevOf = new Int32Array(n).fill(-1)
  for (let d = 0; d < n; d++) {
    for (let p = first.get(digests[2 * d] as number) ?? -1; p >= 0; p = next[p] as number) {
      if (used[p] || earlier[2 * p + 1] !== digests[2 * d + 1]) continue
      used[p] = 1
      prevOf[d] = p
      break
    }
  }
  return prevOf
}

/** Per term of this index: (1 − idf_before / idf_now)², 0 where the idf is the same; -1 for a term new to it. */
function idfShifts(index: TfIdfIndex, earlier: EarlierJoin): Float64Array {
  const shift = new Float64Array(index.vocab.length).fill(-1)
  const n0 = earlier.docs
  earlier.vocab.forEach((term, k) => {
    const t = index.termIds.get(term)
    if (t === undefined) return
    const before = earlier.df[k] as number
    if (before === index.df[t] && n0 === index.docCount) {
      shift[t] = 0
      return
    }
    const r = smoothIdf(n0, before) / (index.idf[t] as number)
    shift[t] = (1 - r) * (1 - r)
  })
  return shift
}

/**
 * The pairs with cosine ≥ the new level for this index (its `rowDigests` built), from an earlier join; undefined
 * when the limits say the whole join is the better way.
 */
export function updatePairs(index: TfIdfIndex, earlier: EarlierJoin, limits: UpdateLimits): UpdatedPairs | undefined {
  const digests = index.rowDigests
  if (!digests) throw new Error('updatePairs needs an index built with rowDigests')
  const n = index.docCount
  const prevOf = matchRows(digests, earlier.digests)
  const shift = idfShifts(index, earlier)
  const { rowPtr, colIdx, values, postPtr, postDoc, postVal } = index
  // How far each row moved: only the terms whose idf moved count, read through their postings.
  const drift2 = new Float64Array(n)
  const fresh = new Uint8Array(n)
  for (let d = 0; d < n; d++) if ((prevOf[d] as number) < 0) fresh[d] = 1
  for (let t = 0; t < shift.length; t++) {
    const s = shift[t] as number
    if (s === 0) continue
    for (let p = postPtr[t] as number; p < (postPtr[t + 1] as number); p++) {
      const d = postDoc[p] as number
      // A term the earlier index did not have: the row cannot be the same text (its digest matched by chance).
      if (s < 0) fresh[d] = 1
      else drift2[d] = (drift2[d] as number) + (postVal[p] as number) * (postVal[p] as number) * s
    }
  }
  // Each row: compared again (2), moved within the bound (1), or the same weights as before (0).
  const state = new Uint8Array(n)
  const rejoin: number[] = []
  let maxKept = 0
  let work = 0
  for (let d = 0; d < n; d++) {
    const drift = 2 * Math.sqrt(drift2[d] as number) + DRIFT_EPS
    if (fresh[d] === 1 || drift > limits.maxDrift) {
      state[d] = 2
      rejoin.push(d)
      for (let q = rowPtr[d] as number; q < (rowPtr[d + 1] as number); q++) work += (postPtr[(colIdx[q] as number) + 1] as number) - (postPtr[colIdx[q] as number] as number)
      if (work > limits.maxWork) return undefined
    } else if ((drift2[d] as number) > 0) {
      state[d] = 1
      if (drift > maxKept) maxKept = drift
    }
  }
  const level = earlier.level + 2 * maxKept
  if (level > limits.threshold) return undefined
  const kept = keptPairs(index, earlier, prevOf, state, level)
  if (!kept) return undefined
  const { out, rescored } = kept
  // Each row compared again against every row (a pair of two such rows is found from the lower one).
  const acc = new Float64Array(n)
  const touched = new Uint32Array(n)
  for (const a of rejoin) {
    let count = 0
    for (let q = rowPtr[a] as number; q < (rowPtr[a + 1] as number); q++) {
      const t = colIdx[q] as number
      const w = values[q] as number
      for (let p = postPtr[t] as number; p < (postPtr[t + 1] as number); p++) {
        const j = postDoc[p] as number
        // Weights are positive: a sum still 0 is a document not met yet.
        if (acc[j] === 0) touched[count++] = j
        acc[j] = (acc[j] as number) + w * (postVal[p] as number)
      }
    }
    for (let k = 0; k < count; k++) {
      const j = touched[k] as number
      const s = acc[j] as number
      acc[j] = 0
      if (j === a || (state[j] === 2 && j < a) || !(s >= level)) continue
      appendPair(out, a < j ? a : j, a < j ? j : a, s < 1 ? s : 1)
    }
  }
  return { pairs: sortedPairs(n, out), level, rejoined: rejoin.length, rescored }
}

/**
 * The earlier pairs between rows still here and not compared again (state < 2): as they were, or computed again when
 * one of the two moved (state 1); those at or above the level. Undefined when the earlier pairs cannot be had. Its
 * own function so that the earlier pairs can go once they are read.
 */
function keptPairs(index: TfIdfIndex, earlier: EarlierJoin, prevOf: Int32Array, state: Uint8Array, level: number): { out: PairSink; rescored: number } | undefined {
  const earlierPairs = earlier.pairs()
  if (!earlierPairs) return undefined
  const n = index.docCount
  const m = earlier.docs
  const { rowPtr, colIdx, values } = index
  const out = pairSink(earlierPairs.count + 1024)
  let rescored = 0
  // The earlier pairs between rows still here and not compared again: as they were, or computed again when one moved.
  const curOf = new Int32Array(m).fill(-1)
  for (let d = 0; d < n; d++) if ((prevOf[d] as number) >= 0 && state[d] !== 2) curOf[prevOf[d] as number] = d
  const dense = new Float64Array(index.vocab.length)
  let denseRow = -1
  const { a: ea, b: eb, score: es } = earlierPairs
  for (let k = 0; k < earlierPairs.count; k++) {
    const x = curOf[ea[k] as number] as number
    const y = curOf[eb[k] as number] as number
    if (x < 0 || y < 0) continue
    let s = es[k] as number
    if (state[x] === 1 || state[y] === 1) {
      // Pairs come grouped by their first row: its weights are spread once per group.
      if (denseRow !== x) {
        if (denseRow >= 0) for (let q = rowPtr[denseRow] as number; q < (rowPtr[denseRow + 1] as number); q++) dense[colIdx[q] as number] = 0
        for (let q = rowPtr[x] as number; q < (rowPtr[x + 1] as number); q++) dense[colIdx[q] as number] = values[q] as number
        denseRow = x
      }
      let dot = 0
      const end = rowPtr[y + 1] as number
      for (let q = rowPtr[y] as number; q < end; q++) dot += (dense[colIdx[q] as number] as number) * (values[q] as number)
      s = dot < 1 ? dot : 1
      rescored++
    }
    if (s >= level) appendPair(out, x < y ? x : y, x < y ? y : x, s)
  }
  return { out, rescored }
}

/** The pairs with score ≥ threshold (the same order). */
export function pairsAtLeast(pairs: SimilarPairs, threshold: number): SimilarPairs {
  let count = 0
  for (let k = 0; k < pairs.count; k++) if ((pairs.score[k] as number) >= threshold) count++
  if (count === pairs.count) return pairs
  const a = new Uint32Array(count)
  const b = new Uint32Array(count)
  const score = new Float64Array(count)
  let out = 0
  for (let k = 0; k < pairs.count; k++) {
    if (!((pairs.score[k] as number) >= threshold)) continue
    a[out] = pairs.a[k] as number
    b[out] = pairs.b[k] as number
    score[out++] = pairs.score[k] as number
  }
  return { count, a, b, score, ...(pairs.frequentDf !== undefined ? { frequentDf: pairs.frequentDf } : {}) }
}

/** The pairs in ascending (a, b) order, as the join gives them: a counting sort by a, then each run by b. */
function sortedPairs(n: number, list: PairSink): SimilarPairs {
  const { a, b, s, n: count } = list
  const start = new Uint32Array(n + 1)
  for (let k = 0; k < count; k++) start[(a[k] as number) + 1] = (start[(a[k] as number) + 1] as number) + 1
  for (let i = 0; i < n; i++) start[i + 1] = (start[i + 1] as number) + (start[i] as number)
  const fill = start.slice(0, n)
  const outA = new Uint32Array(count)
  const outB = new Uint32Array(count)
  const outS = new Float64Array(count)
  for (let k = 0; k < count; k++) {
    const at = fill[a[k] as number] as number
    outA[at] = a[k] as number
    outB[at] = b[k] as number
    outS[at] = s[k] as number
    fill[a[k] as number] = at + 1
  }
  // Within one row: insertion sort by b (runs are short and mostly in order already).
  for (let i = 0; i < n; i++) {
    for (let x = (start[i] as number) + 1; x < (start[i + 1] as number); x++) {
      const bx = outB[x] as number
      const sx = outS[x] as number
      let y = x - 1
      for (; y >= (start[i] as number) && (outB[y] as number) > bx; y--) {
        outB[y + 1] = outB[y] as number
        outS[y + 1] = outS[y] as number
      }
      outB[y + 1] = bx
      outS[y + 1] = sx
    }
  }
  return { count, a: outA, b: outB, score: outS }
}
