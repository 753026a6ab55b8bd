/**
 * Used skills are protected in merges and consolidations (issue 36): the most-used member survives by default; two
 * distinct skills agents both chose are not merged; a retired member with recorded uses is named on the card.
 * Crafted libraries with usage built from task traces, and the real mixed collection with the real sessions' usage.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Proposal, SkillRef, TaskTrace, UsageReport } from '../../src/shared/types'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import { buildUsageReport } from '../../src/main/usage/report'
import { collectUsage } from '../../src/main/usage/service'
import { guardGroup, pickSurvivor, SAME_SKILL_SIMILARITY } from '../../src/main/curate/usage-guard'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'
import { DEPLOY, DEPLOY_NEAR, makeLibrary, POETRY, SORTING, SORTING_COPY, tempDir, type FixtureSkill } from './fixtures'

const NOW = new Date('2026-12-02T12:00:00Z')
const DAY = 86_400_000
const CREATED = '2026-11-01T00:00:00'
let dirs: string[] = []
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  dirs = []
})

let n = 0
/** A Codex task that read these skills' files (`kind` read: an agent chose them) or got them from a query. */
function task(ids: string[], kind: SkillRef['kind'] = 'read'): { trace: TaskTrace; origin: string } {
  const at = NOW.getTime() - (1 + (n % 5)) * DAY
  const skillRefs: SkillRef[] = ids.map((id) => (kind === 'query' ? { kind, ids: [id], errorsAfter: 0, at } : { kind, path: `/else/experience/skill_${id}.md`, errorsAfter: 0, at }))
  const trace: TaskTrace = {
    source: 'codex', user: '', taskDir: `rollout#${++n}`, path: '/s/rollout.jsonl', mtime: at, startedAt: at, status: 'completed', completed: true,
    requirements: ['do it'], toolCalls: [], errors: [], interruptions: 0, agentMessages: [], files: [], skillRefs
  }
  return { trace, origin: '/s' }
}

async function plan(skills: FixtureSkill[], tasks: { trace: TaskTrace; origin: string }[]): Promise<Proposal[]> {
  const dir = makeLibrary(skills)
  dirs.push(dir)
  const opened = await openForCuration(dir)
  const listed = (await opened.library.list()).skills.filter((s) => !s.legacy)
  const usage: UsageReport = buildUsageReport({ skills: listed, root: opened.root, tasks, ledger: [], now: NOW })
  return (await curateLibrary(opened, { now: NOW, usage })).proposals.filter((p) => p.kind !== 'cleanup')
}

const LIB: FixtureSkill[] = [
  { id: '2001', title: 'Sorting arrays', body: SORTING, quality: 0.7, created: CREATED },
  { id: '2002', title: 'Sorting arrays in TS', body: SORTING_COPY, quality: 0.4, created: CREATED },
  { id: '2003', title: 'Deploy with compose', body: DEPLOY, quality: 0.7, created: CREATED },
  { id: '2004', title: 'Compose deployment checklist', body: DEPLOY_NEAR, quality: 0.4, created: CREATED },
  { id: '2005', title: 'Haiku', body: POETRY, created: CREATED }
]
const membersOf = (ps: Proposal[]): string[][] => ps.map((p) => p.members.map((m) => m.skill_id))

describe('used skills in merges', () => {
  it('without uses the rated-highest survives, as before', async () => {
    const ps = await plan(LIB, [])
    expect(membersOf(ps)).toEqual([
      ['2001', '2002'],
      ['2003', '2004']
    ])
    expect(ps.every((p) => p.evidence.retired_with_uses === undefined && !p.reason.includes('⚠'))).toBe(true)
  })

  it('the most-used member survives even when rated lower, and the card says why', async () => {
    const ps = await plan(LIB, [task(['2002']), task(['2002']), task(['2004'], 'query')])
    const sorting = ps.find((p) => p.members.some((m) => m.skill_id === '2001'))!
    expect(sorting.members.map((m) => m.skill_id)).toEqual(['2002', '2001'])
    expect(sorting.evidence).toMatchObject({ primary: '2002', primary_why: 'used' })
    expect(sorting.reason).toMatch(/"Sorting arrays in TS", used most, stays/)
    // the deploy pair: the one a query returned survives (recorded uses count for the survivor)
    expect(ps.find((p) => p.members.some((m) => m.skill_id === '2003'))!.members[0]!.skill_id).toBe('2004')
  })

  it('two distinct skills agents both chose are not merged; the other pair still is', async () => {
    const ps = await plan(LIB, [task(['2001']), task(['2002']), task(['2002'])])
    expect(membersOf(ps)).toEqual([['2003', '2004']])
  })

  it('members only a query returned (fetch_count, top three) are still merged, and the card names their uses', async () => {
    const ps = await plan(
      LIB.map((s) => (s.id === '2002' ? { ...s, fetch: 2, lastUsed: '2026-11-28T09:00:00' } : s.id === '2001' ? { ...s, fetch: 5 } : s)),
      []
    )
    const sorting = ps.find((p) => p.members.some((m) => m.skill_id === '2001'))!
    expect(sorting.members.map((m) => m.skill_id)).toEqual(['2001', '2002'])
    // the two sources apart: fetched (its fetch_count), and none in the logs read
    expect(sorting.evidence.retired_with_uses).toEqual([{ skill_id: '2002', title: 'Sorting arrays in TS', uses: 2, last_used_at: '2026-11-28T09:00:00', fetched: 2, in_logs: 0 }])
    expect(sorting.reason).toMatch(/; ⚠ agents used "Sorting arrays in TS" \(fetched 2 times, no use in the logs read, last 2026-11-28\): it moves to the legacy folder too, check that the survivor covers it$/)
  })

  it('the same skill twice (a copy), both chosen, is merged, with the warning', async () => {
    const lib = [...LIB.slice(0, 1), { id: '2009', title: 'Sorting arrays (copy)', body: SORTING, quality: 0.5, created: CREATED }, ...LIB.slice(2)]
    const ps = await plan(lib, [task(['2001']), task(['2001']), task(['2009'])])
    const sorting = ps.find((p) => p.members.some((m) => m.skill_id === '2001'))!
    expect(sorting.members.map((m) => m.skill_id)).toEqual(['2001', '2009'])
    expect(sorting.evidence.similarity as number).toBeGreaterThanOrEqual(SAME_SKILL_SIMILARITY)
    expect(sorting.evidence.retired_with_uses).toMatchObject([{ skill_id: '2009', uses: 1, fetched: 0, in_logs: 1 }])
    expect(sorting.reason).toContain('⚠ agents used "Sorting arrays (copy)" (never fetched, 1 use in the logs read, last ')
  })
})

