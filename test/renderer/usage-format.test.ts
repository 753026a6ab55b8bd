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
    expect(usageCell(en, u({}))).toEqual({ uses: 'no use found', result: 'never fetched, none in the logs read', tone: 'muted' })
    expect(usageCell(en, u({ uses: 1, completed: 1, last_used_at: '2026-11-20T10:00:00.000Z', verdict: 'too-few' }))).toEqual({ uses: '1 use in the logs', result: 'too few uses to tell (1/1)', tone: 'plain' })
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
  const skill = (id: string, createdDaysAgo: number, lastUsed: string | null = null, over: Partial<SkillSummary> = {}): SkillSummary =>
    ({ skill_id: id, title: id, format: 'skill-md', fetch_count: 0, created_at: new Date(now - createdDaysAgo * day).toISOString(), last_used_at: lastUsed, legacy: false, ...over }) as SkillSummary
  const used = (id: string, daysAgo: number): SkillUsage =>
    u({ skill_id: id, uses: 1, last_used_at: new Date(now - daysAgo * day).toISOString(), tasks: [{ source: 'claude', task: 's#1', at: new Date(now - daysAgo * day).toISOString(), outcome: 'completed', how: ['read'], path: '/c/s.jsonl', origin: '/c' }] })
  it('never used in 30 days: only over days the agents\' logs watched since the skill arrived; no use in the report nor its own last_used_at', () => {
    const report = { since: null, skills: [used('used', 3), used('long-ago', 40)] } as unknown as UsageReport
    const skills = [
      skill('used', 60),
      skill('long-ago', 60),
      skill('queried', 60, new Date(now - 5 * day).toISOString()),
      skill('never', 90),
      skill('new', 10),
      skill('copied', 90, null, { dated_by_file: true }),
      skill('retired', 90, null, { legacy: true })
    ]
    const r = neverUsedIn(skills, report, 30, now)
    expect(r.unused.map((x) => x.skill.skill_id)).toEqual(['never', 'long-ago'])
    expect(r).toMatchObject({ judged: 4, notJudged: 2, watched: true })
  })
  it('a library nothing watched: no skill called unused, whatever its file says', () => {
    const r = neverUsedIn([skill('a', 400), skill('b', 90, null, { dated_by_file: true })], { since: null, skills: [] } as unknown as UsageReport, 30, now)
    expect(r).toEqual({ unused: [], judged: 0, notJudged: 2, watched: false })
    // watched only 20 days (the first log that used a skill of it): nobody is judged yet
    expect(neverUsedIn([skill('a', 400), skill('used', 400)], { since: null, skills: [used('used', 20)] } as unknown as UsageReport, 30, now)).toMatchObject({ unused: [], judged: 0, watched: true })
  })
  it('an AGIAgent library whose agents keep fetch_count is watched from each skill\'s created_at (the seed\'s 30-day rule)', () => {
    const agi = (id: string, days: number, fetch: number, last: string | null = null): SkillSummary => skill(id, days, last, { format: 'agiagent', fetch_count: fetch })
    const r = neverUsedIn([agi('kept', 60, 2, new Date(now - 2 * day).toISOString()), agi('idle', 60, 0), agi('young', 5, 0), agi('undated-uses', 60, 3)], { since: null, skills: [] } as unknown as UsageReport, 30, now)
    expect(r.unused.map((x) => x.skill.skill_id)).toEqual(['idle'])
    expect(r).toMatchObject({ judged: 2, notJudged: 2, watched: true })
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
    const { translateText } = await import('../../src/renderer/i18n/messages-errors')
    expect(translateText("Reading the agents' logs for real usage...", 'zh')).toBe('正在读取智能体日志，查看技能的真实使用情况…')
    expect(translateText('reading codex logs in /home/u/.codex/sessions', 'zh')).toBe('正在读取 /home/u/.codex/sessions 中的 codex 日志')
    expect(translateText('✅ Proposed 2 review(s) of skills whose tasks went wrong more often', 'zh')).toBe('✅ 提议了 2 项复查（使用后任务更常出错的技能）')
    expect(translateText('usage not read (session folder not found: /x): cleanup goes by fetch_count alone', 'zh')).toBe('未能读取使用情况（找不到会话文件夹：/x）：清理只按 fetch_count 判断')
    expect(translateText("proposal r-1 asks for a review: edit the skill in the review (the app's diff view) and accept to save it, or reject it to keep the skill as it is", 'zh')).toMatch(/^提议 r-1 需要复查/)
  })
})
