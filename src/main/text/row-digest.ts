/**
 * Digests of an index's rows by what they are made of — each term (as text) with its count — independent of the
 * order of the entries and of term ids, idf and norms, so a document whose terms and counts did not change gets the
 * same digest in another build of the index. Two 32-bit lanes make 64 bits: each term's text is hashed (murmur3's
 * mixing, two seeds), and a row sums its terms' hashes times their counts. Pure.
 */

const C1 = 0xcc9e2d51
const C2 = 0x1b873593
const SEED_A = 0x9747b28c
const SEED_B = 0x2f3a81d5

function mixWord(h: number, k: number): number {
  k = Math.imul(k, C1)
  k = (k << 15) | (k >>> 17)
  k = Math.imul(k, C2)
  h ^= k
  h = (h << 13) | (h >>> 19)
  return (Math.imul(h, 5) + 0xe6546b64) | 0
}

function finish(h: number, words: number): number {
  h ^= words
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** Two 32-bit hashes of each term's UTF-16 code units (term t: [2t], [2t+1]). */
export function termHashes(terms: readonly string[]): Uint32Array {
  const out = new Uint32Array(2 * terms.length)
  for (let t = 0; t < terms.length; t++) {
    const s = terms[t] as string
    let a = SEED_A
    let b = SEED_B
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i)
      a = mixWord(a, c)
      b = mixWord(b, c ^ 0x5bd1e995)
    }
    out[2 * t] = finish(a, s.length)
    out[2 * t + 1] = finish(b, s.length)
  }
  return out
}

/**
 * Each document's digest (document d: [2d], [2d+1]) from its entries — those of document d are [docPtr[d],
 * docPtr[d+1]): term id and count — over the terms the index keeps (`kept[id] >= 0`; `terms[id]` the text): per lane
 * the sum of count × the term's hash, mod 2³². Two rows with other terms or counts agree in a lane with odds of
 * about 2⁻³¹ (for hashes that look random), in both with about 2⁻⁶²; a multiplication and an addition per entry.
 */
export function digestRows(docPtr: Uint32Array, entTerm: Uint32Array, entCount: Uint32Array, terms: readonly string[], kept: Int32Array): Uint32Array {
  // Read as signed: int32 values stay integers in optimised code (uint32 ones above 2³¹ would become doubles).
  const hashes = new Int32Array(termHashes(terms).buffer)
  // A dropped term hashes to 0: it adds nothing.
  for (let id = 0; id < terms.length; id++) if ((kept[id] as number) < 0) hashes[2 * id] = hashes[2 * id + 1] = 0
  const n = docPtr.length - 1
  const out = new Int32Array(2 * n)
  for (let d = 0; d < n; d++) {
    let a = 0
    let b = 0
    const end = docPtr[d + 1] as number
    for (let e = docPtr[d] as number; e < end; e++) {
      const id = 2 * (entTerm[e] as number)
      const c = entCount[e] as number
      a = (a + Math.imul(hashes[id] as number, c)) | 0
      b = (b + Math.imul(hashes[id + 1] as number, c)) | 0
    }
    out[2 * d] = a
    out[2 * d + 1] = b
  }
  return new Uint32Array(out.buffer)
}
