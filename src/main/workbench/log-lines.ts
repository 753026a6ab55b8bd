/**
 * Line-aware access to big log files for the raw-log view: windows that start and end on whole lines and know
 * their line number, the byte offset of a given line, and a text search. Never reads a whole file into memory:
 * files are streamed in 1 MB chunks, and the newline counts at every 1 MB boundary are remembered per file
 * version (path + size + mtime), so jumping around a 200 MB log costs one pass the first time only.
 */
import { promises as fsp } from 'node:fs'
import type { LogChunk, LogSearchResult } from '../../shared/api'

const CHUNK = 1024 * 1024
const NL = 0x0a
/** How far back a window start looks for the beginning of its line. */
const LINE_LOOKBACK = 64 * 1024
/** Files whose newline checkpoints are kept. */
const CACHED_FILES = 16
const MAX_MATCHES = 200
const MATCH_CONTEXT_CHARS = 240

type Handle = Awaited<ReturnType<typeof fsp.open>>

/** Newlines before each 1 MB boundary: `counts[k]` = newlines in bytes [0, k·CHUNK). */
const checkpoints = new Map<string, number[]>()

function keyOf(abs: string, size: number, mtimeMs: number): string {
  return `${abs}\u0000${size}\u0000${mtimeMs}`
}

function countNewlines(buf: Buffer, from = 0, to = buf.length): number {
  let n = 0
  for (let i = buf.indexOf(NL, from); i !== -1 && i < to; i = buf.indexOf(NL, i + 1)) n++
  return n
}

async function readAt(handle: Handle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(Math.max(0, length))
  const { bytesRead } = await handle.read(buf, 0, buf.length, position)
  return buf.subarray(0, bytesRead)
}

/** The checkpoint list of a file version, extended far enough to cover `offset`. */
async function checkpointsUpTo(handle: Handle, key: string, size: number, offset: number): Promise<number[]> {
  let counts = checkpoints.get(key)
  if (!counts) {
    counts = [0]
    checkpoints.set(key, counts)
    if (checkpoints.size > CACHED_FILES) checkpoints.delete(checkpoints.keys().next().value as string)
  }
  const need = Math.min(Math.floor(offset / CHUNK), Math.floor(size / CHUNK))
  while (counts.length - 1 < need) {
    const k = counts.length - 1
    const buf = await readAt(handle, k * CHUNK, CHUNK)
    counts.push(counts[k]! + countNewlines(buf))
  }
  return counts
}

/** How many newlines come before byte `offset`. */
async function newlinesBefore(handle: Handle, key: string, size: number, offset: number): Promise<number> {
  const counts = await checkpointsUpTo(handle, key, size, offset)
  const k = Math.floor(offset / CHUNK)
  const base = counts[Math.min(k, counts.length - 1)]!
  const from = Math.min(k, counts.length - 1) * CHUNK
  return base + countNewlines(await readAt(handle, from, offset - from))
}

/** Byte offset of the start of 1-based `line` (the file size when the file has fewer lines). */
async function offsetOfLine(handle: Handle, key: string, size: number, line: number): Promise<number> {
  const wanted = line - 1
  if (wanted <= 0) return 0
  const counts = await checkpointsUpTo(handle, key, size, size)
  let k = 0
  while (k + 1 < counts.length && counts[k + 1]! < wanted) k++
  let seen = counts[k]!
  for (let pos = k * CHUNK; pos < size; pos += CHUNK) {
    const buf = await readAt(handle, pos, CHUNK)
    for (let i = buf.indexOf(NL); i !== -1; i = buf.indexOf(NL, i + 1)) {
      if (++seen === wanted) return pos + i + 1
    }
  }
  return size
}

/** The start of the line holding byte `offset` (looking back at most LINE_LOOKBACK bytes; else a character start). */
async function lineStartOf(handle: Handle, offset: number): Promise<number> {
  if (offset <= 0) return 0
  const from = Math.max(0, offset - LINE_LOOKBACK)
  const back = await readAt(handle, from, offset - from)
  const nl = back.lastIndexOf(NL)
  if (nl !== -1) return from + nl + 1
  if (from === 0) return 0
  let i = 0
  while (i < 3 && ((back[back.length - 1 - i] ?? 0) & 0xc0) === 0x80) i++
  return offset - i
}

