import { describe, expect, it } from 'vitest'
import { middleEllipsis } from '../../src/renderer/components/format'
import { languageOf } from '../../src/renderer/features/editor/CodeFileDialog'
import { checkFrontMatter, splitFrontMatter } from '../../src/renderer/features/editor/front-matter'
import { layoutClusters } from '../../src/renderer/features/overview/cluster-layout'
import { DEFAULT_FILTER, filterSkills } from '../../src/renderer/features/skills/skill-filter'
import { taskRows } from '../../src/renderer/features/workspaces/task-status'
import { formatMessage } from '../../src/renderer/i18n/i18n'
import { MESSAGES } from '../../src/renderer/i18n/messages'
import type { SkillSummary, TaskSummary } from '../../src/shared/api'
import { FakeLibrary, makeMeta, skillText } from './fake-api'

function summaries(): SkillSummary[] {
  const lib = new FakeLibrary()
  lib.add(makeMeta(1, { quality_index: 0.9, fetch_count: 1, last_used_at: '2026-03-01T00:00:00Z', title: 'Beta' }))
  lib.add(makeMeta(2, { quality_index: 0.2, fetch_count: 9, last_used_at: null, title: 'alpha' }))
  lib.add(makeMeta(3, { quality_index: 0.6, fetch_count: 5, last_used_at: '2026-04-01T00:00:00Z', title: 'Gamma retired' }), 'x', true)
  return [...lib.skills.values()].map((s) => lib.summary(s))
}

describe('skill list filter', () => {
  const all = summaries()
  const ids = (list: SkillSummary[]): string[] => list.map((s) => s.title)
  it('hides legacy by default and sorts by quality, highest first', () => {
    expect(ids(filterSkills(all, DEFAULT_FILTER))).toEqual(['Beta', 'alpha'])
  })
  it('sorts by fetch count, last used (never used last), created and title', () => {
    const f = { ...DEFAULT_FILTER, legacy: 'all' as const }
    expect(ids(filterSkills(all, { ...f, sort: 'fetch' }))).toEqual(['alpha', 'Gamma retired', 'Beta'])
    expect(ids(filterSkills(all, { ...f, sort: 'lastUsed' }))).toEqual(['Gamma retired', 'Beta', 'alpha'])
    expect(ids(filterSkills(all, { ...f, sort: 'title', descending: false }))).toEqual(['alpha', 'Beta', 'Gamma retired'])
    expect(ids(filterSkills(all, { ...f, sort: 'created', descending: false }))).toEqual(['Beta', 'alpha', 'Gamma retired'])
  })
  it('filters by legacy, format, minimum quality and text', () => {
    expect(ids(filterSkills(all, { ...DEFAULT_FILTER, legacy: 'legacy' }))).toEqual(['Gamma retired'])
    expect(filterSkills(all, { ...DEFAULT_FILTER, format: 'skill-md' })).toEqual([])
    expect(ids(filterSkills(all, { ...DEFAULT_FILTER, minQuality: 0.5 }))).toEqual(['Beta'])
    expect(ids(filterSkills(all, { ...DEFAULT_FILTER, text: 'ALPHA' }))).toEqual(['alpha'])
  })
  it('does not reorder its input', () => {
    const copy = [...all]
    filterSkills(all, { ...DEFAULT_FILTER, sort: 'title' })
    expect(all).toEqual(copy)
  })
})

describe('task rows', () => {
  const t = (dir: string, mtime: number, over: Partial<TaskSummary> = {}): TaskSummary => ({
    user: 'u', taskDir: dir, path: `/r/u/${dir}`, mtime, status: 'completed', completed: true, requirements: [], toolCalls: [], errors: [], interruptions: 0, agentMessages: [], files: [], reflected: false, skills: [], ...over
  })
  const tasks = [t('a', 1), t('b', 3, { status: 'incomplete' }), t('c', 2, { reflected: true, requirements: ['写一个笑话'] })]
  it('puts the newest first, reflected wins over the log status, skipped come last', () => {
    const rows = taskRows(tasks, [{ path: '/r/u/z', reason: 'no logs' }], { status: 'all', text: '' })
    expect(rows.map((r) => `${r.key}:${r.badge}`)).toEqual(['/r/u/b:incomplete', '/r/u/c:reflected', '/r/u/a:completed', 'skipped:/r/u/z:skipped'])
  })
  it('filters by badge and by requirement text (Chinese too)', () => {
    expect(taskRows(tasks, [], { status: 'incomplete', text: '' }).map((r) => r.key)).toEqual(['/r/u/b'])
    expect(taskRows(tasks, [], { status: 'all', text: '笑话' }).map((r) => r.key)).toEqual(['/r/u/c'])
  })
})

describe('front matter check', () => {
  const good = skillText(makeMeta(1), 'Body')
  it('accepts a well-formed AGIAgent skill', () => {
    expect(checkFrontMatter(good, 'agiagent').issues).toEqual([])
    expect(splitFrontMatter(good)?.body.trim()).toBe('Body')
  })
  it('names each problem', () => {
    expect(checkFrontMatter('no front matter', 'agiagent').issues.map((i) => i.key)).toEqual(['fm.missing'])
    expect(checkFrontMatter('---\ntitle: [oops\n---\nx', 'agiagent').issues[0]?.key).toBe('fm.yaml')
    expect(checkFrontMatter('---\n- a\n---\nx', 'agiagent').issues[0]?.key).toBe('fm.notMapping')
    const bad = good.replace('"quality_index": 0.5', '').replace('quality_index: 0.5', 'quality_index: 1.5').replace('fetch_count: 0', 'fetch_count: -1')
    expect(checkFrontMatter(bad, 'agiagent').issues.map((i) => i.key)).toEqual(['fm.quality', 'fm.count'])
  })
  it('checks SKILL.md name and description', () => {
    expect(checkFrontMatter('---\nname: x\n---\nbody', 'skill-md').issues).toEqual([{ key: 'fm.needString', vars: { field: 'description' } }])
  })
})

