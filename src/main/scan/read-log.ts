/**
 * Streaming readers for logs and JSONL sessions: large chunks, bounded memory, never a whole multi-GB file.
 */
import fs from 'node:fs'
import { setImmediate as nextTurn } from 'node:timers/promises'

/** Chunk size for log reads: large enough that per-chunk overhead vanishes, small enough to keep memory flat. */
export const READ_CHUNK_BYTES = 1024 * 1024

/** An open file, as much of `fs.promises.FileHandle` as the readers need. */
export interface LogHandle {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>
  close(): Promise<void>
}

/** Something that opens files: the real `fs` by default, a counting wrapper in tests. */
export interface LogReader {
  open(path: string): Promise<LogHandle>
}

/**
 * The real file system through plain descriptors: `fs.promises.FileHandle` costs several times more CPU per
 * open/read/close, which adds up over thousands of task folders.
 */
export const FS_READER: LogReader = {
  open: (p) =>
    new Promise((resolve, reject) => {
      fs.open(p, 'r', (err, fd) => (err ? reject(err) : resolve(fdHandle(fd))))
    })
}

function fdHandle(fd: number): LogHandle {
  return {
    read: (buffer, offset, length, position) =>
      new Promise((resolve, reject) => {
        fs.read(fd, buffer, offset, length, position, (err, bytesRead) => (err ? reject(err) : resolve({ bytesRead })))
      }),
    close: () =>
      new Promise((resolve, reject) => {
        fs.close(fd, (err) => (err ? reject(err) : resolve()))
      })
  }
}

/** Reused read buffers: reading a multi-GB root allocates a handful of chunks, not one per read. */
const pool: Buffer[] = []

/**
 * Streams a file's bytes to `onChunk` (from `start`); resolves with the byte count. Rejects on I/O errors or abort.
 * The chunk is a view of a reused buffer: valid only during the call (copy what you keep).
 * `length`: read at most this many bytes (a size from `stat`: no extra read to learn the end, and a log
 * being appended is read exactly as far as it was keyed).
 */
export async function readChunks(
  filePath: string,
  onChunk: (chunk: Buffer) => void,
  opts: { reader?: LogReader; signal?: AbortSignal; start?: number; length?: number } = {}
): Promise<number> {
  const reader = opts.reader ?? FS_READER
  opts.signal?.throwIfAborted()
  const handle = await reader.open(filePath)
  const buf = pool.pop() ?? Buffer.allocUnsafe(READ_CHUNK_BYTES)
  let position = opts.start ?? 0
  let total = 0
  const max = opts.length ?? Infinity
  try {
    while (total < max) {
      opts.signal?.throwIfAborted()
      const { bytesRead } = await handle.read(buf, 0, Math.min(buf.length, max - total), position)
      if (bytesRead === 0) {
        break
      }
      position += bytesRead
      total += bytesRead
      onChunk(buf.subarray(0, bytesRead))
    }
  } finally {
    pool.push(buf)
    await handle.close()
  }
  return total
}

/** Longest synchronous stretch of `readChunksSliced` before it yields to the event loop. */
const SLICE_MS = 8

/**
 * `readChunks` for local logs with synchronous reads, yielding to the event loop whenever a slice of SLICE_MS
 * is used up (so the app stays responsive), which spares the thread-pool round trip of every open, read and
 * close: on a cold scan of thousands of files that is a large share of the time. Same contract otherwise.
 */
