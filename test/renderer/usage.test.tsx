// @vitest-environment jsdom
/**
 * The usage evidence in the app (issue 14), against the fake API: the Skills list column, the editor's panel with
 * links to each task's trace, the Overview's two lists with their actions, and a review proposal in Curate.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { OverviewResult, TaskSummary } from '../../src/shared/api'
import type { Proposal, SkillUsage, UsageReport } from '../../src/shared/types'
import { createFakeApi, FakeLibrary, LIB, libraryHandlers, makeMeta, ROOT } from './fake-api'
import type { FakeApi } from './fake-api'
import { renderApp } from './render-app'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

const DAY = 86_400_000
const NOW = Date.now()
const iso = (daysAgo: number): string => new Date(NOW - daysAgo * DAY).toISOString()
const CODEX = '/home/u/.codex/sessions'

function usage(id: string, over: Partial<SkillUsage>): SkillUsage {
  return {
    skill_id: id, name: `skill-${id}`, title: `Skill ${id}`, path: `skill_${id}.md`, uses: 0, completed: 0, failed: 0, interrupted: 0, corrected: 0, incomplete: 0,
    last_used_at: null, tasks: [], baseline: { tasks: 20, completed: 18, failed: 2, interrupted: 0, corrected: 0 }, verdict: 'unused', ...over
  }
}

/** Skill 1: used 3 times (too few to tell); skill 2: fails more (4 of 6); skill 3: old and never used; skill 4: new, unused. */
function report(): UsageReport {
  const ids = ['1700000001', '1700000002', '1700000003', '1700000004']
  return {
    skills: [
      usage(ids[0]!, {
        title: 'Read by Codex',
        uses: 3, completed: 1, interrupted: 1, last_used_at: iso(2), verdict: 'too-few',
        tasks: [
          { source: 'codex', task: 'rollout-abc#1', at: iso(2), outcome: 'completed', how: ['read'], path: `${CODEX}/2026/01/02/rollout-abc.jsonl`, origin: CODEX },
          { source: 'agiagent', task: 'output_20260101_100000', at: iso(5), outcome: 'interrupted', how: ['query'], path: `${ROOT}/alice/output_20260101_100000`, origin: ROOT, user: 'alice' },
          { source: 'mcp', task: null, at: iso(6), outcome: null, how: ['query'] }
        ]
      }),
      usage(ids[1]!, {
        title: 'Misleading steps',
        uses: 6, completed: 2, failed: 4, last_used_at: iso(1), verdict: 'fails-more',
        tasks: Array.from({ length: 6 }, (_, i) => ({ source: 'claude' as const, task: `s#${i + 1}`, at: iso(1 + i), outcome: i < 4 ? ('failed' as const) : ('completed' as const), how: ['skill-tool' as const], path: '/p/s.jsonl', origin: '/p', ...(i < 4 ? { error: `Bash: exit ${i + 1}` } : {}) }))
      }),
      usage(ids[2]!, {}),
      usage(ids[3]!, {})
    ],
    baseline: { tasks: 20, completed: 18, failed: 2, interrupted: 0, corrected: 0 },
    since: null,
    generatedAt: new Date(NOW).toISOString(),
    sources: [
      { kind: 'agiagent', dir: ROOT, tasks: 12 },
      { kind: 'codex', dir: CODEX, tasks: 14 },
      { kind: 'ledger', dir: LIB, tasks: 1 }
    ],
    problems: [],
    rules: { minUses: 5, minBaseline: 5, margin: 0.2 }
  }
}

function setup(before?: (api: FakeApi, lib: FakeLibrary) => void): { api: FakeApi; lib: FakeLibrary } {
  const lib = new FakeLibrary()
  lib.add(makeMeta(1, { title: 'Read by Codex', quality_index: 0.9, created_at: iso(60) }))
  lib.add(makeMeta(2, { title: 'Misleading steps', quality_index: 0.8, created_at: iso(60) }))
  lib.add(makeMeta(3, { title: 'Forgotten skill', quality_index: 0.7, created_at: iso(90), last_used_at: null }))
  lib.add(makeMeta(4, { title: 'Brand new', quality_index: 0.6, created_at: iso(3) }))
  const api = createFakeApi(libraryHandlers(lib))
  api.handlers['usage.get'] = async () => report()
  api.handlers['skills.delete'] = async ({ skillId }) => {
    const s = lib.require(skillId)
    const from = s.path
    s.legacy = true
    s.path = `legacy/${s.path}`
    return { from, to: s.path }
  }
  before?.(api, lib)
  return { api, lib }
}

