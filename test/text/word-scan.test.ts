import { describe, expect, it } from 'vitest'
import { createWordScan, scanDocs, type WordScan } from '../../src/main/text/word-scan'

/** The word table's hash of a lowercase ASCII word, as the scan computes it (FNV-1a cut to 30 bits). */
function tableHash(word: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193)
  return h & 0x3fffffff
}

/** Each document's words as the table holds them (lowercase text of each entry's word id) with their counts. */
function wordsOf(s: WordScan, docs: number): Array<Record<string, number>> {
  const text = (id: number): string => Buffer.from(s.pool.subarray(s.wordAt[2 * id], (s.wordAt[2 * id] as number) + (s.wordAt[2 * id + 1] as number))).toString('latin1')
  return Array.from({ length: docs }, (_, d) => {
    const out: Record<string, number> = {}
    for (let e = s.docPtr[d] as number; e < (s.docPtr[d + 1] as number); e++) out[text(s.entWord[e] as number)] = s.entCount[e] as number
    return out
  })
}

function scan(docs: string[]): Array<Record<string, number>> {
  const s = createWordScan(docs.length, docs.reduce((n, d) => n + d.length, 0), true)
  scanDocs(s, docs, 0, docs.length)
  return wordsOf(s, docs.length)
}

describe('the word table', () => {
  // Pairs found by enumeration: the same length, the same 30-bit hash and the same first four (or eight) letters.
  it('tells apart words of one length and one hash that share their first four characters', () => {
    const [a, b] = ['zqxwdraim', 'zqxwhsbaa']
    expect(tableHash(a)).toBe(tableHash(b))
    expect(a.slice(0, 4)).toBe(b.slice(0, 4))
    expect(scan([`${a} ${b} ${a}`, `${b.toUpperCase().slice(0, 1)}${b.slice(1)}`])).toEqual([{ [a]: 2, [b]: 1 }, { [b]: 1 }])
  })

  it('tells apart longer words of one hash that share their first eight characters', () => {
    const [a, b] = ['abcdefghbkiqx', 'abcdefghjcfbb']
    expect(tableHash(a)).toBe(tableHash(b))
    expect(a.slice(0, 8)).toBe(b.slice(0, 8))
    expect(scan([`${b} ${a}`, `${a}, ${a}; ${b}`])).toEqual([{ [b]: 1, [a]: 1 }, { [a]: 2, [b]: 1 }])
  })

  it('tells apart words of one hash that share their first eight characters but not their length', () => {
    // Found by a meet-in-the-middle search (FNV's step is invertible): an 8-character word and a longer one…
    const [a, b] = ['abcdefgh', 'abcdefghtxqjbvta']
    // …and a longer word with one that starts with it; and, by a birthday search among suffixes, two longer words
    // of different lengths.
    const [c, d] = ['abcdefghij', 'abcdefghijasgqrkpa']
    const [e, f] = ['abcdefghprro', 'abcdefghtbbha']
    expect(tableHash(a)).toBe(tableHash(b))
    expect(tableHash(c)).toBe(tableHash(d))
    expect(tableHash(e)).toBe(tableHash(f))
    for (const [first, second] of [[a, b], [b, a], [c, d], [d, c], [e, f], [f, e]] as const) {
      expect(scan([`${first} ${second} ${first}`, second])).toEqual([{ [first]: 2, [second]: 1 }, { [second]: 1 }])
    }
  })

  it('gives every word, short and long, capitalised or not, its own entry across a table that grows many times', () => {
    let state = 99
    const rand = (n: number): number => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 16) % n
    const vocabulary = Array.from({ length: 30_000 }, () => {
      let w = ''
      for (let k = 1 + rand(14); k >= 0; k--) w += String.fromCharCode(97 + rand(26))
      return w
    })
    const docs: string[] = []
    const expected: Array<Record<string, number>> = []
    for (let d = 0; d < 300; d++) {
      const words: string[] = []
      const counts: Record<string, number> = {}
      for (let k = 0; k < 200; k++) {
        const w = vocabulary[rand(vocabulary.length)]!
        counts[w] = (counts[w] ?? 0) + 1
        words.push(k % 7 === 0 ? w[0]!.toUpperCase() + w.slice(1) : w)
      }
      docs.push(words.join(separatorOf(d)))
      expected.push(counts)
    }
    expect(scan(docs)).toEqual(expected)
  })
})

/** Separators that vary by document (spaces, line breaks, punctuation). */
function separatorOf(d: number): string {
  return [' ', '\n', ', ', ' - '][d % 4]!
}
