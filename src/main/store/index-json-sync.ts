/**
 * A library's `index.json` catalogue of SKILL.md folders, kept current after we add, move or rename one: only when
 * the library already has one (never created unasked). The index is derived data: a failure leaves the skill
 * written and is told to the caller, never thrown. Called under the library lock.
 */
import fs from 'node:fs'
import path from 'node:path'
import { indexFileFor, syncSkillIndex } from './skill-index'

/** Null when the library has no index.json (nothing done); else why it was not updated (undefined: it was, or needed nothing). */
export async function syncIndexJsonIfPresent(root: string): Promise<{ problem: string | undefined } | null> {
  // the library's own catalogue: at the root (Synapse's layout) or with the bookkeeping
  const rel = indexFileFor(root)
  if (!fs.lstatSync(path.join(root, rel), { throwIfNoEntry: false })) return null
  try {
    const r = await syncSkillIndex(root, rel)
    return { problem: r.status === 'skipped' ? (r.reason ?? 'index.json left as it is') : undefined }
  } catch (err) {
    return { problem: `index.json could not be updated: ${(err as Error).message}` }
  }
}
