// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { scanRoot } from '../../src/main/scan/scan-root'
import type { TaskSummary } from '../../src/shared/api'
import type { SkippedTask } from '../../src/shared/types'
import { ApiError } from '../../src/shared/api'
import { createFakeApi, fakeLogWindow, FakeLibrary, LIB, libraryHandlers, makeMeta, ROOT } from './fake-api'
import type { FakeApi } from './fake-api'
import { renderApp } from './render-app'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

function task(dir: string, mtime: number, over: Partial<TaskSummary> = {}): TaskSummary {
  return {
    user: 'alice',
    taskDir: dir,
    path: `${ROOT}/alice/${dir}`,
    mtime,
    status: 'completed',
    completed: true,
    requirements: [`Requirement of ${dir}`],
    toolCalls: [{ agent: 'manager', name: 'edit_file', params: { target_file: 'calc.py' } }],
    errors: [],
    interruptions: 0,
    agentMessages: [],
    files: [],
    reflected: false,
    skills: [],
    ...over
  }
}

const LOG = Array.from({ length: 30 }, (_, i) => `log line ${i + 1}`).join('\n')

function setup(before?: (api: FakeApi) => void) {
  const lib = new FakeLibrary()
  lib.add(makeMeta(1))
  const api = createFakeApi(libraryHandlers(lib))
  api.handlers['tasks.list'] = async () => ({
    root: ROOT,
    skipped: [{ path: `${ROOT}/alice/output_broken`, reason: 'no logs/ folder' }],
    tasks: [
      task('output_20260101_100000', 1000),
      task('output_20260103_100000', 3000, { status: 'interrupted', completed: false, errors: ['Traceback: ZeroDivisionError'] }),
      task('output_20260102_100000', 2000, { reflected: true, skills: [{ skill_id: '1700000001', title: 'Skill number 1', library: LIB, legacy: false }] })
    ]
  })
  api.handlers['tasks.readLog'] = async (input) => fakeLogWindow(LOG, 'manager.out', ['manager.out', 'agent_001.out'], input, Math.ceil(LOG.length / 2))
  before?.(api)
  renderApp(api, { screen: 'workspaces' })
  return { api }
}

