/**
 * Which skills curation never proposes to change.
 *
 * - `pinned: true` in the front matter (AGIAgent) or `metadata.skillbench.pinned` (SKILL.md);
 * - by default, skills edited by hand: the store's `edited_by_hand` flag when set, or else an
 *   `updated_at` more than a minute after `created_at` that is not explained by tool use
 *   (`last_used_at` missing or more than a minute before `updated_at`). query_skill/rate_skill run
 *   right after a skill is used, so their writes carry a recent `last_used_at`; a later edit without use
 *   is taken as a person's edit. Skills whose dates cannot be read are not protected by this rule.
 */
import type { Skill } from '../../shared/types'

const MINUTE_MS = 60_000

function parseTime(value: string | null | undefined): number | null {
  if (!value) return null
  const t = Date.parse(value)
  return Number.isFinite(t) ? t : null
}

/** True when the skill looks edited by a person after it was created (rule above). */
export function looksEditedByHand(skill: Pick<Skill, 'created_at' | 'updated_at' | 'last_used_at' | 'edited_by_hand'>): boolean {
  if (skill.edited_by_hand !== undefined) return skill.edited_by_hand
  // The usual case, a skill never updated, without parsing dates (a large library has tens of thousands).
  if (skill.updated_at === skill.created_at) return false
  const created = parseTime(skill.created_at)
  const updated = parseTime(skill.updated_at)
  if (created === null || updated === null || updated - created <= MINUTE_MS) return false
  const used = parseTime(skill.last_used_at)
  return used === null || updated - used > MINUTE_MS
}

/** Why a skill is protected from curation, or null when it is not. */
export function protectionReason(skill: Skill, protectEdited: boolean): string | null {
  if (skill.pinned === true) return 'pinned'
  if (protectEdited && looksEditedByHand(skill)) return 'edited by hand after creation'
  return null
}
