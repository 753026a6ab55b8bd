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
import { adoptStems, StemLines, stemsText } from '../text/stem-lines'
import { TOKENIZER_VERSION, wordsCachedCount } from '../text/tokenize'

/** Most words kept in the file (~12 bytes each). */
const MAX_WORDS = 150_000

export function stemCacheFile(cacheDir: string): string {
  return path.join(cacheDir, `stems.v${TOKENIZER_VERSION}.txt`)
}

/**
 * Makes the file's stems available to tokenize (looked up when a word is first met); returns the number of words
 * it holds (0 when absent or unusable: then nothing is used).
 */
export async function loadStems(file: string): Promise<number> {
  const bytes = await readCacheFile(file)
  if (bytes === null) return 0
  const lines = StemLines.parse(bytes.toString('latin1'))
  if (!lines || !adoptStems(lines)) return 0
  return lines.count
}

/** The file's text made ahead of the save (prepareStems), with the word count it was made at. */
let prepared: { words: number; maxWords: number; body: string | null } | undefined

/**
 * Makes the text the next save would write now, for a thread with time to spare (curate: while the join runs on
 * worker threads); the save writes it unless a word was met since, else makes it again.
 */
export function prepareStems(maxWords = MAX_WORDS): void {
  prepared = { words: wordsCachedCount(), maxWords, body: stemsText(maxWords) }
}

/**
 * Saves the stems with the words this process stemmed itself, when there are any: the loaded file's words and the
 * words met this run, sorted. Over the limit, the words met this run are kept first.
 */
export async function saveStems(file: string, maxWords = MAX_WORDS): Promise<void> {
  const early = prepared
  prepared = undefined
  const body = early && early.words === wordsCachedCount() && early.maxWords === maxWords ? early.body : stemsText(maxWords)
  if (body === null) return
  // a cache that cannot be written costs the next run its stems, nothing else
  await writeCacheFile(file, body).catch(() => undefined)
}
