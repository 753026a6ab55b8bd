import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import { planPath } from '../../src/main/review/plan'
import { DEPLOY, DEPLOY_NEAR, makeLibrary, POETRY, snapshot, SORTING, SORTING_COPY, type FixtureSkill } from './fixtures'

const NOW = new Date('2026-11-21T12:00:00Z')
const base: FixtureSkill[] = [
  { id: '1001', title: 'Sorting arrays', body: SORTING, quality: 0.6, fetch: 2, created: '2026-11-01T00:00:00', dirs: ['output_a'] },
  { id: '1002', title: 'Sorting arrays in TS', body: SORTING_COPY, quality: 0.4, fetch: 1, created: '2026-11-02T00:00:00', dirs: ['output_b', 'output_a'] },
  { id: '1003', title: 'Deploy with compose', body: DEPLOY, created: '2026-11-01T00:00:00', fetch: 1 },
  { id: '1004', title: 'Compose deployment checklist', body: DEPLOY_NEAR, created: '2026-11-01T00:00:00', fetch: 1 },
  { id: '1005', title: 'Haiku', body: POETRY, created: '2026-01-01T00:00:00' }
]

describe('curate plan on a small library', () => {
  it('proposes merge, cleanup; carries exact before/after; writes nothing but the plan', async () => {
    const dir = makeLibrary(base)
    const before = snapshot(dir)
    const opened = await openForCuration(dir)
    const progress: string[] = []
    const plan = await curateLibrary(opened, { now: NOW, onProgress: (p) => progress.push(p.message) })
    expect(snapshot(dir)).toEqual(before)
    expect(fs.existsSync(planPath(opened.root))).toBe(true)
    // Written in pieces, the saved plan is still exactly the indented JSON of the plan.
    const saved = fs.readFileSync(planPath(opened.root), 'utf8')
    expect(saved).toBe(JSON.stringify(JSON.parse(saved), null, 1) + '\n')
    expect(progress).toEqual(expect.arrayContaining(['Loaded 5 skills', 'Step 1: Merging similar skills...', 'Step 2: Cross-skill integration...', 'Step 3: Cleaning unused skills...']))
    expect(plan.skills_loaded).toBe(5)
    const kinds = plan.proposals.map((p) => `${p.kind}:${p.members.map((m) => m.skill_id).join('+')}`)
    expect(kinds).toEqual(['merge:1001+1002', 'merge:1003+1004', 'cleanup:1005'])

    const merge = plan.proposals[0]!
    expect(merge.score).toBeGreaterThan(0.7)
    expect(merge.evidence.shared_terms).toContain('sort')
    // Primary (higher quality) is rewritten; the other moves to legacy/ unchanged.
    const [primary, removed, created] = merge.changes
    expect(primary!.path).toBe('skill_1001.md')
    expect(primary!.before).toBe(before['skill_1001.md'])
    expect(primary!.after).toContain('fetch_count: 3')
    expect(primary!.after).toContain('quality_index: 0.52') // weights fetch_count + 1: (3×0.6 + 2×0.4) / 5
    expect(primary!.after).toMatch(/task_directories:\n- output_a\n- output_b\n/)
    expect(primary!.after).toContain('## Comparators for objects')
    expect(primary!.after!.match(/## Pitfalls/g)).toHaveLength(1)
    expect(removed).toEqual({ path: 'skill_1002.md', before: before['skill_1002.md'], after: null })
    expect(created).toEqual({ path: 'legacy/skill_1002.md', before: null, after: before['skill_1002.md'] })

    const cleanup = plan.proposals[2]!
    expect(cleanup.reason).toMatch(/^not used by any agent in the \d+ days watched since it arrived on 2026-01-01 .*watched by fetch_count kept by the agents' query_skill since 2026-01-01; moves to the legacy folder \(restorable\)/)
    expect(cleanup.changes.map((c) => [c.path, c.before === null, c.after === null])).toEqual([
      ['skill_1005.md', false, true],
      ['legacy/skill_1005.md', true, false]
    ])
  })

  it('gives stable proposal ids for the same library state and new ones after a change', async () => {
    const dir = makeLibrary(base)
    const o = await openForCuration(dir)
    const a = await curateLibrary(o, { now: NOW })
    const b = await curateLibrary(o, { now: new Date('2026-11-22T12:00:00Z') })
    expect(b.proposals.map((p) => p.id)).toEqual(a.proposals.map((p) => p.id))
    fs.appendFileSync(path.join(dir, 'skill_1002.md'), '\nOne more line.\n')
    const c = await curateLibrary(o, { now: NOW })
    expect(c.proposals[0]!.id).not.toBe(a.proposals[0]!.id)
    expect(c.proposals[2]!.id).toBe(a.proposals[2]!.id)
  })

  it('never proposes pinned or hand-edited skills', async () => {
    const dir = makeLibrary([
      ...base.slice(0, 2).map((s) => ({ ...s, pinned: s.id === '1002' })),
      { ...base[2]!, updated: '2026-11-05T00:00:00', lastUsed: null },
      base[3]!,
      { ...base[4]!, pinned: true }
    ])
    const plan = await curateLibrary(await openForCuration(dir), { now: NOW })
    expect(plan.proposals).toEqual([])
    const unprotected = await curateLibrary(await openForCuration(dir), { now: NOW, settings: { protectEdited: false } })
    expect(unprotected.proposals.map((p) => p.members.map((m) => m.skill_id).join('+'))).toEqual(['1003+1004'])
  })

  it('a tool-side update right after use is not a hand edit', async () => {
    const dir = makeLibrary([{ ...base[2]!, updated: '2026-11-05T00:00:00', lastUsed: '2026-11-05T00:00:00' }, base[3]!])
    const plan = await curateLibrary(await openForCuration(dir), { now: NOW })
    expect(plan.proposals.map((p) => p.kind)).toEqual(['merge'])
  })

  it('proposes consolidation for clusters between eps and the merge threshold, with an offline default result', async () => {
    const dir = makeLibrary(base)
    const plan = await curateLibrary(await openForCuration(dir), { now: NOW, settings: { mergeThreshold: 0.95 } })
    const kinds = plan.proposals.map((p) => p.kind)
    expect(kinds).toEqual(['consolidate', 'consolidate', 'cleanup'])
    const c = plan.proposals[1]!
    expect(c.author).toBe('offline')
    expect(c.reason).toContain('read and edit the result before accepting')
    expect(c.evidence).toMatchObject({ eps: 0.5, min_samples: 2 })
    expect(c.changes[0]!.after).toContain('Roll back by redeploying')
    expect(c.changes[0]!.after).toContain('Pin image tags')
  })

  it('reports unreadable skill files and goes on', async () => {
    const dir = makeLibrary(base)
    fs.writeFileSync(path.join(dir, 'skill_9999.md'), 'no front matter here')
    const plan = await curateLibrary(await openForCuration(dir), { now: NOW })
    expect(plan.skills_loaded).toBe(5)
    expect(plan.errors).toEqual([expect.objectContaining({ path: 'skill_9999.md' })])
  })
})

describe('evidence a person can read', () => {
  it('lists shared words as the skills write them, and the protected skills left out of the plan', async () => {
    const dir = makeLibrary([
      ...base,
      { id: '1006', title: 'Sorting arrays by hand', body: SORTING, quality: 0.9, created: '2026-11-01T00:00:00', updated: '2026-11-10T00:00:00', lastUsed: null },
      { id: '1007', title: 'Pinned sorting notes', body: SORTING_COPY, created: '2026-11-01T00:00:00', pinned: true }
    ])
    const plan = await curateLibrary(await openForCuration(dir), { now: NOW })
    const merge = plan.proposals.find((p) => p.kind === 'merge' && p.members.some((m) => m.skill_id === '1001'))!
    const words = merge.evidence.shared_words as string[]
    expect(words.length).toBeGreaterThan(0)
    // stems become words: every shared word occurs in the skills' text as written
    for (const w of words) expect(`${SORTING}\n${SORTING_COPY}\nSorting arrays`.toLowerCase()).toContain(w)
    expect(merge.evidence.shared_terms).toContain('sort')
    expect(words).not.toContain('sort')
    // the reason says what they have in common: the subject their headings share and distinctive shared words
    expect(merge.evidence.subject).toBe('Sorting arrays in TypeScript')
    expect(merge.reason).toMatch(/^2 skills are the same skill: both are about "Sorting arrays in TypeScript"( and share [a-z0-9, ]+)? \(0\.\d\d similar\); "Sorting arrays", used most, stays/)
    expect(plan.protected).toEqual([
      { skill_id: '1006', title: 'Sorting arrays by hand', path: 'skill_1006.md', reason: 'edited' },
      { skill_id: '1007', title: 'Pinned sorting notes', path: 'skill_1007.md', reason: 'pinned' }
    ])
    expect(plan.proposals.some((p) => p.members.some((m) => m.skill_id === '1006' || m.skill_id === '1007'))).toBe(false)
  })
})
