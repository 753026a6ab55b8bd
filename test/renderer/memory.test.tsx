// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../src/shared/api'
import type { MemoryStatusResult, PendingPreferenceInfo, ProposedPreferenceInfo } from '../../src/shared/api'
import type { Proposal } from '../../src/shared/types'
import { createFakeApi, fakeHash, FakeLibrary, LIB, libraryHandlers, makeMeta, ROOT } from './fake-api'
import { renderApp } from './render-app'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

const NAMES = ['lessons.md', 'preferences.md', 'procedural.md', 'long-term.md']

/** A stateful in-memory memory folder behind the memory.* methods (hash conflicts, pending queue, prompt). */
function setup(opts: { enabled?: boolean; lang?: 'zh'; proposed?: ProposedPreferenceInfo[]; longTerm?: string[] } = {}) {
  const lib = new FakeLibrary()
  lib.add(makeMeta(1))
  const api = createFakeApi(libraryHandlers(lib))
  const files = new Map<string, string>([['lessons.md', '# Lessons\n\n- Only use the registered tools.\n'], ['logs/2026-01-02.md', '- did things\n']])
  let workspace = `${ROOT}/alice`
  let isDefault = true
  let pending: PendingPreferenceInfo[] = [{ id: 'a1b2c3d4e5f6', text: '代码注释用中文', source: 'output_20260103_110000', found_at: '2026-01-03T11:00:00Z' }]
  const consolidated: string[] = []
  const status = async (): Promise<MemoryStatusResult> => ({
    library: LIB,
    workspace,
    dir: `${workspace}/memory`,
    isDefault,
    exists: true,
    enabled: opts.enabled ?? true,
    files: [...NAMES.map((name) => ({ name, exists: files.has(name), bytes: files.get(name)?.length ?? 0, entries: (files.get(name)?.match(/^- /gm) ?? []).length })), { name: 'logs/2026-01-02.md', exists: true, bytes: 0, entries: 0 }],
    pendingPreferences: pending,
    proposedPreferences: opts.proposed ?? [],
    longTermPreferences: opts.longTerm ?? [],
    logDays: ['2026-01-02'],
    consolidatedDays: consolidated
  })
  const doc = (name: string) => {
    const text = files.get(name) ?? null
    return { name, text, hash: text === null ? null : fakeHash(text) }
  }
  api.handlers['memory.status'] = status
  api.handlers['memory.setWorkspace'] = async ({ path }) => {
    if (path === null) {
      workspace = `${ROOT}/alice`
      isDefault = true
    } else {
      if (!path.startsWith('/')) throw new ApiError('bad_request', `give an absolute folder path (got "${path}")`)
      workspace = path
      isDefault = false
    }
    return status()
  }
  api.handlers['memory.read'] = async ({ name }) => doc(name)
  api.handlers['memory.write'] = async ({ name, text, baseHash }) => {
    if (doc(name).hash !== baseHash) throw new ApiError('conflict', `${name} changed on disk since it was opened`)
    files.set(name, text)
    return doc(name)
  }
  api.handlers['memory.capturePreferences'] = async () => {
    const added = { id: 'ffee00112233', text: 'answer in English', source: 'output_x', found_at: '2026-01-04T00:00:00Z' }
    const queued = pending.some((p) => p.id === added.id) ? 0 : 1
    if (queued) pending = [...pending, added]
    return { found: 2, queued, pending }
  }
  api.handlers['memory.acceptPreference'] = async ({ id }) => {
    const p = pending.find((x) => x.id === id)!
    pending = pending.filter((x) => x.id !== id)
    files.set('preferences.md', `${files.get('preferences.md') ?? '# Preferences\n\n'}- ${p.text}\n`)
    return { added: true, pending }
  }
  api.handlers['memory.rejectPreference'] = async ({ id }) => {
    pending = pending.filter((x) => x.id !== id)
    return { pending }
  }
  api.handlers['memory.consolidate'] = async () => {
    if (consolidated.includes('2026-01-02')) return { consolidated: [], skipped: [{ day: '2026-01-02', reason: 'already_consolidated' }], failed: [] }
    consolidated.push('2026-01-02')
    files.set('long-term.md', '# Long-term memory\n\n## 2026-01-02\n\ndid things\n')
    return { consolidated: [{ day: '2026-01-02', method: 'extractive', chars: 10 }], skipped: [], failed: [] }
  }
  api.handlers['memory.prompt'] = async () => {
    const sections = [
      ...(files.get('lessons.md') ? [{ key: 'lessons' as const, heading: '## 行为约束 / Lessons', entries: (files.get('lessons.md')!.match(/^- .*$/gm) ?? []).map((l) => l.slice(2)), omitted: 0 }] : []),
      ...(files.get('preferences.md') ? [{ key: 'preferences' as const, heading: '## 用户偏好 / Preferences', entries: (files.get('preferences.md')!.match(/^- .*$/gm) ?? []).map((l) => l.slice(2)), omitted: 0 }] : [])
    ]
    return { sections, text: sections.map((s) => `${s.heading}\n${s.entries.map((e) => `- ${e}`).join('\n')}`).join('\n\n') }
  }
  if (opts.lang) api.handlers['settings.get'] = async () => ({ ...(await libraryHandlers(new FakeLibrary())['settings.get']!({})), language: opts.lang! })
  renderApp(api, { screen: 'memory' })
  return { api, files }
}

