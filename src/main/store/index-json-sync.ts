/**
 * A library's `index.json` catalogue of SKILL.md folders, kept current after we add, move or rename one: only when
 * the library already has one (never created unasked). The index is derived data: a failure leaves the skill
 * written and is told to the caller, never thrown. Called under the library lock.
 */
import fs from 'node:fs'
import path from 'node:path'
import { indexFileFor, syncSkillIndex } from './skill-index'
import { reasonOf } from '../../shared/api-error'
import { coded, refOf, type MessageRef } from '../../shared/error-codes'

/**
 * Null when the library has no index.json (nothing done); else why it was not updated (undefined: it was, or needed
 * nothing), in English and by code (index.*: `problemRef`, beside a problem only).
 */
export async function syncIndexJsonIfPresent(root: string): Promise<{ problem: string | undefined; problemRef?: MessageRef } | null> {
  // the library's own catalogue: at the root (Synapse's layout) or with the bookkeeping
  const rel = indexFileFor(root)
  if (!fs.lstatSync(path.join(root, rel), { throwIfNoEntry: false })) return null
  try {
    const r = await syncSkillIndex(root, rel)
    if (r.status !== 'skipped') return { problem: undefined }
    const left = coded('index.left_as_is')
    return { problem: r.reason ?? left.text, problemRef: r.reasonRef ?? refOf(left) }
  } catch (err) {
    // the English as it always was (the error's whole text); its code nested by reasonOf
    return { problem: `index.json could not be updated: ${(err as Error).message}`, problemRef: refOf(coded('index.not_updated', { reason: reasonOf(err) })) }
  }
}
