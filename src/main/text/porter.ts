/**
 * The Porter stemmer exactly as natural's `PorterStemmer.stem` gives it, for words of lowercase ASCII letters (the
 * only words tokenize stems), without its regular expressions: natural rebuilds a word's vowel/consonant pattern
 * with three regex replacements for every measure it takes, a large part of a cold index build. Every step below
 * follows natural's, quirks included (its patterns can count a `y` after a consonant as a vowel next to another
 * vowel, giving half measures; an empty result counts as no replacement). A test compares it with natural on
 * every word of the real corpora and on random words.
 */

const VOWEL = new Uint8Array(128)
for (const c of 'aeiou') VOWEL[c.charCodeAt(0)] = 1
const Y = 121

function isVowel(code: number): boolean {
  return VOWEL[code] === 1
}

/**
 * natural's categorizeGroups, not written out: runs of consonants as C, of vowels as V (a consonant run followed by
 * y: "CV"). What the steps read of it is left in these: how many symbols, the first and the last, how many V.
 */
let groupCount = 0
let firstIsC = false
let lastIsV = false
let vCount = 0

function scanGroups(token: string): void {
  groupCount = 0
  vCount = 0
  firstIsC = false
  let last = 0 // 0: nothing yet, 1: C, 2: V (runs of C merge)
  let inVowels = false // inside a run of literal vowels (merged into one V)
  const n = token.length
  for (let i = 0; i < n; ) {
    const c = token.charCodeAt(i)
    if (isVowel(c)) {
      if (!inVowels) {
        groupCount++
        vCount++
      }
      inVowels = true
      last = 2
      i++
      continue
    }
    inVowels = false
    let j = i + 1
    if (c !== Y) {
      // A run of consonants other than y: "CV" when a y follows it (the y taken with it).
      while (j < n && !isVowel(token.charCodeAt(j)) && token.charCodeAt(j) !== Y) j++
      if (j < n && token.charCodeAt(j) === Y) {
        if (last !== 1) groupCount++
        if (groupCount === 1) firstIsC = true
        groupCount++
        vCount++
        last = 2
        i = j + 1
        continue
      }
    }
    // Consonants (or a y no consonant run took): one C with any C before.
    if (last !== 1) {
      groupCount++
      if (groupCount === 1) firstIsC = true
    }
    last = 1
    i = j
  }
  lastIsV = last === 2
}

/** natural's categorizeChars: each letter as C or V (a consonant followed by y: "CV"). */
function chars(token: string): string {
  let out = ''
  for (let i = 0; i < token.length; ) {
    const c = token.charCodeAt(i)
    if (!isVowel(c) && c !== Y && i + 1 < token.length && token.charCodeAt(i + 1) === Y) {
      out += 'CV'
      i += 2
      continue
    }
    out += isVowel(c) ? 'V' : 'C'
    i++
  }
  return out
}

/** natural's measure: the VC count of the groups without a leading C and a trailing V (-1 for no token). */
function measure(token: string | null): number {
  if (!token) return -1
  scanGroups(token)
  const afterC = groupCount - (firstIsC ? 1 : 0)
  return (afterC - (afterC > 0 && lastIsV ? 1 : 0)) / 2
}

/** natural's attemptReplace for a plain suffix: the token with it replaced, or null when it does not end so. */
function replaceSuffix(token: string, suffix: string, by: string): string | null {
  return token.endsWith(suffix) ? token.slice(0, token.length - suffix.length) + by : null
}

type Replacements = ReadonlyArray<readonly [string, string]>

/**
 * natural's attemptReplacePatterns: each suffix in turn, when the token without it measures above the threshold
 * (none: always), is replaced in the result so far; an empty replacement counts as none (so the result is never
 * empty).
 */
function replacePatterns(token: string, replacements: Replacements, threshold?: number): string {
  let result = token
  const last = token.charCodeAt(token.length - 1)
  for (const [suffix, by] of replacements) {
    // Another last letter cannot end in the suffix: no endsWith call (most suffixes, for every new word)
    const without = last === suffix.charCodeAt(suffix.length - 1) ? replaceSuffix(token, suffix, '') : null
    if (threshold === undefined || measure(without) > threshold) result = replaceSuffix(result, suffix, by) || result
  }
  return result
}

