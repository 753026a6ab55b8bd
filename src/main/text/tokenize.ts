/**
 * Tokenizer for mixed Chinese/English skill text, shared by curation and `query_skill`.
 *
 * - Only CJK runs (cut to ≤256 chars: Intl.Segmenter is super-linear on long strings) are segmented.
 * - CJK runs go through Intl.Segmenter('zh') word segmentation, plus a bigram wherever two single
 *   characters stand side by side, for recall on compounds it splits (组/件 → 组件).
 * - Other text: CamelCase / letter-digit / snake_case splitting, lowercase, Porter stemming for ASCII words;
 *   mixed letter-digit identifiers that splitting would destroy (l2s, v0, gpt4o, utf8) are kept whole as well.
 * - English and Chinese stop words are dropped, as are 1-character non-CJK tokens.
 * `TermDictionary` gives the same terms as ids without a string per token (the index builder's fast path).
 */
import PorterStemmer from 'natural/lib/natural/stemmers/porter_stemmer.js'
import { words as englishStopWords } from 'natural/lib/natural/util/stopwords.js'
import { words as chineseStopWords } from 'natural/lib/natural/util/stopwords_zh.js'
import { lineKey, type LineKeys } from './boilerplate'

const CJK_CLASS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}'
/** Splits a line into alternating non-CJK / CJK pieces (the capture keeps the CJK runs). */
const CJK_SPLIT = new RegExp(`([${CJK_CLASS}]+)`, 'u')
/** Maximal runs of letters/marks/digits (underscore and punctuation separate words). */
const WORD_RUN = /[\p{L}\p{M}\p{N}]+/gu
/** Pieces of a word: ACRONYM before a Capitalised part, Capitalised/lower parts, upper runs, digits, other scripts. */
const WORD_PART = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+|[\p{L}\p{M}]+/gu
const ASCII_WORD = /^[a-z]+$/
const CJK_TEST = new RegExp(`[${CJK_CLASS}]`, 'u')

/** Extra English words that carry no topic in skill text (on top of natural's list). */
const EXTRA_ENGLISH = ['will', 'use', 'using', 'used', 'just', 'etc', 'e.g', 'i.e', 'via', 'per', 'not', 'no', 'yes', 'it\'s']
/** Extra Chinese function words (natural's list only has single characters). */
const EXTRA_CHINESE = [
  '我们', '你们', '他们', '它们', '这个', '那个', '这些', '那些', '一个', '以及', '如果', '因为', '所以', '但是',
  '然后', '或者', '并且', '而且', '就是', '还是', '已经', '其中', '可以', '需要', '进行', '通过', '的话', '它',
]
const STOP_WORDS: ReadonlySet<string> = new Set([...englishStopWords, ...EXTRA_ENGLISH, ...chineseStopWords, ...EXTRA_CHINESE])
/** A bigram containing one of these particles is noise (排序的 → 序的). */
const BIGRAM_BREAKERS: ReadonlySet<string> = new Set([...'的地得了着是在和与及或把被也都就又很吗呢吧啊'])

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' })

// Porter stemming is regex-heavy and words repeat a lot across a corpus: cache each lowercase word's
// outcome (its stem, or '' when it is dropped) so most words cost one Map lookup. Bounded.
const WORD_CACHE_LIMIT = 200_000
const wordCache = new Map<string, string>()

function normaliseWord(word: string): string {
  if (word.length < 2 || STOP_WORDS.has(word)) return ''
  return ASCII_WORD.test(word) ? PorterStemmer.stem(word) : word
}

function pushWord(word: string, out: string[]): void {
  let term = wordCache.get(word)
  if (term === undefined) {
    term = normaliseWord(word)
    if (wordCache.size >= WORD_CACHE_LIMIT) wordCache.clear()
    wordCache.set(word, term)
  }
  if (term !== '') out.push(term)
}

