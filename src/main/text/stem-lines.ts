/**
 * The stems file's format, apart from its I/O (`curate/stem-cache.ts` reads and writes it in the cache folder):
 * `word\tterm` lines sorted by word under a header naming the tokenizer version, ended by `end N`. The file is
 * looked up in place (binary search over its lines) instead of being read into a map.
 */
import { stemAgrees, stemmedWords, TOKENIZER_VERSION, useSavedStems } from './tokenize'

const HEADER = `skillbench stems v${TOKENIZER_VERSION} sorted`
/** Saved stems checked against the stemmer before the file is used. */
const SAMPLE = 32

/** A stems file's lines (`word\tterm`, sorted by word), read in place. */
export class StemLines {
  constructor(
    private readonly text: string,
    /** Line k is text[starts[k], starts[k + 1] - 1). */
    private readonly starts: Uint32Array
  ) {}

  get count(): number {
    return this.starts.length - 1
  }

  entry(k: number): [string, string] {
    const line = this.text.slice(this.starts[k] as number, (this.starts[k + 1] as number) - 1)
    const tab = line.indexOf('\t')
    return [line.slice(0, tab), line.slice(tab + 1)]
  }

  /** The saved term of a word (binary search; an unsorted file only misses words, it never answers wrongly). */
  lookup(word: string): string | undefined {
    let lo = 0
    let hi = this.count
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const [w, term] = this.entry(mid)
      if (w === word) return term
      if (w < word) lo = mid + 1
      else hi = mid
    }
    return undefined
  }

  /** The lines of a file in this format, or null when it is not one (torn, foreign, another version). */
  static parse(text: string): StemLines | null {
    const first = text.indexOf('\n')
    if (first < 0 || text.slice(0, first) !== HEADER) return null
    const starts: number[] = []
    let at = first + 1
    while (at < text.length) {
      const next = text.indexOf('\n', at)
      if (next < 0) return null // no final line break: torn
      starts.push(at)
      at = next + 1
    }
    // the last line is `end N`, N the number of word lines
    const last = starts.pop()
    if (last === undefined || text.slice(last, text.length - 1) !== `end ${starts.length}`) return null
    starts.push(last)
    const lines = new StemLines(text, Uint32Array.from(starts))
    for (let k = 0; k < lines.count; k++) if (text.indexOf('\t', starts[k]) >= (starts[k + 1] as number) - 1 || text.charCodeAt(starts[k] as number) === 9) return null
    return lines
  }
}

/** The file loaded this process (for the next save, which merges it with the words met meanwhile). */
let loaded: StemLines | undefined

/**
 * Makes a stems file's words available to tokenize (looked up when a word is first met); false, and nothing is
 * used, when its sampled stems no longer match the stemmer.
 */
export function adoptStems(lines: StemLines): boolean {
  const step = Math.max(1, Math.floor(lines.count / SAMPLE))
  for (let k = 0; k < lines.count; k += step) {
    const [word, term] = lines.entry(k)
    if (!stemAgrees(word, term)) return false
  }
  loaded = lines
  useSavedStems((word) => lines.lookup(word))
  return true
}

/**
 * The text of a stems file holding the loaded file's words and the words met this run, sorted (over the limit,
 * the words met this run are kept first); null when this process stemmed no word itself.
 */
export function stemsText(maxWords: number): string | null {
  const { entries, fresh } = stemmedWords()
  if (fresh === 0) return null
  const terms = new Map<string, string>()
  for (const [word, term] of entries) {
    if (terms.size >= maxWords) break
    terms.set(word, term)
  }
  if (loaded) {
    for (let k = 0; k < loaded.count && terms.size < maxWords; k++) {
      const [word, term] = loaded.entry(k)
      if (!terms.has(word)) terms.set(word, term)
    }
  }
  const words = [...terms.keys()].sort()
  return `${HEADER}\n${words.map((w) => `${w}\t${terms.get(w) as string}`).join('\n')}\nend ${words.length}\n`
}
