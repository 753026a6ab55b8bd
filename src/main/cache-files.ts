/**
 * Files in the user's cache folder (derived data: search index, curate term and stem caches, the scan cache). Each
 * is written whole — a private temp file (created exclusively, so never through a planted link) renamed over it —
 * so processes sharing the folder read the old file or the new one, never a mix; read never through a link. Not
 * fsynced: a lost or torn cache file costs only the time to rebuild it.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

function tempName(file: string): string {
  return `${file}.${process.pid}-${crypto.randomBytes(4).toString('hex')}.tmp`
}

/** Writes `file` whole (throws when it cannot; the temp file is removed). */
export function writeCacheFileSync(file: string, bytes: Uint8Array | string): void {
  const tmp = tempName(file)
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
    fs.writeFileSync(tmp, bytes, { mode: 0o600, flag: 'wx' })
    fs.renameSync(tmp, file)
  } catch (err) {
    fs.rmSync(tmp, { force: true })
    throw err
  }
}

/** Writes `file` whole, from one piece or several written in order (throws when it cannot; the temp file is removed). */
export async function writeCacheFile(file: string, bytes: Uint8Array | string | readonly Uint8Array[]): Promise<void> {
  const tmp = tempName(file)
  try {
    await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
    if (typeof bytes === 'string' || bytes instanceof Uint8Array) await fs.promises.writeFile(tmp, bytes, { mode: 0o600, flag: 'wx' })
    else {
      const handle = await fs.promises.open(tmp, 'wx', 0o600)
      try {
        for (const piece of bytes) {
          // A write may take part of a piece: go on from where it stopped.
          for (let off = 0; off < piece.byteLength; ) off += (await handle.write(piece, off, piece.byteLength - off)).bytesWritten
        }
      } finally {
        await handle.close()
      }
    }
    await fs.promises.rename(tmp, file)
  } catch (err) {
    await fs.promises.rm(tmp, { force: true }).catch(() => undefined)
    throw err
  }
}

/** The bytes of `file`, never through a link; null when absent or unreadable. */
export async function readCacheFile(file: string): Promise<Buffer | null> {
  let handle: fs.promises.FileHandle
  try {
    handle = await fs.promises.open(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0))
  } catch {
    return null
  }
  try {
    return await handle.readFile()
  } catch {
    return null
  } finally {
    await handle.close()
  }
}
