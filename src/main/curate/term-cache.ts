/**
 * The similarity index's first pass kept between curate runs: each skill's terms with their counts (before
 * boilerplate lines are taken out: that depends on the whole library) and its line keys, so a later run scans
 * only the skills that changed. One file per library in the cache folder (never in a library), written whole
 * to a temporary name and renamed (processes sharing it read the old file or the new one, never a mix).
 *
 * Never stale: a row is found by a BLAKE2b digest of the very text the index reads (title, usage conditions, body),
 * so a skill changed by any process or editor simply has no row and is scanned. A file of another format or
 * tokenizer version, of another library, torn, or failing its CRC is ignored (and replaced by the next save).
 */
import { hash } from 'node:crypto'
import path from 'node:path'
import { writeCacheFile } from '../cache-files'
import { encodeIndexChunks, IndexFile } from '../search/codec'
import type { ReusedTerms, TermTable } from '../text/doc-terms'
import { releaseBuffers } from '../text/release-buffers'
import { TOKENIZER_VERSION } from '../text/tokenize'
import { DOCUMENT_KEY_BYTES } from '../text/document-key'

/** Bumped when what a row holds changes (the scan, line keys, the parts the index reads). */
export const TERM_CACHE_FORMAT = 2
const KIND = 'skillbench curate terms'
const KEY_BYTES = DOCUMENT_KEY_BYTES

export function termCacheFile(cacheDir: string, root: string): string {
  return path.join(cacheDir, 'curate', `${hash('sha256', root, 'hex').slice(0, 20)}.terms`)
}

/** The key of a document: its parts as the index reads them (text/document-key.ts). */
export { documentKey } from '../text/document-key'

interface TermCacheHeader {
  kind: string
  format: number
  tokenizer: number
  root: string
  /** Rows record line keys (built with boilerplate detection). */
  lines: boolean
  docs: number
}

/**
 * Encodes the table of `keys.length` documents (row r = the document of keys[r]) as the file's pieces, written one
 * after another (the file never exists as one buffer: at 20,000 skills that copy cost ~13 ms). Pure.
 */
export function encodeTermCache(root: string, lines: boolean, keys: readonly string[], table: TermTable): Uint8Array[] {
  const header: TermCacheHeader = { kind: KIND, format: TERM_CACHE_FORMAT, tokenizer: TOKENIZER_VERSION, root, lines, docs: keys.length }
  const keyBytes = Buffer.from(keys.join(''), 'hex')
  const vocab = Buffer.from(table.vocab.join('\n'), 'utf8')
  // encodeIndex takes the search index's header fields; the extra ones name this file's kind.
  const meta = { ...header, vocab: table.vocab.length, nnz: table.entTerm.length, derived: false }
  // The pieces are views of the arrays given: the table's own arrays are copied, since the build goes on to take
  // boilerplate out of them in place while the file is still being written.
  return encodeIndexChunks(meta, {
    keys: new Uint8Array(keyBytes.buffer, keyBytes.byteOffset, keyBytes.length),
    vocab: new Uint8Array(vocab.buffer, vocab.byteOffset, vocab.length),
    docPtr: table.docPtr.slice(),
    entTerm: narrow(table.entTerm, Math.max(0, table.vocab.length - 1)),
    entCount: narrow(table.entCount),
    linePtr: table.linePtr.slice(),
    lineKey: new Uint32Array(table.lineKey.slice().buffer),
    lineStart: narrow(table.lineStart)
  })
}

// The largest arrays are stored in the fewest bytes their values fit (a first byte says how many): at 20,000
// skills the file is about half as large, and so is the memory for its bytes. `bound`, when the caller knows one,
// spares the pass over the values.
function narrow(a: Uint32Array, bound?: number): Uint8Array {
  // The values' bits ORed together fit a width exactly when their maximum does (and the loop has no branch).
  let max = bound ?? 0
  if (bound === undefined) for (let i = 0; i < a.length; i++) max |= a[i] as number
  max >>>= 0
  const width = max < 0x100 ? 1 : max < 0x10000 ? 2 : 4
  const out = new Uint8Array(8 + a.length * width)
  out[0] = width
  const body = out.subarray(8)
  if (width === 1) body.set(a)
  else if (width === 2) new Uint16Array(body.buffer, body.byteOffset, a.length).set(a)
  else new Uint32Array(body.buffer, body.byteOffset, a.length).set(a)
  return out
}

