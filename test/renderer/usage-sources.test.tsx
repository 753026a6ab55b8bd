// @vitest-environment jsdom
/**
 * One story of a skill's use, told from its two sources on every screen (the sample data's case: skills fetched 5, 3
 * and 1 times that no log read shows used): the Skills column, the editor's panel, the Overview's never-used list and
 * the Curate warning name the fetches (fetch_count, last_used_at) and the logs apart, in English and Chinese, and none
 * says "no use found" of a skill with recorded fetches. Also the Overview's words: the card of tasks that make no
 * skill, a deploy in the recent activity, and every journal kind with a name.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { OverviewResult, RecentActivity } from '../../src/shared/api'
import type { JournalEntry, Proposal, SkillUsage, UsageReport } from '../../src/shared/types'
import { describeActivity, kindName } from '../../src/renderer/features/overview/OverviewScreen'
import { formatMessage } from '../../src/renderer/i18n/i18n'
import type { Translate } from '../../src/renderer/i18n/i18n'
import { MESSAGES } from '../../src/renderer/i18n/messages'
import { createFakeApi, FakeLibrary, LIB, libraryHandlers, makeMeta, ROOT } from './fake-api'
import type { FakeApi } from './fake-api'
import { renderApp } from './render-app'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

const DAY = 86_400_000
const NOW = Date.now()
const iso = (daysAgo: number): string => new Date(NOW - daysAgo * DAY).toISOString()
const day = (daysAgo: number): string => iso(daysAgo).slice(0, 10)
const en: Translate = (key, vars) => formatMessage(MESSAGES.en[key], vars)
const zh: Translate = (key, vars) => formatMessage(MESSAGES.zh[key], vars)

const ID = { scrape: '1700000001', cli: '1700000002', calc: '1700000003', word: '1700000004', logs: '1700000005' }

function line(id: string, over: Partial<SkillUsage> = {}): SkillUsage {
  return {
    skill_id: id, name: id, title: id, path: `skill_${id}.md`, uses: 0, completed: 0, failed: 0, interrupted: 0, corrected: 0, incomplete: 0,
    last_used_at: null, tasks: [], baseline: { tasks: 6, completed: 5, failed: 1, interrupted: 0, corrected: 0 }, verdict: 'unused', ...over
  }
}

/** The logs read show no use of the fetched skills (the Word skill is not in the report at all); one skill is used in them. */
function report(): UsageReport {
  return {
    skills: [
      line(ID.scrape),
      line(ID.cli),
      line(ID.calc),
      line(ID.logs, { uses: 2, completed: 2, last_used_at: iso(45), verdict: 'too-few', tasks: [{ source: 'agiagent', task: 'output_1', at: iso(45), outcome: 'completed', how: ['read'], path: `${ROOT}/alice/output_1`, origin: ROOT }, { source: 'agiagent', task: 'output_2', at: iso(50), outcome: 'completed', how: ['read'], path: `${ROOT}/alice/output_2`, origin: ROOT }] })
    ],
    baseline: { tasks: 6, completed: 5, failed: 1, interrupted: 0, corrected: 0 },
    since: null,
    generatedAt: new Date(NOW).toISOString(),
    sources: [{ kind: 'agiagent', dir: ROOT, tasks: 6 }],
    problems: [],
    rules: { minUses: 5, minBaseline: 5, margin: 0.2 }
  }
}

function setup(lang: 'en' | 'zh' = 'en', before?: (api: FakeApi) => void): FakeApi {
  const lib = new FakeLibrary()
  lib.add(makeMeta(1, { title: 'Web scraping with retries', fetch_count: 5, last_used_at: iso(2), created_at: iso(75), updated_at: iso(75) }))
  lib.add(makeMeta(2, { title: 'Python command-line calculator', fetch_count: 3, last_used_at: iso(37), created_at: iso(55), updated_at: iso(55) }))
  lib.add(makeMeta(3, { title: 'Calculator in Python', fetch_count: 1, last_used_at: iso(45), created_at: iso(54), updated_at: iso(54) }))
  lib.add(makeMeta(4, { title: 'Convert a Word document', fetch_count: 0, last_used_at: null, created_at: iso(142), updated_at: iso(142) }))
  lib.add(makeMeta(5, { title: 'Used in the logs', fetch_count: 2, last_used_at: iso(40), created_at: iso(90), updated_at: iso(90) }))
  const api = createFakeApi(libraryHandlers(lib))
  api.handlers['usage.get'] = async () => report()
  if (lang === 'zh') api.handlers['settings.get'] = async () => ({ ...(await libraryHandlers(new FakeLibrary())['settings.get']!({})), language: 'zh' })
  before?.(api)
  return api
}

