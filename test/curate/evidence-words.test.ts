import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'
import { surfaceWords } from '../../src/main/curate/evidence-words'
import { tokenize } from '../../src/main/text/tokenize'

/** The terms two texts share, in the first text's order (what the index would rank). */
const shared = (a: string, b: string): string[] => {
  const inB = new Set(tokenize(b))
  return [...new Set(tokenize(a))].filter((t) => inB.has(t))
}

describe('shared words a person reads', () => {
  it('turns Chinese character pairs into the stretch of text they cover, and leaves lone characters out', () => {
    const a = '部署超时后自动重试，记录日志'
    const b = '遇到部署超时要重试三次'
    const words = surfaceWords(shared(a, b), [a, b])
    expect(words).toEqual(['部署超时', '重试'])
  })

  it('keeps each word once, English beside Chinese, and only what the texts say', () => {
    const a = 'Retrying HTTP requests: 请求超时的时候重试请求'
    const b = 'retry the request when 请求超时'
    const words = surfaceWords(shared(a, b), [a, b])
    expect(words).toEqual(expect.arrayContaining(['retry', 'request', '请求超时']))
    expect(new Set(words).size).toBe(words.length)
    for (const w of words) expect(`${a}\n${b}`.toLowerCase()).toContain(w)
    expect(words.some((w) => [...w].length === 1)).toBe(false)
  })
})

/** surfaceWords as it was before words were skipped by their first letter: every word lowercased and looked up. */
function surfaceWordsLookingUpAll(terms: readonly string[], texts: readonly string[]): string[] {
  const wanted = new Set(terms)
  const counts = new Map<string, Map<string, number>>()
  for (const text of texts) {
    for (const found of text.match(/[\p{L}\p{N}][\p{L}\p{N}_'-]*/gu) ?? []) {
      const key = found.replace(/['-]+$/, '').toLowerCase()
      const tokens = tokenize(key)
      if (tokens.length !== 1 || !wanted.has(tokens[0]!)) continue
      const forms = counts.get(tokens[0]!) ?? new Map<string, number>()
      forms.set(key, (forms.get(key) ?? 0) + 1)
      counts.set(tokens[0]!, forms)
    }
  }
  return terms.map((term) => {
    let best = term
    let bestCount = 0
    for (const [form, n] of counts.get(term) ?? []) {
      if (n > bestCount || (n === bestCount && form.length < best.length)) {
        best = form
        bestCount = n
      }
    }
    return best
  })
}

describe.skipIf(!HAS_REAL_DATA)('words skipped by their first letter (on the real SKILL.md corpora)', () => {
  const texts = fs
    .readdirSync(realPath('skills'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => fs.readFileSync(realPath('skills', f), 'utf8'))

  it('a word of ASCII letters has no term, or its first letter, its first two, a term starting with its first three, or with its first two and an e or i (what the skip relies on)', () => {
    const words = new Set(texts.flatMap((t) => t.match(/[A-Za-z]+/g) ?? []).map((w) => w.toLowerCase()))
    expect(words.size).toBeGreaterThan(10_000)
    // and random letter strings, endings the stemmer rewrites most often among them
    let seed = 12345
    const random = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n)
    const endings = ['ies', 'sses', 'ed', 'ing', 'eed', 'ational', 'ization', 'ness', 'ful', 'ive', 'ize', 'y', 'e', 'ate', 'ent', 'ism']
    for (let i = 0; i < 30_000; i++) {
      let w = ''
      for (let k = random(5); k >= 0; k--) w += String.fromCharCode(97 + random(26))
      words.add(i % 2 === 0 ? w + endings[random(endings.length)] : w)
    }
    for (const word of words) {
      const tokens = tokenize(word)
      expect(tokens.length).toBeLessThanOrEqual(1)
      const term = tokens[0]
      if (term === undefined || term === word[0] || term === word.slice(0, 2) || term.startsWith(word.slice(0, 3))) continue
      if (!(term.startsWith(word.slice(0, 2)) && 'ei'.includes(term[2] ?? ''))) throw new Error(`${word} → ${term}`)
    }
  })

  it('finds the same words as looking every word up, for groups of real skills and their shared terms', () => {
    let compared = 0
    for (let i = 0; i + 3 < texts.length; i += 7) {
      const group = [texts[i]!, texts[i + 1]!, texts[i + 3]!]
      const inAll = group.map((t) => new Set(tokenize(t)))
      const terms = [...inAll[0]!].filter((t) => inAll[1]!.has(t) || inAll[2]!.has(t)).slice(0, 12)
      const expected = [...new Set(surfaceWordsLookingUpAll(terms, group))]
      // Chinese stretches aside (readableChinese runs after both), the words are the same, in the same order.
      const plain = surfaceWords(terms, group).filter((w) => !/[\u3400-\u9fff]/u.test(w))
      expect(plain).toEqual(expected.filter((w) => !/[\u3400-\u9fff]/u.test(w) && !(w.length === 1)))
      compared++
    }
    expect(compared).toBeGreaterThan(100)
  })
})

describe('words read by character code where the text is ASCII', () => {
  it('finds what the regular expression finds in every text: random runs of letters, digits, _ \' -, punctuation and other scripts', () => {
    const pieces = ['a', 'b', 'e', 'i', 's', 'st', 'ing', 'ed', 'ies', 'Ab', 'XY', '1', '42', '_', "'", '-', ' ', '.', ',', '\n', 'é', 'É', '中', '文', '—', '😀', 'ß', '٣']
    let seed = 99
    const random = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n)
    let compared = 0
    for (let g = 0; g < 300; g++) {
      const texts = [0, 1, 2].map(() => {
        let t = ''
        for (let k = 20 + random(80); k > 0; k--) t += pieces[random(pieces.length)]
        return t
      })
      const terms = [...new Set(texts.flatMap((t) => tokenize(t)))].filter((t) => !/[\u3400-\u9fff]/u.test(t)).slice(0, 24)
      const expected = [...new Set(surfaceWordsLookingUpAll(terms, texts))].filter((w) => !/[\u3400-\u9fff]/u.test(w))
      expect(surfaceWords(terms, texts).filter((w) => !/[\u3400-\u9fff]/u.test(w)), JSON.stringify(texts)).toEqual(expected)
      compared += terms.length
    }
    expect(compared).toBeGreaterThan(1000)
  })
})