describe('Workspaces screen', () => {
  it('lists tasks newest first with status badges, skipped folders last', async () => {
    setup()
    const rows = await screen.findAllByTestId('task-row')
    // each row leads with the request; the folder name follows in the second line
    expect(rows.map((r) => r.querySelector('.strong')?.textContent)).toEqual(['Requirement of output_20260103_100000', 'Requirement of output_20260102_100000', 'Requirement of output_20260101_100000', `${ROOT}/alice/output_broken`])
    expect(rows[0]!.querySelector('[data-testid="task-sub"]')!.textContent).toContain('output_20260103_100000')
    expect(rows.map((r) => within(r).getByTestId('task-badge').textContent)).toEqual(['interrupted', 'reflected', 'completed', 'skipped'])
  })

  it('filters by status and by text', async () => {
    setup()
    await screen.findAllByTestId('task-row')
    fireEvent.change(screen.getByTestId('task-status-filter'), { target: { value: 'reflected' } })
    await waitFor(() => expect(screen.getAllByTestId('task-row')).toHaveLength(1))
    fireEvent.change(screen.getByTestId('task-status-filter'), { target: { value: 'all' } })
    fireEvent.change(screen.getByTestId('task-search'), { target: { value: '20260101' } })
    await waitFor(() => expect(screen.getAllByTestId('task-row')).toHaveLength(1))
    expect(screen.getByTestId('task-row').textContent).toContain('output_20260101_100000')
  })

  it('shows the parsed trace beside the raw log, loading the log in byte windows', async () => {
    const { api } = setup()
    const rows = await screen.findAllByTestId('task-row')
    fireEvent.click(rows[0]!)
    const trace = await screen.findByTestId('task-trace')
    expect(trace.textContent).toContain('Requirement of output_20260103_100000')
    expect(trace.textContent).toContain('edit_file')
    expect(trace.textContent).toContain('ZeroDivisionError')
    const log = await screen.findByTestId('log-view')
    await waitFor(() => expect(within(log).getByText('log line 30')).toBeTruthy()) // the second window was fetched near the end
    const reads = api.callsOf('tasks.readLog')
    expect(reads[0]).toMatchObject({ root: ROOT, taskPath: `${ROOT}/alice/output_20260103_100000`, start: 0 })
    expect(reads.some((r) => (r.start ?? 0) > 0)).toBe(true)
  })

  it('shows the newest task first and follows the arrow keys in the task list', async () => {
    setup()
    expect((await screen.findByTestId('task-detail')).textContent).toContain('output_20260103_100000')
    fireEvent.keyDown(screen.getByTestId('task-list'), { key: 'ArrowDown' })
    await waitFor(() => expect(screen.getByTestId('task-detail').textContent).toContain('output_20260102_100000'))
    expect(screen.getByTestId('task-trace').textContent).toContain('Skill number 1')
  })

  it('links the skills made from a task to the editor', async () => {
    setup()
    const rows = await screen.findAllByTestId('task-row')
    fireEvent.click(rows[1]!)
    fireEvent.click(await screen.findByTestId('task-skill-link'))
    expect(await screen.findByTestId('screen-editor')).toBeTruthy()
  })

  it('starts reflection of one task and moves to the Reflect screen', async () => {
    const { api } = setup()
    api.handlers['reflect.start'] = async () => ({ jobId: 'j1', kind: 'reflect', startedAt: new Date().toISOString(), state: 'running' })
    fireEvent.click((await screen.findAllByTestId('task-row'))[2]!)
    fireEvent.click(await screen.findByTestId('task-reflect'))
    expect(await screen.findByTestId('screen-reflect')).toBeTruthy()
    expect(api.callsOf('reflect.start')[0]).toEqual({ root: ROOT, tasks: [`${ROOT}/alice/output_20260101_100000`], force: false })
  })

  it('explains a scan failure instead of showing nothing', async () => {
    const { api } = setup()
    api.handlers['tasks.list'] = async () => {
      throw new ApiError('bad_request', 'not a data root: /data')
    }
    fireEvent.click(screen.getByTestId('nav-overview'))
    fireEvent.click(screen.getByTestId('nav-workspaces'))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('not a data root')
  })

  it('shows other agents\' session folders beside the data roots, with the same trace and log view, and reflects into the selected library', async () => {
    const sources = [{ source: 'codex' as const, dir: '/home/u/.codex/sessions', detected: true, added: false, exists: true }]
    const { api } = setup((api) => {
      api.handlers['sessions.list'] = async () => [...sources]
      api.handlers['sessions.tasks'] = async ({ dir }) => ({
        root: dir,
        skipped: [],
        tasks: [task('abc#1', 5000, { source: 'codex', user: '', path: `${dir}/2026/01/02/rollout-abc.jsonl`, requirements: ['run the tests'] })]
      })
      api.handlers['sessions.readLog'] = async (input) => fakeLogWindow('{"type":"session_meta","payload":{"cwd":"/repo"}}\n', 'rollout-abc.jsonl', ['rollout-abc.jsonl'], input)
      api.handlers['sessions.reflect'] = async () => ({ jobId: 'j2', kind: 'reflect', startedAt: new Date().toISOString(), state: 'running' })
    })
    await screen.findAllByTestId('task-row')
    const picker = screen.getByTestId('source-picker') as HTMLSelectElement
    await waitFor(() => expect([...picker.options].map((o) => o.textContent)).toEqual(['AGIAgent data roots', 'Codex CLI · /home/u/.codex/sessions (found automatically)']))
    fireEvent.change(picker, { target: { value: picker.options[1]!.value } })
    await waitFor(() => expect(screen.getByTestId('task-row').textContent).toContain('abc#1'))
    expect(screen.queryByTestId('root-picker')).toBeNull()
    expect(screen.getByTestId('task-trace').textContent).toContain('run the tests')
    // one record per block: its type as a heading, its content below, not a raw JSON line
    await waitFor(() => expect(within(screen.getByTestId('log-view')).getByTestId('log-record').textContent).toContain('session_meta'))
    expect(within(screen.getByTestId('log-view')).getByTestId('log-record').textContent).toContain('"cwd": "/repo"')
    expect(api.callsOf('sessions.readLog')[0]).toMatchObject({ source: 'codex', dir: '/home/u/.codex/sessions', taskPath: '/home/u/.codex/sessions/2026/01/02/rollout-abc.jsonl' })
    expect(screen.getByTestId('session-reflect-target').textContent).toContain(LIB)
    // auto-detected folders cannot be removed
    expect(screen.queryByTestId('session-remove')).toBeNull()
    fireEvent.click(screen.getByTestId('task-reflect'))
    expect(await screen.findByTestId('screen-reflect')).toBeTruthy()
    expect(api.callsOf('sessions.reflect')[0]).toEqual({ source: 'codex', dir: '/home/u/.codex/sessions', library: LIB, tasks: ['abc#1'], force: false })
    // and every new task of the folder at once
    fireEvent.click(screen.getByTestId('nav-workspaces'))
    fireEvent.change(await screen.findByTestId('source-picker'), { target: { value: picker.options[1]!.value } })
    fireEvent.click(await screen.findByTestId('session-reflect-all'))
    await waitFor(() => expect(api.callsOf('sessions.reflect')[1]).toEqual({ source: 'codex', dir: '/home/u/.codex/sessions', library: LIB }))
  })

  it('adds a session folder by hand, shows it, and removes it again', async () => {
    const sources: { source: 'claude' | 'codex' | 'synapse'; dir: string; detected: boolean; added: boolean; exists: boolean }[] = []
    const { api } = setup((api) => {
      api.handlers['sessions.list'] = async () => [...sources]
      api.handlers['sessions.add'] = async ({ source, path }) => {
        if (!path.startsWith('/')) throw new ApiError('bad_request', `give an absolute folder path (got "${path}")`)
        sources.push({ source, dir: path, detected: false, added: true, exists: true })
        return [...sources]
      }
      api.handlers['sessions.remove'] = async ({ path }) => {
        sources.splice(sources.findIndex((s) => s.dir === path), 1)
        return [...sources]
      }
      api.handlers['sessions.tasks'] = async ({ dir }) => ({ root: dir, skipped: [], tasks: [] })
    })
    await screen.findAllByTestId('task-row')
    fireEvent.change(screen.getByTestId('session-add-kind'), { target: { value: 'synapse' } })
    fireEvent.change(screen.getByTestId('session-add-path'), { target: { value: 'sessions' } })
    fireEvent.click(screen.getByTestId('session-add'))
    expect((await screen.findByRole('alert')).textContent).toContain('absolute folder path')
    fireEvent.change(screen.getByTestId('session-add-path'), { target: { value: '/srv/synapse' } })
    fireEvent.click(screen.getByTestId('session-add'))
    await waitFor(() => expect(api.callsOf('sessions.tasks')).toEqual([{ source: 'synapse', dir: '/srv/synapse' }]))
    expect((await screen.findByTestId('tasks-empty')).textContent).toBe('No sessions with a request found in /srv/synapse.')
    fireEvent.click(screen.getByTestId('session-remove'))
    await waitFor(() => expect(api.callsOf('sessions.remove')).toEqual([{ source: 'synapse', path: '/srv/synapse' }]))
    await waitFor(() => expect((screen.getByTestId('source-picker') as HTMLSelectElement).value).toBe(''))
    expect(screen.getByTestId('root-picker')).toBeTruthy()
  })
})

