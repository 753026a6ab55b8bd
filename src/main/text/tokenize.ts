/**
 * Tokenizer for mixed Chinese/English skill text, shared by curation and `query_skill`.
 *
 * - CJK runs become their characters and every pair of neighbouring characters (unigrams + overlapping bigrams,
 *   as CJK search engines index them): 部署超时 → 部 署 超 时 部署 署超 超时. A word is a run of bigrams, so a
 *   query shares the bigrams of every word it contains, and the unigrams keep one-character words findable.
 *   Particles (的, 了, 是 …) break a run: no bigram spans them. Dictionary segmentation (Intl.Segmenter) gave
 *   words instead, at ~1.5 µs a character, half of a cold index build; this costs a few percent of that and
 *   ranks the real queries in the tests the same (see docs/ARCHITECTURE.md, "Chinese text").
 * - Other text: CamelCase / letter-digit / snake_case splitting, lowercase, Porter stemming for ASCII words;
 *   mixed letter-digit identifiers that splitting would destroy (l2s, v0, gpt4o, utf8) are kept whole as well.
 * - English and Chinese stop words are dropped, as are 1-character non-CJK tokens.
 * The index builder gets the same terms without a string per token (word-scan.ts + `TermDictionary`).
 */
/**
 * Version of what `tokenize` produces. Persisted search indexes keep term counts made by it: change this
 * whenever the terms of any text change (a test pins a probe text's terms so a change cannot go unnoticed).
 */
export const TOKENIZER_VERSION = 2

import { words as englishStopWords } from 'natural/lib/natural/util/stopwords.js'
import { words as chineseStopWords } from 'natural/lib/natural/util/stopwords_zh.js'
import { porterStem } from './porter'
import { IntMap } from './int-map'
import { CJK_CLASS, CJK_PARTICLES } from '../../shared/cjk'

/** CJK scripts (shared/cjk.ts, as the map's cluster names read them): runs of these are indexed as characters and pairs. */
export { CJK_CLASS }
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
/** Particles: neither a term themselves nor part of a bigram (排序的方法 → no 序的, 的方). */
const PARTICLES: ReadonlySet<string> = new Set([...CJK_PARTICLES])
const PARTICLE_UNITS: ReadonlySet<number> = new Set([...PARTICLES].map((c) => c.charCodeAt(0)))

// Porter stemming costs a word ~1 µs and words repeat a lot across a corpus: cache each lowercase word's
// outcome (its stem, or '' when it is dropped) so most words cost one Map lookup. Bounded.
const WORD_CACHE_LIMIT = 200_000
const wordCache = new Map<string, string>()

function normaliseWord(word: string): string {
  if (word.length < 2 || STOP_WORDS.has(word)) return ''
  return ASCII_WORD.test(word) ? porterStem(word) : word
}

/**
 * Where stems saved by an earlier process are looked up (stem-cache.ts): a word's term, or undefined when the
 * saved stems do not have the word. Looked up on a word's first use only (then it is in the word cache).
 */
export type SavedStems = (word: string) => string | undefined
let savedStems: SavedStems | undefined
/** Words this process stemmed itself (not found in the saved stems): what a save would add. */
let freshStems = 0
/** Words put in the word cache so far (never goes down): a stems file's text made earlier still holds when it is unchanged. */
let wordsCached = 0

/** Uses saved stems from now on (see SavedStems). */
export function useSavedStems(lookup: SavedStems): void {
  savedStems = lookup
}

/** Whether a word's saved term is the one the stemmer gives (saved stems are checked on a sample first). */
export function stemAgrees(word: string, term: string): boolean {
  return ASCII_WORD.test(word) && normaliseWord(word) === term
}

/**
 * The lowercase ASCII words met so far with their terms ('' for a dropped word), to keep between processes
 * (stem-cache.ts), and how many of them this process stemmed itself. With none stemmed here there is nothing to
 * keep, and the entries are not gathered (a run whose words all came from the file: ~25–35 ms at 20,000 skills).
 */
export function stemmedWords(): { entries: Array<[string, string]>; fresh: number } {
  const entries: Array<[string, string]> = []
  if (freshStems === 0) return { entries, fresh: 0 }
  for (const [word, term] of wordCache) if (ASCII_WORD.test(word)) entries.push([word, term])
  return { entries, fresh: freshStems }
}

