// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import type { OverviewResult, ReflectSummary, TaskSummary } from '../../src/shared/api'
import { defaultReflectionDeps } from '../../src/main/reflect/default-deps'
import { libraryDirFor, runReflection } from '../../src/main/reflect/run-reflection'
import { CALC_LOG, makeRoot } from '../reflect/make-root'
import { nextSteps } from '../../src/renderer/features/overview/OverviewScreen'
import { createFakeApi, FakeLibrary, LIB, libraryHandlers, makeMeta, ROOT } from './fake-api'
import { renderApp } from './render-app'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

const base: Omit<TaskSummary, 'taskDir' | 'path' | 'mtime'> = {
  user: 'alice', status: 'completed', completed: true, requirements: ['do it'], toolCalls: [], errors: [], interruptions: 0, agentMessages: [], files: [], reflected: false, skills: []
}

function setup(lang: 'en' | 'zh' = 'en') {
  const lib = new FakeLibrary()
  lib.add(makeMeta(7))
  const api = createFakeApi(libraryHandlers(lib))
  if (lang === 'zh') api.handlers['settings.get'] = async () => ({ ...(await libraryHandlers(new FakeLibrary())['settings.get']!({})), language: 'zh' })
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

describe('Reflect screen: a run\'s skipped and failed tasks worded by their code', () => {
  /**
   * A real run's summary: a data root on disk whose task a skill already lists, with folders the scan passes over and
   * a user whose library the store refuses. (The skill is written here, not by a first run: jsdom's typed arrays are
   * not Node's, so the store's writes fail.)
   */
  async function realSummary(): Promise<{ root: string; summary: ReflectSummary }> {
    const root = makeRoot([{ dir: 'alice/output_20260101_000001', log: CALC_LOG }])
    fs.mkdirSync(path.join(root, 'alice', 'output_nologs'))
    fs.writeFileSync(path.join(root, 'output_stray'), 'not a folder\n')
    const lib = libraryDirFor(root, 'alice')
    fs.mkdirSync(lib, { recursive: true })
    fs.writeFileSync(path.join(lib, 'skill_calc.md'), ['---', "skill_id: '1700000000'", 'title: Calculator', 'task_directories:', '- output_20260101_000001', '---', '', '# Calculator', ''].join('\n'))
    // bob's library keeps its legacy/ folder as a link elsewhere: the store refuses it, bob's task fails by code
    const bobLib = libraryDirFor(root, 'bob')
    fs.mkdirSync(bobLib, { recursive: true })
    fs.mkdirSync(path.join(root, 'elsewhere'))
    fs.symlinkSync(path.join(root, 'elsewhere'), path.join(bobLib, 'legacy'))
    fs.mkdirSync(path.join(root, 'bob', 'output_20260101_000002', 'logs'), { recursive: true })
    fs.writeFileSync(path.join(root, 'bob', 'output_20260101_000002', 'logs', 'manager.out'), CALC_LOG)
    // a socket named like a task: its reason nests a word ("a socket") only its code can translate
    const socket = net.createServer()
    await new Promise<void>((resolve) => socket.listen(path.join(root, 'output_sock'), resolve))
    try {
      return { root, summary: await runReflection({ rootDir: root }, defaultReflectionDeps()) }
    } finally {
      await new Promise((resolve) => socket.close(resolve))
    }
  }

  /** The summary's skipped lines (sorted) and failed lines (bob's library path shown as <legacy>) as the screen shows them. */
  async function showSummary(lang: 'en' | 'zh'): Promise<{ skipped: string[]; failed: string[] }> {
    const { root, summary } = await realSummary()
    expect(summary.failed.map((f) => f.messageCode)).toEqual(['file.escape'])
    const { api } = setup(lang)
    const button = await screen.findByTestId('reflect-all')
    await waitFor(() => expect(button.textContent).toMatch(/\(2\)|（2）/))
    fireEvent.click(button)
    await waitFor(() => expect(api.callsOf('reflect.start')).toHaveLength(1))
    act(() => api.emit({ type: 'job.done', jobId: 'job-1', kind: 'reflect', state: 'done', result: summary }))
    await screen.findByTestId('reflect-summary')
    const failed = screen.getAllByTestId('reflect-failed-line').map((li) => li.textContent ?? '')
    const legacy = path.join(root, 'bob', 'general', 'experience', 'legacy')
    return { skipped: screen.getAllByTestId('reflect-skipped-line').map((li) => li.textContent ?? '').sort(), failed: failed.map((f) => f.replace(legacy, '<legacy>')) }
  }

  it('in English, the words as they came', async () => {
    expect(await showSummary('en')).toEqual({
      skipped: ['output_20260101_000001: already reflected', 'output_nologs: no logs/ folder', 'output_sock: not a folder (a socket): not read', 'output_stray: a file, not a task folder'],
      failed: ['output_20260101_000002: <legacy>: is a symbolic link (folders the product writes into must be real folders inside the library); nothing was written outside the library']
    })
  })

  it('in Chinese, by code', async () => {
    expect(await showSummary('zh')).toEqual({
      skipped: ['output_20260101_000001: 已反思过', 'output_nologs: 没有 logs/ 文件夹', 'output_sock: 不是文件夹（套接字）：未读取', 'output_stray: 是文件，不是任务文件夹'],
      failed: ['output_20260101_000002: <legacy>：是符号链接（程序写入的文件夹必须是技能库内的真实文件夹）；没有在技能库之外写入任何内容']
    })
  })
})

describe('Reflect screen: what reflecting will skip, and why (issue 36)', () => {
  function judgedSetup(lang: 'en' | 'zh') {
    const lib = new FakeLibrary()
    const api = createFakeApi(libraryHandlers(lib))
    if (lang === 'zh') {
      window.localStorage.setItem('skillbench.lang', 'zh')
      api.handlers['settings.get'] = async () => ({ ...(await libraryHandlers(new FakeLibrary())['settings.get']!({})), language: 'zh' })
    }
    api.handlers['tasks.list'] = async () => ({
      root: ROOT,
      skipped: [],
      tasks: [
        { ...base, taskDir: 's#1', path: `${ROOT}/s.jsonl`, mtime: 5, requirements: ['hi!'], plan: { state: 'no-skill', why: 'greeting' } },
        { ...base, taskDir: 's#2', path: `${ROOT}/s.jsonl`, mtime: 4, requirements: ['Configure nightly rsync backups'], plan: { state: 'new' } },
        { ...base, taskDir: 's#3', path: `${ROOT}/s.jsonl`, mtime: 3, requirements: ['also lint'], plan: { state: 'new' } },
        { ...base, taskDir: 'output_x', path: `${ROOT}/alice/output_x`, mtime: 2, requirements: ['Migrate the build'], status: 'incomplete', completed: false, plan: { state: 'no-skill', why: 'unfinished' } },
        { ...base, taskDir: 'output_y', path: `${ROOT}/alice/output_y`, mtime: 1, requirements: ['Write the calculator'], reflected: true, plan: { state: 'update' } }
      ]
    })
    renderApp(api, { screen: 'reflect' })
  }

  it('lists greetings and unfinished tasks apart with their reason; the count is what a run reflects; a frozen skill shows as an update', async () => {
    judgedSetup('en')
    await waitFor(() => expect(screen.getByTestId('reflect-all').textContent).toContain('(3)'))
    expect(screen.getAllByTestId('reflect-pick')).toHaveLength(3)
    const rows = await screen.findAllByTestId('reflect-skipped-row')
    expect(rows.map((r) => [r.getAttribute('data-why'), r.textContent?.includes('hi!') || r.textContent?.includes('Migrate')])).toEqual([
      ['greeting', true],
      ['unfinished', true]
    ])
    expect(rows[0]!.textContent).toContain('greeting')
    expect(rows[1]!.textContent).toContain('unfinished: reflected once it finishes')
    expect(screen.getByTestId('reflect-update').textContent).toBe('updates its unfinished skill')
    expect(screen.getByTestId('reflect-update').getAttribute('title')).toContain('proposes the finished version')
  })

  it('says the reasons in Chinese', async () => {
    judgedSetup('zh')
    const rows = await screen.findAllByTestId('reflect-skipped-row', {}, { timeout: 5000 })
    await waitFor(() => expect(rows[0]!.textContent).toContain('问候'))
    expect(rows[1]!.textContent).toContain('未完成：完成后会再反思')
    expect(screen.getByTestId('reflect-skipped').textContent).toContain('不会生成技能（2）')
    window.localStorage.removeItem('skillbench.lang')
  })
})

describe('Overview next step: counts from the judged list', () => {
  const data = (over: Partial<OverviewResult>): OverviewResult => ({
    skills: 1, legacy: 0, errors: 0, errorFiles: [], tasks: 3, reflectedTasks: 2, pendingProposals: 0, planComputed: false, qualityHistogram: [], recent: [], graph: { nodes: [], edges: [] }, ...over
  })
  it('greetings are not new tasks: after the run the reflect step is done and says why; a session library reflects on the Workspaces screen', () => {
    const done = nextSteps(data({ newTasks: 0, noSkillTasks: 1 }), LIB, { browsed: true, rated: false }, undefined, true).find((s) => s.key === 'reflect')!
    expect([done.done, done.label, done.vars, done.route]).toEqual([true, 'next.reflectDone', { n: 0, reflected: 2, skipped: 1 }, { screen: 'workspaces' }])
    const fresh = nextSteps(data({ reflectedTasks: 0, newTasks: 2, noSkillTasks: 1 }), LIB, { browsed: true, rated: false }, undefined).find((s) => s.key === 'reflect')!
    expect([fresh.done, fresh.label, fresh.vars?.n, fresh.route]).toEqual([false, 'next.reflect', 2, { screen: 'reflect' }])
    const session = { source: 'codex' as const, dir: '/home/u/.codex/sessions' }
    expect(nextSteps(data({ newTasks: 1, sessionSources: [session] }), LIB, { browsed: true, rated: false }, undefined, true).find((s) => s.key === 'reflect')!.route).toEqual({ screen: 'workspaces', session })
    expect(nextSteps(data({ tasks: 0, reflectedTasks: 0, newTasks: 0 }), LIB, { browsed: false, rated: false }, undefined).find((s) => s.key === 'reflect')!.label).toBe('next.reflectNone')
  })
})

describe('Overview → Reflect opens on the library\'s own data root', () => {
  it('the reflect step of a library of /data opens the Reflect list of /data even when another root was selected', async () => {
    const lib = new FakeLibrary()
    const api = createFakeApi(libraryHandlers(lib))
    api.handlers['roots.list'] = async () => [
      { path: ROOT, exists: true, users: ['alice'], taskCount: 1, remembered: true, thisRunOnly: false },
      { path: '/elsewhere', exists: true, users: ['bob'], taskCount: 0, remembered: true, thisRunOnly: false }
    ]
    api.handlers['overview.get'] = async () => ({
      skills: 0, legacy: 0, errors: 0, errorFiles: [], tasks: 2, reflectedTasks: 0, newTasks: 1, noSkillTasks: 1, noSkillWhy: { greeting: 1 }, pendingProposals: 0, planComputed: false, qualityHistogram: new Array(10).fill(0), recent: [], graph: { nodes: [], edges: [] }
    })
    api.handlers['tasks.list'] = async ({ root }) => ({
      root,
      skipped: [],
      tasks: root === ROOT ? [{ ...base, taskDir: 'output_a', path: `${ROOT}/alice/output_a`, mtime: 2, plan: { state: 'new' } }, { ...base, taskDir: 'output_hi', path: `${ROOT}/alice/output_hi`, mtime: 1, requirements: ['你好'], plan: { state: 'no-skill', why: 'greeting' } }] : []
    })
    window.localStorage.setItem('skillbench.library', LIB)
    window.localStorage.setItem('skillbench.root', '/elsewhere')
    renderApp(api)
    const step = await screen.findByTestId('next-reflect', {}, { timeout: 5000 })
    expect(step.textContent).toBe('Reflect the new task')
    fireEvent.click(step)
    expect(((await screen.findByTestId('reflect-root')) as HTMLSelectElement).value).toBe(ROOT)
    await waitFor(() => expect(screen.getAllByTestId('reflect-pick')).toHaveLength(1), { timeout: 5000 })
    expect(screen.getByTestId('reflect-skipped-row').getAttribute('data-why')).toBe('greeting')
    window.localStorage.removeItem('skillbench.root')
  })
})