describe('the guard as a pure rule', () => {
  const sk = (id: string, fetch: number, quality = 0.5) => ({ skill_id: id, title: id, fetch_count: fetch, quality_index: quality, created_at: CREATED, path: `skill_${id}.md` }) as never
  it('keeps the survivor first, leaves out chosen members below the same-skill bar', () => {
    const skills = [sk('a', 0, 0.9), sk('b', 4), sk('c', 0), sk('d', 1)]
    const chosen = new Set(['b', 'd'])
    const g = guardGroup([0, 1, 2, 3], skills, { recorded: (s: { fetch_count: number }) => s.fetch_count, chosen: (s: { skill_id: string }) => (chosen.has(s.skill_id) ? 1 : 0) }, (_, j) => (j === 3 ? 0.95 : 0.8))
    // b is the most used: it survives; d is chosen but the same skill as b (0.95); a and c were never chosen
    expect(g).toEqual({ kept: [1, 0, 2, 3], leftOut: [] })
    const g2 = guardGroup([0, 1, 2, 3], skills, { recorded: (s: { fetch_count: number }) => s.fetch_count, chosen: (s: { skill_id: string }) => (chosen.has(s.skill_id) ? 1 : 0) }, () => 0.8)
    expect(g2).toEqual({ kept: [1, 0, 2], leftOut: [3] })
    expect(pickSurvivor([sk('x', 0, 0.2), sk('y', 0, 0.8)], () => 0)).toMatchObject({ skill_id: 'y' })
  })
})

describe.skipIf(!HAS_REAL_DATA)('the real mixed collection with the real sessions', () => {
  it('skills the sessions chose (using-superpowers, test-driven-development, brainstorming) are never retired by a merge or consolidation', async () => {
    const dir = tempDir('mixed')
    dirs.push(dir)
    for (const c of ['anthropics_skills', 'composiohq_awesome-claude-skills', 'obra_superpowers', 'openai_skills']) fs.cpSync(realPath('skills', c), path.join(dir, c), { recursive: true })
    const writable = (d: string): void => {
      fs.chmodSync(d, 0o755)
      for (const e of fs.readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) writable(path.join(d, e.name))
    }
    writable(dir)
    const opened = await openForCuration(dir)
    const skills = (await opened.library.list()).skills.filter((s) => !s.legacy)
    const usage = await collectUsage({
      root: opened.root,
      skills,
      now: NOW,
      sources: [
        { kind: 'claude', dir: realPath('sessions', 'claude_code') },
        { kind: 'codex', dir: realPath('sessions', 'codex_cli', 'codemie-ai_codemie-code', 'sessions') }
      ]
    })
    const used = usage.skills.filter((s) => s.uses > 0)
    expect(used.map((s) => s.name).sort()).toEqual(expect.arrayContaining(['brainstorming', 'test-driven-development', 'using-superpowers']))
    const usedIds = new Set(used.map((s) => s.skill_id))
    const plan = await curateLibrary(opened, { now: NOW, usage })
    const groups = plan.proposals.filter((p) => p.kind === 'merge' || p.kind === 'consolidate')
    for (const p of groups) {
      const retired = p.members.slice(1).filter((m) => usedIds.has(m.skill_id))
      // a used member is retired only as a copy of the survivor, and then the card says so
      for (const m of retired) {
        expect((p.evidence.retired_with_uses as { skill_id: string }[]).map((u) => u.skill_id)).toContain(m.skill_id)
        expect(p.reason).toContain(`⚠ agents used "${m.title}"`)
      }
    }
    const retiredUsed = groups.flatMap((p) => p.members.slice(1)).filter((m) => usedIds.has(m.skill_id))
    expect(retiredUsed).toEqual([])
    // nothing observed these skills' arrival (file times only): no cleanup, whatever the sessions say
    expect(plan.proposals.filter((p) => p.kind === 'cleanup')).toEqual([])
    console.log(`[usage guard] mixed collection: ${skills.length} skills, ${used.length} used by the real sessions, ${groups.length} groups, ${retiredUsed.length} used skills retired`)
  }, 240_000)
})
