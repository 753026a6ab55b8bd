import { randomBytes } from 'node:crypto'
import { promises as fsp } from 'node:fs'
import path from 'node:path'

/**
 * Writes a small app file (settings, secrets) atomically: temp file in the same folder, fsync, rename.
 *
 * `mode` applies to the temp file from its creation, so a secret is never readable by others even briefly.
 */
export async function writeFileAtomic(file: string, text: string, mode = 0o644): Promise<void> {
  const dir = path.dirname(file)
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 })
  const tmp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`)
  const handle = await fsp.open(tmp, 'wx', mode)
  try {
    await handle.writeFile(text, 'utf8')
    await handle.sync()
  } finally {
    await handle.close()
  }
  try {
    await fsp.chmod(tmp, mode)
    await fsp.rename(tmp, file)
  } catch (err) {
    await fsp.rm(tmp, { force: true })
    throw err
  }
}