describe('Memory screen', () => {
  it('is in the sidebar and shows the memory folder, its files and the prompt sections', async () => {
    setup()
    expect(screen.getByTestId('nav-memory').getAttribute('aria-current')).toBe('page')
    expect((await screen.findByTestId('memory-dir')).textContent).toBe(`${ROOT}/alice/memory`)
    const names = (await screen.findAllByTestId('memory-file')).map((b) => b.querySelector('.ellipsis')?.textContent)
    expect(names).toEqual([...NAMES, 'logs/2026-01-02.md'])
    expect((await screen.findByTestId('memory-prompt')).textContent).toContain('## 行为约束 / Lessons\n- Only use the registered tools.')
  })

  it('edits a file in the editor and saves it with the hash it was read at; the prompt follows', async () => {
    const { api, files } = setup()
    const editor = (await within(await screen.findByTestId('memory-editor')).findByTestId('code-editor')) as HTMLTextAreaElement
    await waitFor(() => expect(editor.value).toContain('Only use the registered tools'))
    fireEvent.change(editor, { target: { value: '# Lessons\n\n- Only use the registered tools.\n- Never guess a file path.\n' } })
    expect(screen.getByTestId('memory-dirty')).toBeTruthy()
    fireEvent.click(screen.getByTestId('memory-save'))
    await waitFor(() => expect(files.get('lessons.md')).toContain('Never guess a file path'))
    expect(api.callsOf('memory.write')[0]).toMatchObject({ library: LIB, name: 'lessons.md', baseHash: fakeHash('# Lessons\n\n- Only use the registered tools.\n') })
    expect(await screen.findByTestId('memory-saved')).toBeTruthy()
    await waitFor(() => expect(screen.getByTestId('memory-prompt').textContent).toContain('Never guess a file path'))
  })

  it('creates a file that does not exist yet (base hash null) and explains a conflict with a reload', async () => {
    const { api, files } = setup()
    fireEvent.click((await screen.findAllByTestId('memory-file'))[2]!)
    const editor = (await within(screen.getByTestId('memory-editor')).findByTestId('code-editor')) as HTMLTextAreaElement
    fireEvent.change(editor, { target: { value: '- grep: exit 2 on a missing file\n' } })
    fireEvent.click(screen.getByTestId('memory-save'))
    await waitFor(() => expect(files.get('procedural.md')).toBe('- grep: exit 2 on a missing file\n'))
    expect(api.callsOf('memory.write')[0]!.baseHash).toBeNull()
    // changed outside the app meanwhile: saving is refused and the user can reload
    files.set('procedural.md', '- changed elsewhere\n')
    fireEvent.change(editor, { target: { value: '- mine\n' } })
    fireEvent.click(screen.getByTestId('memory-save'))
    expect((await screen.findByTestId('error-notice')).textContent).toContain('changed on disk')
    fireEvent.click(screen.getByTestId('memory-reload'))
    await waitFor(() => expect((within(screen.getByTestId('memory-editor')).getByTestId('code-editor') as HTMLTextAreaElement).value).toBe('- changed elsewhere\n'))
  })

  it('says what goes in a file that does not exist yet, instead of a blank editor, until something is typed', async () => {
    setup()
    await within(await screen.findByTestId('memory-editor')).findByTestId('code-editor')
    expect(screen.queryByTestId('memory-empty-hint')).toBeNull() // lessons.md exists
    fireEvent.click((await screen.findAllByTestId('memory-file'))[1]!)
    expect((await screen.findByTestId('memory-empty-hint')).textContent).toMatch(/^Not created yet\. What you prefer .*"Find preferences in task logs"/)
    const editor = (await within(screen.getByTestId('memory-editor')).findByTestId('code-editor')) as HTMLTextAreaElement
    fireEvent.change(editor, { target: { value: '- answer in English\n' } })
    expect(screen.queryByTestId('memory-empty-hint')).toBeNull()
  })

  it('reviews pending preferences: find more, accept one, reject another', async () => {
    const { api, files } = setup()
    expect((await screen.findAllByTestId('memory-pref')).map((li) => li.querySelector('.strong')?.textContent)).toEqual(['代码注释用中文'])
    fireEvent.click(screen.getByTestId('memory-capture'))
    expect((await screen.findByTestId('memory-capture-result')).textContent).toBe('Found 2, 1 new for review.')
    await waitFor(() => expect(screen.getAllByTestId('memory-pref')).toHaveLength(2))
    fireEvent.click(within(screen.getAllByTestId('memory-pref')[0]!).getByTestId('memory-pref-accept'))
    await waitFor(() => expect(api.callsOf('memory.acceptPreference')).toEqual([{ library: LIB, id: 'a1b2c3d4e5f6' }]))
    await waitFor(() => expect(screen.getAllByTestId('memory-pref')).toHaveLength(1))
    expect(files.get('preferences.md')).toContain('代码注释用中文')
    fireEvent.click(within(screen.getByTestId('memory-pref')).getByTestId('memory-pref-reject'))
    await waitFor(() => expect(api.callsOf('memory.rejectPreference')).toEqual([{ library: LIB, id: 'ffee00112233' }]))
    await waitFor(() => expect(screen.queryAllByTestId('memory-pref')).toHaveLength(0))
    await waitFor(() => expect(screen.getByTestId('memory-prompt').textContent).toContain('## 用户偏好 / Preferences\n- 代码注释用中文'))
  })

  it('lists the preferences Learn from tasks proposed with those found here, one count; Review on Curate opens the Curate screen on that proposal', async () => {
    const proposal = (id: string, entry: string): Proposal => ({
      id,
      kind: 'memory',
      members: [],
      score: 1,
      reason: 'The user said so in 2 task(s).',
      evidence: { task_count: 2, memory: { workspace: `${ROOT}/alice`, target: 'preferences', entries: [entry], source: 'preference' } },
      changes: [{ path: 'memory/preferences.md', before: null, after: `- ${entry}\n` }],
      status: 'pending',
      author: 'offline'
    })
    const { api } = setup({ proposed: [{ proposalId: 'memory-preferences-b', text: 'answer briefly', tasks: 2 }], longTerm: ['use tabs'] })
    api.handlers['curate.plan'] = async () => ({ library: LIB, computedAt: null, skills_loaded: 1, proposals: [proposal('memory-preferences-a', 'use spaces'), proposal('memory-preferences-b', 'answer briefly')], errors: [] })
    api.handlers['curate.journal'] = async () => []
    expect((await screen.findByRole('heading', { name: 'Preferences waiting for review (2)' })).id).toBe('prefs-title')
    const proposed = screen.getByTestId('memory-pref-proposed')
    expect(proposed.textContent).toContain('answer briefly')
    expect(proposed.textContent).toContain('Proposed by Learn from tasks, stated in 2 task(s) · reviewed on the Curate screen')
    expect(screen.getAllByTestId('memory-pref')).toHaveLength(1)
    expect(screen.getByRole('heading', { name: 'Preferences in long-term memory (1)' })).toBeTruthy()
    expect(screen.getAllByTestId('memory-longterm-pref').map((li) => li.textContent)).toEqual(['use tabs'])
    // the button is described by the preference it reviews
    const open = within(proposed).getByTestId('memory-pref-curate')
    expect(document.getElementById(open.getAttribute('aria-describedby')!)?.textContent).toBe('answer briefly')
    fireEvent.click(open)
    await screen.findByTestId('curate-only')
    expect(screen.getAllByTestId('proposal').map((c) => c.textContent)).toEqual([expect.stringContaining('answer briefly')])
    await waitFor(() => expect(document.activeElement?.getAttribute('data-testid')).toBe('curate-only'))
    fireEvent.click(screen.getByTestId('curate-show-all'))
    await waitFor(() => expect(screen.getAllByTestId('proposal')).toHaveLength(2))
    expect(screen.queryByTestId('curate-only')).toBeNull()
  })

  it('says the same in Chinese', async () => {
    setup({ lang: 'zh', proposed: [{ proposalId: 'memory-preferences-b', text: 'answer briefly', tasks: 2 }] })
    expect(await screen.findByRole('heading', { name: '待审阅的偏好（2）' })).toBeTruthy()
    expect(screen.getByTestId('memory-pref-proposed').textContent).toContain('由“从任务中学习”提出，在 2 个任务中说过 · 在“整理”页面审阅')
    expect(screen.getByRole('heading', { name: '长期记忆中的偏好（0）' })).toBeTruthy()
    expect(screen.getByTestId('memory-longterm-prefs').textContent).toContain('暂无。你接受的偏好会显示在这里。')
  })

  it('consolidates once, then says there is nothing new', async () => {
    setup()
    await screen.findByTestId('memory-dir')
    fireEvent.click(screen.getByTestId('memory-consolidate'))
    expect((await screen.findByTestId('memory-consolidate-result')).textContent).toBe('Summarised into long-term.md: 2026-01-02')
    await waitFor(() => expect(screen.getAllByTestId('memory-file')[4]!.textContent).toContain('summarised'))
    fireEvent.click(screen.getByTestId('memory-consolidate'))
    await waitFor(() => expect(screen.getByTestId('memory-consolidate-result').textContent).toContain('Nothing new to consolidate'))
  })

  it('says why a day was not summarised in Chinese, by the code the failure came with', async () => {
    const { api } = setup({ lang: 'zh' })
    api.handlers['memory.consolidate'] = async () => ({ consolidated: [], skipped: [], failed: [{ day: '2026-01-02', error: 'no informative line to summarise', messageCode: 'memory.nothing_to_summarise', params: {} }] })
    await screen.findByTestId('memory-dir')
    fireEvent.click(screen.getByTestId('memory-consolidate'))
    await waitFor(() => expect(screen.getByTestId('memory-consolidate-result').textContent).toContain('未能汇总：2026-01-02 (没有可供总结的有效内容)'))
  })

  it('chooses another workspace folder, explains a refused one, and goes back to the default', async () => {
    const { api } = setup()
    await screen.findByTestId('memory-dir')
    fireEvent.change(screen.getByTestId('memory-workspace-input'), { target: { value: 'relative/dir' } })
    fireEvent.click(screen.getByTestId('memory-workspace-save'))
    expect((await screen.findByTestId('error-notice')).textContent).toContain('absolute folder path')
    fireEvent.change(screen.getByTestId('memory-workspace-input'), { target: { value: '/home/me/agent' } })
    fireEvent.click(screen.getByTestId('memory-workspace-save'))
    await waitFor(() => expect(screen.getByTestId('memory-dir').textContent).toBe('/home/me/agent/memory'))
    fireEvent.click(screen.getByTestId('memory-workspace-reset'))
    await waitFor(() => expect(screen.getByTestId('memory-dir').textContent).toBe(`${ROOT}/alice/memory`))
    expect(api.callsOf('memory.setWorkspace').map((c) => c.path)).toEqual(['relative/dir', '/home/me/agent', null])
  })

  it('says when long-term memory is switched off, and re-reads when files change on disk', async () => {
    const { api, files } = setup({ enabled: false })
    expect(await screen.findByTestId('memory-disabled')).toBeTruthy()
    await screen.findByTestId('memory-prompt')
    const before = api.callsOf('memory.status').length
    files.set('lessons.md', '# Lessons\n\n- Added by the agent.\n')
    act(() => api.emit({ type: 'files.changed', library: LIB, paths: ['memory/lessons.md'] }))
    await waitFor(() => expect(api.callsOf('memory.status').length).toBeGreaterThan(before))
    await waitFor(() => expect(screen.getByTestId('memory-prompt').textContent).toContain('Added by the agent'))
    // the default memory folder sits in the data root: a change there refreshes the memory views too
    files.set('lessons.md', '# Lessons\n\n- Written under the data root.\n')
    act(() => api.emit({ type: 'files.changed', root: ROOT, paths: ['alice/memory/lessons.md'] }))
    await waitFor(() => expect(screen.getByTestId('memory-prompt').textContent).toContain('Written under the data root'))
  })
})