describe('cluster layout', () => {
  const nodes = [
    { id: 'b', title: 'B', quality: 0.5, cluster: 0 },
    { id: 'a', title: 'A', quality: 0.5, cluster: 0 },
    { id: 'c', title: 'C', quality: 0.5, cluster: 1 },
    { id: 'n', title: 'N', quality: 0.5, cluster: -1 }
  ]
  it('is deterministic whatever the input order, and stays inside the square', () => {
    const one = layoutClusters(nodes, 500)
    const two = layoutClusters([...nodes].reverse(), 500)
    expect(two).toEqual(one)
    for (const n of one.nodes) {
      expect(n.x).toBeGreaterThanOrEqual(0)
      expect(n.x).toBeLessThanOrEqual(500)
      expect(n.y).toBeGreaterThanOrEqual(0)
      expect(n.y).toBeLessThanOrEqual(500)
    }
  })
  it('keeps cluster members together and noise on the outer ring', () => {
    const { nodes: placed, clusters } = layoutClusters(nodes, 500)
    const at = (id: string) => placed.find((n) => n.id === id)!
    const d = (p: { x: number; y: number }, q: { x: number; y: number }) => Math.hypot(p.x - q.x, p.y - q.y)
    expect(clusters.map((c) => [c.cluster, c.size])).toEqual([[0, 2], [1, 1]])
    expect(d(at('a'), at('b'))).toBeLessThan(d(at('a'), at('c')))
    expect(d(at('n'), { x: 250, y: 250 })).toBeCloseTo(230, 5)
  })
})

describe('messages', () => {
  it('has every English key in Chinese, non-empty, with the same placeholders', () => {
    const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
    for (const [key, en] of Object.entries(MESSAGES.en)) {
      const zh = MESSAGES.zh[key as keyof typeof MESSAGES.en]
      expect(zh, key).toBeTruthy()
      expect(placeholders(zh), key).toEqual(placeholders(en))
    }
    expect(Object.keys(MESSAGES.zh).sort()).toEqual(Object.keys(MESSAGES.en).sort())
  })
  it('fills placeholders and leaves unknown ones visible', () => {
    expect(formatMessage('{a} of {b} {c}', { a: 1, b: 'two' })).toBe('1 of two {c}')
  })
})

describe('code viewer language', () => {
  it('picks Monaco languages by extension, plaintext otherwise', () => {
    expect(['codes/t/calc.py', 'a/b.SH', 'x.tsx', 'conf.yml', 'README', 'data.bin'].map(languageOf)).toEqual(['python', 'shell', 'typescript', 'yaml', 'plaintext', 'plaintext'])
  })
})

describe('a path cut in the middle', () => {
  it('keeps a short path; cuts a long one to the length, its start and more of its end around an ellipsis', () => {
    expect(middleEllipsis('/data/agents', 20)).toBe('/data/agents')
    expect(middleEllipsis('/home/someone/projects/agents/runs/2026/december/agents-data-nightly', 24)).toBe('/home…gents-data-nightly')
  })

  it('counts characters, not UTF-16 units: a Chinese name or an emoji is never split', () => {
    const cut = middleEllipsis('/数据/智能体/任务记录/很长很长的文件夹😀名字', 10)
    expect(cut).toBe('/数…的文件夹😀名字')
    expect([...cut]).toHaveLength(10)
  })

  it('counts what a person sees as one character: a flag, an emoji joined with ZWJ, a letter with its accent', () => {
    const graphemes = (t: string): string[] => Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(t), (s) => s.segment)
    const flag = '\u{1F1E8}\u{1F1F3}' // 🇨🇳: two code points
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}' // 👨‍👩‍👧: five
    const accent = 'e\u0301' // é: two
    const text = `/runs/${flag}${family}${accent}/2026/${flag}${family}${accent}`
    for (let max = 3; max < graphemes(text).length; max++) {
      const cut = middleEllipsis(text, max)
      const parts = graphemes(cut)
      expect(parts).toHaveLength(max)
      // every piece is a whole character of the text or the ellipsis: nothing was cut inside one
      for (const part of parts) expect(part === '…' || graphemes(text).includes(part)).toBe(true)
    }
    expect(middleEllipsis(text, 4)).toBe(`/…${family}${accent}`)
    expect(middleEllipsis(`${flag}${family}${accent}`, 3)).toBe(`${flag}${family}${accent}`)
  })

  it('is never longer than max, even below 3', () => {
    const path = '/home/someone/agents'
    expect(middleEllipsis(path, 2)).toBe('…s')
    expect(middleEllipsis(path, 1)).toBe('…')
    expect(middleEllipsis(path, 0)).toBe('')
    expect(middleEllipsis(path, -4)).toBe('')
    expect(middleEllipsis(path, Number.NaN)).toBe('')
    expect(middleEllipsis(path, 5.9)).toBe('/…nts')
    expect(middleEllipsis('ab', 2)).toBe('ab')
    expect(middleEllipsis(path, Number.POSITIVE_INFINITY)).toBe(path)
  })
})
