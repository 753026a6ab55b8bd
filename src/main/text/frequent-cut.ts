/**
 * The all-pairs join's frequent-term cut-off (all-pairs.ts): which document frequency makes a term "frequent",
 * chosen per corpus by estimating the join's work at each candidate. It decides how fast the join is, never its pairs.
 */
import type { TfIdfIndex } from './tfidf'
import { firstAtOrAfter } from './sorted-ids'

/** Rows sampled to estimate the verification work of each cut-off. */
const SAMPLE_ROWS = 64

/** Slack for floating-point rounding in bound checks, here and in the join (never in its final threshold test). */
export const BOUND_EPS = 1e-9

/** Index of the first posting of term t at or after document d (postings are sorted by doc). */
function postingAtOrAfter(index: TfIdfIndex, t: number, d: number): number {
  return firstAtOrAfter(index.postDoc, index.postPtr[t] as number, index.postPtr[t + 1] as number, d)
}

/** Each document's frequent part at each candidate cut c: its L2 norm squared and its length. */
export interface FrequentParts {
  norm2: Float64Array[]
  len: Uint32Array[]
}

/**
 * The cut indexes' bands: band[t] is the highest cut index c at which term t is rare (df ≤ cuts[c]; cuts descend,
 * so t is rare at cuts[0..c]), -1 when it is never rare.
 */
export function bandsOf(df: Uint32Array, cuts: readonly number[]): Int8Array {
  const band = new Int8Array(df.length).fill(-1)
  for (let t = 0; t < df.length; t++) {
    const f = df[t] as number
    let b = -1
    while (b + 1 < cuts.length && f <= (cuts[b + 1] as number)) b++
    band[t] = b
  }
  return band
}

/**
 * Each document's frequent part at every cut: a band-b term is frequent at every cut index above b. Each band's
 * weights are summed in row order, then the bands from the commonest up, so both ways below give the same bits.
 * When term ids follow document frequency (termOrder 'df'), a row's bands are runs, rarest first: each run is
 * summed in a register and the rarest band (never frequent) is skipped; otherwise each entry's band is looked up.
 */
export function frequentParts(index: TfIdfIndex, band: Int8Array, k: number, byRuns = dfAscending(index.df)): FrequentParts {
  const n = index.docCount
  const { rowPtr, colIdx, values } = index
  const norm2 = Array.from({ length: k }, () => new Float64Array(n))
  const len = Array.from({ length: k }, () => new Uint32Array(n))
  // slot = band + 1: slot 0 holds the never-rare terms, slot k the rarest (rare at every cut, so never frequent).
  const slotW2 = new Float64Array(k + 1)
  const slotLen = new Uint32Array(k + 1)
  // By runs: terms [slotEnd[s + 1], slotEnd[s]) have slot s (slots fall as ids rise).
  const slotEnd = new Uint32Array(k + 2)
  if (byRuns) {
    const v = band.length
    slotEnd[0] = v
    let t = v
    for (let s = 0; s <= k; s++) {
      while (t > 0 && (band[t - 1] as number) + 1 <= s) t--
      slotEnd[s + 1] = t
    }
  }
  for (let d = 0; d < n; d++) {
    slotW2.fill(0)
    slotLen.fill(0)
    const r1 = rowPtr[d + 1] as number
    if (byRuns) {
      // Skip the rarest slot's run, then sum each run in row order.
      let q = firstAtOrAfter(colIdx, rowPtr[d] as number, r1, slotEnd[k] as number)
      let s = k - 1
      while (q < r1) {
        const t = colIdx[q] as number
        while (t >= (slotEnd[s] as number)) s--
        const end = slotEnd[s] as number
        let w2 = 0
        const q0 = q
        for (; q < r1 && (colIdx[q] as number) < end; q++) w2 += (values[q] as number) * (values[q] as number)
        slotW2[s] = w2
        slotLen[s] = q - q0
      }
    } else {
      for (let q = rowPtr[d] as number; q < r1; q++) {
        const slot = (band[colIdx[q] as number] as number) + 1
        slotW2[slot] = (slotW2[slot] as number) + (values[q] as number) * (values[q] as number)
        slotLen[slot] = (slotLen[slot] as number) + 1
      }
    }
    let w2 = 0
    let l = 0
    for (let c = 0; c < k; c++) {
      w2 += slotW2[c] as number
      l += slotLen[c] as number
      ;(norm2[c] as Float64Array)[d] = w2
      ;(len[c] as Uint32Array)[d] = l
    }
  }
  return { norm2, len }
}

/** Whether term ids follow document frequency (an index built with termOrder 'df'). */
export function dfAscending(df: Uint32Array): boolean {
  for (let t = 1; t < df.length; t++) if ((df[t - 1] as number) > (df[t] as number)) return false
  return true
}

