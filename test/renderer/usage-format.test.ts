/** The usage evidence in words and lists (pure helpers of the renderer). */
import { describe, expect, it } from 'vitest'
import type { SkillSummary } from '../../src/shared/api'
import type { SkillUsage, UsageReport } from '../../src/shared/types'
import { formatMessage } from '../../src/renderer/i18n/i18n'
import type { Translate } from '../../src/renderer/i18n/i18n'
import { MESSAGES } from '../../src/renderer/i18n/messages'
import { failingSkills, latestUse, neverUsedIn, taskRoute, usageCell } from '../../src/renderer/features/usage/usage-format'

const en: Translate = (key, vars) => formatMessage(MESSAGES.en[key], vars)
const zh: Translate = (key, vars) => formatMessage(MESSAGES.zh[key], vars)
const base = { tasks: 20, completed: 17, failed: 2, interrupted: 1, corrected: 0 }
const u = (over: Partial<SkillUsage>): SkillUsage => ({
  skill_id: '1', name: 'a', title: 'A', path: 'a', uses: 0, completed: 0, failed: 0, interrupted: 0, corrected: 0, incomplete: 0, last_used_at: null, tasks: [], baseline: base, verdict: 'unused', ...over
})

describe('usage cell', () => {
  it('counts first; the comparison only where it can be made', () => {
    expect(usageCell(en, u({}))).toEqual({ uses: 'not used', result: '', tone: 'muted' })
    expect(usageCell(en, u({ uses: 1, completed: 1, last_used_at: '2026-11-20T10:00:00.000Z', verdict: 'too-few' }))).toEqual({ uses: '1 use', result: 'too few uses to tell (1/1)', tone: 'plain' })
    expect(latestUse('2026-11-21T08:00:00.000Z', u({ uses: 1, last_used_at: '2026-11-20T10:00:00.000Z' }))).toBe('2026-11-21T08:00:00.000Z')
    expect(latestUse(null, u({ uses: 1, last_used_at: '2026-11-20T10:00:00.000Z' }))).toBe('2026-11-20T10:00:00.000Z')
    expect(latestUse('2026-11-01T00:00:00.000Z', u({}))).toBe('2026-11-01T00:00:00.000Z')
    expect(latestUse(null, undefined)).toBeNull()
    expect(usageCell(en, u({ uses: 8, completed: 7, failed: 1, verdict: 'as-baseline' })).result).toBe('7/8 completed, baseline 85%')
    expect(usageCell(en, u({ uses: 6, completed: 2, failed: 3, corrected: 1, verdict: 'fails-more' }))).toMatchObject({ result: '4/6 went wrong, baseline 10%', tone: 'bad' })
    expect(usageCell(en, u({ uses: 6, completed: 6, verdict: 'no-baseline' })).result).toBe('6/6 · nothing to compare with yet')
    expect(usageCell(zh, u({ uses: 6, completed: 2, failed: 4, verdict: 'fails-more' })).result).toBe('4/6 出错，基线 10%')
  })
})

describe('the Overview lists', () => {
  const now = Date.parse('2026-11-23T00:00:00Z')
  const day = 86_400_000
  const skill = (id: string, createdDaysAgo: number, lastUsed: string | null = null, legacy = false): SkillSummary =>
    ({ skill_id: id, title: id, created_at: new Date(now - createdDaysAgo * day).toISOString(), last_used_at: lastUsed, legacy }) as SkillSummary
  it('never used in 30 days: old enough, and no use in the report nor in its own last_used_at since', () => {
    const report = { skills: [u({ skill_id: 'used', uses: 1, last_used_at: new Date(now - 3 * day).toISOString() }), u({ skill_id: 'long-ago', uses: 1, last_used_at: new Date(now - 40 * day).toISOString() })] } as UsageReport
    const skills = [skill('used', 60), skill('long-ago', 60), skill('queried', 60, new Date(now - 5 * day).toISOString()), skill('never', 90), skill('new', 10), skill('retired', 90, null, true)]
    expect(neverUsedIn(skills, report, 30, now).map((x) => x.skill.skill_id)).toEqual(['never', 'long-ago'])
  })
  it('failing skills worst first; links to traces by source', () => {
    const report = { skills: [u({ skill_id: 'x', uses: 6, failed: 3, completed: 3, verdict: 'fails-more' }), u({ skill_id: 'y', uses: 5, failed: 4, completed: 1, verdict: 'fails-more' }), u({ skill_id: 'z', verdict: 'as-baseline' })] } as UsageReport
    expect(failingSkills(report).map((s) => s.skill_id)).toEqual(['y', 'x'])
    expect(taskRoute({ source: 'agiagent', task: 'output_1', at: '', outcome: 'failed', how: [], path: '/r/a/output_1', origin: '/r' })).toEqual({ screen: 'workspaces', taskPath: '/r/a/output_1', root: '/r' })
    expect(taskRoute({ source: 'codex', task: 'r#2', at: '', outcome: 'failed', how: [], path: '/c/r.jsonl', origin: '/c' })).toEqual({ screen: 'workspaces', taskPath: 'r#2', session: { source: 'codex', dir: '/c' } })
    expect(taskRoute({ source: 'mcp', task: null, at: '', outcome: null, how: ['query'] })).toBeNull()
  })
})

describe('the core’s usage messages in Chinese', () => {
  it('progress and refusals of the usage evidence are translated, paths kept', async () => {
    const { translateServerMessage } = await import('../../src/renderer/i18n/server-messages')
    expect(translateServerMessage("Reading the agents' logs for real usage...", 'zh')).toBe('正在读取智能体日志，查看技能的真实使用情况…')
    expect(translateServerMessage('reading codex logs in /home/u/.codex/sessions', 'zh')).toBe('正在读取 /home/u/.codex/sessions 中的 codex 日志')
    expect(translateServerMessage('✅ Proposed 2 review(s) of skills whose tasks went wrong more often', 'zh')).toBe('✅ 提议了 2 项复查（使用后任务更常出错的技能）')
    expect(translateServerMessage('usage not read (session folder not found: /x): cleanup goes by fetch_count alone', 'zh')).toBe('未能读取使用情况（找不到会话文件夹：/x）：清理只按 fetch_count 判断')
    expect(translateServerMessage('proposal r-1 asks for a review: edit the skill…', 'zh')).toMatch(/^提议 r-1 需要复查/)
  })
})
