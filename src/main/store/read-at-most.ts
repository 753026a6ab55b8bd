/**
 * Reads a file with a size limit that holds for what is actually read: the file is opened first (O_NONBLOCK, so a
 * FIFO or a device never blocks), checked through its descriptor (a regular file, whatever the path was a link to),
 * and at most `maxBytes + 1` bytes are read from it — a file that grew after any earlier stat is still refused, and
 * there is no window between the check and the read.
 */
import fs from 'node:fs'

export type ReadAtMost =
  | { kind: 'ok'; bytes: Buffer; stat: fs.Stats }
  /** More than `maxBytes` bytes (at the stat or at the read). */
  | { kind: 'too_large'; stat: fs.Stats }
  /** A FIFO, socket, device or folder (what the opened descriptor is). */
  | { kind: 'not_regular'; stat: fs.Stats }
  /** The last path component is a link and links were not to be followed (O_NOFOLLOW). */
  | { kind: 'link' }

/**
 * Reads `abs` if it is a regular file of at most `maxBytes` bytes. Links are followed only with `followLinks`
 * (the caller was named that path by the person); otherwise a link is `{ kind: 'link' }`. Other open and read
 * errors (ENOENT, EACCES, EIO…) are thrown as they are.
 */
export async function readFileAtMost(abs: string, maxBytes: number, opts: { followLinks?: boolean } = {}): Promise<ReadAtMost> {
  const flags = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (opts.followLinks ? 0 : (fs.constants.O_NOFOLLOW ?? 0))
  let fh: fs.promises.FileHandle
  try {
    fh = await fs.promises.open(abs, flags)
  } catch (err) {
    if (!opts.followLinks && (err as NodeJS.ErrnoException).code === 'ELOOP') return { kind: 'link' }
    throw err
  }
  try {
    const stat = await fh.stat()
    if (!stat.isFile()) return { kind: 'not_regular', stat }
    if (stat.size > maxBytes) return { kind: 'too_large', stat }
    const bytes = await readHandleAtMost(fh, stat.size, maxBytes)
    return bytes ? { kind: 'ok', bytes, stat } : { kind: 'too_large', stat }
  } finally {
    await fh.close()
  }
}

/**
 * Reads an opened file from its current position: at most `maxBytes` bytes, or null when it has more (one byte
 * over the limit tells a file that grew since `sizeHint`, its size at the caller's fstat). The buffer grows only
 * if the file did.
 */
export async function readHandleAtMost(fh: fs.promises.FileHandle, sizeHint: number, maxBytes: number): Promise<Buffer | null> {
  let buf = Buffer.allocUnsafe(Math.min(sizeHint, maxBytes) + 1)
  let got = 0
  for (;;) {
    if (got === buf.length) {
      if (buf.length > maxBytes) break
      const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, maxBytes + 1))
      buf.copy(bigger, 0, 0, got)
      buf = bigger
    }
    const { bytesRead } = await fh.read(buf, got, buf.length - got, null)
    if (bytesRead === 0) break
    got += bytesRead
  }
  return got > maxBytes ? null : buf.subarray(0, got)
}
