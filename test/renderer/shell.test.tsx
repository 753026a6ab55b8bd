// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createFakeApi, FakeLibrary, LIB, libraryHandlers, makeMeta } from './fake-api'
import { renderApp } from './render-app'
import type { OverviewResult } from '../../src/shared/api'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

const OVERVIEW: OverviewResult = {
  skills: 4,
  legacy: 1,
  errors: 0,
  tasks: 9,
  reflectedTasks: 3,
  pendingProposals: 2,
  qualityHistogram: [0, 0, 0, 0, 0, 2, 1, 1, 0, 0],
  errorFiles: [],
  planComputed: true,
  recent: [{ at: '2026-01-02T10:00:00Z', kind: 'skill-created', title: 'Python calculator', skill_id: '1700000001' }],
  graph: {
    nodes: [
      { id: '1700000001', title: 'Python calculator', quality: 0.6, cluster: 0 },
      { id: '1700000002', title: 'Calculator in Python', quality: 0.5, cluster: 0 },
      { id: '1700000003', title: 'Web scraping', quality: 0.7, cluster: -1 },
      { id: '1700000004', title: 'Word to PDF', quality: 0.5, cluster: -1 }
    ],
    edges: [
      { source: '1700000001', target: '1700000002', similarity: 0.82 },
      { source: '1700000001', target: '1700000003', similarity: 0.21 }
    ]
  }
}

function setup() {
  const lib = new FakeLibrary()
  for (let i = 1; i <= 4; i++) lib.add(makeMeta(i))
  const api = createFakeApi(libraryHandlers(lib))
  api.handlers['overview.get'] = async () => OVERVIEW
  renderApp(api)
  return { api, lib }
}

