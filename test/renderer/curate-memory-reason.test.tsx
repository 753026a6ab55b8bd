// @vitest-environment jsdom
/**
 * A memory proposal's card (and its review dialog) says why by the reason the core sent by code (memory.reason_*,
 * 10a49ab): the invented tool's name, the agent's client, the tool statistics as a nested list — in the UI
 * language — with the file accepting writes. A plan an older build wrote (no code) is worded from its evidence.
 */
import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { coded, type CodedText } from '../../src/shared/error-codes'
import { codedReason } from '../../src/shared/coded-reason'
import type { Proposal } from '../../src/shared/types'
import { toolStatsSummary } from '../../src/main/memory/evolution'
import { createFakeApi, FakeLibrary, LIB, libraryHandlers, makeMeta } from './fake-api'
import { renderApp } from './render-app'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

const WS = '/data/alice'

/** A memory proposal as review/memory-proposals writes it: its reason's English, code and params, the evidence. */
function memoryProposal(id: string, source: string, target: string, entry: string, reason: CodedText | null, tasks: string[]): Proposal {
  const path = `memory/${target}.md`
  return {
    id,
    kind: 'memory',
    members: [],
    score: 1,
    ...(reason ? codedReason(reason) : { reason: 'an older plan' }),
    evidence: { tasks, memory: { workspace: WS, target, entries: [entry], source } },
    changes: [{ path, before: '', after: `- ${entry}\n` }],
    status: 'pending',
    author: 'offline'
  }
}

const PLAN: Proposal[] = [
  memoryProposal('m-tool', 'hallucinated_tool', 'lessons', 'Only use the registered tools: Bash, Read.', coded('memory.reason_hallucinated', { tool: 'web_search', n: 2, valid: 3 }), ['t1', 't2']),
  memoryProposal('m-agent', 'agent', 'lessons', 'Check the allow-list first.', coded('memory.reason_agent_client', { client: 'claude-code', tool: 'add_lesson' }), []),
  memoryProposal('m-pref', 'preference', 'preferences', 'Write reports in Chinese.', coded('memory.reason_preference', { n: 1 }), ['t3']),
  memoryProposal(
    'm-stats',
    'tool_stats',
    'procedural',
    'Bash fails often: check paths first.',
    toolStatsSummary([{ tool: 'Bash', calls: 8, known: 8, failed: 3, tasks: 2 }, { tool: 'Read', calls: 12, known: 0, failed: 0, tasks: 2 }], 5),
    ['t1', 't2', 't3', 't4', 't5']
  ),
  memoryProposal('m-old', 'critic', 'lessons', 'Confirm the domain before searching.', null, ['t4'])
]

function setup(lang: 'en' | 'zh', plan: Proposal[] = PLAN) {
  const lib = new FakeLibrary()
  lib.add(makeMeta(1))
  const api = createFakeApi(libraryHandlers(lib))
  const base = api.handlers['settings.get']!
  api.handlers['settings.get'] = async (i) => ({ ...(await base(i)), language: lang })
  api.handlers['curate.plan'] = async () => ({ library: LIB, computedAt: '2026-01-02T00:00:00Z', skills_loaded: 1, proposals: plan, errors: [] })
  api.handlers['curate.journal'] = async () => []
  renderApp(api, { screen: 'curate' })
}

async function reasons(): Promise<Record<string, string>> {
  const cards = await screen.findAllByTestId('proposal')
  expect(cards).toHaveLength(PLAN.length)
  const byEntry = (entry: string): string => within(cards.find((c) => c.textContent!.includes(entry))!).getByTestId('proposal-reason').textContent!
  return Object.fromEntries(PLAN.map((p) => [p.id, byEntry((p.evidence.memory as { entries: string[] }).entries[0]!)]))
}

