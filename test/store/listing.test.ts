/** The library's listing in memory (store/listing.ts): ids, patches after a write, skills with pending uses. */
import { describe, expect, it } from 'vitest'
import type { Skill, SkillList } from '../../src/shared/types'
import type { PendingUse } from '../../src/main/store/ledger'
import { indexIds, patchListing, presentList, presentSkill } from '../../src/main/store/listing'

function skill(id: string, path: string, more: Partial<Skill> = {}): Skill {
  return { skill_id: id, path, title: id, legacy: path.startsWith('legacy/'), fetch_count: 1, last_used_at: '2026-01-01T00:00:00', format: 'agiagent', ...more } as Skill
}

describe('indexIds', () => {
  it('points an id at its active file over a legacy one, and names active ids two files carry', () => {
    const skills = [skill('1', 'legacy/skill_a.md'), skill('1', 'skill_a.md'), skill('2', 'skill_b.md'), skill('2', 'skill_b2.md'), skill('3', 'legacy/skill_c.md'), skill('3', 'skill_c.md'), skill('3', 'legacy/skill_c2.md')]
    const { idPaths, duplicates } = indexIds(skills)
    expect(Object.fromEntries(idPaths)).toEqual({ '1': 'skill_a.md', '2': 'skill_b.md', '3': 'skill_c.md' })
    expect(Object.fromEntries(duplicates)).toEqual({ '2': ['skill_b.md', 'skill_b2.md'] })
  })
})

describe('patchListing', () => {
  it('replaces the skill at its path, inserts a new one in path order and removes one that is gone', () => {
    const list = [skill('1', 'a.md'), skill('3', 'c.md')]
    patchListing(list, 'b.md', skill('2', 'b.md'))
    expect(list.map((s) => s.path)).toEqual(['a.md', 'b.md', 'c.md'])
    patchListing(list, 'c.md', skill('3', 'c.md', { title: 'renamed' }))
    expect(list.map((s) => s.title)).toEqual(['1', '2', 'renamed'])
    patchListing(list, 'a.md', null)
    patchListing(list, 'zz.md', null) // not listed: nothing to remove
    expect(list.map((s) => s.path)).toEqual(['b.md', 'c.md'])
    patchListing(list, 'd.md', skill('4', 'd.md'))
    expect(list.map((s) => s.path)).toEqual(['b.md', 'c.md', 'd.md'])
  })
})

describe('presenting skills with the uses not folded yet', () => {
  const uses = new Map<string, PendingUse>([['1', { count: 2, last: '2026-03-01T00:00:00' }]])
  const idPaths = new Map([['1', 'skill_a.md']])

  it('adds the uses to the file the id lives in, and to no other copy', () => {
    const shown = presentSkill(skill('1', 'skill_a.md'), uses, idPaths)
    expect([shown.fetch_count, shown.last_used_at]).toEqual([3, '2026-03-01T00:00:00'])
    expect(Object.isFrozen(shown)).toBe(true)
    const legacy = skill('1', 'legacy/skill_a.md')
    expect(presentSkill(legacy, uses, idPaths)).toBe(legacy)
    const other = skill('2', 'skill_b.md')
    expect(presentSkill(other, uses, idPaths)).toBe(other)
  })

  it('lists a copy: legacy skills only when asked for', () => {
    const all: SkillList = { skills: [skill('1', 'skill_a.md'), skill('1', 'legacy/skill_a.md')], errors: [{ path: 'x.md', reason: 'bad', kind: 'unreadable' }] }
    const active = presentList(all, false, uses, idPaths)
    expect(active.skills.map((s) => [s.path, s.fetch_count])).toEqual([['skill_a.md', 3]])
    expect(active.errors).toEqual(all.errors)
    expect(active.errors).not.toBe(all.errors)
    expect(presentList(all, true, new Map(), idPaths).skills).toEqual(all.skills)
    expect(all.skills[0]!.fetch_count).toBe(1) // the listing itself is never changed
  })
})