/**
 * Picks the frequent-term cut-off (df) that minimises the join's estimated work. Candidates halve from
 * N/8 down to 4. Accumulating rare postings costs exactly Σ df(df−1)/2 over rare terms; verifying a pair
 * (rare part + ‖xᵢᶠ‖‖xⱼᶠ‖ ≥ θ) costs one frequent row. That verification count falls off a cliff once
 * the frequent norms alone reach θ, so it is measured, not guessed: on evenly spread sample rows, the rare
 * parts of every candidate cut are accumulated at once (one band of terms per cut) and the pairs passing
 * each cut's bound are counted, weighted by their frequent-row length.
 */
export function chooseFrequentDf(index: TfIdfIndex, threshold: number): number {
  const n = index.docCount
  const v = index.vocab.length
  const { rowPtr, colIdx, values, postPtr, postDoc, postVal } = index
  const cuts: number[] = []
  for (let c = Math.floor(n / 8); c >= 4; c = Math.floor(c / 2)) cuts.push(c)
  let fullCost = 0
  for (let t = 0; t < v; t++) fullCost += ((index.df[t] as number) * ((index.df[t] as number) - 1)) / 2
  const k = cuts.length
  if (k === 0) return Number.MAX_SAFE_INTEGER
  const band = bandsOf(index.df, cuts)
  const accCost = new Float64Array(k)
  for (let t = 0; t < v; t++) {
    const df = index.df[t] as number
    // t is rare for every cut index ≤ its band
    for (let c = 0; c <= (band[t] as number); c++) accCost[c] = (accCost[c] as number) + (df * (df - 1)) / 2
  }
  // Frequent norms and row lengths per cut (terms with df > cuts[c] are frequent at cut c).
  const { norm2: freqNorm, len: freqLen } = frequentParts(index, band, k)
  for (const a of freqNorm) for (let d = 0; d < n; d++) a[d] = Math.sqrt(a[d] as number)

  // Verification work on the sample rows: acc[b] holds row i's dot products through band-b terms only.
  const acc = Array.from({ length: k }, () => new Float64Array(n))
  const running = new Float64Array(n)
  const verify = new Float64Array(k)
  const samples = Math.min(n, SAMPLE_ROWS)
  for (let s = 0; s < samples; s++) {
    const i = Math.min(n - 1, Math.floor(((s + 0.5) * n) / samples))
    for (let q = rowPtr[i] as number; q < (rowPtr[i + 1] as number); q++) {
      const t = colIdx[q] as number
      const b = band[t] as number
      if (b < 0) continue
      const w = values[q] as number
      const into = acc[b] as Float64Array
      for (let p = postingAtOrAfter(index, t, i + 1); p < (postPtr[t + 1] as number); p++) {
        const j = postDoc[p] as number
        into[j] = (into[j] as number) + w * (postVal[p] as number)
      }
    }
    running.fill(0)
    for (let c = k - 1; c >= 0; c--) {
      // Rare at cut c = bands c..k-1 (df ≤ cuts[c]).
      const add = acc[c] as Float64Array
      const norms = freqNorm[c] as Float64Array
      const lens = freqLen[c] as Uint32Array
      const bi = norms[i] as number
      let work = 0
      for (let j = i + 1; j < n; j++) {
        const r = (running[j] as number) + (add[j] as number)
        running[j] = r
        if (r + bi * (norms[j] as number) >= threshold - BOUND_EPS) work += lens[j] as number
      }
      verify[c] = (verify[c] as number) + work
      add.fill(0)
    }
  }
  let bestCut = Number.MAX_SAFE_INTEGER
  let bestCost = fullCost
  for (let c = 0; c < k; c++) {
    const cost = (accCost[c] as number) + ((verify[c] as number) * n) / samples
    if (cost < bestCost) {
      bestCost = cost
      bestCut = cuts[c] as number
    }
  }
  return bestCut
}

/**
 * Below this many documents the cut is not estimated: the estimate costs 100–150 ms of CPU on its first call in a
 * process (its loops run before they are optimised), while the join of a few thousand skills runs on its worker
 * behind this thread's own work and finishes in time at any sensible cut (alternated at 3,000: main thread
 * −74/−120 ms on the zipf and bilingual shapes, docs/BENCH.md).
 */
export const ESTIMATED_CUT_MIN_DOCS = 5000

/** The frequent-term cut-off the join uses: n/16 (at least 4) for a small corpus, else chooseFrequentDf's estimate. */
export function frequentDfFor(index: TfIdfIndex, threshold: number): number {
  if (index.docCount < ESTIMATED_CUT_MIN_DOCS) return Math.max(4, Math.floor(index.docCount / 16))
  return chooseFrequentDf(index, threshold)
}
