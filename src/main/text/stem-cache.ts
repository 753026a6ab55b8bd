/**
 * Stems kept between processes: one file in the user's cache folder (never in a library) holding the Porter
 * stems of the lowercase words tokenize has met, so a command that indexes thousands of skills does not stem the
 * same vocabulary again (stemming is a large part of building an index).
 *
 * The file is sorted by word and looked up in place (binary search over its lines) instead of being read into a
 * map: a run that finds its skills' terms in the curate term cache needs the stems of only the few words its
 * proposals show, and reading 150,000 words into a map cost every run more than the stemming it saved.
 *
 * A file made by another tokenizer version or format is ignored; one whose sampled stems no longer match the
 * stemmer is ignored; a torn or foreign file is ignored. Written whole to a temporary name and renamed, so
 * processes sharing the folder never read half a file (the last writer's vocabulary wins: it is a cache).
 */
import path from 'node:path'
import { readCacheFile, writeCacheFile } from '../cache-files'
import { stemAgrees, stemmedWords, TOKENIZER_VERSION, useSavedStems } from './tokenize'

const HEADER = `skillbench stems v${TOKENIZER_VERSION} sorted`
/** Most words kept in the file (~12 bytes each). */
const MAX_WORDS = 150_000
/** Saved stems checked against the stemmer before the file is used. */
const SAMPLE = 32

export function stemCacheFile(cacheDir: string): string {
  return path.join(cacheDir, `stems.v${TOKENIZER_VERSION}.txt`)
}

/** A stems file's lines (`word\tterm`, sorted by word), read in place. */
class StemLines {
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
 * Makes the file's stems available to tokenize (looked up when a word is first met); returns the number of words
 * it holds (0 when absent or unusable: then nothing is used).
 */
export async function loadStems(file: string): Promise<number> {
  const bytes = await readCacheFile(file)
  if (bytes === null) return 0
  const lines = StemLines.parse(bytes.toString('latin1'))
  if (!lines) return 0
  const step = Math.max(1, Math.floor(lines.count / SAMPLE))
  for (let k = 0; k < lines.count; k += step) {
    const [word, term] = lines.entry(k)
    if (!stemAgrees(word, term)) return 0
  }
  loaded = lines
  useSavedStems((word) => lines.lookup(word))
  return lines.count
}

/**
 * Saves the stems with the words this process stemmed itself, when there are any: the loaded file's words and the
 * words met this run, sorted. Over the limit, the words met this run are kept first.
 */
export async function saveStems(file: string, maxWords = MAX_WORDS): Promise<void> {
  const { entries, fresh } = stemmedWords()
  if (fresh === 0) return
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
  const body = `${HEADER}\n${words.map((w) => `${w}\t${terms.get(w) as string}`).join('\n')}\nend ${words.length}\n`
  // a cache that cannot be written costs the next run its stems, nothing else
  await writeCacheFile(file, body).catch(() => undefined)
}