/** How many words were put in the word cache so far (see stemmedWords): unchanged, so is what a save would write. */
export function wordsCachedCount(): number {
  return wordsCached
}

/** normaliseWord through the cache (the index builder's dictionary fills it too, so evidence words later cost a lookup). */
function cachedTerm(word: string): string {
  let term = wordCache.get(word)
  if (term === undefined) {
    // only plain lowercase words are saved (a foreign file's other entries are never taken)
    const plain = savedStems !== undefined && ASCII_WORD.test(word)
    term = plain ? savedStems?.(word) : undefined
    if (term === undefined) {
      term = normaliseWord(word)
      if (plain || ASCII_WORD.test(word)) freshStems++
    }
    if (wordCache.size >= WORD_CACHE_LIMIT) wordCache.clear()
    wordCache.set(word, term)
    wordsCached++
  }
  return term
}

function pushWord(word: string, out: string[]): void {
  const term = cachedTerm(word)
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

/** Unigrams and bigrams of one CJK run (characters outside the BMP count as one character). */
function pushCjk(run: string, out: string[]): void {
  let prev = ''
  for (const char of run) {
    if (PARTICLES.has(char)) {
      prev = ''
      continue
    }
    if (!STOP_WORDS.has(char)) out.push(char)
    if (prev !== '') {
      const bigram = prev + char
      if (!STOP_WORDS.has(bigram)) out.push(bigram)
    }
    prev = char
  }
}

/** Splits text into normalised index terms (lowercase, stemmed English, Chinese unigrams + bigrams, no stop words). */
export function tokenize(text: string): string[] {
  const out: string[] = []
  if (!CJK_TEST.test(text)) {
    pushLatin(text, out)
    return out
  }
  // split() with one capture group alternates: even = non-CJK, odd = CJK run.
  const pieces = text.split(CJK_SPLIT)
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] as string
    if (piece.length === 0) continue
    if (i % 2 === 0) pushLatin(piece, out)
    else pushCjk(piece, out)
  }
  return out
}

/**
 * Kana, CJK extension A and the unified ideographs (U+3040–U+9FFF): most CJK text. A pair of them gets a small
 * integer key (offset × span + offset < 2^30, an unboxed number), so the index builder finds a pair's term id
 * without making its string; other CJK characters take the string path.
 */
const PAIR_FIRST = 0x3040
const PAIR_SPAN = 0xa000 - PAIR_FIRST

/** The key of a two-character term whose characters are both in the pair range (no particle), else -1. */
function pairKeyOf(term: string): number {
  const a = term.charCodeAt(0)
  const b = term.charCodeAt(1)
  const first = a - PAIR_FIRST
  const second = b - PAIR_FIRST
  if (first < 0 || first >= PAIR_SPAN || second < 0 || second >= PAIR_SPAN) return -1
  return PARTICLE_UNITS.has(a) || PARTICLE_UNITS.has(b) ? -1 : first * PAIR_SPAN + second
}

/**
 * Term ids for the index builder: each distinct word (as word-scan.ts finds it) is turned into its term once —
 * lowercase, stop word check, Porter stem, exactly as `tokenize` does — and every term gets a stable id.
 */
export class TermDictionary {
  /** Term id → term (first-seen order). */
  readonly terms: string[] = []
  private readonly termIds = new Map<string, number>()
  private readonly wordTerms = new Map<string, number>()

  /** The id of a term, undefined when it is not in the dictionary (nothing is added). */
  find(term: string): number | undefined {
    if (term.length === 2) {
      const key = pairKeyOf(term)
      const known = key >= 0 ? this.pairIds.get(key) : undefined
      if (known !== undefined && known >= 0) return known
    }
    return this.termIds.get(term)
  }

  /** The id of a term (added when new). */
  idOf(term: string): number {
    if (term.length === 2) {
      // A pair of the pair range is found by its number, as pushCjkIds finds it; a stop word (-1 there, which
      // tokenize never yields) by string, so that pushCjkIds keeps dropping it.
      const key = pairKeyOf(term)
      if (key >= 0) {
        const known = this.pairIds.get(key)
        if (known !== undefined && known >= 0) return known
        if (known === undefined) {
          if (!STOP_WORDS.has(term)) return this.pairIdOf(key, term)
          this.pairIds.set(key, -1)
        }
      }
    }
    let id = this.termIds.get(term)
    if (id === undefined) {
      id = this.terms.length
      this.terms.push(term)
      this.termIds.set(term, id)
    }
    return id
  }

