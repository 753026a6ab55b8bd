/** What callers ask to write, checked before the disk (store/skill-input.ts). */
import { describe, expect, it } from 'vitest'
import { checkNewSkill, checkSkillMdName, newSkillMeta, validateMeta } from '../../src/main/store/skill-input'
import type { NewSkillInput } from '../../src/main/store/types'

/** The StoreError `fn` throws, as code and message code (undefined when it throws nothing). */
function refusal(fn: () => void): { code: string; messageCode: string } | undefined {
  try {
    fn()
  } catch (err) {
    const e = err as { code: string; messageCode: string }
    return { code: e.code, messageCode: e.messageCode }
  }
  return undefined
}

describe('validateMeta', () => {
  it('accepts the values a skill file may hold, and a patch that names none', () => {
    expect(refusal(() => validateMeta({}))).toBeUndefined()
    expect(refusal(() => validateMeta({ skill_id: '1768616001', quality_index: 0, fetch_count: 0, title: 'x', task_directories: [] }))).toBeUndefined()
    expect(refusal(() => validateMeta({ quality_index: 1, fetch_count: 12, task_directories: ['output_a'] }))).toBeUndefined()
  })

  it('refuses each value out of range, with its own code', () => {
    expect(refusal(() => validateMeta({ quality_index: 1.01 }))).toEqual({ code: 'invalid_input', messageCode: 'skill.quality_range' })
    expect(refusal(() => validateMeta({ quality_index: Number.NaN }))?.messageCode).toBe('skill.quality_range')
    expect(refusal(() => validateMeta({ fetch_count: -1 }))?.messageCode).toBe('skill.fetch_count_range')
    expect(refusal(() => validateMeta({ fetch_count: 1.5 }))?.messageCode).toBe('skill.fetch_count_range')
    expect(refusal(() => validateMeta({ title: '  ' }))?.messageCode).toBe('skill.title_empty')
    expect(refusal(() => validateMeta({ task_directories: ['a', 3 as unknown as string] }))?.messageCode).toBe('skill.task_dirs_list')
    expect(refusal(() => validateMeta({ skill_id: '../x' }))).toEqual({ code: 'invalid_id', messageCode: 'skill.invalid_id' })
  })
})

describe('a new skill', () => {
  it('needs a title and a body', () => {
    expect(refusal(() => checkNewSkill({ title: ' ', body: 'b' }))?.messageCode).toBe('skill.new_needs_title')
    expect(refusal(() => checkNewSkill({ title: 't', body: undefined as unknown as string }))?.messageCode).toBe('skill.new_needs_body')
    expect(refusal(() => checkNewSkill({ title: 't', body: '' }))).toBeUndefined()
  })

  it('gets the defaults for what the caller left out, created and updated now', () => {
    expect(newSkillMeta({ title: 'T', body: 'b' }, '42', '2026-12-02T15:00:00')).toEqual({
      skill_id: '42',
      title: 'T',
      usage_conditions: '',
      quality_index: 0.5,
      fetch_count: 0,
      related_code: '',
      task_directories: [],
      created_at: '2026-12-02T15:00:00',
      updated_at: '2026-12-02T15:00:00',
      last_used_at: null,
      user_preferences: ''
    })
    const input: NewSkillInput = { title: 'T', body: 'b', usage_conditions: 'u', quality_index: 0.9, fetch_count: 3, related_code: 'c', task_directories: ['o'], created_at: '2026-01-01T00:00:00', user_preferences: 'p' }
    expect(newSkillMeta(input, '42', '2026-12-02T15:00:00')).toMatchObject({ usage_conditions: 'u', quality_index: 0.9, fetch_count: 3, related_code: 'c', task_directories: ['o'], created_at: '2026-01-01T00:00:00', updated_at: '2026-12-02T15:00:00', user_preferences: 'p' })
  })

  it('as a SKILL.md folder, has a lowercase kebab name the library does not keep for itself', () => {
    expect(refusal(() => checkSkillMdName('pdf-reader'))).toBeUndefined()
    expect(refusal(() => checkSkillMdName('PDF Reader'))?.messageCode).toBe('skill.skillmd_bad_name')
    expect(refusal(() => checkSkillMdName('-pdf'))?.messageCode).toBe('skill.skillmd_bad_name')
    expect(refusal(() => checkSkillMdName('a'.repeat(65)))?.messageCode).toBe('skill.skillmd_bad_name')
    expect(refusal(() => checkSkillMdName('legacy'))).toEqual({ code: 'invalid_input', messageCode: 'skill.reserved_name' })
  })
})
