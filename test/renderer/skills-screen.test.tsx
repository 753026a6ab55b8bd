// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { ApiError, type LibraryProblem } from '../../src/shared/api'
import { createFakeApi, FakeLibrary, LIB, libraryHandlers, makeMeta } from './fake-api'
import { renderApp } from './render-app'
import { createQueryClient } from '../../src/renderer/App'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

function setup(n: number, extra?: (lib: FakeLibrary) => void) {
  const lib = new FakeLibrary()
  for (let i = 0; i < n; i++) lib.add(makeMeta(i, { quality_index: (i % 10) / 10, fetch_count: (i * 7) % 13 }))
  extra?.(lib)
  const api = createFakeApi(libraryHandlers(lib))
  return { lib, api }
}

describe('Skills screen', () => {
  it('lists the skills of the library, sorted by quality (highest first)', async () => {
    const { api } = setup(5)
    renderApp(api, { screen: 'skills' })
    const rows = await screen.findAllByTestId('skill-row')
    expect(rows).toHaveLength(5)
    expect(rows[0]!.textContent).toContain('Skill number 4') // quality 0.4 is the highest of 0..0.4
    expect(screen.getByTestId('skill-count').textContent).toContain('5 of 5')
    expect(api.callsOf('skills.list')[0]).toEqual({ library: LIB, includeLegacy: true })
  })

  it('has one "Last used" column beside the fetch count: the latest of the file\'s last fetch and the agents\' logs', async () => {
    const { api } = setup(1, (lib) => lib.add(makeMeta(1, { fetch_count: 3, last_used_at: '2026-10-28T09:12:00.000Z' })))
    renderApp(api, { screen: 'skills' })
    await screen.findAllByTestId('skill-row')
    const head = [...document.querySelectorAll('.list-head > span')].map((c) => c.textContent)
    expect(head.slice(2, 5)).toEqual(['Fetches', 'Last used', 'Used by agents'])
    expect(head.filter((h) => /last/i.test(h ?? ''))).toEqual(['Last used'])
    const row = screen.getAllByTestId('skill-row').find((r) => r.textContent?.includes('2026-10-28'))!
    const cells = [...row.querySelector('.skill-grid')!.children].map((c) => c.textContent)
    expect(cells[2]).toBe('3')
    expect(cells[3]).toContain('2026-10-28')
    expect(row.querySelector('[data-testid="skill-usage"]')).toBe(row.querySelector('.skill-grid')!.children[4])
  })

  it('keeps 10,000 skills virtualised: only a window of rows is in the DOM', async () => {
    const { api } = setup(10_000)
    renderApp(api, { screen: 'skills' })
    const rows = await screen.findAllByTestId('skill-row')
    expect(rows.length).toBeGreaterThan(5)
    expect(rows.length).toBeLessThan(60)
    expect(screen.getByTestId('skill-count').textContent).toContain('10000')
  })

  it('sorts by fetch count and moves through rows with the arrow keys, Enter opens the editor', async () => {
    const { api } = setup(6)
    renderApp(api, { screen: 'skills' })
    await screen.findAllByTestId('skill-row')
    fireEvent.change(screen.getByTestId('skill-sort'), { target: { value: 'fetch' } })
    await waitFor(() => expect(screen.getAllByTestId('skill-row')[0]!.textContent).toContain('Skill number 5')) // fetch (5*7)%13 = 9, the max
    const list = screen.getByTestId('skill-list')
    fireEvent.keyDown(list, { key: 'ArrowDown' })
    const rows = screen.getAllByTestId('skill-row')
    expect(rows[1]!.getAttribute('aria-selected')).toBe('true')
    fireEvent.keyDown(list, { key: 'Enter' })
    expect(await screen.findByTestId('screen-editor')).toBeTruthy()
    // fetch counts (i*7)%13 for i = 0..5 are 0,7,1,8,2,9: the second row is skill 3
    expect(rows[1]!.textContent).toContain('Skill number 3')
    await waitFor(() => expect(api.callsOf('skills.get').at(-1)).toMatchObject({ library: LIB, skillId: '1700000003' }))
  })

  it('shows legacy skills on request and restores one', async () => {
    const { api, lib } = setup(2, (l) => l.add(makeMeta(99, { title: 'Old retired skill' }), 'old', true))
    renderApp(api, { screen: 'skills' })
    await screen.findAllByTestId('skill-row')
    expect(screen.queryByText('Old retired skill')).toBeNull()
    fireEvent.change(screen.getByTestId('skill-legacy-filter'), { target: { value: 'legacy' } })
    // no button inside a list row (nested-interactive): select the row, then Restore in the toolbar
    const row = await screen.findByText('Old retired skill')
    fireEvent.click(row.closest('[data-testid="skill-row"]') as HTMLElement)
    fireEvent.click(await screen.findByTestId('skill-restore'))
    await waitFor(() => expect(api.callsOf('skills.restore')).toEqual([{ library: LIB, skillId: '1700000099' }]))
    expect(lib.require('1700000099').legacy).toBe(false)
    await waitFor(() => expect(screen.queryByText('Old retired skill')).toBeNull()) // list re-read: no longer legacy
    // said, with Undo focused: Undo retires it again
    expect(screen.getByTestId('restored-banner').textContent).toMatch(/Restored “Old retired skill” to the library/)
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('restore-undo')))
    fireEvent.click(screen.getByTestId('restore-undo'))
    await waitFor(() => expect(api.callsOf('skills.delete')).toEqual([{ library: LIB, skillId: '1700000099' }]))
    await waitFor(() => expect(screen.queryByTestId('restored-banner')).toBeNull())
    expect(lib.require('1700000099').legacy).toBe(true)
  })

  it('shows Restore on the selected legacy row for the pointer (hidden from the accessibility tree: the bar above has it)', async () => {
    const { api } = setup(1, (l) => l.add(makeMeta(98, { title: 'Another retired one' }), 'old2', true))
    renderApp(api, { screen: 'skills' })
    await screen.findAllByTestId('skill-row')
    fireEvent.change(screen.getByTestId('skill-legacy-filter'), { target: { value: 'legacy' } })
    const row = (await screen.findByText('Another retired one')).closest('[data-testid="skill-row"]') as HTMLElement
    fireEvent.click(row)
    const onRow = await within(row).findByTestId('row-restore')
    expect(onRow.getAttribute('aria-hidden')).toBe('true')
    fireEvent.click(onRow)
    await waitFor(() => expect(api.callsOf('skills.restore')).toEqual([{ library: LIB, skillId: '1700000098' }]))
  })

  it('full-text search goes through skills.query and shows the similarity', async () => {
    const { api } = setup(3)
    api.handlers['skills.query'] = async () => ({
      status: 'success',
      message: '',
      skills_count: 1,
      skills: [{ ...makeMeta(2), similarity_score: 0.734, content: 'x', path: 'skill_1700000002.md', format: 'agiagent' }]
    })
    renderApp(api, { screen: 'skills' })
    await screen.findAllByTestId('skill-row')
    fireEvent.change(screen.getByTestId('skill-search'), { target: { value: 'case 2' } })
    await waitFor(() => expect(screen.getAllByTestId('skill-row')).toHaveLength(1), { timeout: 2000 })
    expect(screen.getByTestId('skill-similarity').textContent).toBe('0.734')
    expect(api.callsOf('skills.query')[0]).toMatchObject({ library: LIB, text: 'case 2' })
  })

  it('says what went wrong when the list cannot be read, and retries', async () => {
    const { api } = setup(1)
    let fail = true
    const real = api.handlers['skills.list']!
    api.handlers['skills.list'] = async (input) => {
      if (fail) throw new ApiError('not_found', 'library folder vanished')
      return real(input)
    }
    renderApp(api, { screen: 'skills' })
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('not there any more')
    expect(alert.textContent).toContain('library folder vanished')
    fail = false
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    expect(await screen.findAllByTestId('skill-row')).toHaveLength(1)
  })
})

