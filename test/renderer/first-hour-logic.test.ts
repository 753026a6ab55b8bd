/**
 * Pure parts of the first-hour pass (issue 12): next steps, map labels, rebasing a rating into unsaved edits,
 * Chinese server messages, JSONL records as blocks, legacy moves, log windows, proposal wording.
 */
import { describe, expect, it } from 'vitest'
import { rebaseFrontMatter } from '../../src/renderer/features/editor/front-matter'
import { groupChanges, memberLabels, proposalReason, proposalTitle, sharedWords } from '../../src/renderer/features/curate/proposal-text'
import { labelBox, labelWidth, layoutClusters, placeLabels } from '../../src/renderer/features/overview/cluster-layout'
import { nextSteps } from '../../src/renderer/features/overview/OverviewScreen'
import { windowLines } from '../../src/renderer/features/workspaces/LogView'
import { describeRecord } from '../../src/renderer/features/workspaces/RecordBlock'
import { taskHeadline, taskRows } from '../../src/renderer/features/workspaces/task-status'
import { formatMessage } from '../../src/renderer/i18n/i18n'
import type { Translate } from '../../src/renderer/i18n/i18n'
import { MESSAGES } from '../../src/renderer/i18n/messages'
import { translateText } from '../../src/renderer/i18n/messages-errors'
import type { OverviewResult } from '../../src/shared/api'
import type { Proposal } from '../../src/shared/types'

const tr = (lang: 'en' | 'zh'): Translate => (key, vars) => formatMessage(MESSAGES[lang][key], vars)

function overview(over: Partial<OverviewResult> = {}): OverviewResult {
  return {
    skills: 2, legacy: 0, errors: 0, errorFiles: [], tasks: 5, reflectedTasks: 0, pendingProposals: 0, planComputed: false,
    qualityHistogram: [], recent: [], graph: { nodes: [{ id: '1', title: 'A', quality: 0.5, cluster: 0 }], edges: [] }, ...over
  }
}

describe('next steps on the Overview', () => {
  it('leads a newcomer from browsing a task to reflecting, reviewing and rating', () => {
    const fresh = nextSteps(overview(), '/lib', { browsed: false, rated: false }, '1')
    expect(fresh.map((s) => [s.key, s.done])).toEqual([['browse', false], ['reflect', false], ['review', false], ['rate', false]])
    expect(formatMessage(MESSAGES.en[fresh[1]!.label], fresh[1]!.vars)).toBe('Reflect 5 new tasks')
    expect(fresh[3]!.route).toEqual({ screen: 'editor', library: '/lib', skillId: '1' })

    const later = nextSteps(overview({ reflectedTasks: 5, pendingProposals: 3, planComputed: true }), '/lib', { browsed: true, rated: false }, '1')
    expect(later.map((s) => s.done)).toEqual([true, true, false, false])
    expect(formatMessage(MESSAGES.en[later[2]!.label], later[2]!.vars)).toBe('Review 3 proposals')
    expect(formatMessage(MESSAGES.zh[later[2]!.label], later[2]!.vars)).toBe('审阅 3 个提议')
  })

  it('does not call reflecting done when there are no tasks at all', () => {
    expect(nextSteps(overview({ tasks: 0 }), '/lib', { browsed: false, rated: false }, undefined)[1]!.done).toBe(false)
  })

  it('for a folder of skills opened on its own with no task anywhere, starts at curating: nothing to browse or reflect', () => {
    const flags = { browsed: false, rated: false }
    const alone = nextSteps(overview({ tasks: 0 }), '/skills', flags, '1', true)
    expect(alone.map((s) => s.key)).toEqual(['review', 'rate'])
    expect(alone[0]!.label).toBe('next.curate')
    // with a sessions folder (its tasks are reflected from Workspaces), or under a data root, the four steps stay
    expect(nextSteps(overview({ tasks: 0, sessionSources: [{ source: 'claude', dir: '/home/u/.claude/projects' }] }), '/skills', flags, '1', true)).toHaveLength(4)
    expect(nextSteps(overview({ tasks: 0 }), '/lib', flags, '1', false)).toHaveLength(4)
  })
})

