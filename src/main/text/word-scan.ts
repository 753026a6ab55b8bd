/**
 * The index builder's scan of document texts: each document's distinct words with their counts, found by
 * hashing character codes (no string per token), plus the pieces that need the general tokenizer and, on
 * request, every line's boilerplate key.
 *
 * - A plain ASCII word (`[A-Z]?[a-z]+` or digits) is looked up, lowercased, in an open-addressing table of the
 *   words seen so far and counted by its local word id. The caller turns each distinct word into its term
 *   once (stop words, stemming: see tokenize.ts).
 * - Anything else goes to `slow` as a piece of text for `tokenize` itself: a CamelCase or letter–digit run, or
 *   a whole line with non-ASCII text. Tokens never cross a line break, so this gives exactly tokenize's terms.
 * - Line keys fold the hashes of a line's word runs, as boilerplate.ts's `lineKey` defines them; a line
 *   left to the general tokenizer gets SLOW_LINE (the caller computes its key from the text).
 *
 * `scanDocs` and `createWordScan` are self-contained on purpose — no closures, no module references — because
 * their source text is also what a worker thread runs (so there is no separate worker file to bundle).
 */
import type { IndexDoc } from './index-doc'

/** Key placeholder for a line the caller must key itself (never a real key: those are odd, or 0). */
export const SLOW_LINE = 2

export interface WordScan {
  /**
   * Word table: slot s is slots[4s..4s+3] = [word id (-1 = empty), hash (30 bits; bit 30 set when the word is longer
   * than 8 characters), the word's first four characters packed one per byte, its next four (0 past its end)]. A
   * word of up to 8 characters is matched on the slot alone, without reading the pool (another cache line): the scan
   * is ~12% faster at 20,000 skills. 16 bytes a slot, four to a cache line: the table of a large library's ~60,000
   * words (2 MB) stays in the cache more often than at 32 bytes.
   */
  mask: number
  slots: Int32Array
  /** Lowercase character codes of the distinct words. */
  pool: Uint8Array
  poolEnd: number
  /** Word id w is pool[wordAt[2w], wordAt[2w] + wordAt[2w+1]). */
  wordAt: Uint32Array
  words: number
  /** Document d (of the scanned range, from 0) has entries [docPtr[d], docPtr[d+1]): distinct words, counts. */
  docPtr: Uint32Array
  entWord: Uint32Array
  entCount: Uint32Array
  nEnt: number
  /** Per word id: its count in the current document (all zero between documents). */
  countOf: Uint32Array
  /** Pieces for the general tokenizer, 4 numbers each: document, part, start, end. */
  slow: Uint32Array
  nSlow: number
  /** With line keys: line k of the range has key lineKey[k] and starts at lineStart[k] of its document's text. */
  withLines: boolean
  lineKey: Int32Array
  lineStart: Uint32Array
  nLines: number
  /** Document d's lines are [linePtr[d], linePtr[d+1]). */
  linePtr: Uint32Array
}

/** An empty scan for `docCount` documents; `chars` (their total length) sizes the arrays. */
export function createWordScan(docCount: number, chars: number, withLines: boolean): WordScan {
  const entries = Math.max(1024, Math.ceil(chars / 8))
  const lineCap = withLines ? Math.max(1024, Math.ceil(chars / 32) + docCount) : 0
  return {
    mask: 4095,
    slots: new Int32Array(4 * 4096).fill(-1),
    pool: new Uint8Array(1 << 16),
    poolEnd: 0,
    wordAt: new Uint32Array(2 * 4096),
    words: 0,
    docPtr: new Uint32Array(docCount + 1),
    entWord: new Uint32Array(entries),
    entCount: new Uint32Array(entries),
    nEnt: 0,
    countOf: new Uint32Array(4096),
    slow: new Uint32Array(1024),
    nSlow: 0,
    withLines,
    lineKey: new Int32Array(lineCap),
    lineStart: new Uint32Array(lineCap),
    nLines: 0,
    linePtr: new Uint32Array(withLines ? docCount + 1 : 0)
  }
}

