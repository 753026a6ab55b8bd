/**
 * The bytes deploys wrote or replaced, kept in the library by sha256 (`.skillbench/deploy/blobs/ab/abcd…`), so a
 * deploy can be undone and a changed deployed copy compared with what was placed. Content-addressed: the same
 * file deployed to ten targets is kept once. Written under the library lock, through containment.
 */
import { readContained, writeContained } from '../store/contained'
import { StoreError } from '../store/types'
import { sha256 } from './render'
import { coded } from '../../shared/error-codes'

const BLOB_DIR = '.skillbench/deploy/blobs'

function blobRel(hash: string): string {
  if (!/^[0-9a-f]{64}$/.test(hash)) throw new StoreError('invalid_input', coded('deploy.not_sha256', { hash: hash.slice(0, 80) }))
  return `${BLOB_DIR}/${hash.slice(0, 2)}/${hash}`
}

/** Keeps `bytes` (no-op when already kept); returns its hash. Call under the library lock. */
export async function putBlob(libraryRoot: string, bytes: Uint8Array): Promise<string> {
  const hash = sha256(bytes)
  const existing = await readContained(libraryRoot, blobRel(hash)).catch(() => null)
  if (existing && sha256(existing) === hash) return hash
  await writeContained(libraryRoot, blobRel(hash), bytes)
  return hash
}

/** The bytes kept under `hash`, or null (never kept, or damaged). */
export async function getBlob(libraryRoot: string, hash: string): Promise<Buffer | null> {
  const bytes = await readContained(libraryRoot, blobRel(hash)).catch(() => null)
  return bytes && sha256(bytes) === hash ? bytes : null
}
