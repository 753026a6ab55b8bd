import { promises as fsp } from 'node:fs'
import path from 'node:path'
import { coded, type CodedText } from '../../shared/error-codes'
import { AGIAGENT_LEGACY_DIR, SKILL_MD_LEGACY_DIR } from '../../shared/legacy-paths'
import { isFolder } from '../store/is-folder'

/**
 * Why a library lists no skill, when it holds nothing at all (not even retired ones): most often a data root given
 * as --library (its libraries are its users' <user>/general/experience), said with the flags that address one.
 * Undefined for a library with retired skills, in either legacy folder (AGIAgent's `legacy/`, a SKILL.md library's
 * `.skillbench/legacy/`): `--legacy` shows them. An empty legacy folder holds none.
 */
export async function emptyLibraryHint(dir: string): Promise<CodedText | undefined> {
  for (const legacy of [AGIAGENT_LEGACY_DIR, SKILL_MD_LEGACY_DIR]) {
    if (await holdsSomething(path.join(dir, legacy))) return undefined
  }
  const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => [])
  const users: string[] = []
  for (const e of entries) {
    if (e.isDirectory() && !e.name.startsWith('.') && (await isFolder(path.join(dir, e.name, 'general', 'experience')))) users.push(e.name)
  }
  users.sort()
  return users.length > 0 ? coded('library.is_data_root', { path: dir, users: users.join(', ') }) : coded('library.no_skills_here', { path: dir })
}

/** True for a folder with at least one entry (a retired skill's file or folder); false when absent, empty or unreadable. */
async function holdsSomething(folder: string): Promise<boolean> {
  if (!(await isFolder(folder))) return false
  const dir = await fsp.opendir(folder).catch(() => null)
  if (!dir) return false
  try {
    for await (const e of dir) if (!e.name.startsWith('.')) return true
    return false
  } catch {
    return false
  }
}
