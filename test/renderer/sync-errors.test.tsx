// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { SyncStatus } from '../../src/shared/api-sync'
import { coded, codedLine, refOf } from '../../src/shared/error-codes'
import { createFakeApi, FakeLibrary, LIB, libraryHandlers } from './fake-api'
import { renderApp } from './render-app'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

const STATUS: SyncStatus = { shared: true, remote: 'origin/main', branch: 'main', ahead: 1, behind: 0, local_changes: 0, conflicts: 0, in_progress: null, last_fetch: null }

/** The Curate screen (it holds the sync panel) of a shared library, in `lang`. */
function setup(lang: 'en' | 'zh', status: SyncStatus = STATUS) {
  const lib = new FakeLibrary()
  const api = createFakeApi(libraryHandlers(lib))
  api.handlers['settings.get'] = async () => ({ ...(await libraryHandlers(new FakeLibrary())['settings.get']!({})), language: lang })
  api.handlers['curate.plan'] = async () => ({ library: LIB, computedAt: null, skills_loaded: 0, proposals: [], errors: [] })
  api.handlers['curate.journal'] = async () => []
  api.handlers['sync.status'] = async () => status
  api.handlers['sync.start'] = async () => ({ jobId: 's1', kind: 'sync', startedAt: '2026-01-01T00:00:00Z', state: 'running' })
  renderApp(api, { screen: 'curate' })
  return api
}

/** A sync job that failed with git in the middle of a rebase, as the workbench sends it (toApiErrorShape). */
function failRebase(api: ReturnType<typeof setup>): void {
  const why = coded('sync.in_progress', { what: { messageCode: 'sync.op_rebase', params: {} }, root: '/team/lib' })
  act(() => api.emit({ type: 'job.done', jobId: 's1', kind: 'sync', state: 'failed', error: why.text, failure: { code: 'in_progress', message: why.text, ...refOf(why) } }))
}

describe('a failed sync is worded by its code', () => {
  it('in Chinese: the reason and the operation git is in the middle of, no English left', async () => {
    const api = setup('zh')
    fireEvent.click(await screen.findByTestId('sync-start', {}, { timeout: 5000 }))
    await waitFor(() => expect(api.callsOf('sync.start')).toHaveLength(1))
    failRebase(api)
    const notice = await screen.findByTestId('error-notice')
    expect(notice.textContent).toContain('git 正在 /team/lib 中进行变基（rebase）')
    expect(notice.textContent).not.toMatch(/in the middle of|a rebase/)
  })

  it('in English: the words sync said', async () => {
    const api = setup('en')
    fireEvent.click(await screen.findByTestId('sync-start', {}, { timeout: 5000 }))
    await waitFor(() => expect(api.callsOf('sync.start')).toHaveLength(1))
    failRebase(api)
    expect((await screen.findByTestId('error-notice')).textContent).toContain('git is in the middle of a rebase in /team/lib: finish it')
  })

  it('the status line says which operation by code too', async () => {
    setup('zh', { ...STATUS, in_progress: 'a merge', in_progress_code: 'sync.op_merge' })
    expect((await screen.findByTestId('sync-in-progress', {}, { timeout: 5000 })).textContent).toContain('git 正在进行合并（merge）')
  })

  it("a finished sync's notes, by code: in Chinese, with the files and commit as they came", async () => {
    const api = setup('zh')
    fireEvent.click(await screen.findByTestId('sync-start', {}, { timeout: 5000 }))
    await waitFor(() => expect(api.callsOf('sync.start')).toHaveLength(1))
    const notes = [codedLine('sync.note_locks_removed', { files: 'index.lock, HEAD.lock' }), codedLine('sync.note_kept_in_history', { path: 'logo.png', commit: 'abc123def456' })]
    act(() => api.emit({ type: 'job.done', jobId: 's1', kind: 'sync', state: 'done', result: { committed: 1, pulled: 0, pushed: 1, conflicts: [], notes } }))
    const shown = await screen.findByTestId('sync-notes')
    expect([...shown.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      '已删除被中断的同步留下的 git 锁文件：index.lock, HEAD.lock',
      'logo.png：两边都修改了；本地版本（非文本）保存在 git 历史的 abc123def456 中'
    ])
  })
})
