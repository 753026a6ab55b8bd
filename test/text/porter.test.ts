import fs from 'node:fs'
import fc from 'fast-check'
import PorterStemmer from 'natural/lib/natural/stemmers/porter_stemmer.js'
import { describe, expect, it } from 'vitest'
import { porterStem } from '../../src/main/text/porter'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'

/** Words whose stems differ from natural's, with both stems (empty when they agree). */
function disagreements(words: Iterable<string>): string[] {
  const out: string[] = []
  for (const w of words) {
    const ours = porterStem(w)
    const theirs = PorterStemmer.stem(w)
    if (ours !== theirs) out.push(`${w}: ${ours} ≠ ${theirs}`)
  }
  return out
}

describe('the Porter stemmer without regular expressions', () => {
  it('stems as natural does the words its quirks turn on (y after a consonant, empty results, short stems)', () => {
    const words = ['bya', 'byyed', 'ying', 'ed', 'ing', 'eed', 'feed', 'agreed', 'sses', 'ies', 'ties', 'caresses', 'ponies', 'cats', 'caress',
      'plastered', 'bled', 'motoring', 'sing', 'conflated', 'troubled', 'sized', 'hopping', 'tanned', 'falling', 'hissing', 'fizzed', 'failing',
      'filing', 'happy', 'sky', 'relational', 'conditional', 'rational', 'valenci', 'hesitanci', 'digitizer', 'conformabli', 'radicalli',
      'differentli', 'vileli', 'analogousli', 'vietnamization', 'predication', 'operator', 'feudalism', 'decisiveness', 'hopefulness',
      'callousness', 'formaliti', 'sensitiviti', 'sensibiliti', 'triplicate', 'formative', 'formalize', 'electriciti', 'electrical', 'hopeful',
      'goodness', 'revival', 'allowance', 'inference', 'airliner', 'gyroscopic', 'adjustable', 'defensible', 'irritant', 'replacement',
      'adjustment', 'dependent', 'adoption', 'homologou', 'communism', 'activate', 'angulariti', 'homologous', 'effective', 'bowdlerize',
      'probate', 'rate', 'cease', 'controll', 'roll', 'syzygy', 'rhythm', 'yyy', 'ayay', 'yaya', 'byby', 'xyz', 'abcyde', 'tion', 'sion', 'ation']
    expect(disagreements(words)).toEqual([])
  })

  it('stems as natural does random words of letters, vowels, y and the endings the steps rewrite', () => {
    const letter = fc.constantFrom(...'aeiouybcdlmnrstwxz')
    const ending = fc.constantFrom('', 'ies', 'sses', 's', 'ed', 'ing', 'eed', 'y', 'ational', 'tional', 'izer', 'bli', 'alli', 'entli', 'eli',
      'ousli', 'ization', 'ation', 'ator', 'alism', 'iveness', 'fulness', 'ousness', 'aliti', 'iviti', 'biliti', 'logi', 'icate', 'ative',
      'alize', 'iciti', 'ical', 'ful', 'ness', 'al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ou', 'ism',
      'ate', 'iti', 'ous', 'ive', 'ize', 'sion', 'tion', 'e', 'll', 'at', 'bl', 'iz')
    fc.assert(
      fc.property(fc.array(letter, { maxLength: 9 }), ending, ending, (letters, a, b) => {
        const word = letters.join('') + a + b
        expect(porterStem(word)).toBe(PorterStemmer.stem(word))
      }),
      { numRuns: 60_000 }
    )
  })
})

describe.skipIf(!HAS_REAL_DATA)('the Porter stemmer on the real corpora', () => {
  it('stems every word of lowercase letters in the real skills and agent logs as natural does', () => {
    const words = new Set<string>()
    for (const dir of ['skills', 'agiagent', 'sessions']) {
      for (const f of fs.readdirSync(realPath(dir), { recursive: true, encoding: 'utf8' })) {
        const file = realPath(dir, f)
        if (!fs.statSync(file).isFile() || fs.statSync(file).size > 20_000_000) continue
        for (const w of fs.readFileSync(file, 'utf8').match(/[A-Za-z]+/g) ?? []) words.add(w.toLowerCase())
      }
    }
    expect(words.size).toBeGreaterThan(10_000)
    expect(disagreements(words)).toEqual([])
  })
})
