// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within, act } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { JournalEntry, Proposal } from '../../src/shared/types'
import { createFakeApi, FakeLibrary, LIB, libraryHandlers, makeMeta } from './fake-api'
import { renderApp } from './render-app'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

function proposals(): Proposal[] {
  return [
    {
      id: 'p-merge',
      kind: 'merge',
      members: [
        { skill_id: '1', title: 'Python calculator', path: 'skill_a.md' },
        { skill_id: '2', title: 'Calculator in Python', path: 'skill_b.md' }
      ],
      score: 0.82,
      reason: 'Near-duplicates',
      evidence: { similarity: 0.82, shared_terms: ['calculator', 'division', 'pytest'] },
      changes: [
        { path: 'skill_a.md', before: 'A before', after: 'A merged' },
        { path: 'skill_b.md', before: 'B before', after: null }
      ],
      status: 'pending',
      author: 'offline'
    },
    { id: 'p-clean', kind: 'cleanup', members: [{ skill_id: '3', title: 'Stale skill', path: 'skill_c.md' }], score: 0.2, reason: 'Unused for 90 days', evidence: {}, changes: [{ path: 'skill_c.md', before: 'C', after: null }], status: 'pending' }
  ]
}

function setup() {
  const lib = new FakeLibrary()
  lib.add(makeMeta(1))
  const api = createFakeApi(libraryHandlers(lib))
  const plan = proposals()
  const journal: JournalEntry[] = []
  api.handlers['curate.plan'] = async () => ({ library: LIB, computedAt: '2026-01-02T00:00:00Z', skills_loaded: 3, proposals: plan, errors: [] })
  api.handlers['curate.journal'] = async () => journal
  api.handlers['curate.start'] = async () => ({ jobId: 'c1', kind: 'curate', startedAt: '2026-01-01T00:00:00Z', state: 'running' })
  api.handlers['curate.accept'] = async ({ proposalId, edited }) => {
    const p = plan.find((x) => x.id === proposalId)!
    p.status = 'applied'
    const entry: JournalEntry = { id: `j-${proposalId}`, proposal_id: proposalId, kind: p.kind, at: '2026-01-02T01:00:00Z', by: 'user', changes: edited ?? p.changes }
    journal.push(entry)
    return entry
  }
  api.handlers['curate.reject'] = async ({ proposalId }) => {
    const p = plan.find((x) => x.id === proposalId)!
    p.status = 'rejected'
    return p
  }
  api.handlers['curate.undo'] = async ({ entryId }) => {
    const e = journal.find((x) => x.id === entryId)!
    e.undone_at = '2026-01-02T02:00:00Z'
    return e
  }
  renderApp(api, { screen: 'curate' })
  return { api, plan, journal }
}