/** ASCII-only twins of WORD_RUN / WORD_PART: same result on ASCII text, several times faster. */
const ASCII_RUN = /[A-Za-z0-9]+/g
const ASCII_PART = /[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+/g
const NON_ASCII = /[^ -~\t\n\r\f\v]/
const NEEDS_SPLIT = /[A-Z0-9]/
const DIGIT_START = /^\p{N}/u
const CAPITALISED = /^\p{Lu}\p{Ll}/u

/**
 * Pushes the parts of one word (CamelCase / letter–digit pieces, lowercased). A mixed letter–digit
 * identifier whose split would lose a one-character piece (l2s, v0, gpt4o, utf8, x86) is also kept whole,
 * since its pieces alone say little; letter→digit always joins, digit→letter joins unless a Capitalised
 * word starts there (HTTP2Server → http2 + server, base64Encoder keeps base / 64 / encoder).
 */
function pushParts(parts: readonly string[], out: string[]): void {
  let group = ''
  let groupParts = 0
  let groupShort = false
  let prevDigit = false
  for (const part of parts) {
    const digit = DIGIT_START.test(part)
    const lower = part.toLowerCase()
    const joins = groupParts > 0 && (prevDigit ? !digit && !CAPITALISED.test(part) : digit)
    if (!joins) {
      if (groupParts > 1 && groupShort) pushWord(group, out)
      group = ''
      groupParts = 0
      groupShort = false
    }
    pushWord(lower, out)
    group += lower
    groupParts++
    if (part.length < 2) groupShort = true
    prevDigit = digit
  }
  if (groupParts > 1 && groupShort) pushWord(group, out)
}

/** Terms of one ASCII word ([A-Za-z0-9]+). */
function pushAsciiWord(word: string, out: string[]): void {
  if (!NEEDS_SPLIT.test(word)) pushWord(word, out)
  else pushParts(word.match(ASCII_PART) ?? [], out)
}

function pushAscii(piece: string, out: string[]): void {
  const runs = piece.match(ASCII_RUN)
  if (runs === null) return
  for (const word of runs) pushAsciiWord(word, out)
}

function pushLatin(piece: string, out: string[]): void {
  if (!NON_ASCII.test(piece)) {
    pushAscii(piece, out)
    return
  }
  // match() with /g returns plain strings: much cheaper than matchAll's match objects.
  const runs = piece.match(WORD_RUN)
  if (runs === null) return
  for (const word of runs) {
    // Fast path: plain lowercase ASCII words (most of any text) need no CamelCase splitting.
    if (ASCII_WORD.test(word)) pushWord(word, out)
    else pushParts(word.match(WORD_PART) ?? [], out)
  }
}

/** Longest CJK run given to the segmenter at once: Intl.Segmenter is super-linear on long strings. */
const MAX_SEGMENT_CHARS = 256

function pushCjk(run: string, out: string[]): void {
  // Bigrams only join two adjacent single-character segments: that is where the segmenter broke a
  // compound it does not know (组/件 → 组件). Bigrams across real word boundaries (排序|算法 → 序算) are noise.
  let prev: string | null = null
  let prevEnd = -1
  for (const seg of segmenter.segment(run)) {
    if (!seg.isWordLike) {
      prev = null
      continue
    }
    const word = seg.segment.toLowerCase()
    if (!STOP_WORDS.has(word)) out.push(word)
    const single = word.length === 1 || (word.length === 2 && word.codePointAt(0)! > 0xffff)
    if (single && prev !== null && prevEnd === seg.index && !BIGRAM_BREAKERS.has(prev) && !BIGRAM_BREAKERS.has(word)) {
      const bigram = prev + word
      if (!STOP_WORDS.has(bigram)) out.push(bigram)
    }
    prev = single ? word : null
    prevEnd = seg.index + seg.segment.length
  }
}

/** Splits text into normalised index terms (lowercase, stemmed English, segmented Chinese + bigrams, no stop words). */
export function tokenize(text: string): string[] {
  const out: string[] = []
  if (!CJK_TEST.test(text)) {
    pushLatin(text, out)
    return out
  }
  // split() with one capture group alternates: even = non-CJK, odd = CJK run. Runs end at any
  // punctuation, space or Latin letter, so they are short; very long ones are cut into pieces.
  const pieces = text.split(CJK_SPLIT)
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] as string
    if (piece.length === 0) continue
    if (i % 2 === 0) pushLatin(piece, out)
    else {
      for (let p = 0; p < piece.length; ) {
        let end = Math.min(piece.length, p + MAX_SEGMENT_CHARS)
        // Never cut a surrogate pair (CJK extension characters are outside the BMP).
        if (end < piece.length && /[\uD800-\uDBFF]/.test(piece.charAt(end - 1))) end--
        pushCjk(piece.slice(p, end), out)
        p = end
      }
    }
  }
  return out
}

/** A growable list of term ids (reused across documents to avoid allocations). */
export class TermIdBuffer {
  ids = new Uint32Array(1024)
  length = 0

  push(id: number): void {
    if (this.length === this.ids.length) {
      const next = new Uint32Array(this.ids.length * 2)
      next.set(this.ids)
      this.ids = next
    }
    this.ids[this.length++] = id
  }
}

const LF = 10
// FNV-1a, as boilerplate.ts's line keys use it. Local on purpose: an imported binding in this hot loop becomes a
// property load through a getter under CommonJS transforms (tsx), which made the scan several times slower.
const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193

/**
 * Turns texts into term ids with exactly the terms (and order) `tokenize` gives, but without creating a
 * string per token: plain ASCII words are hashed from their character codes and looked up in an
 * open-addressing table of the words seen so far (each distinct word is lowercased, stop-word checked and
 * stemmed once). Anything else — CamelCase or letter–digit words, lines with non-ASCII text — goes
 * through the same code as `tokenize` (tokens never cross a line break, so a line is a safe unit).
 */
export class TermDictionary {
  /** Term id → term (first-seen order). */
  readonly terms: string[] = []
  private readonly termIds = new Map<string, number>()
  // Word table, open addressing: slot s is slots[4s..4s+3] = [word's offset in `pool` (-1 = empty), length,
  // term id (-1 = dropped), hash] — one array, so a probe touches one cache line. `pool` holds lowercase char codes.
  private mask = 4095
  private slots = new Int32Array(4 * 4096).fill(-1)
  private used = 0
  private pool = new Uint8Array(1 << 16)
  private poolEnd = 0
  private readonly scratch: string[] = []