describe('Shell and Overview', () => {
  it('starts on the Overview: counts, histogram, recent activity and the cluster map', async () => {
    setup()
    const counts = await screen.findByTestId('overview-counts')
    expect(counts.textContent).toContain('4Skills')
    expect(counts.textContent).toContain('2Pending proposals')
    expect(screen.getAllByTestId('map-node')).toHaveLength(4)
    expect(screen.getAllByTestId('edge-dup')).toHaveLength(1) // 0.82 ≥ merge threshold 0.7; 0.21 is not
    expect(screen.getByTestId('cluster-map').getAttribute('aria-label')).toBe('Similarity map: 4 skills in 1 clusters, 1 likely duplicate pairs')
    expect(screen.getByTestId('quality-histogram').querySelectorAll('rect')).toHaveLength(10)
    expect(screen.getByTestId('overview-recent').textContent).toContain('Python calculator')
  })

  it('opens a skill from the map with the keyboard', async () => {
    setup()
    // one tab stop: arrows move between skills (the focused one is announced), Enter opens it
    const map = await screen.findByTestId('cluster-map')
    const order = [...map.querySelectorAll('g[role="img"]')].map((g) => g.getAttribute('aria-label'))
    const target = order.findIndex((l) => l?.startsWith('Web scraping'))
    for (let i = 0; i < target; i++) fireEvent.keyDown(map, { key: 'ArrowRight' })
    expect(document.getElementById(map.getAttribute('aria-activedescendant')!)!.getAttribute('aria-label')).toMatch(/^Web scraping/)
    fireEvent.keyDown(map, { key: 'Enter' })
    expect(await screen.findByTestId('screen-editor')).toBeTruthy()
  })

  it('navigates with the sidebar and marks the current screen', async () => {
    setup()
    await screen.findByTestId('overview-counts')
    fireEvent.click(screen.getByTestId('nav-settings'))
    expect(await screen.findByTestId('screen-settings')).toBeTruthy()
    expect(screen.getByTestId('nav-settings').getAttribute('aria-current')).toBe('page')
    expect(screen.getByTestId('nav-overview').getAttribute('aria-current')).toBeNull()
  })

  it('switches the whole UI to Chinese and remembers it in the settings', async () => {
    const { api } = setup()
    await screen.findByTestId('overview-counts')
    fireEvent.change(screen.getByTestId('language-switch'), { target: { value: 'zh' } })
    expect(screen.getByTestId('nav-skills').textContent).toContain('技能')
    expect(screen.getByTestId('overview-counts').textContent).toContain('待处理提议')
    await waitFor(() => expect(api.callsOf('settings.update')).toEqual([{ patch: { language: 'zh' } }]))
    expect(document.documentElement.lang).toBe('zh-CN')
  })

  it('re-reads the skill list when the library changes on disk (files.changed)', async () => {
    const { api, lib } = setup()
    fireEvent.click(await screen.findByTestId('nav-skills'))
    expect(await screen.findAllByTestId('skill-row')).toHaveLength(4)
    lib.add(makeMeta(5, { title: 'Written by the agent just now' }))
    act(() => api.emit({ type: 'files.changed', library: LIB, paths: ['skill_1700000005.md'] }))
    expect(await screen.findByText('Written by the agent just now')).toBeTruthy()
  })

  it('ignores changes in other libraries', async () => {
    const { api, lib } = setup()
    fireEvent.click(await screen.findByTestId('nav-skills'))
    await screen.findAllByTestId('skill-row')
    const before = api.callsOf('skills.list').length
    lib.add(makeMeta(6, { title: 'Added while another library changed' }))
    act(() => api.emit({ type: 'files.changed', library: '/elsewhere/experience', paths: ['x.md'] }))
    await act(async () => undefined)
    // a fence: a change in this library, after it; once that one is refetched, the first event was handled too
    act(() => api.emit({ type: 'files.changed', library: LIB, paths: ['skill_1700000006.md'] }))
    await screen.findByText('Added while another library changed')
    expect(api.callsOf('skills.list').length).toBe(before + 1)
  })

  it('keeps the window usable when one screen crashes (error boundary per screen)', async () => {
    const { api } = setup()
    api.handlers['overview.get'] = async () => ({ ...OVERVIEW, graph: undefined as unknown as OverviewResult['graph'] })
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    try {
      const alert = await screen.findByRole('alert')
      expect(screen.getByTestId('screen-overview').textContent).toContain('This screen hit an error')
      expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy()
      fireEvent.click(screen.getByTestId('nav-skills'))
      expect(await screen.findAllByTestId('skill-row')).toHaveLength(4)
    } finally {
      spy.mockRestore()
    }
  })

  it('explains an unreachable server in plain words', async () => {
    const lib = new FakeLibrary()
    const api = createFakeApi({ ...libraryHandlers(lib) })
    const { ApiError } = await import('../../src/shared/api')
    api.handlers['libraries.list'] = async () => {
      throw new ApiError('network', 'fetch failed')
    }
    renderApp(api)
    expect((await screen.findByRole('alert')).textContent).toContain('Cannot reach Skillbench')
  })

  it('shows a job the server started on its own (auto-enhance) in the job area, and clears it when it ends', async () => {
    const { api } = setup()
    const jobs = await screen.findByTestId('jobs-status')
    expect(jobs.textContent).toContain('No jobs running')
    act(() => api.emit({ type: 'job.progress', progress: { jobId: 'reflect-auto', kind: 'reflect', fraction: 0.5, stage: 'task-start', message: 'Auto-enhance: 2 new finished task(s) in data', taskDir: 'output_1', index: 1, total: 2 } }))
    await waitFor(() => expect(within(screen.getByTestId('jobs-status')).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50'))
    act(() => api.emit({ type: 'job.done', jobId: 'reflect-auto', kind: 'reflect', state: 'done', result: { created: [], skipped: [], failed: [], cancelled: false } }))
    await waitFor(() => expect(screen.getByTestId('jobs-status').textContent).toContain('No jobs running'))
  })
})
