// @vitest-environment jsdom
// After Rate, Revert, Compute plan, Accept and Undo the keyboard focus lands on the result or the next action, never on the page body.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { JournalEntry, Proposal } from '../../src/shared/types'
import { createFakeApi, FakeLibrary, LIB, libraryHandlers, makeMeta } from './fake-api'
import { renderApp } from './render-app'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

const focused = (): string | null => (document.activeElement as HTMLElement | null)?.getAttribute('data-testid') ?? null

function editorSetup() {
  const lib = new FakeLibrary()
  lib.add(makeMeta(1, { quality_index: 0.5 }), 'Original body.')
  const api = createFakeApi(libraryHandlers(lib))
  renderApp(api, { screen: 'editor', library: LIB, skillId: '1700000001' })
  return { lib, api }
}

function curateSetup() {
  const lib = new FakeLibrary()
  lib.add(makeMeta(1))
  const api = createFakeApi(libraryHandlers(lib))
  const plan: Proposal[] = [
    {
      id: 'p-merge',
      kind: 'merge',
      members: [
        { skill_id: '1', title: 'Python calculator', path: 'skill_a.md' },
        { skill_id: '2', title: 'Calculator in Python', path: 'skill_b.md' }
      ],
      score: 0.82,
      reason: 'Near-duplicates',
      evidence: {},
      changes: [
        { path: 'skill_a.md', before: 'A before', after: 'A merged' },
        { path: 'skill_b.md', before: 'B before', after: null }
      ],
      status: 'pending'
    }
  ]
  const journal: JournalEntry[] = []
  api.handlers['curate.plan'] = async () => ({ library: LIB, computedAt: '2026-01-02T00:00:00Z', skills_loaded: 3, proposals: plan, errors: [] })
  api.handlers['curate.journal'] = async () => journal
  api.handlers['curate.start'] = async () => ({ jobId: 'c1', kind: 'curate', startedAt: '2026-01-01T00:00:00Z', state: 'running' })
  api.handlers['curate.accept'] = async ({ proposalId }) => {
    plan[0]!.status = 'applied'
    const entry: JournalEntry = { id: `j-${proposalId}`, proposal_id: proposalId, kind: 'merge', at: '2026-01-02T01:00:00Z', by: 'user', changes: plan[0]!.changes }
    journal.push(entry)
    return entry
  }
  api.handlers['curate.undo'] = async ({ entryId }) => {
    plan[0]!.status = 'undone'
    const e = journal.find((x) => x.id === entryId)!
    e.undone_at = '2026-01-02T02:00:00Z'
    return e
  }
  renderApp(api, { screen: 'curate' })
  return { api }
}

describe('focus after actions', () => {
  it('Rate moves focus to the rating result, which says what changed', async () => {
    const { api } = editorSetup()
    const submit = await screen.findByTestId('rating-submit')
    submit.focus()
    fireEvent.click(submit)
    await waitFor(() => expect(focused()).toBe('rating-result'))
    expect(api.callsOf('skills.rate')).toHaveLength(1)
    expect(document.activeElement!.textContent).toMatch(/→/)
  })

  it('Revert moves focus to a "reverted" status, not the body', async () => {
    editorSetup()
    const box = (await screen.findByTestId('code-editor')) as HTMLTextAreaElement
    const saved = box.value
    fireEvent.change(box, { target: { value: `${saved}\nmore` } })
    const revert = screen.getByRole('button', { name: 'Revert' })
    revert.focus()
    fireEvent.click(revert)
    await waitFor(() => expect(focused()).toBe('reverted-status'))
    expect(document.activeElement!.getAttribute('role')).toBe('status')
    expect(box.value).toBe(saved)
  })

  it('Compute plan moves focus to the progress, then to the new plan line', async () => {
    const { api } = curateSetup()
    await screen.findByTestId('group-merge')
    const start = screen.getByTestId('curate-start')
    start.focus()
    fireEvent.click(start)
    await waitFor(() => expect(focused()).toBe('curate-job'))
    act(() => api.emit({ type: 'job.done', jobId: 'c1', kind: 'curate', state: 'done', result: { library: LIB, plan: { skills_loaded: 3, proposals: [], errors: [] } } }))
    await waitFor(() => expect(focused()).toBe('plan-info'))
  })

  it('Accept moves focus to Undo; Undo moves focus to its result', async () => {
    curateSetup()
    fireEvent.click(within(await screen.findByTestId('group-merge')).getByTestId('proposal-review'))
    fireEvent.click(within(await screen.findByTestId('review-dialog')).getByTestId('review-accept'))
    await waitFor(() => expect(focused()).toBe('applied-undo'))
    fireEvent.click(document.activeElement!)
    await waitFor(() => expect(focused()).toBe('undone-status'))
    expect(document.activeElement!.textContent).toMatch(/Undone/)
  })
})