describe('Workspaces filter: a skipped folder matches its reason as shown', () => {
  /** What a real scan says it passed over: a data root on disk with a folder without logs/, a file and a socket named like tasks. */
  async function realSkipped(): Promise<SkippedTask[]> {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-ws-filter-'))
    fs.mkdirSync(path.join(root, 'alice', 'output_nologs'), { recursive: true })
    fs.writeFileSync(path.join(root, 'output_stray'), 'not a folder\n')
    const socket = net.createServer()
    await new Promise<void>((resolve) => socket.listen(path.join(root, 'output_sock'), resolve))
    try {
      return (await scanRoot({ rootDir: root })).skipped
    } finally {
      await new Promise((resolve) => socket.close(resolve))
    }
  }

  /** The folders the list shows after typing `text` in the search box. */
  async function filtered(skipped: SkippedTask[], text: string): Promise<string[]> {
    fireEvent.change(screen.getByTestId('task-search'), { target: { value: text } })
    await waitFor(() => expect((screen.getByTestId('task-search') as HTMLInputElement).value).toBe(text))
    return screen.queryAllByTestId('task-row').map((r) => path.basename(skipped.find((s) => r.textContent?.includes(s.path))?.path ?? '?')).sort()
  }

  async function show(lang: 'en' | 'zh'): Promise<SkippedTask[]> {
    const skipped = await realSkipped()
    expect(skipped.map((s) => [path.basename(s.path), s.messageCode]).sort()).toEqual([['output_nologs', 'scan.no_logs'], ['output_sock', 'scan.not_folder'], ['output_stray', 'scan.file_not_task']])
    const api = createFakeApi(libraryHandlers(new FakeLibrary()))
    api.handlers['tasks.list'] = async () => ({ root: ROOT, skipped, tasks: [] })
    if (lang === 'zh') api.handlers['settings.get'] = async () => ({ ...(await libraryHandlers(new FakeLibrary())['settings.get']!({})), language: 'zh' })
    renderApp(api, { screen: 'workspaces' })
    await waitFor(() => expect(screen.getAllByTestId('task-row')).toHaveLength(3))
    if (lang === 'zh') await waitFor(() => expect(screen.getAllByTestId('task-row')[0]!.textContent).toMatch(/[\u4e00-\u9fff]/))
    return skipped
  }

  it('in Chinese: the Chinese words find the folder, so do its name and its English', async () => {
    const skipped = await show('zh')
    expect(await filtered(skipped, '套接字')).toEqual(['output_sock'])
    expect(await filtered(skipped, '没有 logs/')).toEqual(['output_nologs'])
    expect(await filtered(skipped, '任务文件夹')).toEqual(['output_stray'])
    expect(await filtered(skipped, '未读取')).toEqual(['output_sock'])
    expect(await filtered(skipped, 'output_nologs')).toEqual(['output_nologs'])
    expect(await filtered(skipped, 'A FILE, not')).toEqual(['output_stray'])
  })

  it('in English: the English words find the folder; the Chinese do not', async () => {
    const skipped = await show('en')
    expect(await filtered(skipped, 'socket')).toEqual(['output_sock'])
    expect(await filtered(skipped, 'no logs/')).toEqual(['output_nologs'])
    expect(await filtered(skipped, '套接字')).toEqual([])
    expect(await filtered(skipped, 'output_')).toEqual(['output_nologs', 'output_sock', 'output_stray'])
  })
})