describe('a memory proposal’s card words its coded reason', () => {
  it('in English: the core’s reason (tool, client, statistics) and the file accepting writes; an older plan from its evidence', async () => {
    setup('en')
    const r = await reasons()
    const folder = ` Memory folder: ${WS}`
    expect(r['m-tool']).toBe(`The agent called "web_search", a tool that does not exist, in 2 task(s); it has 3 real tool(s). Accepting adds it to memory/lessons.md.${folder}`)
    expect(r['m-agent']).toBe(`An agent (claude-code) asked to add this through MCP add_lesson. Accepting adds it to memory/lessons.md.${folder}`)
    expect(r['m-pref']).toBe(`The user said so in 1 task(s). Accepting adds it to memory/preferences.md and to long-term memory.${folder}`)
    expect(r['m-stats']).toBe(`5 task(s), 20 tool call(s): Bash 8 calls, 38% errors; Read 12 calls. Accepting adds it to memory/procedural.md.${folder}`)
    expect(r['m-old']).toBe(`A critic corrected a tool call (1 task(s)). Its suggestion becomes a lesson in memory/lessons.md.${folder}`)
    // the review dialog says the same
    const card = screen.getAllByTestId('proposal').find((c) => c.textContent!.includes('web_search'))!
    fireEvent.click(within(card).getByTestId('proposal-review'))
    const dialog = await screen.findByTestId('review-dialog')
    expect(dialog.querySelector('.proposal-reason')!.textContent).toBe(r['m-tool'])
  })

  it('in Chinese, by code: no English of the reason is left', async () => {
    setup('zh')
    const r = await reasons()
    const folder = `记忆文件夹：${WS}`
    expect(r['m-tool']).toBe(`智能体在 2 个任务中调用了不存在的工具“web_search”；它有 3 个真实工具。接受后写入 memory/lessons.md。${folder}`)
    expect(r['m-agent']).toBe(`智能体（claude-code）通过 MCP add_lesson 请求添加这一条。接受后写入 memory/lessons.md。${folder}`)
    expect(r['m-pref']).toBe(`用户在 1 个任务中这样说过。接受后写入 memory/preferences.md，并同步到长期记忆。${folder}`)
    expect(r['m-stats']).toBe(`5 个任务，20 次工具调用：Bash 调用 8 次，38% 出错；Read 调用 12 次。接受后写入 memory/procedural.md。${folder}`)
    expect(r['m-old']).toBe(`Critic 纠正了一次工具调用（1 个任务）。它的建议成为 memory/lessons.md 中的一条教训。${folder}`)
    for (const text of Object.values(r)) expect(text).not.toMatch(/task\(s\)|Accepting|calls/)
  })
})

describe('a memory proposal’s card says where it went once decided', () => {
  // the same proposals as the Curate screen lists them after a decision (status set by review/memory-proposals)
  const decided: Proposal[] = [
    { ...PLAN[0]!, status: 'applied' },
    { ...PLAN[2]!, status: 'applied' },
    { ...PLAN[3]!, status: 'rejected' },
    { ...PLAN[1]!, status: 'undone' },
    { ...memoryProposal('m-oldpref', 'preference', 'preferences', 'Reply in English.', null, ['t6']), status: 'applied' },
    memoryProposal('m-oldpref2', 'preference', 'preferences', 'Use metric units.', null, ['t7'])
  ]
  async function decidedReasons(): Promise<string[]> {
    const cards = await screen.findAllByTestId('proposal')
    expect(cards).toHaveLength(decided.length)
    const entry = (p: Proposal): string => (p.evidence.memory as { entries: string[] }).entries[0]!
    return decided.map((p) => within(cards.find((c) => c.textContent!.includes(entry(p)))!).getByTestId('proposal-reason').textContent!)
  }

  it('in English: applied says where it was written, rejected that nothing was, undone (reviewable again) what accepting does', async () => {
    setup('en', decided)
    const folder = ` Memory folder: ${WS}`
    expect(await decidedReasons()).toEqual([
      `The agent called "web_search", a tool that does not exist, in 2 task(s); it has 3 real tool(s). Added to memory/lessons.md.${folder}`,
      `The user said so in 1 task(s). Added to memory/preferences.md and to long-term memory.${folder}`,
      `5 task(s), 20 tool call(s): Bash 8 calls, 38% errors; Read 12 calls. Nothing was written to memory/procedural.md.${folder}`,
      `An agent (claude-code) asked to add this through MCP add_lesson. Accepting adds it to memory/lessons.md.${folder}`,
      `The user stated a preference (1 task(s)). Added to memory/preferences.md and to long-term memory.${folder}`,
      `The user stated a preference (1 task(s)). Accepting adds it to memory/preferences.md and to long-term memory.${folder}`
    ])
  })

  it('in Chinese the same', async () => {
    setup('zh', decided)
    const folder = `记忆文件夹：${WS}`
    expect(await decidedReasons()).toEqual([
      `智能体在 2 个任务中调用了不存在的工具“web_search”；它有 3 个真实工具。已写入 memory/lessons.md。${folder}`,
      `用户在 1 个任务中这样说过。已写入 memory/preferences.md，并同步到长期记忆。${folder}`,
      `5 个任务，20 次工具调用：Bash 调用 8 次，38% 出错；Read 调用 12 次。未写入 memory/procedural.md。${folder}`,
      `智能体（claude-code）通过 MCP add_lesson 请求添加这一条。接受后写入 memory/lessons.md。${folder}`,
      `用户说明了一项偏好（1 个任务）。已写入 memory/preferences.md，并同步到长期记忆。${folder}`,
      `用户说明了一项偏好（1 个任务）。接受后写入 memory/preferences.md，并同步到长期记忆。${folder}`
    ])
  })
})