describe('the Skills list', () => {
  it('shows uses and how the tasks went against the baseline, with counts; the last use in the Last used column', async () => {
    const { api } = setup()
    renderApp(api, { screen: 'skills' })
    await waitFor(() => expect(screen.getAllByTestId('skill-usage')).toHaveLength(4))
    const cells = screen.getAllByTestId('skill-usage').map((c) => c.textContent)
    expect(cells[0]).toBe('3 uses in the logstoo few uses to tell (1/2)')
    expect(cells[1]).toBe('6 uses in the logs4/6 went wrong, baseline 10%')
    // the last use from the logs is in the row's one "Last used" column
    const lastUsed = screen.getAllByTestId('skill-last-used').map((c) => c.textContent)
    expect(lastUsed[0]!.startsWith(iso(2).slice(0, 10))).toBe(true)
    expect(lastUsed[1]!.startsWith(iso(1).slice(0, 10))).toBe(true)
    expect(cells[2]).toBe('no use foundnever fetched, none in the logs read')
    expect(api.callsOf('usage.get')).toEqual([{ library: LIB }])
  })
})

describe('the editor panel', () => {
  it('says the verdict and the baseline, lists the tasks and opens a task’s trace where it was found', async () => {
    const { api } = setup((api) => {
      api.handlers['sessions.list'] = async () => [{ source: 'codex', dir: CODEX, detected: true, added: false, exists: true }]
      api.handlers['sessions.tasks'] = async ({ dir }) => ({
        root: dir,
        skipped: [],
        tasks: [
          { source: 'codex', user: '', taskDir: 'rollout-abc#0', path: `${CODEX}/2026/01/02/rollout-abc.jsonl`, mtime: 1, status: 'completed', completed: true, requirements: ['earlier'], toolCalls: [], errors: [], interruptions: 0, agentMessages: [], files: [], reflected: false, skills: [] },
          { source: 'codex', user: '', taskDir: 'rollout-abc#1', path: `${CODEX}/2026/01/02/rollout-abc.jsonl`, mtime: 2, status: 'completed', completed: true, requirements: ['read the skill'], toolCalls: [], errors: [], interruptions: 0, agentMessages: [], files: [], reflected: false, skills: [] }
        ] as TaskSummary[]
      })
      api.handlers['sessions.readLog'] = async () => ({ file: 'r', size: 0, start: 0, end: 0, firstLine: 1, text: '', files: ['r'] })
    })
    renderApp(api, { screen: 'editor', library: LIB, skillId: '1700000001' })
    const panel = await screen.findByTestId('usage-panel')
    await waitFor(() => expect(within(panel).getByTestId('usage-verdict').textContent).toBe('Too few uses to tell whether it helps: it is judged from 5 tasks on.'))
    expect(within(panel).getByTestId('usage-summary').textContent).toBe('Used in 2 task(s): 1 completed, 0 failed, 1 interrupted, 0 corrected by the user, 0 unfinished. 1 query hit(s) through Skillbench outside any task read.')
    expect(within(panel).getByTestId('usage-baseline').textContent).toMatch(/^Tasks from the same sources that used none of the library’s skills: 20 — 18 completed, 2 failed/)
    const items = within(panel).getAllByTestId('usage-task')
    expect(items.map((i) => i.textContent?.replace(/\d{4}-\d\d-\d\d \d\d:\d\d/, 'DATE'))).toEqual([
      'Codex CLIDATEcompletedread its filerollout-abc#1',
      'AGIAgentDATEinterruptedquery_skilloutput_20260101_100000',
      'Skillbench MCPDATEqueryquery_skill'
    ])
    expect(within(panel).getByTestId('usage-read').textContent).toBe('Read 26 task(s) from 2 folder(s) and 1 recorded query hit(s).')
    fireEvent.click(within(panel).getAllByTestId('usage-task-link')[0]!)
    // Workspaces opens on that session folder with that task selected
    await waitFor(() => expect(screen.getByTestId('task-trace').textContent).toContain('read the skill'))
    expect(api.callsOf('sessions.tasks').at(-1)).toEqual({ source: 'codex', dir: CODEX })
  })

  it('a failing skill: the numbers against the baseline and the first error of each failed task', async () => {
    const { api } = setup()
    renderApp(api, { screen: 'editor', library: LIB, skillId: '1700000002' })
    const panel = await screen.findByTestId('usage-panel')
    await waitFor(() => expect(within(panel).getByTestId('usage-verdict').textContent).toBe('Its tasks went wrong more often than the baseline: 4 of 6 (67%) against 2/20 (10%). Read the failing tasks below.'))
    expect(within(panel).getAllByTestId('usage-task')[0]!.textContent).toContain('error: Bash: exit 1')
  })
})