describe('problems of the whole library', () => {
  // as skills.list sends them: what a recovery did (a rollback; a change it could not undo, the undo's problem nested),
  // a change still interrupted, and index.json's with the store's reason
  const problems: LibraryProblem[] = [
    {
      message: 'tx-0: an interrupted change (proposal p-7) was rolled back; nothing of it stays applied',
      messageCode: 'review.recover_rolled_back',
      params: { id: 'tx-0', proposal: 'p-7' }
    },
    {
      message: 'tx-1: csv-report/SKILL.md matches neither its old nor its new text',
      messageCode: 'review.recover_failed',
      params: { id: 'tx-1', problems: { messageCode: 'review.undo_neither', params: { path: 'csv-report/SKILL.md' } } }
    },
    {
      message: 'tx-2: a change was interrupted (a crash or a kill); the next change to this library (from the app, the CLI or an agent) finishes it',
      messageCode: 'review.interrupted_pending',
      params: { id: 'tx-2' }
    },
    { message: 'index.json could not be updated: index.json: is a symbolic link (never written through)', messageCode: 'index.not_updated', params: { reason: { messageCode: 'file.problem', params: { path: 'index.json', reason: { messageCode: 'file.why_symlink_write', params: {} } } } } }
  ]
  // the first two are in the recovery log, up to this offset
  const UP_TO = 812

  function withProblems(lang: 'en' | 'zh') {
    const { api } = setup(2)
    const list = api.handlers['skills.list']!
    // as the core answers: the logged recoveries go once dismissed, the rest stays
    let seen = 0
    api.handlers['skills.list'] = async (input) => {
      const shown = seen >= UP_TO ? problems.slice(2) : problems
      return { ...(await list(input)), problems: shown, ...(seen >= UP_TO ? {} : { problemsDismissUpTo: UP_TO }) }
    }
    api.handlers['skills.dismissProblems'] = async ({ upTo }) => {
      seen = Math.max(seen, upTo)
      return { seenUpTo: seen }
    }
    const settings = api.handlers['settings.get']!
    api.handlers['settings.get'] = async (input) => ({ ...(await settings(input)), language: lang })
    return api
  }

  it('shows them above the list, each worded by its code; Dismiss marks the recoveries seen up to the offset shown', async () => {
    const api = withProblems('en')
    renderApp(api, { screen: 'skills' })
    const notice = await screen.findByTestId('library-problems')
    expect(notice.getAttribute('role')).toBe('status')
    expect(notice.textContent).toContain('This library needs your attention:')
    expect(within(notice).getAllByTestId('library-problem').map((li) => li.textContent)).toEqual(problems.map((p) => p.message))
    expect(await screen.findAllByTestId('skill-row')).toHaveLength(2)

    fireEvent.click(within(notice).getByRole('button', { name: 'Dismiss what recovery did' }))
    await waitFor(() => expect(screen.getAllByTestId('library-problem')).toHaveLength(2))
    expect(api.callsOf('skills.dismissProblems')).toEqual([{ library: LIB, upTo: UP_TO }])
    expect(screen.getAllByTestId('library-problem').map((li) => li.textContent)).toEqual(problems.slice(2).map((p) => p.message))
    // nothing left to dismiss: the still-interrupted change goes when a write finishes it
    expect(screen.queryByTestId('library-problems-dismiss')).toBeNull()
  })

  it('in Chinese by code, nested reasons too, and the Dismiss button', async () => {
    const api = withProblems('zh')
    renderApp(api, { screen: 'skills' })
    const notice = await screen.findByTestId('library-problems')
    await waitFor(() => expect(notice.textContent).toContain('此技能库有需要留意的情况：'))
    expect(within(notice).getAllByTestId('library-problem').map((li) => li.textContent)).toEqual([
      'tx-0：被中断的修改（提议 p-7）已回滚，没有任何部分保留下来',
      'tx-1：csv-report/SKILL.md 既不是修改前的内容，也不是修改后的内容',
      'tx-2：一次修改被中断（崩溃或被终止）；下一次对此技能库的修改（来自应用、命令行或智能体）会把它完成',
      '无法更新 index.json：index.json：是符号链接（从不通过它写入）'
    ])
    fireEvent.click(within(notice).getByRole('button', { name: '不再显示恢复记录' }))
    await waitFor(() => expect(screen.getAllByTestId('library-problem')).toHaveLength(2))
    expect(api.callsOf('skills.dismissProblems')).toEqual([{ library: LIB, upTo: UP_TO }])
  })

  it('a dismissal that fails says so, and the notice stays', async () => {
    const api = withProblems('en')
    api.handlers['skills.dismissProblems'] = async () => {
      throw new ApiError('busy', 'library busy: another Skillbench process is changing this library; waited 8 s — try again')
    }
    renderApp(api, { screen: 'skills' })
    const notice = await screen.findByTestId('library-problems')
    fireEvent.click(within(notice).getByTestId('library-problems-dismiss'))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Dismissing what recovery did')
    expect(screen.getAllByTestId('library-problem')).toHaveLength(4)
  })

  it('shows no notice when there is none', async () => {
    const { api } = setup(2)
    renderApp(api, { screen: 'skills' })
    expect(await screen.findAllByTestId('skill-row')).toHaveLength(2)
    expect(screen.queryByTestId('library-problems')).toBeNull()
  })
})