describe('Curate screen', () => {
  it('groups proposals by kind with their evidence', async () => {
    setup()
    const merge = await screen.findByTestId('group-merge')
    expect(merge.textContent).toContain('Python calculator + Calculator in Python')
    expect(merge.textContent).toContain('0.82')
    expect(merge.textContent).not.toMatch(/Score|0\.820/)
    expect([...merge.querySelectorAll('.term')].map((e) => e.textContent)).toEqual(['calculator', 'division', 'pytest'])
    expect(screen.getByTestId('group-cleanup').textContent).toContain('Stale skill')
  })

  it('computes the plan with one click and re-reads it when the job ends', async () => {
    const { api } = setup()
    await screen.findByTestId('group-merge')
    const before = api.callsOf('curate.plan').length
    fireEvent.click(screen.getByTestId('curate-start'))
    await waitFor(() => expect(api.callsOf('curate.start')).toEqual([{ library: LIB }]))
    act(() => api.emit({ type: 'job.progress', progress: { jobId: 'c1', kind: 'curate', fraction: 0.5, stage: 'step', message: 'clustering' } }))
    expect((await screen.findByTestId('curate-progress')).getAttribute('aria-valuenow')).toBe('50')
    act(() => api.emit({ type: 'job.done', jobId: 'c1', kind: 'curate', state: 'done', result: { library: LIB, plan: { skills_loaded: 3, proposals: [], errors: [] } } }))
    await waitFor(() => expect(api.callsOf('curate.plan').length).toBeGreaterThan(before))
  })

  it('reviews a merge in the diff view and accepts it unchanged', async () => {
    const { api } = setup()
    fireEvent.click(within(await screen.findByTestId('group-merge')).getByTestId('proposal-review'))
    const dialog = await screen.findByTestId('review-dialog')
    expect((within(dialog).getByTestId('diff-original') as HTMLTextAreaElement).value).toBe('A before')
    expect((within(dialog).getByTestId('diff-modified') as HTMLTextAreaElement).value).toBe('A merged')
    fireEvent.click(within(dialog).getByTestId('review-accept'))
    await waitFor(() => expect(api.callsOf('curate.accept')).toEqual([{ library: LIB, proposalId: 'p-merge', edited: undefined }]))
    await waitFor(() => expect(screen.queryByTestId('review-dialog')).toBeNull())
  })

  it('edit-then-accept sends the edited "after" text', async () => {
    const { api } = setup()
    fireEvent.click(within(await screen.findByTestId('group-merge')).getByTestId('proposal-review'))
    const dialog = await screen.findByTestId('review-dialog')
    fireEvent.change(within(dialog).getByTestId('diff-modified'), { target: { value: 'A merged, edited by me' } })
    fireEvent.click(within(dialog).getByTestId('review-accept'))
    await waitFor(() => expect(api.callsOf('curate.accept')).toHaveLength(1))
    expect(api.callsOf('curate.accept')[0]!.edited).toEqual([
      { path: 'skill_a.md', before: 'A before', after: 'A merged, edited by me' },
      { path: 'skill_b.md', before: 'B before', after: null }
    ])
  })

  it('rejects a proposal', async () => {
    const { api } = setup()
    fireEvent.click(within(await screen.findByTestId('group-cleanup')).getByTestId('proposal-reject'))
    await waitFor(() => expect(api.callsOf('curate.reject')).toEqual([{ library: LIB, proposalId: 'p-clean' }]))
    await waitFor(() => expect(within(screen.getByTestId('group-cleanup')).queryByTestId('proposal-reject')).toBeNull())
  })

  it('shows the history and undoes an applied change', async () => {
    const { api } = setup()
    fireEvent.click(within(await screen.findByTestId('group-merge')).getByTestId('proposal-review'))
    fireEvent.click(within(await screen.findByTestId('review-dialog')).getByTestId('review-accept'))
    await waitFor(() => expect(screen.queryByTestId('review-dialog')).toBeNull())
    fireEvent.click(screen.getByTestId('curate-tab-history'))
    const entry = await screen.findByTestId('journal-entry')
    expect(entry.textContent).toContain('skill_a.md, skill_b.md')
    fireEvent.click(within(entry).getByTestId('journal-undo'))
    await waitFor(() => expect(api.callsOf('curate.undo')).toEqual([{ library: LIB, entryId: 'j-p-merge' }]))
    expect(await screen.findByTestId('journal-undone')).toBeTruthy()
  })

  it('lists reflection enhance and agent edit / delete proposals with who proposed them, and accepts / rejects them by id', async () => {
    const { api, plan } = setup()
    plan.push(
      {
        id: 'enhance-abc123def456',
        kind: 'enhance',
        members: [{ skill_id: '1', title: 'Python calculator', path: 'skill_a.md' }],
        score: 0.41,
        reason: 'Added pitfall',
        evidence: { similarity: 0.41, task: 'output_20260105_101010', changes: ['Added pitfall: check for zero'] },
        changes: [{ path: 'skill_a.md', before: 'A before', after: 'A enhanced' }],
        status: 'pending',
        author: 'offline'
      },
      {
        id: 'edit-1-20260101T000000Z-abcdef',
        kind: 'edit',
        members: [{ skill_id: '1', title: 'Python calculator', path: 'skill_a.md' }],
        score: 1,
        reason: 'An agent asked to edit',
        evidence: { tool: 'edit_skill', args: {}, base_hash: 'x' },
        changes: [{ path: 'skill_a.md', before: 'A before', after: 'A by agent' }],
        status: 'pending',
        author: 'mcp:claude-code'
      },
      {
        id: 'delete-3-20260101T000000Z-abcdef',
        kind: 'delete',
        members: [{ skill_id: '3', title: 'Stale skill', path: 'skill_c.md' }],
        score: 1,
        reason: 'An agent asked to retire',
        evidence: { tool: 'delete_skill', args: {}, base_hash: 'y' },
        changes: [{ path: 'skill_c.md', before: 'C', after: null }],
        status: 'pending',
        author: 'mcp:codex'
      }
    )
    const enhance = await screen.findByTestId('group-enhance')
    expect(within(enhance).getByTestId('proposal-task').textContent).toBe('From task output_20260105_101010')
    expect(enhance.textContent).toContain('Added pitfall: check for zero')
    const edit = screen.getByTestId('group-edit')
    expect(within(edit).getByTestId('proposal-author').textContent).toBe('Proposed by the agent claude-code')
    expect(within(edit).getByTestId('proposal-tool').textContent).toBe('Agent call: edit_skill')
    expect(within(screen.getByTestId('group-delete')).getByTestId('proposal-author').textContent).toBe('Proposed by the agent codex')
    fireEvent.click(within(edit).getByTestId('proposal-review'))
    const dialog = await screen.findByTestId('review-dialog')
    expect((within(dialog).getByTestId('diff-modified') as HTMLTextAreaElement).value).toBe('A by agent')
    fireEvent.change(within(dialog).getByTestId('diff-modified'), { target: { value: 'A by agent, fixed' } })
    fireEvent.click(within(dialog).getByTestId('review-accept'))
    await waitFor(() => expect(api.callsOf('curate.accept')).toHaveLength(1))
    expect(api.callsOf('curate.accept')[0]).toEqual({ library: LIB, proposalId: 'edit-1-20260101T000000Z-abcdef', edited: [{ path: 'skill_a.md', before: 'A before', after: 'A by agent, fixed' }] })
    fireEvent.click(within(screen.getByTestId('group-delete')).getByTestId('proposal-reject'))
    await waitFor(() => expect(api.callsOf('curate.reject')).toEqual([{ library: LIB, proposalId: 'delete-3-20260101T000000Z-abcdef' }]))
  })
})

