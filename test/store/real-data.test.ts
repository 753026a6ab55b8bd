import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openLibrary } from '../../src/main/store/library'
import { buildSkillFileName } from '../../src/main/store/paths'
import { createSkillTools } from '../../src/main/tools/skill-tools'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'
import { hashTree, tempDir } from './helpers'

const EXPERIENCE = realPath('agiagent', 'agi-hub_AGIAgent', 'data_root_example', 'default', 'general', 'experience')
const CORPORA = ['anthropics_skills', 'obra_superpowers', 'openai_skills']

describe.skipIf(!HAS_REAL_DATA)('real public data', () => {
  let copy: string

  beforeAll(() => {
    // Writes (query touches) happen only in a temp copy; the shared data is read in place otherwise.
    copy = tempDir('sb-real-')
    fs.cpSync(EXPERIENCE, copy, { recursive: true })
    for (const c of CORPORA) fs.cpSync(realPath('skills', c), path.join(copy, c), { recursive: true })
  })

  afterAll(() => {
    fs.rmSync(copy, { recursive: true, force: true })
  })

  it('the 4 real AGIAgent skills load with their ids and titles, and reading changes nothing', async () => {
    const before = hashTree(EXPERIENCE)
    const { skills, errors } = await (await openLibrary(EXPERIENCE)).list()
    expect(errors).toEqual([])
    expect(skills.map((s) => s.skill_id).sort()).toEqual(['1768615157', '1768615161', '1768616914', '1768616920'])
    const titles = new Map(skills.map((s) => [s.skill_id, s.title]))
    expect(titles.get('1768615161')).toBe('任务已成功完成，系统直接输出了笑话内容并正确标记了任务结束状态，满足了用户的即时需求。')
    expect(titles.get('1768616914')).toMatch(/^任务成功完成，用户最终获得了一个功能完备、经过测试验证的Python计算器项目/)
    for (const s of skills) {
      // Our file-name rule reproduces upstream's real names from the titles.
      expect(s.path).toBe(buildSkillFileName(s.title, s.skill_id, () => false))
      expect(s.format).toBe('agiagent')
      expect(s.quality_index).toBe(0.5)
      expect(s.fetch_count).toBe(0)
      expect(s.last_used_at).toBeNull()
      expect(s.task_directories).toHaveLength(1)
      expect(s.created_at).toMatch(/^2026-01-17T/)
    }
    expect(hashTree(EXPERIENCE)).toEqual(before)
  })

  it('the 36 SKILL.md skills of anthropics (12), obra (14) and openai (10, in dot-folders) load by name', async () => {
    const counts: Record<string, number> = {}
    for (const c of CORPORA) {
      const root = realPath('skills', c)
      const { skills, errors } = await (await openLibrary(root)).list()
      expect(errors).toEqual([])
      counts[c] = skills.length
      for (const s of skills) {
        expect(s.format).toBe('skill-md')
        // The title is the front-matter name, which is the folder name in all three corpora.
        expect(s.title).toBe(path.posix.basename(path.posix.dirname(s.path)))
        expect(s.usage_conditions.length).toBeGreaterThan(20)
        expect(s.skill_id).toMatch(/^[0-9]{16}$/)
      }
      if (c === 'openai_skills') {
        expect(skills.map((s) => s.path.split('/')[1]).sort()).toEqual([
          '.curated', '.curated', '.curated', '.curated', '.curated', '.curated', '.experimental', '.experimental', '.system', '.system'
        ])
      }
    }
    expect(counts).toEqual({ anthropics_skills: 12, obra_superpowers: 14, openai_skills: 10 })
  })

  it('the combined copy lists all 40 with unique ids', async () => {
    const { skills, errors } = await (await openLibrary(copy)).list()
    expect(errors).toEqual([])
    expect(skills).toHaveLength(40)
    expect(new Set(skills.map((s) => s.skill_id)).size).toBe(40)
  })

  it.each([
    ['写一个Python计算器，支持加减乘除和单元测试', '1768616914|1768615157'],
    ['给我讲一个中文笑话', '1768615161|1768616920'],
    ['fix the failing GitHub Actions CI checks on my pull request', 'gh-fix-ci'],
    ['set up an isolated git worktree for a feature branch', 'using-git-worktrees'],
    ['build an MCP server so an LLM can call an external API', 'mcp-builder'],
    ['write a failing test first, then the code (red green refactor)', 'test-driven-development']
  ])('query %j finds %s first', async (query, expected) => {
    const tools = createSkillTools(await openLibrary(copy))
    const r = await tools.query_skill(query, { touch: false })
    expect(r.status).toBe('success')
    const first = r.skills[0]!
    // The real AGIAgent data holds near-duplicate pairs (two calculator skills, two joke skills): either may win.
    expect(expected.split('|')).toContain(/^[0-9|]+$/.test(expected) ? first.skill_id : first.title)
    expect(r.message.startsWith('Found 3 relevant skills:')).toBe(true)
  })
})
