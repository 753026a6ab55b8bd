/**
 * The persistent search index as one file: a small JSON header, then typed-array sections (8-byte aligned), so a
 * warm load reads only the sections it needs, each straight into a typed array.
 */
import fs from 'node:fs'
import zlib from 'node:zlib'

const MAGIC = 'SBSEARCH'
/** Bumped when the layout below changes. */
export const CODEC_VERSION = 3

export interface IndexHeader {
  codec: number
  tokenizer: number
  /** The version of the reasons cached for files that do not load (CACHED_REASONS_VERSION; none: an older build). */
  reasons?: number
  root: string
  docs: number
  vocab: number
  nnz: number
  /** Derived arrays (df, norms, postings) are present and match the forward index. */
  derived: boolean
  /** Names this saved index: a delta file applies only to the index it names. */
  nonce?: string
  /** In a delta file: the nonce of the index it applies to. */
  base?: string
  sections: Record<string, [offset: number, length: number]>
  /** CRC-32 of each section: a section damaged on disk is never used. */
  crc: Record<string, number>
}

type Section = Uint8Array | Uint32Array | Float64Array

/** Encodes sections (in the given order) after a header. */
export function encodeIndex(header: Omit<IndexHeader, 'sections' | 'codec' | 'crc'>, sections: Record<string, Section>): Buffer {
  return Buffer.concat(encodeIndexChunks(header, sections))
}

/**
 * The same file as encodeIndex, as the pieces to write one after another: the header, then each section as a view
 * of the caller's array (and the padding after it). Nothing large is copied: for big sections written once.
 */
export function encodeIndexChunks(header: Omit<IndexHeader, 'sections' | 'codec' | 'crc'>, sections: Record<string, Section>): Uint8Array[] {
  const names = Object.keys(sections)
  const bytes = (s: Section): Uint8Array => new Uint8Array(s.buffer, s.byteOffset, s.byteLength)
  const crc: Record<string, number> = {}
  for (const n of names) crc[n] = zlib.crc32(bytes(sections[n]!))
  // Offsets depend on the header's length, which depends on the offsets: lay out with room for them first.
  const layout = (headerLen: number): { header: string; at: Record<string, [number, number]> } => {
    let off = align(MAGIC.length + 8 + headerLen)
    const at: Record<string, [number, number]> = {}
    for (const n of names) {
      const s = sections[n]!
      at[n] = [off, s.byteLength]
      off = align(off + s.byteLength)
    }
    return { header: JSON.stringify({ ...header, codec: CODEC_VERSION, sections: at, crc }), at }
  }
  let guess = 256
  let l = layout(guess)
  while (Buffer.byteLength(l.header) > guess) {
    guess = Buffer.byteLength(l.header) + 64
    l = layout(guess)
  }
  const head = Buffer.alloc(align(MAGIC.length + 8 + guess))
  head.write(MAGIC, 0, 'latin1')
  head.writeUInt32LE(CODEC_VERSION, MAGIC.length)
  head.writeUInt32LE(guess, MAGIC.length + 4)
  head.write(l.header.padEnd(guess, ' '), MAGIC.length + 8, 'utf8')
  const out: Uint8Array[] = [head]
  for (const n of names) {
    const s = sections[n]!
    out.push(bytes(s))
    const pad = align(s.byteLength) - s.byteLength
    if (pad > 0) out.push(new Uint8Array(pad))
  }
  return out
}

function align(n: number): number {
  return (n + 7) & ~7
}

/** A cache file opened for reading, never through a link; null when absent or unreadable. */
function openCacheFile(file: string): number | null {
  try {
    return fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0))
  } catch {
    return null
  }
}

/**
 * Reads an index file section by section through one open descriptor: the warm query path reads only what it
 * needs, and a later lazy read sees the same file even when another process has replaced it meanwhile.
 */
export class IndexFile {
  private constructor(
    private fd: number,
    readonly header: IndexHeader
  ) {}

  /** Opens `file`; null when absent or not an index of this codec. */
  static open(file: string): IndexFile | null {
    const fd = openCacheFile(file)
    if (fd === null) return null
    try {
      const size = fs.fstatSync(fd).size
      const head = Buffer.alloc(MAGIC.length + 8)
      if (fs.readSync(fd, head, 0, head.length, 0) !== head.length || head.toString('latin1', 0, MAGIC.length) !== MAGIC) throw new Error('not an index')
      if (head.readUInt32LE(MAGIC.length) !== CODEC_VERSION) throw new Error('other codec')
      const len = head.readUInt32LE(MAGIC.length + 4)
      if (len > 1 << 20) throw new Error('header too long')
      const hb = Buffer.alloc(len)
      fs.readSync(fd, hb, 0, len, head.length)
      const header = JSON.parse(hb.toString('utf8')) as IndexHeader
      for (const [off, l] of Object.values(header.sections ?? {})) {
        if (!(off >= 0 && l >= 0 && off + l <= size && off % 8 === 0)) throw new Error('bad section')
      }
      return new IndexFile(fd, header)
    } catch {
      fs.closeSync(fd)
      return null
    }
  }

  private read(name: string): Buffer {
    if (this.fd < 0) throw new Error('search index file already closed')
    const s = this.header.sections[name]
    if (!s) throw new Error(`search index: no section ${name}`)
    // A fresh (8-aligned) buffer per section, so typed views need no copy.
    const buf = Buffer.allocUnsafeSlow(s[1])
    let got = 0
    while (got < s[1]) {
      const n = fs.readSync(this.fd, buf, got, s[1] - got, s[0] + got)
      if (n === 0) throw new Error('search index file is shorter than its header says')
      got += n
    }
    if (zlib.crc32(buf) !== this.header.crc?.[name]) throw new Error(`search index section ${name} is damaged`)
    return buf
  }

  /** The section as a Buffer of its own (no copy: Buffer.from of a Uint8Array would copy it byte by byte). */
  buffer(name: string): Buffer {
    return this.read(name)
  }

  bytes(name: string): Uint8Array {
    const b = this.read(name)
    return new Uint8Array(b.buffer, b.byteOffset, b.length)
  }

  u32(name: string): Uint32Array {
    const b = this.read(name)
    return new Uint32Array(b.buffer, b.byteOffset, b.length / 4)
  }

  f64(name: string): Float64Array {
    const b = this.read(name)
    return new Float64Array(b.buffer, b.byteOffset, b.length / 8)
  }

  text(name: string): string {
    return this.read(name).toString('utf8')
  }

  close(): void {
    if (this.fd >= 0) fs.closeSync(this.fd)
    this.fd = -1
  }
}