/** Scans docs[first, first + count) into `s` (whose document d is docs[first + d]). */
export function scanDocs(s: WordScan, docs: readonly IndexDoc[], first: number, count: number): void {
  // FNV-1a (as boilerplate.ts): local constants, so this source runs anywhere.
  const OFFSET = 0x811c9dc5
  const PRIME = 0x01000193
  const SLOW = 2

  function grow32<T extends Int32Array | Uint32Array>(a: T, need: number): T {
    if (need <= a.length) return a
    const next = new (a.constructor as new (n: number) => T)(Math.max(need, a.length * 2))
    next.set(a)
    return next
  }
  function addSlow(d: number, part: number, start: number, end: number): void {
    if (s.nSlow * 4 + 4 > s.slow.length) s.slow = grow32(s.slow, s.nSlow * 4 + 4)
    const at = s.nSlow++ * 4
    s.slow[at] = d
    s.slow[at + 1] = part
    s.slow[at + 2] = start
    s.slow[at + 3] = end
  }
  function addLine(key: number, start: number): void {
    if (s.nLines === s.lineKey.length) {
      s.lineKey = grow32(s.lineKey, s.nLines + 1)
      s.lineStart = grow32(s.lineStart, s.nLines + 1)
    }
    s.lineKey[s.nLines] = key
    s.lineStart[s.nLines++] = start
  }
  function growTable(): void {
    const old = s.slots
    const size = (s.mask + 1) * 2
    s.mask = size - 1
    s.slots = new Int32Array(4 * size).fill(-1)
    for (let at = 0; at < old.length; at += 4) {
      if ((old[at] as number) < 0) continue
      let slot = (old[at + 1] as number) & s.mask
      while ((s.slots[4 * slot] as number) >= 0) slot = (slot + 1) & s.mask
      s.slots.set(old.subarray(at, at + 4), 4 * slot)
    }
  }
  /**
   * Local id of the word text[start, end) (lowercased), added when new. `h`: the word's hash cut to 30 bits, so
   * it passes as a small integer (a full 32-bit one would be boxed on the heap at every call). `head` and `next`:
   * its first four and next four lowercase characters packed one per byte (0 past its end).
   */
  function wordId(text: string, start: number, end: number, h: number, head: number, next: number): number {
    const n = end - start
    const slots = s.slots
    // The hash with the "longer than 8" bit: two words of up to 8 characters are equal when their packed characters are.
    const key = n > 8 ? h | 0x40000000 : h
    let slot = h & s.mask
    for (;;) {
      const at = 4 * slot
      const id = slots[at] as number
      if (id < 0) break
      if (slots[at + 1] === key && slots[at + 2] === head && slots[at + 3] === next) {
        if (n <= 8) return id
        // the first 8 characters matched packed: the length and the rest from the pool
        if (s.wordAt[2 * id + 1] === n) {
          const pool = s.pool
          const off = s.wordAt[2 * id] as number
          let k = 8
          while (k < n && pool[off + k] === (text.charCodeAt(start + k) | 0x20)) k++
          if (k >= n) return id
        }
      }
      slot = (slot + 1) & s.mask
    }
    const id = s.words++
    if (s.poolEnd + n > s.pool.length) {
      const next = new Uint8Array(Math.max(s.pool.length * 2, s.poolEnd + n))
      next.set(s.pool)
      s.pool = next
    }
    for (let k = 0; k < n; k++) s.pool[s.poolEnd + k] = text.charCodeAt(start + k) | 0x20
    if (2 * id + 2 > s.wordAt.length) s.wordAt = grow32(s.wordAt, 2 * id + 2)
    s.wordAt[2 * id] = s.poolEnd
    s.wordAt[2 * id + 1] = n
    if (id >= s.countOf.length) s.countOf = grow32(s.countOf, id + 1)
    const at = 4 * slot
    slots[at] = id
    slots[at + 1] = key
    slots[at + 2] = head
    slots[at + 3] = next
    s.poolEnd += n
    if (s.words * 2 > s.mask) growTable()
    return id
  }

  // The current document's word ids, in a reused typed array (a plain array emptied per document is
  // reallocated as it grows again: garbage for every document).
  let docWords = new Uint32Array(1024)
  for (let d = 0; d < count; d++) {
    const doc = docs[first + d] as string | readonly string[]
    const parts: readonly string[] = typeof doc === 'string' ? [doc] : doc
    let nWords = 0
    let offset = 0
    for (let part = 0; part < parts.length; part++) {
      const text = parts[part] as string
      const len = text.length
      let lineStart = 0
      let key = OFFSET
      let words = false
      let slowLine = false
      let lineWords = nWords
      let lineSlow = s.nSlow
      let i = 0
      while (i < len) {
        let c = text.charCodeAt(i)
        if (c === 10) {
          if (s.withLines) addLine(slowLine ? SLOW : words ? key | 1 : 0, lineStart + offset)
          lineStart = ++i
          key = OFFSET
          words = false
          slowLine = false
          lineWords = nWords
          lineSlow = s.nSlow
          continue
        }
        if (c >= 128) {
          // Non-ASCII somewhere in this line: the whole line goes to the general tokenizer.
          nWords = lineWords
          s.nSlow = lineSlow
          let end = text.indexOf('\n', i)
          if (end < 0) end = len
          addSlow(d, part, lineStart, end)
          slowLine = true
          i = end
          continue
        }
        const lower = c | 0x20
        const isLetter = lower >= 97 && lower <= 122
        if (!isLetter && !(c >= 48 && c <= 57)) {
          i++
          continue
        }
        // A run of [A-Za-z0-9]: simple when it is [A-Z]?[a-z]+ or [0-9]+, hashed as lowercase on the way.
        const start = i
        const digits = !isLetter
        let simple = true
        let h = Math.imul(OFFSET ^ lower, PRIME)
        // the first eight lowercase characters packed, as wordId matches them
        let head = lower
        let next = 0
        i++
        for (; i < len; i++) {
          c = text.charCodeAt(i)
          if (c >= 97 && c <= 122) {
            if (digits) simple = false
          } else if (c >= 48 && c <= 57) {
            if (!digits) simple = false
          } else if (c >= 65 && c <= 90) simple = false
          else break
          const lc = c | 0x20
          h = Math.imul(h ^ lc, PRIME)
          const k = i - start
          if (k < 4) head |= lc << (8 * k)
          else if (k < 8) next |= lc << (8 * (k - 4))
        }
        if (i < len && c >= 128) continue // the word goes on in another script: the line is redone above
        key = Math.imul(key ^ h, PRIME)
        words = true
        if (simple) {
          if (nWords === docWords.length) docWords = grow32(docWords, nWords + 1)
          docWords[nWords++] = wordId(text, start, i, h & 0x3fffffff, head, next)
        }
        else addSlow(d, part, start, i)
      }
      if (s.withLines) addLine(slowLine ? SLOW : words ? key | 1 : 0, lineStart + offset)
      offset += len + 1
    }
    // The document's distinct words and their counts, in first-seen order.
    if (s.nEnt + nWords > s.entWord.length) {
      s.entWord = grow32(s.entWord, s.nEnt + nWords)
      s.entCount = grow32(s.entCount, s.entWord.length)
    }
    const countOf = s.countOf
    const from = s.nEnt
    for (let k = 0; k < nWords; k++) {
      const w = docWords[k] as number
      if (countOf[w] === 0) s.entWord[s.nEnt++] = w
      countOf[w] = (countOf[w] as number) + 1
    }
    for (let e = from; e < s.nEnt; e++) {
      const w = s.entWord[e] as number
      s.entCount[e] = countOf[w] as number
      countOf[w] = 0
    }
    s.docPtr[d + 1] = s.nEnt
    if (s.withLines) s.linePtr[d + 1] = s.nLines
  }
}

/** Source text of a worker that scans the documents it is given and posts its WordScan back (arrays transferred). */
export function wordScanWorkerSource(): string {
  // __name: the helper some TypeScript loaders (tsx) wrap inner functions with to keep their names.
  return `
const { parentPort, workerData } = require('node:worker_threads')
const __name = (fn) => fn
const createWordScan = ${createWordScan.toString()}
const scanDocs = ${scanDocs.toString()}
const { docs, chars, withLines } = workerData
const s = createWordScan(docs.length, chars, withLines)
scanDocs(s, docs, 0, docs.length)
const arrays = [s.slots, s.pool, s.wordAt, s.docPtr, s.entWord, s.entCount, s.countOf, s.slow, s.lineKey, s.lineStart, s.linePtr]
parentPort.postMessage(s, arrays.map((a) => a.buffer))
`
}