  /**
   * Appends the ids of `tokenize(text)`'s terms, in order (the same terms: a test checks it on any text). CJK
   * runs make no string per character or pair once the dictionary has met it.
   */
  pushTermIds(text: string, out: number[]): void {
    if (!CJK_TEST.test(text)) {
      for (const term of tokenize(text)) out.push(this.idOf(term))
      return
    }
    const pieces = text.split(CJK_SPLIT)
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i] as string
      if (piece.length === 0) continue
      if (i % 2 === 1) this.pushCjkIds(piece, out)
      else for (const term of tokenize(piece)) out.push(this.idOf(term))
    }
  }

  /**
   * The id of a pair of the pair range, by its key: such pairs are most of a Chinese library's distinct terms, and
   * a number map takes them several times faster than the string map (they never enter it).
   */
  private pairIdOf(key: number, term: string): number {
    let id = this.pairIds.get(key)
    if (id === undefined) {
      id = this.terms.length
      this.terms.push(term)
      this.pairIds.set(key, id)
    }
    return id
  }

  /** Id of a CJK unigram or pair term, -1 when tokenize drops it (a stop word). */
  private cjkTermId(term: string): number {
    return STOP_WORDS.has(term) ? -1 : this.idOf(term)
  }

  // Per code unit in the pair range: its unigram id + 2 (0: not met yet, 1: dropped); per pair key its id (-1: dropped).
  private readonly unigramIds = new Int32Array(PAIR_SPAN)
  private readonly pairIds = new IntMap()

  /** pushCjk's terms as ids: unigrams and pairs within the pair range by number, the rest by string. */
  private pushCjkIds(run: string, out: number[]): void {
    let prevOffset = -1 // the previous character's offset in the pair range, -1 for none or outside it
    let prev = '' // the previous character as a string, when outside the pair range
    for (let i = 0; i < run.length; i++) {
      const unit = run.charCodeAt(i)
      const offset = unit - PAIR_FIRST
      if (offset >= 0 && offset < PAIR_SPAN && !PARTICLE_UNITS.has(unit)) {
        let uni = this.unigramIds[offset] as number
        if (uni === 0) uni = this.unigramIds[offset] = this.cjkTermId(run.charAt(i)) + 2
        if (uni > 1) out.push(uni - 2)
        if (prevOffset >= 0) {
          const key = prevOffset * PAIR_SPAN + offset
          let pair = this.pairIds.get(key)
          if (pair === undefined) {
            const term = String.fromCharCode(prevOffset + PAIR_FIRST, unit)
            if (STOP_WORDS.has(term)) this.pairIds.set(key, (pair = -1))
            else pair = this.pairIdOf(key, term)
          }
          if (pair >= 0) out.push(pair)
        } else if (prev !== '') {
          const id = this.cjkTermId(prev + run.charAt(i))
          if (id >= 0) out.push(id)
        }
        prevOffset = offset
        prev = ''
        continue
      }
      // Outside the pair range (or a particle): by string, a surrogate pair as one character.
      const char = unit >= 0xd800 && unit < 0xdc00 && (run.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? run.slice(i, ++i + 1) : run.charAt(i)
      const previous = prevOffset >= 0 ? String.fromCharCode(prevOffset + PAIR_FIRST) : prev
      prevOffset = -1
      if (PARTICLES.has(char)) {
        prev = ''
        continue
      }
      const uni = this.cjkTermId(char)
      if (uni >= 0) out.push(uni)
      if (previous !== '') {
        const id = this.cjkTermId(previous + char)
        if (id >= 0) out.push(id)
      }
      prev = char
    }
  }

  /** The term id of a plain lowercase word ([a-z]+ or digits), or -1 when tokenize drops it (stop word, too short). */
  termOfWord(word: string): number {
    let id = this.wordTerms.get(word)
    if (id === undefined) {
      const term = cachedTerm(word)
      id = term === '' ? -1 : this.idOf(term)
      this.wordTerms.set(word, id)
    }
    return id
  }
}