describe('what screens remember while the app runs', () => {
  it('the Workspaces source and the Deploy target stay chosen when the person switches screens and comes back', async () => {
    const sources = [{ source: 'codex' as const, dir: '/home/u/.codex/sessions', detected: true, added: false, exists: true }]
    const { api } = setup((api) => {
      api.handlers['sessions.list'] = async () => [...sources]
      api.handlers['sessions.tasks'] = async ({ dir }) => ({ root: dir, skipped: [], tasks: [task('abc#1', 5000, { source: 'codex', user: '', path: `${dir}/rollout-abc.jsonl` })] })
      api.handlers['deploy.targets'] = async () => [
        { spec: 'claude', agent: 'claude', label: 'Claude Code (personal)', dir: '/home/u/.claude/skills', exists: true, budget: 8000 },
        { spec: 'codex', agent: 'codex', label: 'Codex', dir: '/home/u/.codex/skills', exists: true, budget: 8000 }
      ]
      api.handlers['deploy.preview'] = async () => {
        throw new ApiError('bad_request', 'not needed here')
      }
    })
    await screen.findAllByTestId('task-row')
    const picker = screen.getByTestId('source-picker') as HTMLSelectElement
    await waitFor(() => expect(picker.options).toHaveLength(2))
    fireEvent.change(picker, { target: { value: picker.options[1]!.value } })
    await waitFor(() => expect(screen.getByTestId('task-row').textContent).toContain('abc#1'))
    fireEvent.click(screen.getByTestId('nav-deploy'))
    fireEvent.click(await screen.findByTestId('deploy-target-codex'))
    fireEvent.click(screen.getByTestId('nav-overview'))
    fireEvent.click(screen.getByTestId('nav-workspaces'))
    await waitFor(() => expect((screen.getByTestId('source-picker') as HTMLSelectElement).value).toBe(picker.options[1]!.value))
    await waitFor(() => expect(screen.getByTestId('task-row').textContent).toContain('abc#1'))
    fireEvent.click(screen.getByTestId('nav-deploy'))
    expect(((await screen.findByTestId('deploy-target-codex')) as HTMLInputElement).checked).toBe(true)
    expect(api.callsOf('sessions.tasks').length).toBeGreaterThan(0)
  })

  it('words a skipped folder or session file by its code in the interface language (its English as it came otherwise)', async () => {
    const lib = new FakeLibrary()
    const api = createFakeApi(libraryHandlers(lib))
    const skipped: SkippedTask[] = [
      { path: `${ROOT}/alice/output_link`, reason: 'symlink pointing outside the data root (not followed)', messageCode: 'scan.link_outside_root', params: {} },
      { path: `${ROOT}/alice/output_pipe`, reason: 'not a folder (a FIFO): not read', messageCode: 'scan.not_folder', params: { what: { messageCode: 'scan.what_fifo', params: {} } } },
      { path: `${ROOT}/alice/s.jsonl`, reason: '2 line(s) that are not JSON objects skipped (torn or corrupt; the first at line 2); the rest of the file was read', messageCode: 'scan.bad_lines', params: { n: 2, line: 2 } },
      // from an older main process: words only
      { path: `${ROOT}/alice/output_old`, reason: 'no logs/ folder' }
    ]
    api.handlers['tasks.list'] = async () => ({ root: ROOT, skipped, tasks: [] })
    api.handlers['settings.get'] = async () => ({ ...(await libraryHandlers(new FakeLibrary())['settings.get']!({})), language: 'zh' })
    window.localStorage.setItem('skillbench.lang', 'zh')
    renderApp(api, { screen: 'workspaces' })
    await waitFor(() => expect(screen.getAllByTestId('task-row')).toHaveLength(4))
    const subs = screen.getAllByTestId('task-row').map((r) => r.querySelector('[data-testid="task-sub"]')?.textContent)
    expect(subs).toEqual(['指向数据根目录之外的符号链接（不跟随）', '不是文件夹（FIFO）：未读取', '跳过了 2 行不是 JSON 对象的内容（截断或损坏；第一行在第 2 行）；文件其余部分已读取', '没有 logs/ 文件夹'])
  })

  it('names each agent message by its kind in the interface language, never the raw kind', async () => {
    const lib = new FakeLibrary()
    const api = createFakeApi(libraryHandlers(lib))
    const messages: TaskSummary['agentMessages'] = [
      { kind: 'said', from: 'agent_001', text: 'I will write the tests first' },
      { kind: 'spawn_completed', from: 'agent_002', text: 'done' }
    ]
    api.handlers['tasks.list'] = async () => ({ root: ROOT, skipped: [], tasks: [task('output_20260101_100000', 1000, { agentMessages: messages })] })
    api.handlers['tasks.readLog'] = async (input) => fakeLogWindow(LOG, 'manager.out', ['manager.out'], input, LOG.length)
    api.handlers['settings.get'] = async () => ({ ...(await libraryHandlers(new FakeLibrary())['settings.get']!({})), language: 'zh' })
    renderApp(api, { screen: 'workspaces' })
    window.localStorage.setItem('skillbench.lang', 'zh')
    fireEvent.click((await screen.findAllByTestId('task-row'))[0]!)
    const trace = await screen.findByTestId('task-trace')
    await waitFor(() => expect(trace.textContent).toContain('智能体消息（2）'))
    const labels = [...trace.querySelectorAll('.messages .tl-agent')].map((e) => e.textContent)
    expect(labels).toEqual(['发言 agent_001', '已完成 agent_002'])
  })
})
