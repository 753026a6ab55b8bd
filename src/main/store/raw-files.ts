/**
 * Library files read and written as they are (the editor's raw view, copied code files): reads refuse links and
 * non-UTF-8 text; a write is guarded by the caller's base hash, compared with the file's bytes under the library
 * lock, so no write is built on a stale read.
 */
import fs from 'node:fs'
import path from 'node:path'
import { coded } from '../../shared/error-codes'
import { isLibraryPartOfBookkeeping } from '../../shared/legacy-paths'
import { isTempName, writeFileAtomic } from './atomic'
import { containedFilePath } from './contained'
import { hashBytes } from './load'
import { checkRelPath, resolveInside } from './paths'
import { decodeSkillBytes, parseReasonParam } from './skill-file'
import { StoreError } from './types'

/** A file's text and the hash of its bytes (strict UTF-8). */
export async function readRawFile(root: string, relPath: string): Promise<{ text: string; hash: string }> {
  const abs = await resolveInside(root, relPath)
  let bytes: Buffer
  try {
    bytes = await fs.promises.readFile(abs)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new StoreError('not_found', coded('path.does_not_exist', { path: relPath }))
    if (code === 'EISDIR') throw new StoreError('invalid_input', coded('path.is_folder', { path: relPath }))
    throw err
  }
  const decoded = decodeSkillBytes(bytes)
  if (!decoded.ok) throw new StoreError('not_utf8', coded('file.problem', { path: relPath, reason: parseReasonParam(decoded) }))
  return { text: decoded.text, hash: hashBytes(bytes) }
}

/** Reads a file's current bytes for a guarded rewrite (under the lock): refuses links, compares the base hash. */
export async function readForWrite(root: string, rel: string, baseHash: string | undefined): Promise<{ abs: string; bytes: Buffer; hash: string }> {
  const abs = await containedFilePath(root, rel, { createDirs: false })
  let bytes: Buffer
  try {
    bytes = await fs.promises.readFile(abs)
  } catch {
    throw new StoreError(baseHash ? 'conflict' : 'not_found', coded('path.gone_from_disk', { path: rel }))
  }
  const hash = hashBytes(bytes)
  if (baseHash !== undefined && hash !== baseHash) {
    throw new StoreError('conflict', coded('skill.changed_since_read', { path: rel }))
  }
  return { abs, bytes, hash }
}

/** The path a raw write may go to (checked before the lock): no temp file name, no bookkeeping file. */
export function writablePath(relPath: string): string {
  const rel = checkRelPath(relPath)
  if (isTempName(path.posix.basename(rel))) throw new StoreError('invalid_input', coded('file.temp_name'))
  // retired SKILL.md folders and their backed-up code (.skillbench/legacy/, .skillbench/codes/) are the library's; the rest is bookkeeping
  if ((rel === '.skillbench' || rel.startsWith('.skillbench/')) && !isLibraryPartOfBookkeeping(rel)) throw new StoreError('invalid_input', coded('file.bookkeeping'))
  return rel
}

/**
 * Writes `bytes` at `rel` (under the lock): `baseHash` null = only a new file; a string = only over a file with
 * exactly that hash; undefined = whatever is there. A text file that is not UTF-8 is never overwritten.
 */
export async function writeGuardedFile(root: string, rel: string, bytes: Uint8Array, baseHash: string | null | undefined, textFile: boolean): Promise<void> {
  // Folders on the way must be real folders inside the library (made when missing), the target no link.
  const abs = await containedFilePath(root, rel)
  let exists = true
  try {
    await fs.promises.lstat(abs)
  } catch {
    exists = false
  }
  if (baseHash === null) {
    await writeFileAtomic(abs, bytes, { mustNotExist: true })
  } else {
    if (exists) {
      const current = await readForWrite(root, rel, baseHash)
      if (textFile && !decodeSkillBytes(current.bytes).ok) {
        throw new StoreError('not_utf8', coded('file.not_utf8_never_rewritten', { path: rel }))
      }
    } else if (baseHash !== undefined) {
      throw new StoreError('conflict', coded('path.gone_from_disk', { path: rel }))
    }
    await writeFileAtomic(abs, bytes)
  }
}