/** `offset`, moved forward past UTF-8 continuation bytes so a window never starts mid-character. */
async function charStartFrom(handle: Handle, offset: number, size: number): Promise<number> {
  if (offset <= 0 || offset >= size) return offset
  const head = await readAt(handle, offset, 3)
  let i = 0
  while (i < head.length && ((head[i] ?? 0) & 0xc0) === 0x80) i++
  return offset + i
}

/** Cuts a window's bytes after its last newline (so windows join into whole lines), else after its last whole character. */
function wholeLinesEnd(raw: Buffer): number {
  const nl = raw.lastIndexOf(NL)
  if (nl !== -1) return nl + 1
  for (let back = 1; back <= 4 && raw.length - back >= 0; back++) {
    const byte = raw[raw.length - back] ?? 0
    if ((byte & 0xc0) === 0x80) continue
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1
    return need > back ? raw.length - back : raw.length
  }
  return raw.length
}

export interface WindowRequest {
  /** Byte offset to start at (moved forward to a whole character): paging on from a previous window's end. */
  start?: number
  /** Byte offset inside the wanted first line (moved back to that line's start): a jump. */
  at?: number
  /** 1-based line to start at (instead of `start`). */
  line?: number
  /** Read up to this byte offset exactly (a window that must join the one after it); else `maxBytes`. */
  end?: number
  maxBytes: number
}

/** A window of whole lines of one file (already checked by the caller), with its first line's number. */
export async function readLineWindow(abs: string, file: string, files: string[], req: WindowRequest): Promise<LogChunk> {
  const handle = await fsp.open(abs, 'r')
  try {
    const st = await handle.stat()
    const size = st.size
    const key = keyOf(abs, size, st.mtimeMs)
    let start: number
    if (req.line !== undefined) start = await offsetOfLine(handle, key, size, req.line)
    else if (req.at !== undefined) start = await lineStartOf(handle, Math.min(req.at, size))
    else start = await charStartFrom(handle, Math.min(req.start ?? 0, size), size)
    const stop = req.end !== undefined ? Math.min(size, Math.max(start, req.end)) : Math.min(size, start + req.maxBytes)
    const raw = await readAt(handle, start, stop - start)
    const to = start + raw.length >= size || req.end !== undefined ? raw.length : Math.max(1, wholeLinesEnd(raw))
    const text = new TextDecoder('utf-8').decode(raw.subarray(0, Math.min(to, raw.length)))
    const firstLine = (await newlinesBefore(handle, key, size, start)) + 1
    return { file, size, start, end: start + Math.min(to, raw.length), firstLine, text, files }
  } finally {
    await handle.close()
  }
}

/**
 * Finds `query` (case-insensitive) in a file from byte `start`, line by line; returns each matching line's
 * offset, number and text (cut around the match), at most MAX_MATCHES.
 */
export async function searchFile(abs: string, file: string, query: string, start = 0): Promise<LogSearchResult> {
  const handle = await fsp.open(abs, 'r')
  try {
    const st = await handle.stat()
    const size = st.size
    const key = keyOf(abs, size, st.mtimeMs)
    let pos = await lineStartOf(handle, Math.min(start, size))
    let line = (await newlinesBefore(handle, key, size, pos)) + 1
    const needle = query.toLowerCase()
    const matches: LogSearchResult['matches'] = []
    while (pos < size && matches.length < MAX_MATCHES) {
      const raw = await readAt(handle, pos, CHUNK)
      const cut = pos + raw.length >= size ? raw.length : wholeLinesEnd(raw)
      let lineStart = 0
      while (lineStart < cut && matches.length < MAX_MATCHES) {
        const nl = raw.indexOf(NL, lineStart)
        const lineEnd = nl === -1 || nl >= cut ? cut : nl
        const text = raw.toString('utf8', lineStart, lineEnd)
        const at = text.toLowerCase().indexOf(needle)
        if (at !== -1) {
          const from = Math.max(0, at - MATCH_CONTEXT_CHARS / 2)
          matches.push({ offset: pos + lineStart, line, text: (from > 0 ? '…' : '') + text.slice(from, from + MATCH_CONTEXT_CHARS).replace(/\r$/, '') })
        }
        if (lineEnd === cut && (nl === -1 || nl >= cut)) {
          lineStart = cut
          break
        }
        lineStart = lineEnd + 1
        line++
      }
      pos += Math.max(lineStart, 1)
    }
    return { file, size, matches, limited: matches.length >= MAX_MATCHES }
  } finally {
    await handle.close()
  }
}