function step1a(token: string): string {
  if (token.endsWith('sses')) return token.slice(0, -2)
  if (token.endsWith('ies')) return token.slice(0, -2)
  if (token.endsWith('s') && token.charAt(token.length - 2) !== 's' && token.length > 2) return token.slice(0, -1)
  return token
}

const STEP1B: Replacements = [
  ['at', 'ate'],
  ['bl', 'ble'],
  ['iz', 'ize']
]

function step1b(token: string): string {
  if (token.endsWith('eed')) {
    return measure(token.slice(0, -3)) > 0 ? token.slice(0, -1) : token
  }
  const stripped = token.endsWith('ed') ? token.slice(0, -2) : token.endsWith('ing') ? token.slice(0, -3) : null
  // natural: an empty stem, or one without a vowel, keeps the word as it was.
  if (!stripped) return token
  scanGroups(stripped)
  if (vCount === 0) return token
  const replaced = replacePatterns(stripped, STEP1B)
  if (replaced !== stripped) return replaced
  const n = stripped.length
  const last = stripped.charCodeAt(n - 1)
  if (n >= 2 && last === stripped.charCodeAt(n - 2) && !isVowel(last) && last !== 108 && last !== 115 && last !== 122) return stripped.slice(0, -1)
  if (measure(stripped) === 1 && chars(stripped).slice(-3) === 'CVC' && last !== 119 && last !== 120 && last !== Y) return stripped + 'e'
  return stripped
}

function step1c(token: string): string {
  if (!token.endsWith('y')) return token
  // a V among the groups before the last one
  scanGroups(token)
  return vCount - (lastIsV ? 1 : 0) > 0 ? token.slice(0, -1) + 'i' : token
}

const STEP2: Replacements = [
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'], ['abli', 'able'],
  ['bli', 'ble'], ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'], ['ization', 'ize'],
  ['ation', 'ate'], ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'], ['fulness', 'ful'], ['ousness', 'ous'],
  ['aliti', 'al'], ['iviti', 'ive'], ['biliti', 'ble'], ['logi', 'log']
]

const STEP3: Replacements = [
  ['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', '']
]

/** natural's step 4 suffixes; its lazy prefix takes the longest of them that leaves at least one letter. */
const STEP4 = ['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'].sort((a, b) => b.length - a.length)

function step4(token: string): string {
  // Only the longest suffix is tried: when its stem measures too little, natural goes on to (s|t)ion, not to a shorter one.
  const suffix = STEP4.find((s) => token.length > s.length && token.endsWith(s))
  if (suffix !== undefined) {
    const stem = token.slice(0, token.length - suffix.length)
    if (measure(stem) > 1) return stem
  }
  if (token.length > 4 && token.endsWith('ion')) {
    const before = token.charCodeAt(token.length - 4)
    if (before === 115 || before === 116) {
      const stem = token.slice(0, -3)
      if (measure(stem) > 1) return stem
    }
  }
  return token
}

function step5a(token: string): string {
  const withoutE = token.endsWith('e') ? token.slice(0, -1) : token
  const m = measure(withoutE)
  if (m > 1 || (m === 1 && !(cvcBeforeLast(token) && token.length >= 2 && !isWxy(token.charCodeAt(token.length - 2))))) return withoutE
  return token
}

/** natural's categorizeChars(token).substr(-4, 3) === 'CVC' (a short token's first three). */
function cvcBeforeLast(token: string): boolean {
  const c = chars(token)
  return c.substr(-4, 3) === 'CVC'
}

function isWxy(code: number): boolean {
  return code === 119 || code === 120 || code === Y
}

function step5b(token: string): string {
  return measure(token) > 1 && token.endsWith('ll') ? token.slice(0, -1) : token
}

/** The Porter stem of a word of lowercase ASCII letters, as natural's PorterStemmer.stem gives it. */
export function porterStem(word: string): string {
  if (word.length < 3) return word
  return step5b(step5a(step4(replacePatterns(replacePatterns(step1c(step1b(step1a(word))), STEP2, 0), STEP3, 0))))
}
