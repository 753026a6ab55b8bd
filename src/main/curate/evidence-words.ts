/**
 * Shared terms as people read them (pure): the index terms are stems ("calcul", "instal"); evidence shows, for
 * each, the word the skills actually use most ("calculator", "install"). Only the few texts of one proposal are
 * read, never the whole library.
 */
import { tokenize } from '../text/tokenize'

const WORD = /[\p{L}\p{N}][\p{L}\p{N}_'-]*/gu

/**
 * Lowercase word → its one term, or null when it tokenizes to none or several. One plan asks about the same
 * words proposal after proposal: passing one map to every call tokenizes each word once.
 */
export type WordTerms = Map<string, string | null>

/** For each term, the most frequent word of `texts` that tokenizes to exactly that term (else the term itself). */
export function surfaceWords(terms: readonly string[], texts: readonly string[], wordTerms: WordTerms = new Map()): string[] {
  const wanted = new Set(terms)
  const counts = new Map<string, Map<string, number>>()
  for (const text of texts) {
    // match() with /g gives plain strings (matchAll's match objects cost several times more)
    for (const found of text.match(WORD) ?? []) {
      const last = found.charCodeAt(found.length - 1)
      const key = (last === 39 || last === 45 ? found.replace(/['-]+$/, '') : found).toLowerCase()
      let term = wordTerms.get(key)
      if (term === undefined) {
        const tokens = tokenize(key)
        term = tokens.length === 1 ? tokens[0]! : null
        wordTerms.set(key, term)
      }
      if (term === null || !wanted.has(term)) continue
      const forms = counts.get(term) ?? new Map<string, number>()
      forms.set(key, (forms.get(key) ?? 0) + 1)
      counts.set(term, forms)
    }
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
  return out
}
