// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { TaskSummary } from '../../src/shared/api'
import { createFakeApi, FakeLibrary, LIB, libraryHandlers, makeMeta, ROOT } from './fake-api'
import { renderApp } from './render-app'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

const base: Omit<TaskSummary, 'taskDir' | 'path' | 'mtime'> = {
  user: 'alice', status: 'completed', completed: true, requirements: ['do it'], toolCalls: [], errors: [], interruptions: 0, agentMessages: [], files: [], reflected: false, skills: []
}

function setup() {
  const lib = new FakeLibrary()
  lib.add(makeMeta(7))
  const api = createFakeApi(libraryHandlers(lib))
  api.handlers['tasks.list'] = async () => ({
    root: ROOT,
    skipped: [],
    tasks: [
      { ...base, taskDir: 'output_a', path: `${ROOT}/alice/output_a`, mtime: 2 },
      { ...base, taskDir: 'output_b', path: `${ROOT}/alice/output_b`, mtime: 1 },
      { ...base, taskDir: 'output_old', path: `${ROOT}/alice/output_old`, mtime: 0, reflected: true }
    ]
  })
  api.handlers['reflect.start'] = async () => ({ jobId: 'job-1', kind: 'reflect', startedAt: '2026-01-01T00:00:00Z', state: 'running' })
  api.handlers['jobs.cancel'] = async ({ jobId }) => ({ jobId, kind: 'reflect', startedAt: '2026-01-01T00:00:00Z', state: 'cancelled' })
  renderApp(api, { screen: 'reflect' })
  return { api }
}

const progress = (fraction: number, stage: string, taskDir: string, message: string) => ({ type: 'job.progress' as const, progress: { jobId: 'job-1', kind: 'reflect' as const, fraction, stage, message, taskDir } })

describe('Reflect screen', () => {
  it('reflects all new tasks with one click, shows live progress, per-task state, log and a summary', async () => {
    const { api } = setup()
    const button = await screen.findByTestId('reflect-all')
    await waitFor(() => expect(button.textContent).toContain('(2)'))
    fireEvent.click(button)
    await waitFor(() => expect(api.callsOf('reflect.start')).toEqual([{ root: ROOT, tasks: undefined }]))
    act(() => api.emit(progress(0.25, 'task-start', 'output_a', 'reading the log')))
    const bar = await screen.findByTestId('reflect-progress')
    expect(bar.getAttribute('aria-valuenow')).toBe('25')
    expect(screen.getByTestId('reflect-cancel')).toBeTruthy()
    act(() => api.emit(progress(0.5, 'task-done', 'output_a', 'skill written')))
    act(() => api.emit(progress(1, 'task-failed', 'output_b', 'model timed out')))
    expect(bar.getAttribute('aria-valuenow')).toBe('100')
    expect(screen.getByTestId('reflect-log').textContent).toContain('[output_b] model timed out')
    act(() =>
      api.emit({
        type: 'job.done',
        jobId: 'job-1',
        kind: 'reflect',
        state: 'done',
        result: { created: [{ taskDir: 'output_a', skill_id: '1700000007', path: 'skill_x.md', library: LIB }], skipped: [], failed: [{ taskDir: 'output_b', error: 'timeout' }], cancelled: false }
      })
    )
    expect((await screen.findByTestId('reflect-summary')).textContent).toContain('1 created · 0 skipped · 1 failed')
    expect(screen.getByTestId('reflect-state').textContent).toBe('Done')
    fireEvent.click(screen.getByTestId('reflect-created-link'))
    expect(await screen.findByTestId('screen-editor')).toBeTruthy()
  })

  it('reflects only the selected tasks', async () => {
    const { api } = setup()
    const picks = await screen.findAllByTestId('reflect-pick')
    expect(picks).toHaveLength(2) // the reflected task is not offered
    fireEvent.click(picks[1]!)
    fireEvent.click(screen.getByTestId('reflect-selected'))
    await waitFor(() => expect(api.callsOf('reflect.start')).toEqual([{ root: ROOT, tasks: [`${ROOT}/alice/output_b`] }]))
  })

  it('cancels the running job', async () => {
    const { api } = setup()
    await waitFor(() => expect(screen.getByTestId('reflect-all').textContent).toContain('(2)'))
    fireEvent.click(screen.getByTestId('reflect-all'))
    fireEvent.click(await screen.findByTestId('reflect-cancel'))
    await waitFor(() => expect(api.callsOf('jobs.cancel')).toEqual([{ jobId: 'job-1' }]))
    act(() => api.emit({ type: 'job.done', jobId: 'job-1', kind: 'reflect', state: 'cancelled', result: { created: [], skipped: [], failed: [], cancelled: true } }))
    expect((await screen.findByTestId('reflect-state')).textContent).toBe('Cancelled')
    expect(screen.getByTestId('reflect-summary').textContent).toContain('cancelled')
  })

  it('shows the running job in the sidebar status area on every screen', async () => {
    const { api } = setup()
    await waitFor(() => expect(screen.getByTestId('reflect-all').textContent).toContain('(2)'))
    fireEvent.click(screen.getByTestId('reflect-all'))
    act(() => api.emit(progress(0.4, 'task-start', 'output_a', 'working')))
    fireEvent.click(screen.getByTestId('nav-overview'))
    const status = screen.getByTestId('jobs-status')
    expect(status.textContent).toContain('Reflecting')
    expect(status.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')).toBe('40')
  })
})
