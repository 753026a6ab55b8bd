/**
 * Atomic text write for the memory files: temp file in the same folder (exclusive create), fsync,
 * rename over the target. A symlinked target is refused (a rename would replace it, but the user
 * pointed it somewhere on purpose, so we say so instead).
 *
 * Kept local because the store's atomic helper did not exist when memory landed; swap for it
 * (`src/main/store/atomic.ts`) when unifying.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'

/** Writes `text` (UTF-8) to `file` atomically, creating its folder. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const dir = path.dirname(file)
  await fs.mkdir(dir, { recursive: true })
  const st = await fs.lstat(file).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') {
      return undefined
    }
    throw err
  })
  if (st && !st.isFile()) {
    throw new Error(`refusing to write ${file}: it is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}`)
  }
  const tmp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`)
  const handle = await fs.open(tmp, 'wx', st ? st.mode & 0o777 : 0o644)
  try {
    await handle.writeFile(text, 'utf8')
    await handle.sync()
  } finally {
    await handle.close()
  }
  try {
    await fs.rename(tmp, file)
  } catch (err) {
    await fs.rm(tmp, { force: true })
    throw err
  }
}