describe('library map labels', () => {
  it('never overlap each other or the dots, and stay inside the map', () => {
    const nodes = Array.from({ length: 30 }, (_, i) => ({ id: String(i), title: i % 3 === 0 ? `网页抓取时的重试与限速 ${i}` : `A fairly long skill title number ${i} about things`, quality: (i % 10) / 10, cluster: i % 4 === 0 ? -1 : i % 3 }))
    const size = 520
    const laid = layoutClusters(nodes, size)
    const radius = (n: { quality: number }): number => 5 + n.quality * 6
    const labels = placeLabels(laid.nodes, size, radius)
    expect(labels.length).toBeGreaterThan(5)
    const boxes = labels.map((l) => labelBox(l, labelWidth(l.text)))
    for (const b of boxes) {
      expect(b.x0).toBeGreaterThanOrEqual(0)
      expect(b.x1).toBeLessThanOrEqual(size)
      expect(b.y0).toBeGreaterThanOrEqual(0)
      expect(b.y1).toBeLessThanOrEqual(size)
    }
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!
        const b = boxes[j]!
        expect(a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1, `${labels[i]!.text} / ${labels[j]!.text}`).toBe(false)
      }
      for (const n of laid.nodes) {
        const r = radius(n)
        const b = boxes[i]!
        expect(b.x0 < n.x + r && n.x - r < b.x1 && b.y0 < n.y + r && n.y - r < b.y1, `${labels[i]!.text} over dot ${n.id}`).toBe(false)
      }
    }
    expect(labels.every((l) => [...l.text].length <= 26)).toBe(true)
  })
})

describe('rating while the editor has unsaved edits', () => {
  const loaded = "---\nskill_id: '1'\ntitle: Calc\nquality_index: 0.5\nupdated_at: '2026-01-01T00:00:00'\n---\n\nBody.\n"
  const rated = "---\nskill_id: '1'\ntitle: Calc\nquality_index: 0.65\nupdated_at: '2026-03-01T10:00:00.000000'\n---\n\nBody.\n"
  it('takes the rating into the unsaved text and keeps the edits', () => {
    const draft = loaded.replace('Body.', 'Body, edited.').replace('title: Calc', 'title: Calculator')
    const merged = rebaseFrontMatter(loaded, rated, draft)!
    expect(merged).toContain('Body, edited.')
    expect(merged).toContain('title: Calculator')
    expect(merged).toContain('quality_index: 0.65')
    // the timestamp keeps its quotes (a YAML 1.1 reader would otherwise read a date)
    expect(merged).toContain("updated_at: '2026-03-01T10:00:00.000000'")
  })
  it('refuses when the user edited the same field, or the draft does not parse', () => {
    expect(rebaseFrontMatter(loaded, rated, loaded.replace('quality_index: 0.5', 'quality_index: 0.9'))).toBeNull()
    expect(rebaseFrontMatter(loaded, rated, loaded.replace('title: Calc', 'title: [Calc'))).toBeNull()
  })
})

