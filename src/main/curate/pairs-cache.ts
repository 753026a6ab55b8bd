/**
 * The similarity join's pairs kept between curate runs, for a library curated again with nothing changed (a person
 * reviewing the plan, rejecting proposals and curating again; the app curating on request). The join is the
 * largest part of a run (about 1.5–2 s of 4 at 20,000 skills) and its pairs follow from the skills' texts alone,
 * so when every text is the one the pairs were found for, they are taken back instead of computed again. With them
 * the file keeps a digest of every row of the index they were found in: after an edit, the rows that did not move
 * keep their pairs and only the others are compared again (text/pairs-update.ts).
 *
 * Never stale: the pairs are found by a digest of every document's key in order (term-cache.ts: the BLAKE2b of the
 * very text the index reads), with the join threshold, whether boilerplate is taken out, the tokenizer version and
 * this file's format. A skill changed by any process or editor, added, removed or renamed, another threshold or
 * setting: no match, the join runs, and its pairs replace the file. One file per library in the cache folder
 * (never in a library), next to its term cache; a torn or damaged file (CRC) is ignored.
 */
import { hash } from 'node:crypto'
import { writeCacheFile } from '../cache-files'
import { encodeIndexChunks, IndexFile } from '../search/codec'
import type { SimilarPairs } from '../text/all-pairs'
import type { EarlierJoin } from '../text/pairs-update'
import { TOKENIZER_VERSION } from '../text/tokenize'

const KIND = 'skillbench curate pairs'
/** Bumped when what the join finds for the same texts changes (the index, the join, its threshold's meaning). */
export const PAIRS_FORMAT = 2

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
  /** The plan's threshold the join served. */
  threshold: number
  /** Every pair at or above it is in the file (at most the threshold). */
  level: number
  docs: number
  count: number
  terms: number
}

/** The pairs file next to a library's term cache file. */
export function pairsCacheFile(termCacheFile: string): string {
  return termCacheFile.replace(/\.terms$/, '') + '.pairs'
}

/** Digest of the documents (their keys, in order) and the settings that shape the index. Pure. */
export function corpusDigest(keys: readonly string[], boilerplate: boolean): string {
  return hash('sha256', `${keys.join('\n')}\n${boilerplate ? 'boilerplate' : 'all lines'}`, 'hex')
}

/** What a pairs file holds: its key and the join it keeps. */
export interface KeptJoin extends EarlierJoin {
  key: PairsKey
}

/**
 * The file's join when it served this threshold (whatever the texts), or undefined (none, another threshold, a
 * damaged or foreign file, arrays that do not fit one another). Its pairs are read when asked for (an update that
 * is not going to happen never reads them), from the same file: a file replaced since by another process gives none.
 */
export function readPairsFile(file: string, threshold: number): KeptJoin | undefined {
  const f = IndexFile.open(file)
  if (!f) return undefined
  try {
    const h = f.header as unknown as PairsHeader
    if (h.kind !== KIND || h.format !== PAIRS_FORMAT || h.tokenizer !== TOKENIZER_VERSION || h.threshold !== threshold) return undefined
    if (typeof h.corpus !== 'string' || !(typeof h.level === 'number' && h.level > 0 && h.level <= threshold)) return undefined
    if (![h.docs, h.count, h.terms].every((x) => Number.isSafeInteger(x) && x >= 0)) return undefined
    const digests = f.u32('digests')
    const df = f.u32('df')
    const vocab = h.terms === 0 ? [] : f.text('vocab').split('\n')
    if (digests.length !== 2 * h.docs || df.length !== h.terms || vocab.length !== h.terms) return undefined
    const crc = JSON.stringify(f.header.crc)
    return { key: { corpus: h.corpus, threshold, docs: h.docs }, docs: h.docs, vocab, df, digests, level: h.level, pairs: () => readPairs(file, crc, h) }
  } catch {
    return undefined // a damaged section (CRC), a short file: as if there were none
  } finally {
    f.close()
  }
}

/** The pairs of the file whose sections have these CRCs (the one read before), checked against its header. */
function readPairs(file: string, crc: string, h: PairsHeader): SimilarPairs | undefined {
  const f = IndexFile.open(file)
  if (!f) return undefined
  try {
    if (JSON.stringify(f.header.crc) !== crc) return undefined
    const a = f.u32('a')
    const b = f.u32('b')
    const score = f.f64('score')
    if (a.length !== h.count || b.length !== h.count || score.length !== h.count) return undefined
    for (let k = 0; k < h.count; k++) {
      const i = a[k] as number
      const j = b[k] as number
      const s = score[k] as number
      if (!(i < j && j < h.docs && s >= h.level && s <= 1)) return undefined
      if (k > 0 && !((a[k - 1] as number) < i || (a[k - 1] === i && (b[k - 1] as number) < j))) return undefined
    }
    return { count: h.count, a, b, score }
  } catch {
    return undefined
  } finally {
    f.close()
  }
}

/** A kept join's pairs when it was found for exactly this key (complete at its level, at or below the threshold). */
export function pairsForKey(kept: KeptJoin | undefined, key: PairsKey): SimilarPairs | undefined {
  return kept && kept.key.corpus === key.corpus && kept.key.docs === key.docs && kept.key.threshold === key.threshold ? kept.pairs() : undefined
}

/** The kept pairs for exactly this key, read from the file, or undefined. */
export function loadPairs(file: string, key: PairsKey): SimilarPairs | undefined {
  return pairsForKey(readPairsFile(file, key.threshold), key)
}

/**
 * Keeps a join: its pairs, its level, its rows' digests and its terms' document frequencies (pairs-update.ts) —
 * temp file + rename; a file that cannot be written costs only the next run's join.
 */
export async function savePairs(file: string, key: PairsKey, join: EarlierJoin): Promise<void> {
  const { digests, vocab, df } = join
  const pairs = join.pairs()
  if (!pairs) return
  if (join.docs !== key.docs || digests.length !== 2 * key.docs || df.length !== vocab.length) throw new RangeError('pairs file: the join does not fit its key')
  // Terms never hold a line break (the tokenizer splits on white space); one that did would not survive the file.
  if (vocab.some((t) => t.includes('\n'))) return
  const header: PairsHeader = { kind: KIND, format: PAIRS_FORMAT, tokenizer: TOKENIZER_VERSION, ...key, level: join.level, count: pairs.count, terms: vocab.length }
  // encodeIndex takes the search index's header fields; the extra ones name this file's kind and key.
  const meta = { ...header, root: '', vocab: 0, nnz: pairs.count, derived: false }
  const text = Buffer.from(vocab.join('\n'), 'utf8')
  // Written piece by piece: the pairs are not copied into one buffer while the plan still holds them.
  const pieces = encodeIndexChunks(meta, {
    a: pairs.a.subarray(0, pairs.count),
    b: pairs.b.subarray(0, pairs.count),
    score: pairs.score.subarray(0, pairs.count),
    digests,
    df,
    vocab: new Uint8Array(text.buffer, text.byteOffset, text.length)
  })
  await writeCacheFile(file, pieces).catch(() => undefined)
}