describe('the problems notice stays current (another process\'s recovery says nothing to the app)', () => {
  const rolledBack = (id: string): LibraryProblem => ({
    message: `${id}: an interrupted change (proposal p-${id}) was rolled back; nothing of it stays applied`,
    messageCode: 'review.recover_rolled_back',
    params: { id, proposal: `p-${id}` }
  })

  /** A library whose recovery log grows behind the app's back: `logged` is what skills.list answers. */
  function growingLog(extra?: (lib: FakeLibrary) => void) {
    const { api, lib } = setup(2, extra)
    const list = api.handlers['skills.list']!
    const logged: LibraryProblem[] = []
    api.handlers['skills.list'] = async (input) => ({ ...(await list(input)), ...(logged.length ? { problems: [...logged], problemsDismissUpTo: 100 * logged.length } : {}) })
    return { api, lib, logged }
  }

  const shown = (): string[] => screen.queryAllByTestId('library-problem').map((li) => li.textContent ?? '')

  it('is read again when the window regains focus, or the page becomes visible again (not while it is hidden)', async () => {
    const { api, logged } = growingLog()
    renderApp(api, { screen: 'skills' })
    expect(await screen.findAllByTestId('skill-row')).toHaveLength(2)
    expect(screen.queryByTestId('library-problems')).toBeNull()

    logged.push(rolledBack('tx-cli'))
    fireEvent.focus(window)
    await waitFor(() => expect(shown()).toEqual([rolledBack('tx-cli').message]))

    let state: DocumentVisibilityState = 'hidden'
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => state)
    try {
      logged.push(rolledBack('tx-mcp'))
      const before = api.callsOf('skills.list').length
      fireEvent(document, new Event('visibilitychange'))
      await act(async () => undefined)
      expect(api.callsOf('skills.list')).toHaveLength(before) // hidden: nobody sees it
      state = 'visible'
      fireEvent(document, new Event('visibilitychange'))
      await waitFor(() => expect(shown()).toEqual([rolledBack('tx-cli').message, rolledBack('tx-mcp').message]))
    } finally {
      visibility.mockRestore()
    }
  })

  it('with the app\'s query client: a burst of returns reads the list once, and only once it is older than the staleTime (2 s)', async () => {
    const { api, logged } = growingLog()
    renderApp(api, { screen: 'skills' }, createQueryClient())
    await screen.findAllByTestId('skill-row')
    const reads = (): number => api.callsOf('skills.list').length
    /** A read that surely happens (a change the watcher reports), waited for: whatever the returns before it read is counted by then. */
    const fence = async (): Promise<void> => {
      const before = reads()
      act(() => api.emit({ type: 'files.changed', library: LIB, paths: ['skill_1700000000.md'] }))
      await waitFor(() => expect(reads()).toBeGreaterThan(before))
    }
    const start = reads()
    for (let i = 0; i < 5; i++) fireEvent.focus(window)
    await fence()
    expect(reads()).toBe(start + 1) // the fence's read only: the list was fresh
    // older than the staleTime: the first return reads it, the rest of the burst does not
    await new Promise((resolve) => setTimeout(resolve, 2_100))
    logged.push(rolledBack('tx-later'))
    const stale = reads()
    for (let i = 0; i < 5; i++) fireEvent.focus(window)
    await waitFor(() => expect(shown()).toEqual([rolledBack('tx-later').message]))
    await fence()
    expect(reads()).toBe(stale + 2)
  })

  it('is read again after a change the app makes, a failed one too (its write recovered first)', async () => {
    const { api, logged } = growingLog((l) => l.add(makeMeta(99, { title: 'Old retired skill' }), 'old', true))
    api.handlers['skills.restore'] = async () => {
      logged.push(rolledBack('tx-app'))
      throw new ApiError('conflict', 'skill_1700000099.md already exists in the library: nothing was moved')
    }
    renderApp(api, { screen: 'skills' })
    await screen.findAllByTestId('skill-row')
    fireEvent.change(screen.getByTestId('skill-legacy-filter'), { target: { value: 'legacy' } })
    fireEvent.click((await screen.findByText('Old retired skill')).closest('[data-testid="skill-row"]') as HTMLElement)
    fireEvent.click(await screen.findByTestId('skill-restore'))
    expect((await screen.findByRole('alert')).textContent).toContain('already exists')
    await waitFor(() => expect(shown()).toEqual([rolledBack('tx-app').message]))
  })
})

describe('an empty library', () => {
  it('says how to get the first skills: reflect a task, or install from git, each a button', async () => {
    const { api } = setup(0)
    renderApp(api, { screen: 'skills' })
    const empty = await screen.findByTestId('skills-empty')
    expect(empty.textContent).toMatch(/This library has no skills yet\. Reflect a task to make the first one, or install skills published in a git repository/)
    expect(within(empty).getByTestId('install-open')).toBeTruthy()
    fireEvent.click(within(empty).getByRole('button', { name: 'Reflect' }))
    expect(await screen.findByTestId('screen-reflect')).toBeTruthy()
  })
})
