// @vitest-environment jsdom
/**
 * The first hour of use (issue 12), screen by screen against the fake API: where the app opens, what an empty
 * root is told, next steps, unreadable files fixed in place, rating while editing, the connection test, big-log
 * honesty, session targets, curation a person can follow, errors that say what failed, Chinese everywhere.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../src/shared/api'
import type { DataRootInfo, LibraryInfo, OverviewResult, SessionSourceInfo, TaskSummary } from '../../src/shared/api'
import type { Proposal } from '../../src/shared/types'
import { createFakeApi, fakeLogWindow, FakeLibrary, LIB, libraryHandlers, makeMeta, ROOT, skillText } from './fake-api'
import type { FakeApi } from './fake-api'
import { renderApp } from './render-app'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

function bench(before?: (api: FakeApi, lib: FakeLibrary) => void): { api: FakeApi; lib: FakeLibrary } {
  const lib = new FakeLibrary()
  lib.add(makeMeta(1, { title: 'Python calculator', quality_index: 0.5 }), 'Original body.')
  const api = createFakeApi(libraryHandlers(lib))
  before?.(api, lib)
  return { api, lib }
}

const OTHER = '/remembered/bob/general/experience'
const library = (path: string, label: string, root: string, exists = true): LibraryInfo => ({ path, label, root, user: label.split(' ')[0], origin: 'root', exists })
const root = (path: string, over: Partial<DataRootInfo> = {}): DataRootInfo => ({ path, exists: true, users: ['alice'], taskCount: 3, remembered: true, thisRunOnly: false, ...over })

function overviewData(over: Partial<OverviewResult> = {}): OverviewResult {
  return {
    skills: 1, legacy: 0, errors: 0, errorFiles: [], tasks: 4, reflectedTasks: 1, pendingProposals: 2, planComputed: true,
    qualityHistogram: [0, 0, 0, 0, 0, 1, 0, 0, 0, 0], recent: [], graph: { nodes: [{ id: '1700000001', title: 'Python calculator', quality: 0.5, cluster: -1 }], edges: [] }, ...over
  }
}

describe('where the app opens', () => {
  it('selects the command-line root and its library even when another was selected in an earlier run', async () => {
    const { api } = bench((api) => {
      api.handlers['app.info'] = async () => ({ version: '0.1.0', transport: 'web', platform: 'linux', settingsPath: '/s', runId: 'run-2', startRoot: ROOT })
      api.handlers['libraries.list'] = async () => [library(LIB, 'alice · data', ROOT), library(OTHER, 'bob · remembered', '/remembered')]
      api.handlers['roots.list'] = async () => [root(ROOT, { remembered: false, thisRunOnly: true }), root('/remembered')]
      api.handlers['overview.get'] = async () => overviewData()
    })
    window.localStorage.setItem('skillbench.library', OTHER)
    window.localStorage.setItem('skillbench.root', '/remembered')
    renderApp(api)
    await waitFor(() => expect((screen.getByTestId('library-picker') as HTMLSelectElement).value).toBe(LIB))
    await waitFor(() => expect(api.callsOf('overview.get').at(-1)).toEqual({ library: LIB }))
    expect(window.localStorage.getItem('skillbench.root')).toBe(ROOT)
    // Workspaces and Reflect default to it too
    fireEvent.click(screen.getByTestId('nav-reflect'))
    expect(((await screen.findByTestId('reflect-root')) as HTMLSelectElement).value).toBe(ROOT)
  })

  it('keeps the user\'s later choice within the same run', async () => {
    const { api } = bench((api) => {
      api.handlers['app.info'] = async () => ({ version: '0.1.0', transport: 'web', platform: 'linux', settingsPath: '/s', runId: 'run-2', startRoot: ROOT })
      api.handlers['libraries.list'] = async () => [library(LIB, 'alice · data', ROOT), library(OTHER, 'bob · remembered', '/remembered')]
      api.handlers['overview.get'] = async () => overviewData()
    })
    window.localStorage.setItem('skillbench.startRun', 'run-2')
    window.localStorage.setItem('skillbench.library', OTHER)
    renderApp(api)
    await waitFor(() => expect(api.callsOf('app.info').length).toBeGreaterThan(0))
    await waitFor(() => expect((screen.getByTestId('library-picker') as HTMLSelectElement).value).toBe(OTHER))
  })

  it('tells folders apart in the library picker and says "no skills yet" for a user without a library', async () => {
    const { api } = bench((api) => {
      api.handlers['libraries.list'] = async () => [
        library(LIB, 'alice · data', ROOT),
        library('/data/carol/general/experience', 'carol · data', ROOT, false),
        { path: '/home/u/.claude/skills', label: 'skills · .claude', origin: 'opened', exists: true }
      ]
      api.handlers['overview.get'] = async () => overviewData()
    })
    renderApp(api)
    const picker = (await screen.findByTestId('library-picker')) as HTMLSelectElement
    await waitFor(() => expect([...picker.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['alice · data', 'carol · data (no skills yet)', 'skills · .claude']))
    expect([...picker.querySelectorAll('optgroup')].map((g) => g.label)).toEqual(['Data roots', 'Opened folders'])
    expect(picker.textContent).not.toContain('missing')
  })

  it('lists remembered and this-run-only roots in Settings, to remember or forget', async () => {
    let roots = [root(ROOT, { remembered: false, thisRunOnly: true }), root('/remembered')]
    const { api } = bench((api) => {
      api.handlers['roots.list'] = async () => roots
      api.handlers['roots.add'] = async ({ path }) => (roots = roots.map((r) => (r.path === path ? { ...r, remembered: true, thisRunOnly: false } : r)))
      api.handlers['roots.remove'] = async ({ path }) => (roots = roots.filter((r) => r.path !== path))
    })
    renderApp(api, { screen: 'settings' })
    const rows = await screen.findAllByTestId('settings-root')
    expect(within(rows[0]!).getByTestId('root-this-run').textContent).toBe('this run only (--root-dir)')
    expect(within(rows[1]!).getByTestId('root-remembered').textContent).toBe('remembered')
    fireEvent.click(within(rows[0]!).getByTestId('root-remember'))
    await waitFor(() => expect(api.callsOf('roots.add')).toEqual([{ path: ROOT }]))
    await waitFor(() => expect(within(screen.getAllByTestId('settings-root')[0]!).queryByTestId('root-remembered')).toBeTruthy())
    fireEvent.click(within(screen.getAllByTestId('settings-root')[1]!).getByRole('button', { name: 'Forget' }))
    await waitFor(() => expect(api.callsOf('roots.remove')).toEqual([{ path: '/remembered' }]))
  })

  it('selects a SKILL.md folder as soon as it is opened', async () => {
    let libs = [library(LIB, 'alice · data', ROOT)]
    const { api } = bench((api) => {
      api.handlers['libraries.list'] = async () => libs
      api.handlers['libraries.open'] = async ({ path }) => (libs = [...libs, { path, label: 'skills · .claude', origin: 'opened', exists: true }])
    })
    renderApp(api, { screen: 'settings' })
    fireEvent.change(await screen.findByTestId('folder-input'), { target: { value: '/home/u/.claude/skills' } })
    fireEvent.submit(screen.getByTestId('folder-input').closest('form')!)
    await waitFor(() => expect((screen.getByTestId('library-picker') as HTMLSelectElement).value).toBe('/home/u/.claude/skills'))
  })
})

describe('the first screen says what to do next', () => {
  it('offers the next step as a button and ticks off what is done', async () => {
    const { api } = bench((api) => {
      api.handlers['overview.get'] = async () => overviewData({ reflectedTasks: 0, pendingProposals: 0, planComputed: false })
      api.handlers['tasks.list'] = async () => ({ root: ROOT, skipped: [], tasks: [] })
    })
    renderApp(api)
    const steps = await screen.findByTestId('next-steps')
    expect(within(steps).getByTestId('next-browse').className).toContain('btn-primary')
    expect(within(steps).getByTestId('next-reflect').textContent).toBe('Reflect 4 new tasks')
    expect(within(steps).getByTestId('next-review').textContent).toBe('Look for duplicate skills')
    expect(within(steps).getByTestId('next-rate').textContent).toBe('Rate a skill')
    fireEvent.click(within(steps).getByTestId('next-browse'))
    expect(await screen.findByTestId('screen-workspaces')).toBeTruthy()
    expect(window.localStorage.getItem('skillbench.done.browsed')).toBe(null) // only once a task is shown
  })

  it('names an empty root and the layout it expects, instead of "add a data root"', async () => {
    const { api } = bench((api) => {
      api.handlers['libraries.list'] = async () => []
      api.handlers['roots.list'] = async () => [root('/srv/empty', { users: [], taskCount: 0, problem: 'empty' })]
    })
    renderApp(api)
    const notice = await screen.findByTestId('root-problem')
    expect(notice.textContent).toContain('No tasks in /srv/empty')
    expect(notice.textContent).toContain('<root>/<user>/output_YYYYMMDD_HHMMSS/logs/manager.out')
    expect(screen.queryByText(/Add a data root in Settings/)).toBeNull()
  })

  it('offers the fix for a library given as a root, shows its skills, and the Overview no longer calls it a problem', async () => {
    let opened: LibraryInfo[] = []
    const { api } = bench((api) => {
      api.handlers['libraries.list'] = async () => opened
      api.handlers['roots.list'] = async () => [root('/srv/skills', { users: [], taskCount: 0, problem: 'library' })]
      api.handlers['libraries.open'] = async ({ path }) => (opened = [{ path, label: 'skills', origin: 'opened', exists: true }])
      api.handlers['overview.get'] = async () => overviewData({ tasks: 0, reflectedTasks: 0 })
    })
    renderApp(api)
    fireEvent.click(await screen.findByTestId('root-problem-fix'))
    await waitFor(() => expect(api.callsOf('libraries.open')).toEqual([{ path: '/srv/skills' }]))
    expect(await screen.findByTestId('screen-skills')).toBeTruthy()
    fireEvent.click(screen.getByTestId('nav-overview'))
    expect(await screen.findByTestId('overview-counts')).toBeTruthy()
    // the root still has no tasks, but what the notice offered is done: it does not ask again
    expect(screen.queryByTestId('root-problem')).toBeNull()
  })

  it('links the unreadable-files count to the file, opened as text with its error on its line', async () => {
    const broken = '---\nskill_id: "9"\ntitle: [oops\nquality_index: 0.5\n---\nBody\n'
    let text = broken
    const { api } = bench((api) => {
      api.handlers['overview.get'] = async () => overviewData({ errors: 1, errorFiles: [{ path: 'skill_broken.md', reason: 'invalid YAML: Unexpected end' }] })
      api.handlers['skills.readFile'] = async ({ path }) => ({ path, text, hash: 'h1', problem: { reason: 'invalid YAML: Unexpected end', line: 3, column: 8 } })
      api.handlers['skills.saveFile'] = async ({ path, text: t }) => {
        text = t
        return { path, text: t, hash: 'h2', problem: null, skillId: '1700000001' }
      }
    })
    renderApp(api)
    fireEvent.click(await screen.findByTestId('overview-errors'))
    const box = (await screen.findByTestId('code-editor')) as HTMLTextAreaElement
    expect(box.value).toBe(broken)
    expect(box.getAttribute('data-problems')).toBe('3:8 invalid YAML: Unexpected end')
    expect(screen.getByTestId('file-problem').textContent).toContain('line 3, column 8')
    expect((screen.getByTestId('file-save') as HTMLButtonElement).disabled).toBe(true)
    fireEvent.change(box, { target: { value: broken.replace('[oops', 'Fixed') } })
    expect(await screen.findByTestId('file-ok')).toBeTruthy()
    fireEvent.click(screen.getByTestId('file-save'))
    await waitFor(() => expect(api.callsOf('skills.saveFile')).toEqual([{ library: LIB, path: 'skill_broken.md', text: broken.replace('[oops', 'Fixed'), baseHash: 'h1' }]))
    expect(await screen.findByTestId('screen-editor')).toBeTruthy()
  })

  it('words recent activity in the UI language', async () => {
    const { api } = bench((api) => {
      api.handlers['overview.get'] = async () =>
        overviewData({
          recent: [
            { at: '2026-01-02T10:00:00Z', kind: 'curation-applied', proposalKind: 'merge', by: 'offline' },
            // a reflection log line as the log file has it (reflect.log_decided_enhance_why, read back by its words)
            { at: '2026-01-01T12:00:00Z', kind: 'log', level: 'info', text: 'Decision for output_calc: enhance (skill 1700000001) - pytest was missing' },
            { at: '2026-01-01T10:00:00Z', kind: 'skill-created', title: 'Python calculator', skill_id: '1700000001' }
          ]
        })
    })
    window.localStorage.setItem('skillbench.lang', 'zh')
    api.handlers['settings.get'] = async () => ({ ...(await libraryHandlers(new FakeLibrary())['settings.get']!({})), language: 'zh' })
    renderApp(api)
    await waitFor(() => expect(screen.getByTestId('overview-recent').textContent).toContain('离线规则合并了技能'))
    expect(screen.getByTestId('overview-recent').textContent).toContain('新建技能：Python calculator')
    expect(screen.getByTestId('overview-recent').textContent).toContain('output_calc 的决定：增强技能 1700000001。理由：pytest was missing')
    expect(screen.getByTestId('overview-recent').textContent).not.toMatch(/by offline|Curation:|Decision for/)
  })
})

describe('rating while editing', () => {
  it('merges the new quality into unsaved edits: no "changed on disk" dialog for your own rating', async () => {
    const { api, lib } = bench()
    renderApp(api, { screen: 'editor', library: LIB, skillId: '1700000001' })
    const box = (await screen.findByTestId('code-editor')) as HTMLTextAreaElement
    fireEvent.change(box, { target: { value: box.value.replace('Original body.', 'Edited body.') } })
    fireEvent.click(screen.getByTestId('rating-submit'))
    await waitFor(() => expect(screen.getByTestId('rating-result').textContent).toBe('Quality 0.500 → 0.590'))
    await waitFor(() => expect(box.value).toContain('"quality_index":0.59'.replace('"quality_index":', 'quality_index: ')))
    expect(box.value).toContain('Edited body.')
    expect(screen.getByTestId('dirty-badge')).toBeTruthy()
    expect(screen.queryByTestId('disk-changed')).toBeNull()
    fireEvent.keyDown(window, { key: 's', ctrlKey: true })
    await screen.findByTestId('saved-badge')
    expect(screen.queryByTestId('conflict-dialog')).toBeNull()
    expect(lib.require('1700000001').text).toContain('Edited body.')
    expect(lib.require('1700000001').text).toMatch(/quality_index: 0\.59/)
  })

  it('asks to save first when the edits touch the rating itself', async () => {
    const { api } = bench()
    renderApp(api, { screen: 'editor', library: LIB, skillId: '1700000001' })
    const box = (await screen.findByTestId('code-editor')) as HTMLTextAreaElement
    fireEvent.change(box, { target: { value: box.value.replace('"quality_index": 0.5', 'quality_index: 0.9').replace('quality_index: 0.5', 'quality_index: 0.9') } })
    expect((await screen.findByTestId('rating-blocked')).textContent).toMatch(/save/i)
    expect((screen.getByTestId('rating-submit') as HTMLButtonElement).disabled).toBe(true)
  })

  it('gives the editor the keyboard when a skill is opened with Enter', async () => {
    const { api } = bench()
    renderApp(api, { screen: 'skills' })
    const list = await screen.findByTestId('skill-list')
    fireEvent.keyDown(list, { key: 'Enter' })
    const box = await screen.findByTestId('code-editor')
    await waitFor(() => expect(document.activeElement).toBe(box))
  })
})

describe('searching skills', () => {
  it('says "No skills match" instead of listing results that share no word', async () => {
    const { api } = bench((api) => {
      api.handlers['skills.query'] = async () => ({ status: 'success', message: '', skills_count: 1, skills: [{ ...makeMeta(1), similarity_score: 0, content: '', path: 'skill_1700000001.md', format: 'agiagent' }] })
    })
    renderApp(api, { screen: 'skills' })
    fireEvent.change(await screen.findByTestId('skill-search'), { target: { value: 'zebra' } })
    expect((await screen.findByTestId('skills-empty', {}, { timeout: 3000 })).textContent).toBe('No skills match “zebra”.')
    expect(screen.queryByTestId('skill-similarity')).toBeNull()
  })
})

describe('the connection test', () => {
  it('tests the form before it is saved and names each cause', async () => {
    const answers: Record<string, { problem?: string; message: string }> = {
      'http://127.0.0.1:19999/v1': { problem: 'refused', message: 'cannot reach the model server: fetch failed (ECONNREFUSED)' },
      'http://nohost.invalid/v1': { problem: 'unknown_host', message: 'cannot reach the model server: fetch failed (ENOTFOUND)' },
      'https://127.0.0.1:8080/v1': { problem: 'tls', message: 'cannot reach the model server: fetch failed (ERR_SSL_WRONG_VERSION_NUMBER)' },
      'https://api.example.com/v1': { problem: 'auth', message: 'model server refused the credentials (401): check the API key' }
    }
    const { api } = bench((api) => {
      api.handlers['llm.test'] = async ({ baseUrl }) => ({ ok: false, model: 'm', latencyMs: 3, ...answers[baseUrl!]!, problem: answers[baseUrl!]!.problem as 'refused' })
    })
    renderApp(api, { screen: 'settings' })
    const url = await screen.findByTestId('settings-baseurl')
    const seen: string[] = []
    for (const u of Object.keys(answers)) {
      fireEvent.change(url, { target: { value: u } })
      fireEvent.click(screen.getByTestId('llm-test'))
      await waitFor(() => expect(api.callsOf('llm.test').at(-1)?.baseUrl).toBe(u))
      await waitFor(() => expect(screen.getByTestId('llm-test-result').textContent).toContain(answers[u]!.message))
      seen.push(screen.getByTestId('llm-test-result').textContent!)
    }
    expect(seen[0]).toContain('Connection refused')
    expect(seen[1]).toContain('Unknown host')
    expect(seen[2]).toContain('TLS')
    expect(seen[3]).toContain('check the API key')
    expect(new Set(seen).size).toBe(4)
  })

  it('refuses to save a URL that is not one', async () => {
    const { api } = bench()
    renderApp(api, { screen: 'settings' })
    fireEvent.change(await screen.findByTestId('settings-baseurl'), { target: { value: 'localhost:11434' } })
    expect(screen.getByTestId('baseurl-problem').textContent).toBe('The base URL must start with http:// or https://.')
    expect((screen.getByTestId('settings-save') as HTMLButtonElement).disabled).toBe(true)
    expect(screen.getByTestId('settings-baseurl').getAttribute('aria-invalid')).toBe('true')
  })

  it('refuses to save a URL on a blocked port, naming the port', async () => {
    const { api } = bench()
    renderApp(api, { screen: 'settings' })
    fireEvent.change(await screen.findByTestId('settings-baseurl'), { target: { value: 'http://127.0.0.1:6000/v1' } })
    expect(screen.getByTestId('baseurl-problem').textContent).toBe("Port 6000 is blocked by the runtime for safety (a 'bad port'). Use the endpoint's real port.")
    expect((screen.getByTestId('settings-save') as HTMLButtonElement).disabled).toBe(true)
  })
})

function bigTask(over: Partial<TaskSummary> = {}): TaskSummary {
  return {
    user: 'alice', taskDir: 'output_20260301_101500', path: `${ROOT}/alice/output_20260301_101500`, mtime: Date.UTC(2026, 5, 1), startedAt: new Date(2026, 2, 1, 10, 15).getTime(),
    status: 'completed', completed: true, requirements: ['Parse a CSV export of orders'],
    toolCalls: [
      { agent: 'manager', name: 'read_file', params: { target_file: 'orders.csv' }, offset: 120 },
      { agent: 'manager', name: 'edit_file', params: { target_file: 'parse.py', code_edit: 'x'.repeat(400) }, offset: 300 }
    ],
    toolCallsTotal: 126_138, errors: [], interruptions: 0, agentMessages: [], files: [], reflected: false, skills: [], ...over
  }
}

const BIG_LOG = Array.from({ length: 40 }, (_, i) => (i === 20 ? 'line 21 <invoke name="edit_file"> NEEDLE' : `line ${i + 1}`)).join('\n') + '\n'

describe('big logs are told as they are', () => {
  function setup(): FakeApi {
    const { api } = bench((api) => {
      api.handlers['tasks.list'] = async () => ({ root: ROOT, skipped: [], tasks: [bigTask()] })
      api.handlers['tasks.readLog'] = async (input) => fakeLogWindow(BIG_LOG, 'manager.out', ['manager.out'], input)
      api.handlers['tasks.searchLog'] = async ({ query }) => ({ file: 'manager.out', size: BIG_LOG.length, limited: false, matches: BIG_LOG.split('\n').flatMap((l, i) => (l.includes(query) ? [{ offset: BIG_LOG.indexOf(l), line: i + 1, text: l }] : [])) })
    })
    renderApp(api, { screen: 'workspaces' })
    return api
  }

  it('says the tool calls were capped and leads the row with the request and the task\'s own time', async () => {
    setup()
    expect((await screen.findByTestId('tool-calls-heading')).textContent).toBe('Tool calls (first 2 of 126,138)')
    expect(screen.getByTestId('tool-calls-capped').textContent).toContain('only the first 2 were read')
    expect(screen.getByTestId('task-headline').textContent).toBe('Parse a CSV export of orders')
    expect(screen.getByTestId('task-sub').textContent).toBe('2026-03-01 10:15 · alice · output_20260301_101500')
  })

  it('jumps from a tool call to its line in the raw log, and unfolds long arguments', async () => {
    const api = setup()
    const calls = await screen.findAllByTestId('tool-call')
    fireEvent.click(within(calls[1]!).getByTestId('tool-call-jump'))
    // loaded with some context before it, the call's line marked
    await waitFor(() => expect(api.callsOf('tasks.readLog').some((r) => r.at === 0 && r.file === 'manager.out')).toBe(true))
    const offsetLine = BIG_LOG.slice(0, 300).split('\n').length
    await waitFor(() => expect(document.querySelector('.vrow-marked')?.textContent).toBe(`${offsetLine}line ${offsetLine}`))
    fireEvent.click(within(calls[1]!).getByTestId('tool-call-expand'))
    expect(within(calls[1]!).getByTestId('tool-call-args').textContent).toContain('x'.repeat(400))
  })

  it('searches the log and jumps to a match, and to the end', async () => {
    const api = setup()
    await screen.findByTestId('log-lines')
    fireEvent.change(screen.getByTestId('log-search'), { target: { value: 'NEEDLE' } })
    fireEvent.submit(screen.getByTestId('log-search').closest('form')!)
    const hit = await screen.findByTestId('log-hit')
    expect(hit.textContent).toContain('21')
    const reads = api.callsOf('tasks.readLog').length
    fireEvent.click(hit)
    await waitFor(() => expect(api.callsOf('tasks.readLog').length).toBeGreaterThan(reads))
    await waitFor(() => expect(document.querySelector('.vrow-marked')?.textContent).toContain('NEEDLE'))
    expect(screen.getByTestId('log-status').textContent).toMatch(/^Lines 1–40/)
    fireEvent.click(screen.getByTestId('log-end'))
    await waitFor(() => expect(api.callsOf('tasks.readLog').at(-1)).toMatchObject({ at: 0 }))
  })
})

describe('progress within one long reflection, and the offline way out', () => {
  it('shows the step a task is at, and after a model failure offers to reflect offline', async () => {
    const { api } = bench((api) => {
      api.handlers['tasks.list'] = async () => ({ root: ROOT, skipped: [], tasks: [bigTask()] })
      api.handlers['settings.get'] = async () => ({ ...(await libraryHandlers(new FakeLibrary())['settings.get']!({})), llm: { ...(await libraryHandlers(new FakeLibrary())['settings.get']!({})).llm, provider: 'openai' } })
      api.handlers['reflect.start'] = async () => ({ jobId: 'j1', kind: 'reflect', startedAt: '2026-01-01T00:00:00Z', state: 'running' })
    })
    renderApp(api, { screen: 'reflect' })
    const all = await screen.findByTestId('reflect-all')
    await waitFor(() => expect((all as HTMLButtonElement).disabled).toBe(false))
    fireEvent.click(all)
    await waitFor(() => expect(api.callsOf('reflect.start')).toHaveLength(1))
    const dir = 'output_20260301_101500'
    act(() => api.emit({ type: 'job.progress', progress: { jobId: 'j1', kind: 'reflect', fraction: 0.3, stage: 'task-step', step: 'model', message: 'Waiting for the model (12 s)', taskDir: dir } }))
    expect((await screen.findByTestId('task-step')).textContent).toBe('Waiting for the model (12 s)')
    expect(screen.getByTestId('reflect-progress').getAttribute('aria-valuenow')).toBe('30')
    act(() => api.emit({ type: 'job.done', jobId: 'j1', kind: 'reflect', state: 'done', result: { created: [], skipped: [], failed: [{ taskDir: dir, error: 'cannot reach the model server: fetch failed (ECONNREFUSED)' }], cancelled: false } }))
    const hint = await screen.findByTestId('reflect-offline-hint')
    expect(hint.textContent).toContain('offline')
    fireEvent.click(within(hint).getByTestId('reflect-offline'))
    await waitFor(() => expect(api.callsOf('reflect.start')[1]).toEqual({ root: ROOT, tasks: [dir], llm: 'offline' }))
  })

  it('never says every task was reflected when there are none', async () => {
    const { api } = bench((api) => {
      api.handlers['tasks.list'] = async () => ({ root: ROOT, skipped: [], tasks: [] })
    })
    renderApp(api, { screen: 'reflect' })
    expect((await screen.findByTestId('reflect-nothing')).textContent).toBe(`There are no tasks in ${ROOT} yet, so there is nothing to reflect.`)
  })
})

describe('skills from agent sessions', () => {
  it('go to the library chosen for the source, remembered per source', async () => {
    let sources: SessionSourceInfo[] = [{ source: 'claude', dir: '/home/u/.claude/projects', detected: true, added: false, exists: true }]
    const { api } = bench((api) => {
      api.handlers['libraries.list'] = async () => [library(LIB, 'alice · data', ROOT), library(OTHER, 'bob · remembered', '/remembered')]
      api.handlers['sessions.list'] = async () => sources
      api.handlers['sessions.setTarget'] = async ({ library: lib }) => (sources = sources.map((s) => ({ ...s, targetLibrary: lib ?? undefined })))
      api.handlers['sessions.tasks'] = async () => ({ root: '/home/u/.claude/projects', skipped: [], tasks: [bigTask({ source: 'claude', taskDir: 's1#1', path: '/home/u/.claude/projects/p/s1.jsonl' })] })
      api.handlers['sessions.readLog'] = async (input) => fakeLogWindow('{"type":"user","message":{"role":"user","content":"hi"}}\n', 's1.jsonl', ['s1.jsonl'], input)
      api.handlers['sessions.reflect'] = async () => ({ jobId: 'j3', kind: 'reflect', startedAt: '2026-01-01T00:00:00Z', state: 'running' })
    })
    renderApp(api, { screen: 'workspaces' })
    const picker = (await screen.findByTestId('source-picker')) as HTMLSelectElement
    await waitFor(() => expect(picker.options.length).toBe(2))
    fireEvent.change(picker, { target: { value: picker.options[1]!.value } })
    const target = (await screen.findByTestId('session-target')) as HTMLSelectElement
    expect(target.value).toBe(LIB)
    fireEvent.change(target, { target: { value: OTHER } })
    await waitFor(() => expect(api.callsOf('sessions.setTarget')).toEqual([{ source: 'claude', dir: '/home/u/.claude/projects', library: OTHER }]))
    await waitFor(() => expect((screen.getByTestId('session-target') as HTMLSelectElement).value).toBe(OTHER))
    fireEvent.click(screen.getByTestId('session-reflect-all'))
    await waitFor(() => expect(api.callsOf('sessions.reflect')[0]).toEqual({ source: 'claude', dir: '/home/u/.claude/projects', library: OTHER }))
    // the sidebar's library did not decide it
    expect((screen.getByTestId('library-picker') as HTMLSelectElement).value).toBe(LIB)
  })
})

describe('curation a person can follow', () => {
  const cleanup: Proposal = {
    id: 'c-1', kind: 'cleanup', score: 0, reason: 'never used…', status: 'pending', author: 'offline',
    members: [{ skill_id: '5', title: 'Stale skill', path: 'skill_stale.md' }],
    evidence: { fetch_count: 0, age_days: 45, cleanup_days: 30 },
    changes: [{ path: 'skill_stale.md', before: 'STALE TEXT', after: null }, { path: 'legacy/skill_stale.md', before: null, after: 'STALE TEXT' }]
  }
  const merge: Proposal = {
    id: 'm-1', kind: 'merge', score: 0.86, reason: 'x', status: 'pending', author: 'offline',
    members: [{ skill_id: '1', title: 'Python calculator', path: 'skill_a.md' }, { skill_id: '2', title: 'Calculator in Python', path: 'skill_b.md' }],
    evidence: { similarity: 0.86, shared_terms: ['calcul'], shared_words: ['calculator'], primary: '1', primary_why: 'quality' },
    changes: [{ path: 'skill_a.md', before: 'A', after: 'A+B' }, { path: 'skill_b.md', before: 'B', after: null }, { path: 'legacy/skill_b.md', before: null, after: 'B' }]
  }
  function setup(lang: 'en' | 'zh' = 'en'): FakeApi {
    const { api } = bench((api) => {
      api.handlers['curate.plan'] = async () => ({
        library: LIB, computedAt: '2026-01-01T00:00:00Z', skills_loaded: 5, errors: [], proposals: [merge, cleanup],
        protected: [{ skill_id: '7', title: 'Hand-tuned deploy steps', path: 'skill_deploy.md', reason: 'edited' }]
      })
      api.handlers['curate.journal'] = async () => []
      api.handlers['curate.accept'] = async ({ proposalId }) => ({ id: 'e-1', proposal_id: proposalId, kind: 'merge', at: '2026-01-01T00:00:00Z', by: 'user', changes: merge.changes })
      api.handlers['curate.undo'] = async () => ({ id: 'e-1', proposal_id: 'm-1', kind: 'merge', at: '2026-01-01T00:00:00Z', by: 'user', changes: merge.changes, undone_at: '2026-01-01T00:01:00Z' })
      if (lang === 'zh') api.handlers['settings.get'] = async () => ({ ...(await libraryHandlers(new FakeLibrary())['settings.get']!({})), language: 'zh' })
    })
    if (lang === 'zh') window.localStorage.setItem('skillbench.lang', 'zh')
    renderApp(api, { screen: 'curate' })
    return api
  }

  it('gives reasons in words, shared words, no score, cleanup as a move, and the protected skills', async () => {
    setup()
    const card = within(await screen.findByTestId('group-merge')).getByTestId('proposal')
    expect(within(card).getByTestId('proposal-reason').textContent).toContain('2 skills describe the same task (0.86 similar)')
    expect(within(card).getByTestId('shared-words').textContent).toContain('calculator')
    expect(card.textContent).not.toMatch(/Score|0\.000|by offline/)
    expect(within(card).getByTestId('proposal-author').textContent).toBe('Proposed by the offline rules')
    const stale = within(screen.getByTestId('group-cleanup')).getByTestId('proposal')
    expect(within(stale).getByTestId('proposal-move').textContent).toBe('skill_stale.md moves to legacy/skill_stale.md (restorable)')
    fireEvent.click(within(stale).getByTestId('proposal-review'))
    const dialog = await screen.findByTestId('review-dialog')
    expect(within(dialog).queryByTestId('diff-view')).toBeNull()
    expect(within(dialog).getByTestId('review-moves').textContent).toContain('restorable')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    const kept = screen.getByTestId('protected-skills')
    expect(kept.textContent).toContain('Hand-tuned deploy steps')
    expect(kept.textContent).toContain('edited by hand')
  })

  it('offers Undo right after Accept', async () => {
    const api = setup()
    fireEvent.click(within(await screen.findByTestId('group-merge')).getByTestId('proposal-review'))
    fireEvent.click(within(await screen.findByTestId('review-dialog')).getByTestId('review-accept'))
    const banner = await screen.findByTestId('applied-banner')
    expect(banner.textContent).toContain('Merge applied: Python calculator + Calculator in Python.')
    fireEvent.click(within(banner).getByTestId('applied-undo'))
    await waitFor(() => expect(api.callsOf('curate.undo')).toEqual([{ library: LIB, entryId: 'e-1' }]))
    await waitFor(() => expect(screen.queryByTestId('applied-banner')).toBeNull())
  })

  it('reads in Chinese', async () => {
    setup('zh')
    const card = within(await screen.findByTestId('group-merge')).getByTestId('proposal')
    expect(within(card).getByTestId('proposal-reason').textContent).toContain('2 个技能描述的是同一任务（相似度 0.86）')
    expect(within(card).getByTestId('proposal-author').textContent).toBe('提出者：离线规则')
    expect(within(screen.getByTestId('group-cleanup')).getByTestId('proposal-move').textContent).toBe('skill_stale.md 移入 legacy/skill_stale.md（可恢复）')
  })
})

describe('errors say what failed, in the UI language', () => {
  it('names the action and translates the server message', async () => {
    const { api } = bench((api) => {
      api.handlers['skills.save'] = async () => {
        throw new ApiError('bad_request', 'not saved: front matter is not closed: no second "---" line')
      }
      api.handlers['settings.get'] = async () => ({ ...(await libraryHandlers(new FakeLibrary())['settings.get']!({})), language: 'zh' })
    })
    window.localStorage.setItem('skillbench.lang', 'zh')
    renderApp(api, { screen: 'editor', library: LIB, skillId: '1700000001' })
    const box = (await screen.findByTestId('code-editor')) as HTMLTextAreaElement
    fireEvent.change(box, { target: { value: box.value.replace('Original body.', 'Changed.') } })
    fireEvent.click(screen.getByTestId('editor-save'))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('保存技能失败')
    expect(alert.textContent).toContain('未保存：头信息没有结束：缺少第二行 "---"')
    expect(alert.textContent).not.toContain('That was not accepted')
    // the Rating heading and the Rate button do not say the same thing
    const rating = screen.getByTestId('rating').closest('section')!
    expect(rating.querySelector('h2')!.textContent).toBe('质量评分')
    expect(screen.getByTestId('rating-submit').textContent).toBe('提交评分')
  })

  it('in English too', async () => {
    const { api, lib } = bench((api) => {
      api.handlers['skills.save'] = async () => {
        throw new ApiError('bad_request', 'not saved: skill_id cannot be changed (it is 1700000001)')
      }
    })
    renderApp(api, { screen: 'editor', library: LIB, skillId: '1700000001' })
    const box = (await screen.findByTestId('code-editor')) as HTMLTextAreaElement
    fireEvent.change(box, { target: { value: skillText({ ...lib.require('1700000001').meta, skill_id: '5' }, 'Body') } })
    fireEvent.click(screen.getByTestId('editor-save'))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toMatch(/^Saving the skill failed/)
    expect(alert.textContent).toContain('skill_id cannot be changed')
  })
})
