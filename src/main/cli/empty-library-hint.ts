import { promises as fsp } from 'node:fs'
import path from 'node:path'
import { coded, type CodedText } from '../../shared/error-codes'
import { isFolder } from '../store/is-folder'

/**
 * Why a library lists no skill, when it holds nothing at all (not even retired ones): most often a data root given
 * as --library (its libraries are its users' <user>/general/experience), said with the flags that address one.
 * Undefined for a library with a legacy/ folder (its skills are retired, `--legacy` shows them).
 */
export async function emptyLibraryHint(dir: string): Promise<CodedText | undefined> {
  if (await isFolder(path.join(dir, 'legacy'))) return undefined
  const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => [])
  const users: string[] = []
  for (const e of entries) {
    if (e.isDirectory() && !e.name.startsWith('.') && (await isFolder(path.join(dir, e.name, 'general', 'experience')))) users.push(e.name)
  }
  users.sort()
  return users.length > 0 ? coded('library.is_data_root', { path: dir, users: users.join(', ') }) : coded('library.no_skills_here', { path: dir })
}
