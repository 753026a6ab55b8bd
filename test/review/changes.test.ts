import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Skill } from '../../src/shared/types'
import { legacyMoveChanges, unmovableReason } from '../../src/main/review/changes'

const NOW = new Date('2026-11-21T12:00:00Z')

function skillAt(p: string): Skill {
  const base = { skill_id: '1', title: 't', usage_conditions: '', body: 'b', hash: 'h', legacy: false }
  return { ...base, path: p, format: p.endsWith('/SKILL.md') || p === 'SKILL.md' ? 'skill-md' : 'agiagent' } as unknown as Skill
}

/** The rules written out plainly (one scan of every path per question). */
function plainUnmovable(p: string, all: string[]): boolean {
  const dir = p.split('/').slice(0, -1).join('/')
  return all.some((q) => q !== p && q.startsWith(`${dir}/`) && q.endsWith('SKILL.md'))
}
function plainTaken(paths: Set<string>, candidate: string, isDir: boolean): boolean {
  return paths.has(candidate) || (isDir && [...paths].some((q) => q.startsWith(`${candidate}/`)))
}

const folder = fc.constantFrom('a', 'b', 'a/x', 'a/x/y', 'b/z', '.curated', '.curated/a')
const skillMdPath = folder.map((f) => `${f}/SKILL.md`)

describe('moving skills to legacy/ on large libraries', () => {
  it('a SKILL.md folder holding other skills is unmovable, exactly as the plain rule says', () => {
    fc.assert(
      fc.property(fc.uniqueArray(skillMdPath, { maxLength: 7 }), (paths) => {
        const all = [...paths, 'skill_1_x.md']
        for (const p of paths) expect(unmovableReason(skillAt(p), all) !== null).toBe(plainUnmovable(p, all))
      }),
      { numRuns: 200 }
    )
  })

  it('picks the same free legacy/ names as the plain rule, for files and whole folders', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.oneof(skillMdPath, skillMdPath.map((p) => `.skillbench/legacy/${p}`), fc.constantFrom('skill_1_x.md', 'legacy/skill_1_x.md')), { maxLength: 8 }), (paths) => {
        const existing = new Set(paths)
        const reserved = new Set<string>()
        for (const p of paths.filter((q) => !q.startsWith('legacy/') && !q.startsWith('.skillbench/'))) {
          const moved = legacyMoveChanges(skillAt(p), '---\nname: a\ndescription: d\n---\nbody\n', existing, reserved, NOW)
          const target = moved[1]!.path
          const isDir = p.endsWith('SKILL.md')
          const name = isDir ? target.slice(0, -'/SKILL.md'.length) : target
          expect(plainTaken(existing, name, isDir) || plainTaken(new Set([...reserved].filter((r) => r !== target)), name, isDir)).toBe(false)
          // The first free name of the series, as before: every earlier candidate is taken.
          // AGIAgent files retire to legacy/ (upstream), SKILL.md folders to .skillbench/legacy/
          const first = isDir ? `.skillbench/legacy/${p.slice(0, -'/SKILL.md'.length)}` : `legacy/${p}`
          if (name !== first) expect(plainTaken(existing, first, isDir) || plainTaken(reserved, first, isDir)).toBe(true)
        }
      }),
      { numRuns: 200 }
    )
  })
})