/** The usage cell of each row, by title. */
async function cells(): Promise<Record<string, string>> {
  await waitFor(() => expect(screen.getAllByTestId('skill-usage')).toHaveLength(5))
  const out: Record<string, string> = {}
  for (const row of screen.getAllByTestId('skill-row')) out[within(row).getByTestId('skill-open').textContent!] = within(row).getByTestId('skill-usage').textContent!
  return out
}

describe('the Skills column: fetches and the logs, each said as what it is', () => {
  it('English: a fetched skill the logs do not show is "fetched N times", never "no use found"', async () => {
    renderApp(setup(), { screen: 'skills' })
    expect(await cells()).toEqual({
      'Web scraping with retries': 'fetched 5 timesno use found in the logs read',
      'Python command-line calculator': 'fetched 3 timesno use found in the logs read',
      'Calculator in Python': 'fetched onceno use found in the logs read',
      'Convert a Word document': 'no use foundnever fetched, none in the logs read',
      'Used in the logs': '2 uses in the logstoo few uses to tell (2/2)'
    })
    // the fetches of a skill used in the logs are in the cell's title
    const used = screen.getAllByTestId('skill-usage').find((c) => c.textContent!.startsWith('2 uses'))!
    expect(used.getAttribute('title')).toBe('2 uses in the logs\ntoo few uses to tell (2/2)\nfetched 2 times')
  })

  it('Chinese', async () => {
    renderApp(setup('zh'), { screen: 'skills' })
    await waitFor(() => expect(screen.getAllByTestId('skill-usage')[0]!.textContent).toMatch(/被调用|日志/))
    expect(await cells()).toEqual({
      'Web scraping with retries': '被调用 5 次已读取的日志中未发现使用',
      'Python command-line calculator': '被调用 3 次已读取的日志中未发现使用',
      'Calculator in Python': '被调用 1 次已读取的日志中未发现使用',
      'Convert a Word document': '未发现使用从未被调用，已读取的日志中也没有',
      'Used in the logs': '日志中 2 次使用使用次数太少，尚无法判断 (2/2)'
    })
  })
})

describe('the editor’s panel: one sentence with both sources', () => {
  it('a skill fetched once, no use in the logs: says when it was fetched and that the logs show none (en, zh)', async () => {
    renderApp(setup(), { screen: 'editor', library: LIB, skillId: ID.calc })
    const panel = await screen.findByTestId('usage-panel')
    await waitFor(() => expect(within(panel).getByTestId('usage-verdict').textContent).toBe(`Fetched once, last ${day(45)} (the fetch_count its agents’ query_skill keeps); no use found in the logs read.`))
    expect(panel.textContent).not.toMatch(/No use found|No agent used it/)
    expect(within(panel).queryByTestId('usage-summary')).toBeNull()
  })

  it('Chinese: fetched 5 times, none in the logs', async () => {
    renderApp(setup('zh'), { screen: 'editor', library: LIB, skillId: ID.scrape })
    const panel = await screen.findByTestId('usage-panel')
    await waitFor(() => expect(within(panel).getByTestId('usage-verdict').textContent).toBe(`被调用 5 次，最近一次在 ${day(2)}（智能体的 query_skill 记录的 fetch_count）；已读取的日志中未发现使用。`))
  })

  it('never fetched and absent from the report: "no use found" names both sources', async () => {
    renderApp(setup(), { screen: 'editor', library: LIB, skillId: ID.word })
    const panel = await screen.findByTestId('usage-panel')
    await waitFor(() => expect(within(panel).getByTestId('usage-verdict').textContent).toBe('No use found: never fetched, and no agent used it in the logs read.'))
  })

  it('used in the logs and fetched: the verdict from the logs, then the fetches on their own line', async () => {
    renderApp(setup(), { screen: 'editor', library: LIB, skillId: ID.logs })
    const panel = await screen.findByTestId('usage-panel')
    await waitFor(() => expect(within(panel).getByTestId('usage-verdict').textContent).toBe('Too few uses to tell whether it helps: it is judged from 5 tasks on.'))
    expect(within(panel).getByTestId('usage-summary').textContent).toMatch(/^Used in 2 task\(s\)/)
    expect(within(panel).getByTestId('usage-fetches').textContent).toBe(`Also fetched 2 times, last ${day(40)} (the fetch_count its agents’ query_skill keeps).`)
  })
})