export async function readChunksSliced(
  filePath: string,
  onChunk: (chunk: Buffer) => void,
  opts: { signal?: AbortSignal; start?: number; length?: number } = {}
): Promise<number> {
  opts.signal?.throwIfAborted()
  await slice.pause()
  const fd = fs.openSync(filePath, OPEN_NONBLOCKING)
  const buf = pool.pop() ?? Buffer.allocUnsafe(READ_CHUNK_BYTES)
  let position = opts.start ?? 0
  let total = 0
  const max = opts.length ?? Infinity
  try {
    while (total < max) {
      const bytesRead = fs.readSync(fd, buf, 0, Math.min(buf.length, max - total), position)
      if (bytesRead === 0) {
        break
      }
      position += bytesRead
      total += bytesRead
      onChunk(buf.subarray(0, bytesRead))
      if (total < max) {
        await slice.pause()
        opts.signal?.throwIfAborted()
      }
    }
  } finally {
    pool.push(buf)
    fs.closeSync(fd)
  }
  return total
}

/** Read-only; non-blocking where the platform has it, so a FIFO swapped in after discovery's stat cannot hang the open. */
const OPEN_NONBLOCKING =
  fs.constants.O_NONBLOCK === undefined ? 'r' : fs.constants.O_RDONLY | fs.constants.O_NONBLOCK

/** Shared by every sliced read: yields once the current slice of synchronous work is used up. */
const slice = {
  start: performance.now(),
  async pause(): Promise<void> {
    if (performance.now() - this.start >= SLICE_MS) {
      await nextTurn()
      this.start = performance.now()
    }
  }
}

/** Longest JSONL line kept; longer lines (embedded images, huge outputs) are skipped and counted. */
export const MAX_JSONL_LINE_CHARS = 32 * 1024 * 1024

/**
 * Streams a text file line by line through a non-fatal streaming TextDecoder (invalid UTF-8 → U+FFFD).
 * Lines longer than `maxLineChars` are dropped (reported through `onOverlong`), never accumulated.
 */
export async function readLines(
  filePath: string,
  onLine: (line: string) => void,
  opts: { reader?: LogReader; signal?: AbortSignal; maxLineChars?: number; onOverlong?: (chars: number) => void } = {}
): Promise<void> {
  const max = opts.maxLineChars ?? MAX_JSONL_LINE_CHARS
  const decoder = new TextDecoder('utf-8', { fatal: false })
  let pending = ''
  let dropping = 0
  const take = (text: string, last: boolean): void => {
    let start = 0
    for (;;) {
      const nl = text.indexOf('\n', start)
      if (nl === -1) {
        break
      }
      if (dropping) {
        opts.onOverlong?.(dropping + nl - start)
        dropping = 0
      } else {
        onLine(pending + text.slice(start, nl))
      }
      pending = ''
      start = nl + 1
    }
    const rest = text.slice(start)
    if (dropping) {
      dropping += rest.length
    } else if (pending.length + rest.length > max) {
      dropping = pending.length + rest.length
      pending = ''
    } else {
      pending += rest
    }
    if (last) {
      if (dropping) {
        opts.onOverlong?.(dropping)
      } else if (pending) {
        onLine(pending)
      }
      pending = ''
    }
  }
  await readChunks(filePath, (chunk) => take(decoder.decode(chunk, { stream: true }), false), opts)
  take(decoder.decode(), true)
}

/**
 * The last `maxChars` characters of a file, read from its end (for sessions analysed newest-first).
 * Reads at most 4 bytes per wanted character, so a multi-GB file costs only its tail.
 */
export async function readTail(filePath: string, maxChars: number, opts: { reader?: LogReader } = {}): Promise<{ text: string; cut: boolean }> {
  const size = (await fs.promises.stat(filePath)).size
  const wantBytes = Math.min(size, Math.max(0, maxChars) * 4 + 4)
  const start = size - wantBytes
  const parts: Buffer[] = []
  if (wantBytes > 0) {
    await readChunks(filePath, (c) => parts.push(Buffer.from(c)), { reader: opts.reader, start })
  }
  let text = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(parts))
  let cut = start > 0
  if (start > 0) {
    text = text.replace(/^\uFFFD+/, '') // a multi-byte char cut by the byte offset
  }
  if (text.length > maxChars) {
    text = text.slice(text.length - maxChars)
    cut = true
  }
  return { text, cut }
}
