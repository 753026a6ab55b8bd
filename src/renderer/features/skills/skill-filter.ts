/** Pure filtering and sorting of the skill list (no React, tested directly). */
import type { SkillSummary } from '../../../shared/api'

export type SkillSortKey = 'quality' | 'fetch' | 'lastUsed' | 'created' | 'title'
export type LegacyFilter = 'active' | 'legacy' | 'all'

export interface SkillFilter {
  sort: SkillSortKey
  descending: boolean
  format: 'all' | 'agiagent' | 'skill-md'
  legacy: LegacyFilter
  minQuality: number
  /** Plain substring over title / usage / id; '' = none. */
  text: string
}

export const DEFAULT_FILTER: SkillFilter = { sort: 'quality', descending: true, format: 'all', legacy: 'active', minQuality: 0, text: '' }

function sortValue(skill: SkillSummary, key: SkillSortKey): number | string {
  switch (key) {
    case 'quality':
      return skill.quality_index
    case 'fetch':
      return skill.fetch_count
    case 'lastUsed':
      return skill.last_used_at ?? ''
    case 'created':
      return skill.created_at
    case 'title':
      return skill.title.toLowerCase()
  }
}

/** Applies the filter and returns a new, sorted array (ties broken by skill_id for a stable order). */
export function filterSkills(skills: readonly SkillSummary[], filter: SkillFilter): SkillSummary[] {
  const text = filter.text.trim().toLowerCase()
  const kept = skills.filter(
    (s) =>
      (filter.legacy === 'all' || (filter.legacy === 'legacy') === s.legacy) &&
      (filter.format === 'all' || s.format === filter.format) &&
      s.quality_index >= filter.minQuality &&
      (!text || s.title.toLowerCase().includes(text) || s.usage_conditions.toLowerCase().includes(text) || s.skill_id.includes(text))
  )
  const dir = filter.descending ? -1 : 1
  return kept.sort((a, b) => {
    const x = sortValue(a, filter.sort)
    const y = sortValue(b, filter.sort)
    if (x < y) return -dir
    if (x > y) return dir
    return a.skill_id < b.skill_id ? -1 : a.skill_id > b.skill_id ? 1 : 0
  })
}
