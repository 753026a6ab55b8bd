/**
 * The similarity join's pairs kept between curate runs, for a library curated again with nothing changed (a person
 * reviewing the plan, rejecting proposals and curating again; the app curating on request). The join is the
 * largest part of a run (about 1.5–2 s of 4 at 20,000 skills) and its pairs follow from the skills' texts alone,
 * so when every text is the one the pairs were found for, they are taken back instead of computed again.
 *
 * Never stale: the pairs are found by a digest of every document's key in order (term-cache.ts: the SHA-256 of the
 * very text the index reads), with the join threshold, whether boilerplate is taken out, the tokenizer version and
 * this file's format. A skill changed by any process or editor, added, removed or renamed, another threshold or
 * setting: no match, the join runs, and its pairs replace the file. One file per library in the cache folder
 * (never in a library), next to its term cache; a torn or damaged file (CRC) is ignored.
 */
import { hash } from 'node:crypto'
import { writeCacheFile } from '../cache-files'
import { encodeIndex, IndexFile } from '../search/codec'
import type { SimilarPairs } from '../text/all-pairs'
import { TOKENIZER_VERSION } from '../text/tokenize'

const KIND = 'skillbench curate pairs'
/** Bumped when what the join finds for the same texts changes (the index, the join, its threshold's meaning). */
export const PAIRS_FORMAT = 1

/** What a join's pairs were found for. */
export interface PairsKey {
  /** Digest of the documents' keys in order and the index settings (`corpusDigest`). */
  corpus: string
  threshold: number
  docs: number
}

interface PairsHeader {
  kind: string
  format: number
  tokenizer: number
  corpus: string
  threshold: number
  docs: number
  count: number
}

/** The pairs file next to a library's term cache file. */
export function pairsCacheFile(termCacheFile: string): string {
  return termCacheFile.replace(/\.terms$/, '') + '.pairs'
}

/** Digest of the documents (their keys, in order) and the settings that shape the index. Pure. */
export function corpusDigest(keys: readonly string[], boilerplate: boolean): string {
  return hash('sha256', `${keys.join('\n')}\n${boilerplate ? 'boilerplate' : 'all lines'}`, 'hex')
}

/** The kept pairs for exactly this key, or undefined (none, another key, a damaged or foreign file). */
export function loadPairs(file: string, key: PairsKey): SimilarPairs | undefined {
  const f = IndexFile.open(file)
  if (!f) return undefined
  try {
    const h = f.header as unknown as PairsHeader
    if (h.kind !== KIND || h.format !== PAIRS_FORMAT || h.tokenizer !== TOKENIZER_VERSION) return undefined
    if (h.corpus !== key.corpus || h.threshold !== key.threshold || h.docs !== key.docs || !Number.isSafeInteger(h.count) || h.count < 0) return undefined
    const a = f.u32('a')
    const b = f.u32('b')
    const score = f.f64('score')
    if (a.length !== h.count || b.length !== h.count || score.length !== h.count) return undefined
    for (let k = 0; k < h.count; k++) {
      const i = a[k] as number
      const j = b[k] as number
      const s = score[k] as number
      if (!(i < j && j < key.docs && s >= key.threshold && s <= 1)) return undefined
    }
    return { count: h.count, a, b, score }
  } catch {
    return undefined // a damaged section (CRC), a short file: as if there were none
  } finally {
    f.close()
  }
}

/** Keeps a join's pairs (temp file + rename; a file that cannot be written costs only the next run's join). */
export async function savePairs(file: string, key: PairsKey, pairs: SimilarPairs): Promise<void> {
  const header: PairsHeader = { kind: KIND, format: PAIRS_FORMAT, tokenizer: TOKENIZER_VERSION, ...key, count: pairs.count }
  // encodeIndex takes the search index's header fields; the extra ones name this file's kind and key.
  const meta = { ...header, root: '', vocab: 0, nnz: pairs.count, derived: false }
  const bytes = encodeIndex(meta, { a: pairs.a.subarray(0, pairs.count), b: pairs.b.subarray(0, pairs.count), score: pairs.score.subarray(0, pairs.count) })
  await writeCacheFile(file, bytes).catch(() => undefined)
}
