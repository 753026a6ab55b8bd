/**
 * Shared terms as people read them (pure): the index terms are stems ("calcul", "instal"); evidence shows, for
 * each, the word the skills actually use most ("calculator", "install"). Only the few texts of one proposal are
 * read, never the whole library.
 */
import { CJK_CLASS, tokenize } from '../text/tokenize'
import { asciiWordChars, forEachWordRun } from '../text/word-runs'

const WORD = /[\p{L}\p{N}][\p{L}\p{N}_'-]*/gu
/** The ASCII characters a word of WORD may hold. */
const WORD_CHARS = asciiWordChars("_'-")
const CJK_TERM = new RegExp(`^[${CJK_CLASS}]+$`, 'u')
const CJK_RUN = new RegExp(`[${CJK_CLASS}]+`, 'gu')

/**
 * Lowercase word → its one term, or null when it tokenizes to none or several. One plan asks about the same
 * words proposal after proposal: passing one map to every call tokenizes each word once.
 */
export type WordTerms = Map<string, string | null>

/** For each term, the most frequent word of `texts` that tokenizes to exactly that term (else the term itself). */
export function surfaceWords(terms: readonly string[], texts: readonly string[], wordTerms: WordTerms = new Map()): string[] {
  const wanted = new Set(terms)
  const counts = new Map<string, Map<string, number>>()
  const starts = new WantedStarts(terms)
  const count = (found: string): void => {
    const last = found.charCodeAt(found.length - 1)
    const key = (last === 39 || last === 45 ? found.replace(/['-]+$/, '') : found).toLowerCase()
    let term = wordTerms.get(key)
    if (term === undefined) {
      const tokens = tokenize(key)
      term = tokens.length === 1 ? tokens[0]! : null
      wordTerms.set(key, term)
    }
    if (term === null || !wanted.has(term)) return
    const forms = counts.get(term) ?? new Map<string, number>()
    forms.set(key, (forms.get(key) ?? 0) + 1)
    counts.set(term, forms)
  }
  for (const text of texts) {
    // A run of ASCII word characters holds one word, from its first letter or digit to its end (word-runs.ts); most
    // such words cannot be any wanted term and are skipped before they are cut out, lowercased and looked up.
    forEachWordRun(
      text,
      WORD_CHARS,
      (start, end) => {
        let from = start
        while (from < end && !isAsciiAlnum(text.charCodeAt(from))) from++
        if (from < end && starts.mayBe(text, from, end)) count(text.slice(from, end))
      },
      (start, end) => {
        // match() with /g gives plain strings (matchAll's match objects cost several times more)
        for (const found of text.slice(start, end).match(WORD) ?? []) if (starts.mayBe(found, 0, found.length)) count(found)
      }
    )
  }
  const out: string[] = []
  for (const term of terms) {
    const forms = counts.get(term)
    let best = term
    let bestCount = 0
    for (const [form, n] of forms ?? []) {
      if (n > bestCount || (n === bestCount && form.length < best.length)) {
        best = form
        bestCount = n
      }
    }
    if (!out.includes(best)) out.push(best)
  }
  return readableChinese(out, texts)
}

function isAsciiAlnum(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57)
}

/**
 * Which words may tokenize to one of the wanted terms, told by their first three letters. A word of ASCII letters
 * only tokenizes to nothing or to its Porter stem alone, and the stemmer rewrites only a word's ending: it keeps at
 * least the word's first letter (ies → i, aed → a), otherwise its first two, and a stem's third letter is the word's
 * unless the stemmer wrote it: an `e` (ating → ate, bled → ble) or an `i` (bay → bai). So such a word's term is its
 * first letter, or its first two letters and nothing more, or starts with its first three, or starts with its first
 * two and then `e` or `i`. A test checks this on every word of the real corpora and on random letter strings. Words
 * with digits, marks, `_'-` or other scripts may always be a wanted term (they are looked up).
 */
class WantedStarts {
  /** For lowercase letters c, d, e (0–25): one[c] when a wanted term is the one letter c; */
  private readonly one = new Uint8Array(26)
  /** two[26·c + d] when a wanted term is cd, or starts cde or cdi (any word starting cd may stem to it); */
  private readonly two = new Uint8Array(26 * 26)
  /** three[676·c + 26·d + e] when a wanted term starts cde. */
  private readonly three = new Uint8Array(26 * 26 * 26)

  constructor(terms: readonly string[]) {
    for (const term of terms) {
      const c = term.charCodeAt(0) - 97
      const d = term.charCodeAt(1) - 97
      const e = term.charCodeAt(2) - 97
      // A term starting otherwise can be no plain word's (those are only looked up, never skipped).
      if (!(c >= 0 && c < 26)) continue
      if (term.length === 1) this.one[c] = 1
      else if (!(d >= 0 && d < 26)) continue
      else if (term.length === 2 || e === 4 || e === 8) this.two[26 * c + d] = 1
      else if (e >= 0 && e < 26) this.three[676 * c + 26 * d + e] = 1
    }
  }

  /** Whether the word text[from, to) may tokenize to a wanted term. */
  mayBe(text: string, from: number, to: number): boolean {
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i) | 0x20
      if (c < 97 || c > 122) return true
    }
    const c = (text.charCodeAt(from) | 0x20) - 97
    if (this.one[c] === 1) return true
    if (to - from < 2) return false
    const cd = 26 * c + (text.charCodeAt(from + 1) | 0x20) - 97
    return this.two[cd] === 1 || (to - from > 2 && this.three[26 * cd + (text.charCodeAt(from + 2) | 0x20) - 97] === 1)
  }
}

/**
 * Chinese terms are characters and character pairs (tokenize.ts): as words a person reads, each pair becomes the
 * longest stretch of the texts made only of shared pairs (部署 + 署超 + 超时 → 部署超时, as the texts say it), and
 * lone characters are left out.
 */
function readableChinese(words: readonly string[], texts: readonly string[]): string[] {
  const pairs = new Set(words.filter((w) => CJK_TERM.test(w) && [...w].length === 2))
  const stretches = new Map<string, number>()
  if (pairs.size > 0) {
    for (const text of texts) {
      for (const run of text.match(CJK_RUN) ?? []) {
        const chars = [...run]
        let start = 0
        for (let i = 1; i <= chars.length; i++) {
          if (i < chars.length && pairs.has(chars[i - 1]! + chars[i]!)) continue
          if (i - start >= 2) {
            const stretch = chars.slice(start, i).join('')
            stretches.set(stretch, (stretches.get(stretch) ?? 0) + 1)
          }
          start = i
        }
      }
    }
  }
  const out: string[] = []
  for (const word of words) {
    let shown = word
    if (CJK_TERM.test(word)) {
      if ([...word].length < 2) continue
      let best = 0
      for (const [stretch, n] of stretches) {
        if (stretch.includes(word) && (n > best || (n === best && stretch.length > shown.length))) {
          shown = stretch
          best = n
        }
      }
    }
    if (!out.includes(shown)) out.push(shown)
  }
  return out
}
