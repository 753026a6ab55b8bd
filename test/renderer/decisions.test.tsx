// @vitest-environment jsdom
/**
 * The Curate screen's evidence and lasting decisions (issue 36), in English and Chinese: a cleanup says which
 * sources watched which days; the plan says when nothing watched; a merge that retires a used skill warns; a rejected
 * proposal says when and by whom, and is listed in the history; an undone one can be reviewed again.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { CleanupCoverage, Proposal } from '../../src/shared/types'
import { createFakeApi, FakeLibrary, LIB, libraryHandlers } from './fake-api'
import { renderApp } from './render-app'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

const cleanup: Proposal = {
  id: 'c-1', kind: 'cleanup', score: 0, reason: 'not used…', status: 'pending', author: 'offline',
  members: [{ skill_id: '9', title: 'Forgotten notes', path: 'skill_notes.md' }],
  evidence: {
    fetch_count: 0, created_at: '2026-09-01T10:00:00.000000', cleanup_days: 30, observed_days: 92, observed_from: '2026-09-01T10:00:00.000Z',
    observed_by: [{ kind: 'fetch_count', dir: '', from: '2026-09-01T10:00:00.000Z' }, { kind: 'claude', dir: '/home/u/.claude/projects', from: '2026-10-03T08:00:00.000Z' }]
  },
  changes: [{ path: 'skill_notes.md', before: 'N', after: null }, { path: 'legacy/skill_notes.md', before: null, after: 'N' }]
}
const merge: Proposal = {
  id: 'm-1', kind: 'merge', score: 0.91, reason: '…', status: 'pending', author: 'offline',
  members: [{ skill_id: '1', title: 'brand-guidelines', path: 'a/brand-guidelines/SKILL.md' }, { skill_id: '2', title: 'brand-guidelines (copy)', path: 'b/brand-guidelines/SKILL.md' }],
  evidence: { similarity: 0.97, primary: '1', primary_why: 'used', retired_with_uses: [{ skill_id: '2', title: 'brand-guidelines (copy)', uses: 3, last_used_at: '2026-11-28T09:00:00.000Z' }] },
  changes: [{ path: 'a/brand-guidelines/SKILL.md', before: 'A', after: 'A+B' }, { path: 'b/brand-guidelines/SKILL.md', before: 'B', after: null }, { path: 'legacy/b/brand-guidelines/SKILL.md', before: null, after: 'B' }]
}
const rejected: Proposal = {
  id: 'm-2', kind: 'merge', score: 0.8, reason: '…', status: 'rejected', author: 'offline', rejected: { at: '2026-11-30T10:00:00.000Z', by: 'alice' },
  members: [{ skill_id: '3', title: 'Clockify', path: 'clockify/SKILL.md' }, { skill_id: '4', title: 'Toggl', path: 'toggl/SKILL.md' }],
  evidence: { similarity: 0.8, primary: '3', primary_why: 'quality' },
  changes: [{ path: 'clockify/SKILL.md', before: 'C', after: 'C+T' }]
}
const undone: Proposal = { ...merge, id: 'm-3', status: 'undone', evidence: { similarity: 0.9, primary: '1', primary_why: 'quality' } }

function setup(opts: { lang?: 'en' | 'zh'; coverage: CleanupCoverage; proposals: Proposal[] }) {
  const lib = new FakeLibrary()
  const api = createFakeApi(libraryHandlers(lib))
  api.handlers['curate.plan'] = async () => ({ library: LIB, computedAt: '2026-12-02T00:00:00Z', skills_loaded: 40, errors: [], proposals: opts.proposals, cleanup: opts.coverage })
  api.handlers['curate.journal'] = async () => []
  if (opts.lang === 'zh') api.handlers['settings.get'] = async () => ({ ...(await libraryHandlers(new FakeLibrary())['settings.get']!({})), language: 'zh' })
  renderApp(api, { screen: 'curate' })
  return api
}

const WATCHED: CleanupCoverage = { sources: [{ kind: 'fetch_count', dir: '', from: '2026-09-01T10:00:00.000Z', uses: 12 }, { kind: 'claude', dir: '/home/u/.claude/projects', from: '2026-10-03T08:00:00.000Z', uses: 5 }], days: 30, judged: 20, not_judged: { arrival_unknown: 0, not_observed: 0, too_short: 3 } }
const NOTHING: CleanupCoverage = { sources: [], days: 30, judged: 0, not_judged: { arrival_unknown: 580, not_observed: 0, too_short: 0 } }

describe('Curate: evidence and lasting decisions', () => {
  it('a cleanup names the sources and days that watched it; the plan says what it could judge', async () => {
    setup({ coverage: WATCHED, proposals: [cleanup] })
    const card = within(await screen.findByTestId('group-cleanup')).getByTestId('proposal')
    expect(within(card).getByTestId('proposal-reason').textContent).toBe(
      'Not used by any agent in the 92 days watched since it arrived on 2026-09-01 (at least 30 needed). Watched by the fetch_count its agents’ query_skill keeps, since 2026-09-01; Claude Code logs in /home/u/.claude/projects, since 2026-10-03. It moves to the legacy folder (restorable).'
    )
    const note = screen.getByTestId('cleanup-coverage')
    expect(note.textContent).toContain('Cleanup: watched by the fetch_count its agents’ query_skill keeps, since 2026-09-01; Claude Code logs in /home/u/.claude/projects, since 2026-10-03.')
    expect(note.textContent).toContain('Not judged yet: 3 watched fewer than 30 days since they arrived.')
  })

  it('a library nothing watched: the plan says no skill is called unused', async () => {
    setup({ coverage: NOTHING, proposals: [] })
    const note = await screen.findByTestId('cleanup-coverage')
    expect(note.textContent).toContain('Cleanup: nothing has watched this library’s skills being used')
    expect(note.textContent).toContain('580 dated only by their file (when they arrived is unknown)')
  })

  it('a merge retiring a skill agents used warns on the card and in the review', async () => {
    setup({ coverage: WATCHED, proposals: [merge] })
    const card = within(await screen.findByTestId('group-merge')).getByTestId('proposal')
    expect(within(card).getByTestId('used-retired').textContent).toBe('⚠ Agents used “brand-guidelines (copy)” (3 recorded use(s), last 2026-11-28), and it moves to the legacy folder too: check that “brand-guidelines” covers it.')
    fireEvent.click(within(card).getByTestId('proposal-review'))
    expect(within(await screen.findByTestId('review-dialog')).getByTestId('used-retired')).toBeTruthy()
  })

  it('a rejected proposal says when and by whom, comes last, and is listed in the history; an undone one can be reviewed again', async () => {
    setup({ coverage: WATCHED, proposals: [rejected, undone] })
    const group = await screen.findByTestId('group-merge')
    const cards = within(group).getAllByTestId('proposal')
    expect(cards.map((c) => c.querySelector('.strong')!.textContent)).toEqual(['brand-guidelines + brand-guidelines (copy)', 'Clockify + Toggl'])
    expect(within(cards[1]!).getByTestId('rejected-on').textContent).toMatch(/^Rejected 2026-11-30 \d\d:\d\d by alice\. It stays rejected until one of its skills changes or you undo the rejection \(Recently rejected, below\)\.$/)
    expect(within(cards[1]!).queryByTestId('proposal-review')).toBeNull()
    expect(within(cards[0]!).getByTestId('undone-help').textContent).toBe('Undone: you can review and accept it again.')
    expect(within(cards[0]!).getByTestId('proposal-review')).toBeTruthy()
    fireEvent.click(screen.getByTestId('curate-tab-history'))
    const history = await screen.findByTestId('rejected-history')
    expect(within(history).getAllByTestId('rejected-entry').map((e) => e.textContent)).toEqual([expect.stringContaining('Clockify + Toggl')])
  })

  it('reads in Chinese', async () => {
    setup({ lang: 'zh', coverage: WATCHED, proposals: [cleanup, merge, rejected] })
    const card = within(await screen.findByTestId('group-cleanup')).getByTestId('proposal')
    await waitFor(() => expect(within(card).getByTestId('proposal-reason').textContent).toContain('自 2026-09-01 进入技能库以来，在有记录的 92 天里没有任何智能体使用它'))
    expect(within(card).getByTestId('proposal-reason').textContent).toContain('/home/u/.claude/projects 中的 Claude Code 日志（自 2026-10-03 起）')
    expect(screen.getByTestId('used-retired').textContent).toContain('智能体使用过“brand-guidelines (copy)”（3 次使用记录，最近一次 2026-11-28）')
    expect(screen.getByTestId('rejected-on').textContent).toMatch(/^alice 于 2026-11-30 \d\d:\d\d 拒绝。/)
    expect(screen.getByTestId('cleanup-coverage').textContent).toContain('暂不判断：3 个进入技能库后被记录不足 30 天。')
  })
})
