import { promises as fsp } from 'node:fs'
import path from 'node:path'
import { writeFileAtomic as storeWriteFileAtomic } from '../store/atomic'

/**
 * Writes a small app file (settings, secrets) atomically through the store's atomic write, creating its
 * folder (0700). `mode` applies to the temp file from its creation, so a secret is never readable by others.
 */
export async function writeFileAtomic(file: string, text: string, mode = 0o644): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
  await storeWriteFileAtomic(file, text, { mode })
}