function overview(over: Partial<OverviewResult> = {}): OverviewResult {
  return { skills: 5, legacy: 0, errors: 0, errorFiles: [], tasks: 4, reflectedTasks: 0, newTasks: 3, noSkillTasks: 1, noSkillWhy: { unfinished: 1 }, pendingProposals: 2, planComputed: true, qualityHistogram: new Array<number>(10).fill(0), recent: [], graph: { nodes: [], edges: [] }, ...over }
}

describe('the Overview', () => {
  it('never used in 30 days: each item says what its fetches and the logs say (en)', async () => {
    const api = setup('en', (api) => (api.handlers['overview.get'] = async () => overview()))
    renderApp(api, { screen: 'overview' })
    const unused = await screen.findByTestId('usage-unused')
    await waitFor(() => expect(within(unused).getAllByTestId('usage-unused-item')).toHaveLength(4))
    expect(within(unused).getAllByTestId('usage-unused-item').map((i) => i.querySelector('.cell-sub')!.textContent)).toEqual([
      'never used',
      `fetched once, last ${day(45)}; no use found in the logs read`,
      `fetched 2 times, last ${day(40)}; last use in the logs ${day(45)}`,
      `fetched 3 times, last ${day(37)}; no use found in the logs read`
    ])
    // the card counts what a reflect run would make no skill of, and says so
    expect(screen.getByTestId('overview-no-skill').textContent).toBe('1Tasks that make no skill')
  })

  it('Chinese', async () => {
    const api = setup('zh', (api) => (api.handlers['overview.get'] = async () => overview()))
    renderApp(api, { screen: 'overview' })
    const unused = await screen.findByTestId('usage-unused')
    await waitFor(() => expect(within(unused).getAllByTestId('usage-unused-item')).toHaveLength(4))
    expect(within(unused).getAllByTestId('usage-unused-item').map((i) => i.querySelector('.cell-sub')!.textContent)).toEqual([
      '从未使用',
      `被调用 1 次，最近 ${day(45)}；已读取的日志中未发现使用`,
      `被调用 2 次，最近 ${day(40)}；日志中最近一次使用 ${day(45)}`,
      `被调用 3 次，最近 ${day(37)}；已读取的日志中未发现使用`
    ])
    expect(screen.getByTestId('overview-no-skill').textContent).toBe('1不会生成技能的任务')
  })

  it('recent activity: a deploy in words of its own, and a name for every kind the journal records (en, zh)', async () => {
    const deployed: RecentActivity = { at: iso(0), kind: 'curation-applied', proposalKind: 'deploy', by: 'user' }
    expect(describeActivity(en, deployed)).toBe('Skills deployed to an agent by you')
    expect(describeActivity(zh, deployed)).toBe('你将技能部署到了智能体')
    expect(describeActivity(en, { ...deployed, kind: 'curation-undone' })).toBe('Undone: deploying skills to an agent')
    expect(describeActivity(zh, { ...deployed, kind: 'curation-undone' })).toBe('已撤销：将技能部署到智能体')
    const kinds: JournalEntry['kind'][] = ['merge', 'consolidate', 'cleanup', 'enhance', 'edit', 'delete', 'update', 'learned', 'review', 'memory', 'deploy']
    const applied = new Set<string>()
    for (const k of kinds) {
      expect(kindName(en, k), k).not.toBe(k)
      expect(kindName(zh, k), k).toMatch(/[\u4e00-\u9fff]/)
      // every kind a sentence of its own, applied and undone, never "<kind name> applied by"
      const act: RecentActivity = { at: iso(0), kind: 'curation-applied', proposalKind: k, by: 'user' }
      const [aEn, aZh] = [describeActivity(en, act), describeActivity(zh, act)]
      const [uEn, uZh] = [describeActivity(en, { ...act, kind: 'curation-undone' }), describeActivity(zh, { ...act, kind: 'curation-undone' })]
      expect(aEn, k).toMatch(/ by you$/)
      expect(aEn, k).not.toContain(`${kindName(en, k)} applied`)
      expect(aZh, k).toMatch(/^你.+[\u4e00-\u9fff]$/)
      expect(aZh, k).not.toContain(`应用了${kindName(zh, k)}`)
      expect(uEn, k).toMatch(/^Undone: [a-z]/)
      expect(uZh, k).toMatch(/^已撤销：[\u4e00-\u9fff]/)
      applied.add(aEn).add(aZh).add(uEn).add(uZh)
    }
    expect(applied.size).toBe(kinds.length * 4)
    const learned: RecentActivity = { at: iso(0), kind: 'curation-applied', proposalKind: 'learned', by: 'user' }
    expect(describeActivity(en, learned)).toBe('A skill the agent learned, accepted by you')
    expect(describeActivity(zh, learned)).toBe('你采纳了智能体习得的技能')
    expect(describeActivity(en, { ...learned, by: 'offline' })).toBe('A skill the agent learned, accepted by the offline rules')
    // a kind of a newer core without words here still reads
    expect(describeActivity(en, { ...learned, proposalKind: 'rename' })).toBe('rename applied by you')
    const api = setup('en', (api) => (api.handlers['overview.get'] = async () => overview({ recent: [deployed, { at: iso(1), kind: 'curation-applied', proposalKind: 'learned', by: 'user' }] })))
    renderApp(api, { screen: 'overview' })
    await waitFor(() => expect(screen.getByTestId('overview-recent').textContent).toContain('Skills deployed to an agent by you'))
    expect(screen.getByTestId('overview-recent').textContent).toContain('A skill the agent learned, accepted by you')
  })
})

