/**
 * Stems kept between processes: one file in the user's cache folder (never in a library) holding the Porter
 * stems of the lowercase words tokenize has met, so a command that indexes thousands of skills does not stem the
 * same vocabulary again (stemming is a large part of building an index). A file made by another tokenizer
 * version is ignored; one whose sampled stems no longer match the stemmer is ignored (tokenize.primeStems); a
 * torn or foreign file is ignored. Written whole to a temporary name and renamed, so processes sharing the
 * folder never read half a file (the last writer's vocabulary wins: it is a cache).
 */
import path from 'node:path'
import { readCacheFile, writeCacheFile } from '../cache-files'
import { primeStems, stemmedWords, TOKENIZER_VERSION } from './tokenize'

const HEADER = `skillbench stems v${TOKENIZER_VERSION}`
/** Most words kept in the file (~12 bytes each). */
const MAX_WORDS = 150_000

export function stemCacheFile(cacheDir: string): string {
  return path.join(cacheDir, `stems.v${TOKENIZER_VERSION}.txt`)
}

/** Primes tokenize's word cache from the file; returns the number of words taken (0 when absent or unusable). */
export async function loadStems(file: string): Promise<number> {
  const bytes = await readCacheFile(file)
  if (bytes === null) return 0
  const text = bytes.toString('utf8')
  const lines = text.split('\n')
  // header, word\tterm lines, `end N`, and the final line break
  const end = /^end (\d+)$/.exec(lines[lines.length - 2] ?? '')
  if (lines[0] !== HEADER || !end || Number(end[1]) !== lines.length - 3) return 0
  const entries: Array<[string, string]> = []
  for (let i = 1; i < lines.length - 2; i++) {
    const line = lines[i] as string
    const tab = line.indexOf('\t')
    if (tab <= 0) return 0
    entries.push([line.slice(0, tab), line.slice(tab + 1)])
  }
  return primeStems(entries)
}

/** Saves the words stemmed in this process (with those loaded) when there are `more` than `loaded`. */
export async function saveStems(file: string, loaded: number): Promise<void> {
  const entries = stemmedWords()
  if (entries.length <= loaded) return
  // the words this run met come last: over the limit, the oldest loaded ones give way
  const kept = entries.slice(-MAX_WORDS)
  const body = `${HEADER}\n${kept.map(([w, t]) => `${w}\t${t}`).join('\n')}\nend ${kept.length}\n`
  // a cache that cannot be written costs the next run its stems, nothing else
  await writeCacheFile(file, body).catch(() => undefined)
}
