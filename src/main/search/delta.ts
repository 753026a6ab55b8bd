/**
 * The changes since a saved search index, as a small file beside it: the documents read again since the index was
 * written (with their terms as words, as the vocabulary may have grown) and the paths gone. A process that saw a
 * few changed skills writes this instead of rewriting the whole index; the next process loads the index, then this.
 * Pure encoding and checking; the file is read and written by open.ts.
 */
import zlib from 'node:zlib'
import type { ReadDoc } from './read-docs'

const MAGIC = 'SBDELTA1\n'

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
  /** Paths of the saved index that are gone. */
  gone: string[]
  /** Documents new or changed since, by path. */
  docs: DeltaDoc[]
}

export function encodeDelta(delta: IndexDelta): Buffer {
  const body = Buffer.from(JSON.stringify(delta), 'utf8')
  return Buffer.concat([Buffer.from(`${MAGIC}${zlib.crc32(body).toString(16).padStart(8, '0')}\n`, 'latin1'), body])
}

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x)

function isDeltaDoc(d: unknown): d is DeltaDoc {
  const x = d as DeltaDoc
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof x.rel === 'string' &&
    [x.size, x.mtimeMs, x.ino, x.ctimeMs].every(isNum) &&
    typeof x.ok === 'boolean' &&
    typeof x.legacy === 'boolean' &&
    typeof x.id === 'string' &&
    typeof x.json === 'string' &&
    Array.isArray(x.terms) &&
    Array.isArray(x.counts) &&
    x.terms.length === x.counts.length &&
    x.terms.every((t) => typeof t === 'string' && t !== '') &&
    x.counts.every((c) => Number.isInteger(c) && c >= 1)
  )
}

/** The delta in `buf`, or null when it is not one (damaged, foreign, of another layout). */
export function decodeDelta(buf: Buffer): IndexDelta | null {
  const head = MAGIC.length + 9
  if (buf.length < head || buf.toString('latin1', 0, MAGIC.length) !== MAGIC) return null
  const body = buf.subarray(head)
  if (zlib.crc32(body) !== parseInt(buf.toString('latin1', MAGIC.length, MAGIC.length + 8), 16)) return null
  try {
    const d = JSON.parse(body.toString('utf8')) as IndexDelta
    if (typeof d.base !== 'string' || typeof d.root !== 'string' || !isNum(d.tokenizer)) return null
    if (!Array.isArray(d.gone) || !d.gone.every((g) => typeof g === 'string') || !Array.isArray(d.docs) || !d.docs.every(isDeltaDoc)) return null
    return d
  } catch {
    return null
  }
}