  /** The id of a term (added when new). */
  idOf(term: string): number {
    let id = this.termIds.get(term)
    if (id === undefined) {
      id = this.terms.length
      this.terms.push(term)
      this.termIds.set(term, id)
    }
    return id
  }

  /**
   * Appends the term ids of `text` to `out`. With `lines`, also records every line's boilerplate key and start
   * (plus `offset`, where text is a part of a longer document; the key folds the hashes of the word runs this
   * scan computes anyway; see boilerplate.ts).
   */
  addText(text: string, out: TermIdBuffer, lines?: LineKeys, offset = 0): void {
    const len = text.length
    let lineStart = 0
    let lineMark = out.length
    let key = FNV_OFFSET
    let words = false
    /** The key of a line redone the general way (non-ASCII), or NO_WORD. */
    let slowKey = 0
    let slow = false
    let i = 0
    while (i < len) {
      let c = text.charCodeAt(i)
      if (c === LF) {
        if (lines) lines.push(slow ? slowKey : words ? key | 1 : 0, lineStart + offset)
        lineStart = ++i
        lineMark = out.length
        key = FNV_OFFSET
        words = false
        slow = false
        continue
      }
      if (c >= 128) {
        // Non-ASCII somewhere in this line: redo the whole line the general way.
        out.length = lineMark
        let end = text.indexOf('\n', i)
        if (end < 0) end = len
        const line = text.slice(lineStart, end)
        this.addSlow(line, out)
        if (lines) slowKey = lineKey(line)
        slow = true
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
      let h = Math.imul(FNV_OFFSET ^ lower, FNV_PRIME)
      i++
      for (; i < len; i++) {
        c = text.charCodeAt(i)
        if (c >= 97 && c <= 122) {
          if (digits) simple = false
        } else if (c >= 48 && c <= 57) {
          if (!digits) simple = false
        } else if (c >= 65 && c <= 90) simple = false
        else break
        h = Math.imul(h ^ (c | 0x20), FNV_PRIME)
      }
      if (i < len && c >= 128) continue // the word goes on in another script: the line is redone above
      key = Math.imul(key ^ h, FNV_PRIME) // boilerplate.ts foldRun
      words = true
      if (simple) {
        const term = this.lookupWord(text, start, i, h)
        if (term >= 0) out.push(term)
      } else {
        this.scratch.length = 0
        pushAsciiWord(text.slice(start, i), this.scratch)
        for (const t of this.scratch) out.push(this.idOf(t))
      }
    }
    if (lines) lines.push(slow ? slowKey : words ? key | 1 : 0, lineStart + offset) // lineKeyEnd; 0 = NO_WORD
  }

  private addSlow(line: string, out: TermIdBuffer): void {
    for (const t of tokenize(line)) out.push(this.idOf(t))
  }

  /** Term id of the simple word text[start, end) (lowercased), or -1 when it is dropped. */
  private lookupWord(text: string, start: number, end: number, h: number): number {
    const n = end - start
    const slots = this.slots
    const pool = this.pool
    let slot = h & this.mask
    for (;;) {
      const at = 4 * slot
      const off = slots[at] as number
      if (off < 0) break
      if (slots[at + 3] === h && slots[at + 1] === n) {
        let k = 0
        while (k < n && pool[off + k] === (text.charCodeAt(start + k) | 0x20)) k++
        if (k === n) return slots[at + 2] as number
      }
      slot = (slot + 1) & this.mask
    }
    // New word: normalise it once (same rules as tokenize) and remember it.
    const word = text.slice(start, end).toLowerCase()
    const normalised = normaliseWord(word)
    const term = normalised === '' ? -1 : this.idOf(normalised)
    if (this.poolEnd + n > this.pool.length) {
      const next = new Uint8Array(Math.max(this.pool.length * 2, this.poolEnd + n))
      next.set(this.pool)
      this.pool = next
    }
    for (let k = 0; k < n; k++) this.pool[this.poolEnd + k] = word.charCodeAt(k)
    const at = 4 * slot
    slots[at] = this.poolEnd
    slots[at + 1] = n
    slots[at + 2] = term
    slots[at + 3] = h
    this.poolEnd += n
    if (++this.used * 2 > this.mask) this.grow()
    return term
  }

  private grow(): void {
    const old = this.slots
    const size = (this.mask + 1) * 2
    this.mask = size - 1
    this.slots = new Int32Array(4 * size).fill(-1)
    for (let at = 0; at < old.length; at += 4) {
      if ((old[at] as number) < 0) continue
      let slot = (old[at + 3] as number) & this.mask
      while ((this.slots[4 * slot] as number) >= 0) slot = (slot + 1) & this.mask
      this.slots.set(old.subarray(at, at + 4), 4 * slot)
    }
  }
}
