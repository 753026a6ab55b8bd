import { describe, expect, it } from 'vitest'
import type { Skill } from '../../src/shared/types'
import { mergeBodies, mergeMeta, pickPrimary, splitSections } from '../../src/main/curate/merge-text'

function skill(over: Partial<Skill>): Skill {
  return {
    skill_id: '1', title: 't', usage_conditions: '', quality_index: 0.5, fetch_count: 0, related_code: '', task_directories: [],
    created_at: '2026-01-01T00:00:00', updated_at: '2026-01-01T00:00:00', last_used_at: null, user_preferences: '',
    format: 'agiagent', path: 'skill_1.md', body: '', hash: 'h', legacy: false, ...over
  }
}

describe('splitSections', () => {
  it('splits headings and blank-line blocks and keeps fenced code whole', () => {
    const s = splitSections('intro\n\n## A\n\npara one\nline two\n\n```\ncode\n\nmore code\n```\n\n## B\n- x\n- y\n')
    expect(s).toEqual([
      { heading: null, blocks: ['intro'] },
      { heading: '## A', blocks: ['para one\nline two', '```\ncode\n\nmore code\n```'] },
      { heading: '## B', blocks: ['- x\n- y'] }
    ])
  })
})

describe('mergeBodies', () => {
  it('keeps every distinct section once and drops repeated text', () => {
    const a = '# Sorting\n\nUse quicksort.\n\n## Pitfalls\n\nRecursion depth.\n'
    const b = '# Sorting\n\nUse   quicksort.\n\n## Pitfalls\n\nRecursion depth.\n\nStable sorts keep order.\n\n## Tests\n\nCheck empty arrays.\n'
    expect(mergeBodies([a, b])).toBe('# Sorting\n\nUse quicksort.\n\n## Pitfalls\n\nRecursion depth.\n\nStable sorts keep order.\n\n## Tests\n\nCheck empty arrays.\n')
  })

  it('drops a block contained in a kept one and returns the primary unchanged when nothing is new', () => {
    const a = 'Always run the tests before a release, then tag it.\n'
    expect(mergeBodies([a, 'always run the tests before a release\n'])).toBe(a)
    expect(mergeBodies([a, a, a])).toBe(a)
  })

  it('puts untitled text of other bodies before the first heading', () => {
    expect(mergeBodies(['## A\n\nx\n', 'lead text\n\n## A\n\ny\n'])).toBe('lead text\n\n## A\n\nx\n\ny\n')
  })

  it('handles empty input', () => {
    expect(mergeBodies([])).toBe('')
    expect(mergeBodies(['', ''])).toBe('')
  })
})

describe('mergeMeta and pickPrimary', () => {
  it('unions task dirs, sums fetch counts and weights quality by fetch_count + 1', () => {
    const a = skill({ skill_id: '1', quality_index: 0.9, fetch_count: 3, task_directories: ['output_a', 'output_b'] })
    const b = skill({ skill_id: '2', quality_index: 0.3, fetch_count: 0, task_directories: ['output_b', 'output_c'] })
    expect(mergeMeta(a, [b])).toEqual({ task_directories: ['output_a', 'output_b', 'output_c'], fetch_count: 3, quality_index: Math.round(((4 * 0.9 + 1 * 0.3) / 5) * 1000) / 1000 })
  })

  it('prefers higher quality, then more fetches, then the older skill', () => {
    const a = skill({ skill_id: '1', quality_index: 0.5, fetch_count: 9, path: 'a' })
    const b = skill({ skill_id: '2', quality_index: 0.6, fetch_count: 0, path: 'b' })
    const c = skill({ skill_id: '3', quality_index: 0.6, fetch_count: 0, created_at: '2025-01-01T00:00:00', path: 'c' })
    expect(pickPrimary([a, b]).skill_id).toBe('2')
    expect(pickPrimary([a, b, c]).skill_id).toBe('3')
  })
})