describe('proposals that came without a plan', () => {
  it('says they wait for review instead of "No plan yet" above them', async () => {
    const lib = new FakeLibrary()
    lib.add(makeMeta(1))
    const api = createFakeApi(libraryHandlers(lib))
    const update: Proposal = { id: 'update-1', kind: 'update', members: [{ skill_id: '1', title: 'pdf', path: 'pdf/SKILL.md' }], score: 1, reason: 'upstream changed', evidence: {}, changes: [{ path: 'pdf/SKILL.md', before: 'a', after: 'b' }], status: 'pending' }
    api.handlers['curate.plan'] = async () => ({ library: LIB, computedAt: null, skills_loaded: 0, proposals: [update], errors: [] })
    api.handlers['curate.journal'] = async () => []
    renderApp(api, { screen: 'curate' })
    const info = await screen.findByTestId('plan-info')
    expect(info.textContent).toBe('1 proposal(s) below wait for your review. Curation has not looked for merges and clean-ups yet: click "Compute plan" for those.')
    expect(info.textContent).not.toMatch(/No plan yet/)
  })
})

describe('the plan in Chinese', () => {
  it('punctuates as Chinese: full-width colons and brackets around the counts, the title and the labels', async () => {
    setup()
    const group = await screen.findByTestId('group-merge')
    fireEvent.change(screen.getByTestId('language-switch'), { target: { value: 'zh' } })
    await waitFor(() => expect(group.querySelector('h2')!.textContent).toBe('合并（1）'))
    const card = within(group).getByTestId('proposal')
    expect(card.textContent).toContain('相似度：0.82')
    expect(within(card).getByTestId('shared-words').textContent).toMatch(/^共同用词：/)
    fireEvent.click(within(card).getByTestId('proposal-review'))
    const dialog = await screen.findByTestId('review-dialog')
    expect(within(dialog).getByRole('heading', { level: 2 }).textContent).toBe('合并：Python calculator + Calculator in Python')
    // no ASCII colon or bracket right after a Chinese character anywhere on the card or in the dialog's head
    for (const text of [card.textContent!, within(dialog).getByRole('heading', { level: 2 }).textContent!]) expect(text).not.toMatch(/[\u4e00-\u9fff] ?[:(]/)
  })
})

describe("agents' proposal files that do not read", () => {
  function withErrors(lang: 'en' | 'zh') {
    const api = createFakeApi(libraryHandlers(new FakeLibrary()))
    // as the review queue sends them (listPendingProposals' load errors, by code), beside a skill curation could not read
    const errors = [
      { path: 'skill_broken.md', reason: 'no front matter: the file must start with a line "---"', messageCode: 'parse.no_front_matter' as const, params: {} },
      { path: '.skillbench/pending/edit-1-20261127T120001Z-abcde1.json', reason: 'not a proposal', messageCode: 'review.pending_not_proposal' as const, params: {} },
      { path: '.skillbench/pending/edit-1-20261127T120002Z-abcde2.json', reason: 'removed while reading', messageCode: 'review.pending_removed' as const, params: {} }
    ]
    api.handlers['curate.plan'] = async () => ({ library: LIB, computedAt: null, skills_loaded: 0, proposals: [], errors })
    const settings = api.handlers['settings.get']!
    api.handlers['settings.get'] = async (input) => ({ ...(await settings(input)), language: lang })
    renderApp(api, { screen: 'curate' })
  }

  it('are listed on the plan tab with their reason by code (the skill files are the Skills screen\'s)', async () => {
    withErrors('en')
    const list = await screen.findByTestId('pending-errors')
    expect(list.querySelector('summary')!.textContent).toBe('2 proposal file(s) an agent left could not be read')
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      '.skillbench/pending/edit-1-20261127T120001Z-abcde1.json — not a proposal',
      '.skillbench/pending/edit-1-20261127T120002Z-abcde2.json — removed while reading'
    ])
  })

  it('in Chinese by code', async () => {
    withErrors('zh')
    const list = await screen.findByTestId('pending-errors')
    await waitFor(() => expect(list.querySelector('summary')!.textContent).toBe('2 个智能体留下的提议文件无法读取'))
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      '.skillbench/pending/edit-1-20261127T120001Z-abcde1.json — 不是提议文件',
      '.skillbench/pending/edit-1-20261127T120002Z-abcde2.json — 读取时已被删除'
    ])
  })
})
