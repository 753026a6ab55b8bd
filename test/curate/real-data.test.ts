import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { CurationPlan } from '../../src/shared/types'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'
import { tempDir } from './fixtures'

const NOW = new Date('2026-11-21T12:00:00Z')

/** Copies real data into a temp dir (writable) so nothing can touch the originals. */
function copyReal(parts: string[][], into = tempDir('real')): string {
  for (const p of parts) {
    const to = path.join(into, p[p.length - 1]!)
    fs.cpSync(realPath(...p), parts.length === 1 ? into : to, { recursive: true })
  }
  const makeWritable = (dir: string): void => {
    fs.chmodSync(dir, 0o755)
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name)
      if (e.isDirectory()) makeWritable(abs)
      else if (e.isFile()) fs.chmodSync(abs, 0o644)
    }
  }
  makeWritable(into)
  return into
}

const groupsOf = (plan: CurationPlan): string[][] =>
  plan.proposals.filter((p) => p.kind !== 'cleanup').map((p) => p.members.map((m) => m.path).sort())

describe.skipIf(!HAS_REAL_DATA)('real AGIAgent skills', () => {
  it('the 4 skills give exactly two groups: the calculator pair and the joke pair', async () => {
    const dir = copyReal([['agiagent', 'agi-hub_AGIAgent', 'data_root_example', 'default', 'general', 'experience']])
    const plan = await curateLibrary(await openForCuration(dir), { now: NOW })
    expect(plan.skills_loaded).toBe(4)
    const groups = groupsOf(plan)
    expect(groups).toHaveLength(2)
    const calculator = groups.find((g) => g.some((p) => p.includes('功能完备')))!
    const joke = groups.find((g) => g.some((p) => p.includes('笑话')))!
    expect(calculator).toEqual(['skill_任务成功完成，用户最终获得了一个功能完备.md', 'skill_任务成功完成，用户需求得到完全满足，生成.md'])
    expect(joke).toEqual(['skill_任务已成功完成，系统直接输出了笑话内容并.md', 'skill_任务顺利完成，用户未提出异议，系统迅速响.md'])
    // All four are grouped, so none is also proposed for cleanup.
    expect(plan.proposals.filter((p) => p.kind === 'cleanup')).toEqual([])
  })
})

describe.skipIf(!HAS_REAL_DATA)('real SKILL.md corpora (anthropics + Composio)', () => {
  let plan: CurationPlan
  beforeAll(async () => {
    const dir = copyReal([
      ['skills', 'anthropics_skills'],
      ['skills', 'composiohq_awesome-claude-skills']
    ])
    plan = await curateLibrary(await openForCuration(dir), { now: NOW })
  }, 120_000)

  it('finds the five skills that exist in both corpora as duplicates', () => {
    expect(plan.skills_loaded).toBeGreaterThan(850)
    for (const name of ['canvas-design', 'webapp-testing', 'internal-comms', 'brand-guidelines', 'theme-factory']) {
      const p = plan.proposals.find((x) => x.members.some((m) => m.path === `anthropics_skills/skills/${name}/SKILL.md`))
      expect(p, name).toBeDefined()
      expect(p!.kind).toBe('merge')
      expect(p!.score).toBeGreaterThan(0.95)
      expect(p!.members.map((m) => m.path).sort()).toEqual([`anthropics_skills/skills/${name}/SKILL.md`, `composiohq_awesome-claude-skills/${name}/SKILL.md`])
    }
  })

  it('does not collapse the 832 templated -automation skills into a giant merge or cluster', () => {
    const automation = (p: string): boolean => /composio-skills\/[^/]+-automation\/SKILL\.md$/.test(p)
    const sizes = plan.proposals.map((p) => p.members.length)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(5)
    const grouped = new Set(plan.proposals.flatMap((p) => p.members.map((m) => m.path)).filter(automation))
    // Only real near-duplicates (docker-hub / docker_hub, zoho-desk / zoho_desk …) are grouped.
    expect(grouped.size).toBeGreaterThan(10)
    expect(grouped.size).toBeLessThan(832 / 4)
    const dockerHub = plan.proposals.find((p) => p.members.some((m) => m.path.endsWith('/docker-hub-automation/SKILL.md')))
    expect(dockerHub?.members.map((m) => m.path.split('/').at(-2))).toEqual(expect.arrayContaining(['docker-hub-automation', 'docker_hub-automation']))
  })
})
