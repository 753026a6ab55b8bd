/** What callers ask to write, checked before anything touches the disk, and a new skill's front matter. Pure. */
import { coded } from '../../shared/error-codes'
import { DEFAULT_QUALITY_INDEX, type SkillMeta } from '../../shared/types'
import { assertSkillId, reservedNameProblem } from './paths'
import { SKILL_MD_NAME } from './skill-meta'
import { StoreError, type NewSkillInput } from './types'

/** Refuses front matter values a skill file must not hold (throws invalid_input). */
export function validateMeta(meta: Partial<SkillMeta>): void {
  if (meta.skill_id !== undefined) assertSkillId(meta.skill_id)
  if (meta.quality_index !== undefined && !(Number.isFinite(meta.quality_index) && meta.quality_index >= 0 && meta.quality_index <= 1)) {
    throw new StoreError('invalid_input', coded('skill.quality_range'))
  }
  if (meta.fetch_count !== undefined && !(Number.isInteger(meta.fetch_count) && meta.fetch_count >= 0)) {
    throw new StoreError('invalid_input', coded('skill.fetch_count_range'))
  }
  if (meta.title !== undefined && (typeof meta.title !== 'string' || meta.title.trim() === '')) {
    throw new StoreError('invalid_input', coded('skill.title_empty'))
  }
  if (meta.task_directories !== undefined && !(Array.isArray(meta.task_directories) && meta.task_directories.every((t) => typeof t === 'string'))) {
    throw new StoreError('invalid_input', coded('skill.task_dirs_list'))
  }
}

/** A new skill needs a title and a body (checked before the lock is taken). */
export function checkNewSkill(input: NewSkillInput): void {
  if (typeof input.title !== 'string' || input.title.trim() === '') throw new StoreError('invalid_input', coded('skill.new_needs_title'))
  if (typeof input.body !== 'string') throw new StoreError('invalid_input', coded('skill.new_needs_body'))
}

/** A new skill's front matter: the caller's values, defaults for the rest, created and updated at `ts`. */
export function newSkillMeta(input: NewSkillInput, id: string, ts: string): SkillMeta {
  return {
    skill_id: id,
    title: input.title,
    usage_conditions: input.usage_conditions ?? '',
    quality_index: input.quality_index ?? DEFAULT_QUALITY_INDEX,
    fetch_count: input.fetch_count ?? 0,
    related_code: input.related_code ?? '',
    task_directories: input.task_directories ?? [],
    created_at: input.created_at ?? ts,
    updated_at: ts,
    last_used_at: null,
    user_preferences: input.user_preferences ?? ''
  }
}

/** A SKILL.md folder name: lowercase letters, digits and hyphens (≤ 64), and none the library keeps for itself. */
export function checkSkillMdName(name: string): void {
  if (!SKILL_MD_NAME.test(name)) throw new StoreError('invalid_input', coded('skill.skillmd_bad_name', { name: JSON.stringify(name.slice(0, 70)) }))
  const reserved = reservedNameProblem(name)
  if (reserved) throw new StoreError('invalid_input', reserved)
}
