/**
 * Atomic text write for the memory files and pending proposals: the store's atomic write
 * (temp file + fsync + rename, refuses symlinks), after creating the folder it needs.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import { writeFileAtomic as storeWriteFileAtomic } from '../store/atomic'

/** Writes `text` (UTF-8) to `file` atomically, creating its folder. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true })
  await storeWriteFileAtomic(file, text)
}