describe('server messages in Chinese', () => {
  it('translates the messages a person meets, keeping paths and names', () => {
    const zh = (m: string): string => translateText(m, 'zh')
    expect(zh('unknown data root: /data (add it in Settings first)')).toBe('未知的数据根目录：/data（请先在“设置”中添加）')
    expect(zh('not saved: invalid YAML: Unexpected flow-seq-end')).toBe('未保存：YAML 无效：Unexpected flow-seq-end')
    expect(zh('skill_a.md changed on disk since it was read: reload it and try again')).toBe('skill_a.md 在读取后已在磁盘上被修改：请重新加载后再试')
    expect(zh('cannot reach the model server: fetch failed (ECONNREFUSED)')).toBe('无法连接模型服务器：请求失败（ECONNREFUSED）')
    expect(zh('cannot reach the model server: fetch failed (bad port) (after 4 attempts)')).toBe('无法连接模型服务器：请求失败（bad port）（已尝试 4 次）')
    expect(zh('not saved: invalid YAML: a duplicate key (each key may appear once)')).toBe('未保存：YAML 无效：有重复的键（每个键只能出现一次）')
    expect(zh('a skill with id 17 already exists')).toBe('已存在 id 为 17 的技能')
    expect(translateText('unknown data root: /data (add it in Settings first)', 'en')).toBe('unknown data root: /data (add it in Settings first)')
    expect(zh('something nobody wrote a rule for')).toBe('something nobody wrote a rule for')
  })
})

