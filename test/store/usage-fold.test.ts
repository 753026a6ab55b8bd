/** The fold's pure step (usage-fold.ts withUses): a skill file's text with pending uses added to its counters. */
import { describe, expect, it } from 'vitest'
import { parseSkillAt } from '../../src/main/store/load'
import { withUses } from '../../src/main/store/usage-fold'

const AGIAGENT = `---
skill_id: '1768616001'
title: Sort a CSV file
usage_conditions: when a CSV must be sorted
quality_index: 0.5
fetch_count: 3
related_code: ''
task_directories: []
created_at: '2026-01-17T10:28:34'
updated_at: '2026-01-17T10:28:34'
last_used_at: '2026-02-01T09:00:00'
user_preferences: ''
unknown_key: kept
---

Body text stays as it is.
`

const SKILL_MD = `---
name: pdf-reader
description: Read PDFs.
metadata:
  skillbench:
    skill_id: '42'
---

# PDF reader
`

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8')

/** The skill the new text reads as, at the same path. */
function reread(text: string, rel: string) {
  const r = parseSkillAt(bytes(text), { rel, format: rel.endsWith('SKILL.md') ? 'skill-md' : 'agiagent', legacy: false }, 0)
  if (!r.ok) throw new Error(r.reason)
  return r.skill
}

describe('withUses', () => {
  it('adds the count and keeps the later last use of an AGIAgent file, changing nothing else', () => {
    const next = withUses(bytes(AGIAGENT), 'skill_sort.md', { count: 2, last: '2026-03-01T10:00:00' })!
    expect(next.skill.fetch_count).toBe(3) // the skill as it was before the uses
    const after = reread(next.text, 'skill_sort.md')
    expect([after.fetch_count, after.last_used_at]).toEqual([5, '2026-03-01T10:00:00'])
    expect(next.text).toContain('unknown_key: kept')
    expect(next.text).toContain('updated_at: \'2026-01-17T10:28:34\'')
    expect(next.text.endsWith('Body text stays as it is.\n')).toBe(true)
    // an older use moves the count on, never the last-use time back
    const older = withUses(bytes(AGIAGENT), 'skill_sort.md', { count: 1, last: '2026-01-01T00:00:00' })!
    expect(reread(older.text, 'skill_sort.md').last_used_at).toBe('2026-02-01T09:00:00')
  })

  it('writes the counters of a SKILL.md under metadata.skillbench', () => {
    const next = withUses(bytes(SKILL_MD), 'tools/pdf-reader/SKILL.md', { count: 4, last: '2026-03-01T10:00:00' })!
    const after = reread(next.text, 'tools/pdf-reader/SKILL.md')
    expect([after.skill_id, after.fetch_count, after.last_used_at]).toEqual(['42', 4, '2026-03-01T10:00:00'])
    expect(next.text).toContain('# PDF reader')
  })

  it('rewrites nothing it cannot read as a skill: not a skill file name, bad front matter, not UTF-8', () => {
    const use = { count: 1, last: '2026-03-01T10:00:00' }
    expect(withUses(bytes(AGIAGENT), 'notes.txt', use)).toBeNull()
    expect(withUses(bytes('---\nskill_id: [unclosed\n---\nbody\n'), 'skill_bad.md', use)).toBeNull()
    expect(withUses(Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x0a]), 'skill_bin.md', use)).toBeNull()
  })
})