function overview(): OverviewResult {
  return { skills: 4, legacy: 0, errors: 0, errorFiles: [], tasks: 3, reflectedTasks: 3, pendingProposals: 0, planComputed: true, qualityHistogram: new Array<number>(10).fill(0), recent: [], graph: { nodes: [], edges: [] } }
}

describe('the Overview lists', () => {
  it('never used in 30 days (old enough and unused, with retire and undo) and failing more often than the baseline', async () => {
    const { api, lib } = setup((api) => {
      api.handlers['overview.get'] = async () => overview()
    })
    renderApp(api, { screen: 'overview' })
    const unused = await screen.findByTestId('usage-unused')
    await waitFor(() => expect(within(unused).getAllByTestId('usage-unused-item').map((i) => i.textContent)).toEqual(['Forgotten skillnever usedOpenRetire']))
    const failing = screen.getByTestId('usage-failing')
    expect(within(failing).getAllByTestId('usage-failing-item').map((i) => i.textContent)).toEqual(['Misleading steps4 of 6 went wrong (67%) · baseline 2/20 (10%)Open'])
    expect(failing.textContent).toContain('1 used skill(s) have too few uses to tell yet.')
    fireEvent.click(within(unused).getByTestId('usage-retire'))
    expect(await screen.findByTestId('usage-retired')).toBeTruthy()
    expect(api.callsOf('skills.delete')).toEqual([{ library: LIB, skillId: '1700000003' }])
    expect(lib.require('1700000003').legacy).toBe(true)
    fireEvent.click(screen.getByTestId('usage-retire-undo'))
    await waitFor(() => expect(api.callsOf('skills.restore')).toEqual([{ library: LIB, skillId: '1700000003' }]))
    expect(lib.require('1700000003').legacy).toBe(false)
    fireEvent.click(within(failing).getByTestId('usage-failing-open'))
    expect(await screen.findByTestId('usage-panel')).toBeTruthy()
  })

  it('says where usage could not be read', async () => {
    const { api } = setup((api) => {
      api.handlers['overview.get'] = async () => overview()
      api.handlers['usage.get'] = async () => {
        throw new Error('session folder not found')
      }
    })
    renderApp(api, { screen: 'overview' })
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toMatch(/Reading what agents used/)
  })
})

describe('a review proposal in Curate', () => {
  it('shows the failing tasks; keeping it as it is rejects; saving needs an edit', async () => {
    const review: Proposal = {
      id: 'r-1', kind: 'review', members: [{ skill_id: '1700000002', title: 'Misleading steps', path: 'skill_1700000002.md' }], score: 0.57,
      reason: '4 of the 6 tasks…', author: 'offline', status: 'pending',
      evidence: { tasks: 6, went_wrong: 4, failed: 4, corrected: 0, baseline: { tasks: 20, completed: 18, failed: 2, interrupted: 0, corrected: 0 }, failing_tasks: [{ source: 'claude', task: 's#1', at: iso(1), outcome: 'failed', path: '/p/s.jsonl', origin: '/p', error: 'Bash: exit 1' }] },
      changes: [{ path: 'skill_1700000002.md', before: 'TEXT', after: 'TEXT' }]
    }
    const { api } = setup((api) => {
      api.handlers['curate.plan'] = async () => ({ library: LIB, computedAt: iso(0), skills_loaded: 4, proposals: [review], errors: [] })
      api.handlers['curate.journal'] = async () => []
      api.handlers['curate.reject'] = async () => ({ ...review, status: 'rejected' as const })
    })
    renderApp(api, { screen: 'curate' })
    const group = await screen.findByTestId('group-review')
    expect(group.textContent).toContain('Review')
    expect(within(group).getByTestId('proposal-reason').textContent).toBe(
      '4 of the 6 tasks that used it went wrong afterwards (67%), against 2/20 (10%) of the tasks without the library’s skills (same sources, same period). Read the failing tasks, then fix the skill (accepting saves your edit), retire it, or keep it as it is.'
    )
    expect(within(group).getByTestId('review-evidence').textContent).toContain('error: Bash: exit 1')
    expect(within(group).getByTestId('proposal-reject').textContent).toBe('Keep as it is')
    fireEvent.click(within(group).getByTestId('proposal-review'))
    const dialog = await screen.findByTestId('review-dialog')
    const save = within(dialog).getByTestId('review-accept') as HTMLButtonElement
    expect(save.textContent).toBe('Save my edit')
    expect(save.disabled).toBe(true)
    fireEvent.click(within(dialog).getByTestId('review-reject'))
    await waitFor(() => expect(api.callsOf('curate.reject')).toEqual([{ library: LIB, proposalId: 'r-1' }]))
  })
})