describe('session records as blocks', () => {
  it('shows what a record is and its content, not raw JSON', () => {
    const tool = describeRecord(JSON.stringify({ type: 'assistant', timestamp: '2026-02-10T21:12:00.000Z', uuid: 'x', message: { role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }, { type: 'tool_use', name: 'Read', input: { file_path: '/a.py' } }] } }))
    expect(tool).toMatchObject({ kind: 'assistant', detail: 'Read', time: '2026-02-10T21:12:00.000Z' })
    expect(tool.body).toContain('Let me look.')
    expect(tool.body).toContain('→ Read')
    expect(tool.body).not.toContain('uuid')
    const codex = describeRecord(JSON.stringify({ type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls"}' } }))
    expect(codex).toMatchObject({ kind: 'response_item', detail: 'exec_command' })
    expect(codex.body).toContain('"cmd": "ls"')
    expect(describeRecord('not json at all').body).toBe('not json at all')
  })
})

describe('curation in words', () => {
  const merge: Proposal = {
    id: 'm-1', kind: 'merge', score: 0.86, reason: 'x', status: 'pending', author: 'offline',
    members: [{ skill_id: '2', title: 'Python calculator', path: 'skill_b.md' }, { skill_id: '1', title: 'Calculator in Python', path: 'skill_a.md' }],
    evidence: { similarity: 0.8612, shared_terms: ['calcul', 'instal'], shared_words: ['calculator', 'install'], primary: '2', primary_why: 'quality' },
    changes: [
      { path: 'skill_b.md', before: 'B', after: 'B+A' },
      { path: 'skill_a.md', before: 'A', after: null },
      { path: 'legacy/skill_a.md', before: null, after: 'A' }
    ]
  }
  it('tells apart two skills of the same name (one skill from two downloaded collections) by the folder that differs', () => {
    const twins: Proposal = {
      ...merge,
      members: [
        { skill_id: '7', title: 'brand-guidelines', path: 'anthropics_skills/skills/brand-guidelines/SKILL.md' },
        { skill_id: '8', title: 'brand-guidelines', path: 'composiohq_awesome-claude-skills/brand-guidelines/SKILL.md' }
      ],
      evidence: { ...merge.evidence, primary: '7', primary_why: 'oldest' }
    }
    expect(proposalTitle(twins)).toBe('brand-guidelines (anthropics_skills) + brand-guidelines (composiohq_awesome-claude-skills)')
    expect(proposalReason(tr('en'), twins, 'en').text).toContain('“brand-guidelines (anthropics_skills)”, the oldest, stays')
    // the same collection, two files: the file names differ
    expect(memberLabels([{ skill_id: '1', title: 'Calc', path: 'skill_calc.md' }, { skill_id: '2', title: 'Calc', path: 'skill_calc_2.md' }])).toEqual(['Calc (skill_calc.md)', 'Calc (skill_calc_2.md)'])
    // different names stay as they are
    expect(proposalTitle(merge)).toBe('Python calculator + Calculator in Python')
  })

  it('says why in plain language, in both languages, with words instead of stems', () => {
    expect(proposalReason(tr('en'), merge, 'en').text).toBe('2 skills describe the same task (0.86 similar). “Python calculator”, rated highest, stays and takes in what the others add; the others move to the legacy folder (restorable).')
    expect(proposalReason(tr('zh'), merge, 'zh').text).toBe('2 个技能描述的是同一任务（相似度 0.86）。保留评分最高的“Python calculator”，并吸收其他技能补充的内容；其他技能移入归档文件夹（可恢复）。')
    expect(sharedWords(merge)).toEqual(['calculator', 'install'])
    const cleanup: Proposal = { ...merge, kind: 'cleanup', members: [merge.members[1]!], evidence: { age_days: 45, cleanup_days: 30 }, changes: merge.changes.slice(1) }
    expect(proposalReason(tr('en'), cleanup, 'en').text).toBe('Never used by an agent in the 45 days since it was made (more than 30). It moves to the legacy folder (restorable).')
  })
  it('says a skill reflected again (reflect --force, "Reflect again") takes the new reflection, in both languages', () => {
    const again: Proposal = { ...merge, kind: 'enhance', members: [merge.members[0]!], evidence: { task: 'output_1', similarity: 1, again: true }, changes: merge.changes.slice(0, 1) }
    expect(proposalReason(tr('en'), again, 'en')).toEqual({ text: `Task output_1 was reflected again: “${merge.members[0]!.title}”, the skill made from it, takes the new reflection.` })
    expect(proposalReason(tr('zh'), again, 'zh').text).toBe(`任务 output_1 已重新反思：由它生成的技能“${merge.members[0]!.title}”采用新的反思结果。`)
  })
  it('shows a retired file as a move to legacy/, not a deletion', () => {
    expect(groupChanges(merge.changes)).toEqual({ edits: [merge.changes[0]], moves: [{ from: 'skill_a.md', to: 'legacy/skill_a.md', text: 'A' }] })
  })
})

describe('task rows and log windows', () => {
  it('lead with the request text', () => {
    expect(taskHeadline({ requirements: ['  Build a\ncalculator  '], taskDir: 'output_1' })).toBe('Build a calculator')
    expect(taskHeadline({ requirements: [], taskDir: 'rollout-abc#1' })).toBe('rollout-abc#1')
  })
  it('keep the tasks of one session file apart (one file holds several tasks)', () => {
    const t = (taskDir: string) => ({ source: 'claude' as const, user: 'p', taskDir, path: '/s/a.jsonl', mtime: 1, status: 'completed' as const, completed: true, requirements: [], toolCalls: [], errors: [], interruptions: 0, agentMessages: [], files: [], reflected: false, skills: [] })
    const rows = taskRows([t('a#1'), t('a#2')], [], { status: 'all', text: '' })
    expect(new Set(rows.map((r) => r.key)).size).toBe(2)
  })
  it('join whole-line windows into lines', () => {
    const page = (text: string, start: number) => ({ file: 'f', size: 0, start, end: start + text.length, firstLine: 1, text, files: ['f'] })
    expect(windowLines([page('a\nb\n', 0), page('c\nd', 4)])).toEqual(['a', 'b', 'c', 'd'])
    expect(windowLines([page('a\n', 0)])).toEqual(['a'])
  })
})

describe('every message exists in both languages and the Rating heading differs from its button', () => {
  it('has the same keys, no empty Chinese string, and distinct rating labels', () => {
    expect(Object.keys(MESSAGES.zh).sort()).toEqual(Object.keys(MESSAGES.en).sort())
    expect(Object.entries(MESSAGES.zh).filter(([, v]) => !v.trim())).toEqual([])
    expect(MESSAGES.zh['rating.title']).not.toBe(MESSAGES.zh['rating.submit'])
    expect(MESSAGES.en['rating.title']).not.toBe(MESSAGES.en['rating.submit'])
  })
})