/** The array narrow() stored (null when the bytes are not such an array). */
function widen(b: Uint8Array): Uint32Array | null {
  const width = b[0]
  const body = b.subarray(8)
  if (b.length < 8 || !(width === 1 || width === 2 || width === 4) || body.length % width !== 0) return null
  if (width === 1) return Uint32Array.from(body)
  if (width === 2) return Uint32Array.from(new Uint16Array(body.buffer, body.byteOffset, body.length / 2))
  return new Uint32Array(body.buffer, body.byteOffset, body.length / 4)
}

/**
 * The saved rows for documents with these keys (rowOf[d] = -1 where there is none), or undefined when the file
 * is absent or unusable for this library.
 */
export function loadTermCache(file: string, root: string, lines: boolean, keys: readonly string[]): ReusedTerms | undefined {
  const f = IndexFile.open(file)
  if (!f) return undefined
  try {
    const h = f.header as unknown as TermCacheHeader
    if (h.kind !== KIND || h.format !== TERM_CACHE_FORMAT || h.tokenizer !== TOKENIZER_VERSION || h.root !== root || h.lines !== lines) return undefined
    const entTerm = widen(f.bytes('entTerm'))
    const entCount = widen(f.bytes('entCount'))
    const lineStart = widen(f.bytes('lineStart'))
    if (!entTerm || !entCount || !lineStart) return undefined
    const vocabBytes = f.bytes('vocab')
    const table: TermTable = {
      vocab: f.header.vocab === 0 ? [] : Buffer.from(vocabBytes.buffer, vocabBytes.byteOffset, vocabBytes.length).toString('utf8').split('\n'),
      docPtr: f.u32('docPtr'),
      entTerm,
      entCount,
      linePtr: f.u32('linePtr'),
      lineKey: signed(f.u32('lineKey')),
      lineStart
    }
    const keyBytes = f.bytes('keys')
    if (table.vocab.length !== f.header.vocab || !consistent(table, h.docs, keyBytes.length)) return undefined
    const hex = Buffer.from(keyBytes.buffer, keyBytes.byteOffset, keyBytes.length).toString('hex')
    const rowByKey = new Map<string, number>()
    for (let r = 0; r < h.docs; r++) rowByKey.set(hex.slice(2 * KEY_BYTES * r, 2 * KEY_BYTES * (r + 1)), r)
    const rowOf = new Int32Array(keys.length)
    for (let d = 0; d < keys.length; d++) rowOf[d] = rowByKey.get(keys[d] as string) ?? -1
    return { table, rowOf }
  } catch {
    // a damaged section (CRC), a short file: as if there were none
    return undefined
  } finally {
    f.close()
  }
}

function signed(a: Uint32Array): Int32Array {
  return new Int32Array(a.buffer, a.byteOffset, a.length)
}

/** The table's arrays fit one another (a file that passed its CRCs but was written by something else fails here). */
function consistent(t: TermTable, docs: number, keyBytes: number): boolean {
  if (keyBytes !== docs * KEY_BYTES || t.docPtr.length !== docs + 1 || t.linePtr.length !== docs + 1) return false
  if (t.entCount.length !== t.entTerm.length || t.lineStart.length !== t.lineKey.length) return false
  if (t.docPtr[0] !== 0 || t.docPtr[docs] !== t.entTerm.length || t.linePtr[0] !== 0 || t.linePtr[docs] !== t.lineKey.length) return false
  for (let r = 0; r < docs; r++) {
    if ((t.docPtr[r] as number) > (t.docPtr[r + 1] as number) || (t.linePtr[r] as number) > (t.linePtr[r + 1] as number)) return false
  }
  const v = t.vocab.length
  for (let e = 0; e < t.entTerm.length; e++) if ((t.entTerm[e] as number) >= v || t.entCount[e] === 0) return false
  return true
}

/** Saves the encoded table (temp file + rename, never through a link); a cache that cannot be written costs only the next run's time. */
export async function saveTermCache(file: string, bytes: readonly Uint8Array[]): Promise<void> {
  await writeCacheFile(file, bytes).catch(() => undefined)
  // The pieces are encodeTermCache's own copies (~20 MB at 20,000 skills): given back now, not kept through the join
  // and the plan until a garbage collection.
  releaseBuffers(bytes)
}