describe('Curate: a retired member’s uses, each source named', () => {
  const merge: Proposal = {
    id: 'm-1', kind: 'merge', score: 0.85, reason: '…', status: 'pending', author: 'offline',
    members: [{ skill_id: ID.cli, title: 'Python command-line calculator', path: 'skill_cli.md' }, { skill_id: ID.calc, title: 'Calculator in Python', path: 'skill_calc.md' }],
    evidence: { similarity: 0.85, primary: ID.cli, primary_why: 'used', retired_with_uses: [{ skill_id: ID.calc, title: 'Calculator in Python', uses: 1, last_used_at: '2026-10-20T14:02:10', fetched: 1, in_logs: 0 }] },
    changes: [{ path: 'skill_cli.md', before: 'A', after: 'A+B' }]
  }
  const plan = (api: FakeApi): void => {
    api.handlers['curate.plan'] = async () => ({ library: LIB, computedAt: iso(0), skills_loaded: 5, errors: [], proposals: [merge, { ...merge, id: 'm-2', status: 'undone' }] })
    api.handlers['curate.journal'] = async () => []
  }
  it('English: fetched once, no use in the logs read', async () => {
    renderApp(setup('en', plan), { screen: 'curate' })
    const card = within(await screen.findByTestId('group-merge')).getAllByTestId('proposal')[0]!
    expect(within(card).getByTestId('used-retired').textContent).toBe('⚠ Agents used “Calculator in Python” (fetched once, no use found in the logs read, last 2026-10-20), and it moves to the legacy folder too: check that “Python command-line calculator” covers it.')
    // the undone one is offered for review, and the plan counts it as waiting
    expect(within(screen.getByTestId('group-merge')).getAllByTestId('proposal-review')).toHaveLength(2)
  })
  it('Chinese', async () => {
    renderApp(setup('zh', plan), { screen: 'curate' })
    await waitFor(() => expect(screen.getAllByTestId('used-retired')[0]!.textContent).toContain('智能体使用过“Calculator in Python”（被调用 1 次，已读取的日志中未发现使用，最近一次 2026-10-20）'))
  })
  it('the Overview’s next step offers the waiting proposals (the core counts an undone one: test/workbench/review-queue)', async () => {
    const api = setup('en', (api) => (api.handlers['overview.get'] = async () => overview({ pendingProposals: 2 })))
    renderApp(api, { screen: 'overview' })
    await waitFor(() => expect(screen.getByTestId('next-review').textContent).toBe('Review 2 proposals'))
    fireEvent.click(screen.getByTestId('next-review'))
    await screen.findByTestId('screen-curate')
  })
})
