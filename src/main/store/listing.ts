/**
 * The library's listing in memory, pure: where each id lives, a listing patched after one file's write, and
 * skills as callers see them (their file's counters plus the uses recorded since the last fold).
 */
import { isLegacyPath } from '../../shared/legacy-paths'
import { lowerBound } from '../../shared/sorted'
import type { Skill, SkillList } from '../../shared/types'
import { withPendingUse, type PendingUse } from './ledger'
import { duplicateIds, freezeSkill } from './load'

/** Skill id → its file (active skills win over legacy ones with the same id), and the active ids more than one file carries. */
export function indexIds(skills: readonly Skill[]): { idPaths: Map<string, string>; duplicates: Map<string, string[]> } {
  const idPaths = new Map<string, string>()
  for (const skill of skills) {
    const prev = idPaths.get(skill.skill_id)
    if (!prev || (!skill.legacy && isLegacyPath(prev))) idPaths.set(skill.skill_id, skill.path)
  }
  return { idPaths, duplicates: duplicateIds(skills) }
}

/**
 * Keeps a listing sorted by path valid after a write of one skill file: replaces the skill at its path, inserts a
 * new one in path order, or removes one that is gone (`skill` null).
 */
export function patchListing(skills: Skill[], rel: string, skill: Skill | null): void {
  const at = lowerBound(skills, rel, (s) => s.path)
  const here = skills[at]?.path === rel
  if (skill && here) skills[at] = skill
  else if (skill) skills.splice(at, 0, skill)
  else if (here) skills.splice(at, 1)
}

/** The skill as callers see it: its file's counters plus the uses recorded since the last fold (only for the file its id lives in). */
export function presentSkill(skill: Skill, uses: ReadonlyMap<string, PendingUse>, idPaths: ReadonlyMap<string, string>): Skill {
  const use = uses.get(skill.skill_id)
  if (!use || idPaths.get(skill.skill_id) !== skill.path) return skill
  return freezeSkill({ ...skill, ...withPendingUse(skill, use) })
}

/** A copy of a listing as callers see it: legacy skills left out unless asked for, pending uses added. */
export function presentList(all: SkillList, includeLegacy: boolean | undefined, uses: ReadonlyMap<string, PendingUse>, idPaths: ReadonlyMap<string, string>): SkillList {
  const out: Skill[] = []
  for (const s of all.skills) {
    if (!includeLegacy && s.legacy) continue
    out.push(uses.size > 0 ? presentSkill(s, uses, idPaths) : s)
  }
  return { skills: out, errors: [...all.errors] }
}
