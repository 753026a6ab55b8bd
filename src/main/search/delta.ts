/**
 * The changes since a saved search index, as a file beside it: the documents read again since the index was
 * written (their terms as words), the paths gone, the words the vocabulary gained (in id order) — and the ranking
 * arrays over the documents as they are after these changes, so the next process need not rebuild them. A process
 * that saw a few changed skills writes this (the arrays it has just built, ~5 MB at 10,000 skills) instead of
 * rewriting the whole index with every listing text. Same layout as the index (codec.ts): the changes are the
 * `delta` section (CRC-checked JSON), the arrays the other sections; the header names the index it applies to.
 */
import type { Derived } from './derive'
import type { IndexFile } from './codec';
import { encodeIndex } from './codec'
import type { ReadDoc } from './read-docs'

/** A document as read (its listing JSON, or why the file does not load), with its terms as words. */
export interface DeltaDoc extends ReadDoc {
  terms: string[]
  counts: number[]
}

export interface IndexDelta {
  /** The `nonce` of the saved index these changes apply to (any other index: ignored). */
  base: string
  root: string
  tokenizer: number
  /** The version of the reasons its documents that do not load carry (CACHED_REASONS_VERSION; none: older). */
  reasons?: number
  /** Words added to the saved index's vocabulary, in id order. */
  vocab: string[]
  /** Paths of the saved index that are gone. */
  gone: string[]
  /** Documents new or changed since, by path. */
  docs: DeltaDoc[]
}

export function encodeDelta(delta: IndexDelta, ranking: Derived, docCount: number, vocabSize: number): Buffer {
  return encodeIndex(
    { tokenizer: delta.tokenizer, root: delta.root, docs: docCount, vocab: vocabSize, nnz: ranking.postDoc.length, derived: true, base: delta.base },
    {
      delta: Buffer.from(JSON.stringify(delta), 'utf8'),
      df: ranking.df,
      norm: ranking.norm,
      postPtr: ranking.postPtr,
      postDoc: ranking.postDoc,
      postCount: ranking.postCount
    }
  )
}

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x)
const isText = (x: unknown): x is string => typeof x === 'string'

function isDeltaDoc(d: unknown): d is DeltaDoc {
  const x = d as DeltaDoc
  return (
    typeof x === 'object' &&
    x !== null &&
    isText(x.rel) &&
    [x.size, x.mtimeMs, x.ino, x.ctimeMs].every(isNum) &&
    typeof x.ok === 'boolean' &&
    typeof x.legacy === 'boolean' &&
    isText(x.id) &&
    isText(x.json) &&
    isText(x.preview) &&
    Array.isArray(x.terms) &&
    Array.isArray(x.counts) &&
    x.terms.length === x.counts.length &&
    x.terms.every((t) => isText(t) && t !== '') &&
    x.counts.every((c) => Number.isInteger(c) && c >= 1)
  )
}

/** The changes in an open delta file, or null when they are not usable (damaged, foreign, of another layout). */
export function readDeltaChanges(file: IndexFile): IndexDelta | null {
  try {
    if (!isText(file.header.base)) return null
    const d = JSON.parse(file.text('delta')) as IndexDelta
    if (!isText(d.base) || d.base !== file.header.base || !isText(d.root) || !isNum(d.tokenizer)) return null
    if (!Array.isArray(d.vocab) || !d.vocab.every(isText) || !Array.isArray(d.gone) || !d.gone.every(isText) || !Array.isArray(d.docs) || !d.docs.every(isDeltaDoc)) return null
    return d
  } catch {
    return null
  }
}
