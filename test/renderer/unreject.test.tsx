// @vitest-environment jsdom
/**
 * Undoing a rejection on the Curate screen, in English and Chinese: right after Reject the card's place says
 * "Rejected — Undo", announced (a status) with its Undo focused, so one key takes the rejection back; the History
 * lists rejected proposals, each with an Undo; a refusal (a skill changed since) is shown by its code.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../src/shared/api'
import { coded } from '../../src/shared/error-codes'
import type { Proposal } from '../../src/shared/types'
import { createFakeApi, FakeLibrary, LIB, libraryHandlers } from './fake-api'
import { renderApp } from './render-app'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

const proposal = (id: string, a: string, b: string): Proposal => ({
  id, kind: 'merge', score: 0.9, reason: '…', status: 'pending', author: 'offline', fingerprint: `fp-${id}`,
  members: [{ skill_id: `${id}-1`, title: a, path: `skill_${a}.md` }, { skill_id: `${id}-2`, title: b, path: `skill_${b}.md` }],
  evidence: { similarity: 0.9, primary: `${id}-1`, primary_why: 'quality' },
  changes: [{ path: `skill_${a}.md`, before: 'A', after: 'A+B' }, { path: `skill_${b}.md`, before: 'B', after: null }, { path: `legacy/skill_${b}.md`, before: null, after: 'B' }]
})

function setup(opts: { lang?: 'en' | 'zh'; refuse?: boolean; plan?: Proposal[] } = {}) {
  const plan = opts.plan ?? [proposal('m-1', 'Sorting arrays', 'Sorting arrays in TS'), proposal('m-2', 'Deploy with compose', 'Compose checklist')]
  const api = createFakeApi(libraryHandlers(new FakeLibrary()))
  api.handlers['curate.plan'] = async () => ({ library: LIB, computedAt: '2026-12-02T00:00:00Z', skills_loaded: 4, errors: [], proposals: plan.map((p) => ({ ...p })) })
  api.handlers['curate.journal'] = async () => []
  api.handlers['curate.reject'] = async ({ proposalId }) => {
    const p = plan.find((x) => x.id === proposalId)!
    Object.assign(p, { status: 'rejected', rejected: { at: '2026-12-03T09:00:00.000Z', by: 'user' } })
    return p
  }
  api.handlers['curate.unreject'] = async ({ proposalId }) => {
    const p = plan.find((x) => x.id === proposalId)!
    if (opts.refuse) throw new ApiError('conflict', coded('review.unreject_changed', { id: p.id, paths: 'skill_Sorting arrays in TS.md' }))
    p.status = 'pending'
    delete p.rejected
    return p
  }
  if (opts.lang === 'zh') api.handlers['settings.get'] = async () => ({ ...(await libraryHandlers(new FakeLibrary())['settings.get']!({})), language: 'zh' })
  renderApp(api, { screen: 'curate' })
  return { api, plan }
}

const titles = (group: HTMLElement): string[] => [...group.querySelectorAll('[data-testid="proposal"] .strong, [data-testid="rejected-place"] > span')].map((e) => e.textContent ?? '')

describe('Curate: a rejection can be undone', () => {
  it('right after Reject the card’s place says "Rejected — Undo", announced, with Undo focused; Undo brings the card back', async () => {
    const { api } = setup()
    const group = await screen.findByTestId('group-merge')
    const first = within(group).getAllByTestId('proposal')[0]!
    fireEvent.click(within(first).getByTestId('proposal-reject'))
    const place = await within(group).findByTestId('rejected-place')
    expect(place.getAttribute('role')).toBe('status')
    expect(place.textContent).toBe('Rejected — Merge: Sorting arrays + Sorting arrays in TSUndo')
    // it keeps the card's place (first), not sorted after the waiting ones
    await waitFor(() => expect(api.callsOf('curate.plan').length).toBeGreaterThan(1))
    expect(titles(group)[0]).toBe('Rejected — Merge: Sorting arrays + Sorting arrays in TS')
    const undo = within(place).getByTestId('rejected-undo')
    await waitFor(() => expect(document.activeElement).toBe(undo))
    expect(undo.getAttribute('aria-label')).toBe('Undo the rejection of Sorting arrays + Sorting arrays in TS')
    fireEvent.click(undo)
    await waitFor(() => expect(api.callsOf('curate.unreject')).toEqual([{ library: LIB, proposalId: 'm-1' }]))
    expect((await screen.findByTestId('unrejected-status')).textContent).toBe('Rejection undone: the proposal waits for review again.')
    await waitFor(() => expect(within(group).queryByTestId('rejected-place')).toBeNull())
    await waitFor(() => expect(within(group).getAllByTestId('proposal-review')).toHaveLength(2))
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('unrejected-status')))
  })

  it('a rejection made in the review dialog leaves the same place; History lists rejections, each with an Undo', async () => {
    const { api } = setup()
    const group = await screen.findByTestId('group-merge')
    fireEvent.click(within(within(group).getAllByTestId('proposal')[1]!).getByTestId('proposal-review'))
    fireEvent.click(within(await screen.findByTestId('review-dialog')).getByTestId('review-reject'))
    const place = await within(group).findByTestId('rejected-place')
    expect(place.textContent).toContain('Deploy with compose + Compose checklist')
    await waitFor(() => expect(document.activeElement).toBe(within(place).getByTestId('rejected-undo')))

    fireEvent.click(screen.getByTestId('curate-tab-history'))
    const history = await screen.findByTestId('rejected-history')
    await waitFor(() => expect(within(history).getAllByTestId('rejected-entry')).toHaveLength(1))
    const entry = within(history).getByTestId('rejected-entry')
    expect(entry.textContent).toMatch(/^MergeDeploy with compose \+ Compose checklistRejected 2026-12-03 \d\d:\d\d by you\.Undo$/)
    const undo = within(entry).getByTestId('rejected-history-undo')
    expect(undo.getAttribute('aria-label')).toBe('Undo the rejection of Deploy with compose + Compose checklist')
    fireEvent.click(undo)
    await waitFor(() => expect(api.callsOf('curate.unreject')).toEqual([{ library: LIB, proposalId: 'm-2' }]))
    await waitFor(() => expect(screen.queryByTestId('rejected-history')).toBeNull())
    expect(screen.getByTestId('unrejected-status')).toBeTruthy()
  })

  it('a refusal (a skill changed since) is told by its code; the place stays', async () => {
    setup({ refuse: true })
    const group = await screen.findByTestId('group-merge')
    fireEvent.click(within(within(group).getAllByTestId('proposal')[0]!).getByTestId('proposal-reject'))
    fireEvent.click(await within(group).findByTestId('rejected-undo'))
    const alert = await screen.findByText(/Undoing the rejection/)
    expect(alert.closest('[role="alert"]')?.textContent ?? alert.parentElement?.textContent).toContain('cannot wait for review again: its skills changed since it was rejected (skill_Sorting arrays in TS.md)')
    expect(within(group).getByTestId('rejected-place')).toBeTruthy()
  })

  it('reads in Chinese', async () => {
    const { api } = setup({ lang: 'zh' })
    const group = await screen.findByTestId('group-merge')
    await waitFor(() => expect(within(within(group).getAllByTestId('proposal')[0]!).getByTestId('proposal-reject').textContent).toBe('拒绝'))
    fireEvent.click(within(within(group).getAllByTestId('proposal')[0]!).getByTestId('proposal-reject'))
    const place = await within(group).findByTestId('rejected-place')
    expect(place.textContent).toBe('已拒绝 — 合并：Sorting arrays + Sorting arrays in TS撤销')
    expect(within(place).getByTestId('rejected-undo').getAttribute('aria-label')).toBe('撤销对“Sorting arrays + Sorting arrays in TS”的拒绝')
    fireEvent.click(screen.getByTestId('curate-tab-history'))
    const history = await screen.findByTestId('rejected-history')
    expect(history.textContent).toContain('撤销拒绝后可以重新审阅该提议。')
    fireEvent.click(within(history).getByTestId('rejected-history-undo'))
    await waitFor(() => expect(api.callsOf('curate.unreject')).toHaveLength(1))
    expect((await screen.findByTestId('unrejected-status')).textContent).toBe('已撤销拒绝：该提议重新等待审阅。')
  })

  // a plan computed again after the rejections: their cards hold no Undo, and the place they were rejected in is gone
  const rejectedEarlier = (id: string, a: string, b: string, at: string, kind: Proposal['kind'] = 'merge'): Proposal => ({ ...proposal(id, a, b), kind, status: 'rejected', rejected: { at, by: 'user' } })
  const recomputed = (): Proposal[] => [
    proposal('m-1', 'Sorting arrays', 'Sorting arrays in TS'),
    rejectedEarlier('m-2', 'Deploy with compose', 'Compose checklist', '2026-12-01T09:00:00.000Z'),
    rejectedEarlier('e-3', 'Retry with backoff', 'Retry notes', '2026-12-03T09:00:00.000Z', 'enhance')
  ]

  it('after the plan is computed again, Recently rejected (below the proposals) lists each rejection newest first, each with a focusable Undo', async () => {
    const { api } = setup({ plan: recomputed() })
    const recent = await screen.findByTestId('recently-rejected')
    // it sits in the proposals' panel, after the groups
    expect(recent.closest('#curate-panel-plan')).toBeTruthy()
    expect(within(recent).getByRole('heading', { level: 2 }).textContent).toBe('Recently rejected (2)')
    expect(recent.getAttribute('aria-labelledby')).toBe('recently-rejected-title')
    const entries = within(recent).getAllByTestId('rejected-entry')
    expect(entries.map((e) => e.textContent)).toEqual([
      expect.stringMatching(/^EnhanceRetry with backoff \+ Retry notesRejected 2026-12-03 \d\d:\d\d by you\.Undo$/),
      expect.stringMatching(/^MergeDeploy with compose \+ Compose checklistRejected 2026-12-01 \d\d:\d\d by you\.Undo$/)
    ])
    const undo = within(entries[1]!).getByTestId('recently-rejected-undo')
    // a real button in the tab order, named for what it takes back
    expect(undo.tagName).toBe('BUTTON')
    expect(undo.getAttribute('tabindex')).toBeNull()
    expect(undo.getAttribute('aria-label')).toBe('Undo the rejection of Deploy with compose + Compose checklist')
    undo.focus()
    expect(document.activeElement).toBe(undo)
    fireEvent.click(undo)
    await waitFor(() => expect(api.callsOf('curate.unreject')).toEqual([{ library: LIB, proposalId: 'm-2' }]))
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('unrejected-status')))
    await waitFor(() => expect(within(screen.getByTestId('recently-rejected')).getAllByTestId('rejected-entry')).toHaveLength(1))
    // the proposal waits for review again, on its card
    const group = screen.getByTestId('group-merge')
    await waitFor(() => expect(within(group).getAllByTestId('proposal-review')).toHaveLength(2))
  })

  it('lists the latest ten, and Show all the rest', async () => {
    const many = Array.from({ length: 12 }, (_, i) => rejectedEarlier(`m-${i + 10}`, `Skill ${i + 10}`, `Copy ${i + 10}`, `2026-11-${String(i + 10).padStart(2, '0')}T09:00:00.000Z`))
    setup({ plan: many })
    const recent = await screen.findByTestId('recently-rejected')
    expect(within(recent).getByRole('heading', { level: 2 }).textContent).toBe('Recently rejected (12)')
    expect(within(recent).getAllByTestId('rejected-entry').map((e) => e.querySelector('.ellipsis')!.textContent)).toEqual(Array.from({ length: 10 }, (_, i) => `Skill ${21 - i} + Copy ${21 - i}`))
    fireEvent.click(within(recent).getByTestId('recently-rejected-all'))
    expect(within(recent).getAllByTestId('rejected-entry')).toHaveLength(12)
    expect(within(recent).queryByTestId('recently-rejected-all')).toBeNull()
  })

  it('Recently rejected reads in Chinese', async () => {
    const { api } = setup({ lang: 'zh', plan: recomputed() })
    const recent = await screen.findByTestId('recently-rejected')
    await waitFor(() => expect(within(recent).getByRole('heading', { level: 2 }).textContent).toBe('最近拒绝的提议（2）'))
    expect(recent.textContent).toContain('被拒绝的提议不会再次提出，除非其中某个技能发生了变化。撤销拒绝后可以重新审阅该提议。')
    const undo = within(recent).getAllByTestId('recently-rejected-undo')[0]!
    expect(undo.textContent).toBe('撤销')
    expect(undo.getAttribute('aria-label')).toBe('撤销对“Retry with backoff + Retry notes”的拒绝')
    expect(within(screen.getByTestId('group-merge')).getByTestId('rejected-on').textContent).toContain('（见下方“最近拒绝的提议”）')
    fireEvent.click(undo)
    await waitFor(() => expect(api.callsOf('curate.unreject')).toEqual([{ library: LIB, proposalId: 'e-3' }]))
    expect((await screen.findByTestId('unrejected-status')).textContent).toBe('已撤销拒绝：该提议重新等待审阅。')
  })
})
