/**
 * Tokenizer for mixed Chinese/English skill text, shared by curation and `query_skill`.
 *
 * - Lines are tokenized one by one: Intl.Segmenter is super-linear on long strings.
 * - CJK runs go through Intl.Segmenter('zh') word segmentation, plus character bigrams for recall
 *   on compounds it splits (组/件 → 组件).
 * - Other text: CamelCase / letter-digit / snake_case splitting, lowercase, Porter stemming for ASCII words.
 * - English and Chinese stop words are dropped, as are 1-character non-CJK tokens.
 */
import PorterStemmer from 'natural/lib/natural/stemmers/porter_stemmer.js'
import { words as englishStopWords } from 'natural/lib/natural/util/stopwords.js'
import { words as chineseStopWords } from 'natural/lib/natural/util/stopwords_zh.js'

const CJK_CLASS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}'
/** Splits a line into alternating non-CJK / CJK pieces (the capture keeps the CJK runs). */
const CJK_SPLIT = new RegExp(`([${CJK_CLASS}]+)`, 'u')
/** Maximal runs of letters/marks/digits (underscore and punctuation separate words). */
const WORD_RUN = /[\p{L}\p{M}\p{N}]+/gu
/** Pieces of a word: ACRONYM before a Capitalised part, Capitalised/lower parts, upper runs, digits, other scripts. */
const WORD_PART = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+|[\p{L}\p{M}]+/gu
const ASCII_WORD = /^[a-z]+$/

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

// Porter stemming is regex-heavy; words repeat a lot across a corpus, so cache (bounded).
const STEM_CACHE_LIMIT = 200_000
const stemCache = new Map<string, string>()
function stem(word: string): string {
  let out = stemCache.get(word)
  if (out === undefined) {
    out = PorterStemmer.stem(word)
    if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear()
    stemCache.set(word, out)
  }
  return out
}

function pushLatin(piece: string, out: string[]): void {
  for (const run of piece.matchAll(WORD_RUN)) {
    for (const part of run[0].matchAll(WORD_PART)) {
      const word = part[0].toLowerCase()
      if (word.length < 2 || STOP_WORDS.has(word)) continue
      out.push(ASCII_WORD.test(word) ? stem(word) : word)
    }
  }
}

function pushCjk(run: string, out: string[]): void {
  // Positions (code-unit index) where a 2-character segmenter word starts, to avoid emitting it twice.
  const twoCharWordAt = new Set<number>()
  for (const seg of segmenter.segment(run)) {
    if (!seg.isWordLike) continue
    const word = seg.segment.toLowerCase()
    if ([...word].length === 2) twoCharWordAt.add(seg.index)
    if (!STOP_WORDS.has(word)) out.push(word)
  }
  const chars = [...run]
  let offset = 0
  for (let i = 0; i + 1 < chars.length; i++) {
    const a = chars[i] as string
    const b = chars[i + 1] as string
    const bigram = a + b
    if (!twoCharWordAt.has(offset) && !BIGRAM_BREAKERS.has(a) && !BIGRAM_BREAKERS.has(b) && !STOP_WORDS.has(bigram)) out.push(bigram)
    offset += a.length
  }
}

/** Splits text into normalised index terms (lowercase, stemmed English, segmented Chinese + bigrams, no stop words). */
export function tokenize(text: string): string[] {
  const out: string[] = []
  for (const line of text.split(/\r?\n/)) {
    if (line.length === 0) continue
    const pieces = line.split(CJK_SPLIT)
    // split() with one capture group alternates: even = non-CJK, odd = CJK run.
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i] as string
      if (piece.length === 0) continue
      if (i % 2 === 0) pushLatin(piece, out)
      else pushCjk(piece, out)
    }
  }
  return out
}
