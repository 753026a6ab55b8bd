// @vitest-environment jsdom
/**
 * Settings, where a data root is chosen, says what the folder looks like when it is no data root: a skill library
 * (with the Workspaces screen's fix, "open it as a skill library", which also takes it off the data roots), a folder
 * that does not exist, a file, the bundled sample data: each said under the field, which is marked invalid and
 * described by the message, in English and Chinese.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../src/shared/api'
import type { DataRootInfo, LibraryInfo } from '../../src/shared/api'
import { coded } from '../../src/shared/error-codes'
import { formatMessage } from '../../src/renderer/i18n/i18n'
import { MESSAGES } from '../../src/renderer/i18n/messages'
import { ERRORS_ZH } from '../../src/shared/error-codes-zh'
import { createFakeApi, FakeLibrary, libraryHandlers, ROOT } from './fake-api'
import { renderApp } from './render-app'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

const SKILLS = '/home/u/downloaded-skills'
const COPY = '/home/u/.config/skillbench/sample-data'

function setup(lang: 'en' | 'zh') {
  const api = createFakeApi(libraryHandlers(new FakeLibrary()))
  if (lang === 'zh') api.handlers['settings.get'] = async () => ({ ...(await libraryHandlers(new FakeLibrary())['settings.get']!({})), language: 'zh' })
  let roots: DataRootInfo[] = [{ path: ROOT, exists: true, users: ['alice'], taskCount: 3, remembered: true, thisRunOnly: false }]
  let libs: LibraryInfo[] = [{ path: `${ROOT}/alice/general/experience`, label: 'alice', root: ROOT, user: 'alice', origin: 'root', exists: true }]
  api.handlers['roots.list'] = async () => roots
  api.handlers['libraries.list'] = async () => libs
  api.handlers['roots.add'] = async ({ path }) => {
    if (path === '/nope') throw new ApiError('bad_request', coded('path.folder_not_found', { path }))
    if (path === '/etc/hosts') throw new ApiError('bad_request', coded('path.not_folder', { path }))
    if (path.startsWith('/opt/skillbench/resources/sample-data')) throw new ApiError('bad_request', coded('library.bundled_sample_read_only', { path, copy: COPY, sample: '/opt/skillbench/resources/sample-data' }))
    // as the workbench diagnoses it (scan/root-problem.ts): SKILL.md folders, no tasks
    roots = [...roots, { path, exists: true, users: [], taskCount: 0, remembered: true, thisRunOnly: false, problem: path === SKILLS ? 'library' : 'empty' }]
    return roots
  }
  api.handlers['roots.remove'] = async ({ path }) => (roots = roots.filter((r) => r.path !== path))
  api.handlers['libraries.open'] = async ({ path }) => (libs = [...libs, { path, label: 'downloaded-skills', origin: 'opened', exists: true }])
  renderApp(api, { screen: 'settings' })
  return api
}

async function add(path: string): Promise<HTMLInputElement> {
  const input = (await screen.findByTestId('root-input')) as HTMLInputElement
  fireEvent.change(input, { target: { value: path } })
  fireEvent.submit(input.closest('form')!)
  return input
}

describe.each(['en', 'zh'] as const)('Settings: a folder chosen as a data root (%s)', (lang) => {
  const t = (key: keyof (typeof MESSAGES)['en'], vars?: Record<string, string | number>): string => formatMessage(MESSAGES[lang][key], vars)
  const said = (code: keyof typeof ERRORS_ZH, vars: Record<string, string>): string => (lang === 'zh' ? formatMessage(ERRORS_ZH[code], vars) : coded(code, vars).text)

  it('a skill library: said where it was chosen, with "open it as a skill library instead", which opens it and drops the root', async () => {
    const api = setup(lang)
    await add(SKILLS)
    const notice = await screen.findByTestId('root-problem')
    expect(notice.textContent).toContain(t('settings.rootIsLibrary', { path: SKILLS }))
    expect(notice.textContent).toContain(t('rootProblem.library'))
    // Settings offers no "Open Settings"
    expect(within(notice).queryByText(t('rootProblem.settings'))).toBeNull()
    const fix = within(notice).getByTestId('root-problem-fix')
    expect(fix.textContent).toBe(t('settings.openAsLibraryInstead'))
    fix.focus()
    expect(document.activeElement).toBe(fix)
    fireEvent.click(fix)
    await waitFor(() => expect(api.callsOf('libraries.open')).toEqual([{ path: SKILLS }]))
    await waitFor(() => expect(api.callsOf('roots.remove')).toEqual([{ path: SKILLS }]))
    expect(await screen.findByTestId('screen-skills')).toBeTruthy()
    expect((screen.getByTestId('library-picker') as HTMLSelectElement).value).toBe(SKILLS)
  })

  it.each([
    ['/nope', 'path.folder_not_found'],
    ['/etc/hosts', 'path.not_folder']
  ] as const)('%s: said under the field, which is invalid and described by it', async (path, code) => {
    setup(lang)
    const input = await add(path)
    const problem = await screen.findByTestId('root-input-problem')
    expect(problem.textContent).toContain(said(code, { path }))
    expect(problem.textContent).toContain(t('failed.addRoot'))
    expect(input.getAttribute('aria-invalid')).toBe('true')
    expect(input.getAttribute('aria-describedby')).toBe(problem.id)
    expect(screen.queryByTestId('root-problem')).toBeNull()
    // typing again clears it
    fireEvent.change(input, { target: { value: '/data2' } })
    expect(screen.queryByTestId('root-input-problem')).toBeNull()
    expect(input.getAttribute('aria-invalid')).toBe('false')
  })

  it("a problem root's row says its problem instead of its counts; the bundled sample's, read-only, with the coded words and its copy", async () => {
    const api = createFakeApi(libraryHandlers(new FakeLibrary()))
    if (lang === 'zh') api.handlers['settings.get'] = async () => ({ ...(await libraryHandlers(new FakeLibrary())['settings.get']!({})), language: 'zh' })
    const SAMPLE = '/opt/skillbench/resources/sample-data'
    const row = (path: string, extra: Partial<DataRootInfo>): DataRootInfo => ({ path, exists: true, users: [], taskCount: 0, remembered: true, thisRunOnly: false, ...extra })
    const roots: DataRootInfo[] = [
      row(ROOT, { users: ['alice'], taskCount: 3 }),
      row('/data/moved', { exists: false, problem: 'missing' }),
      row(SKILLS, { problem: 'library' }),
      // remembered by an older version (the workbench lists it read-only; its tasks are still counted)
      row(SAMPLE, { users: ['alice', 'bob'], taskCount: 5, problem: 'bundled-sample', bundledSample: { copy: COPY, sample: SAMPLE } }),
      row('/data/starting', { users: ['carol'], problem: 'no-tasks' })
    ]
    api.handlers['roots.list'] = async () => roots
    renderApp(api, { screen: 'settings' })
    await waitFor(() => expect(screen.getAllByTestId('settings-root')).toHaveLength(5))
    const rows = screen.getAllByTestId('settings-root')
    const problemOf = (i: number): string | null | undefined => within(rows[i]!).queryByTestId('root-row-problem')?.textContent
    expect(problemOf(0)).toBeUndefined()
    expect(rows[0]!.textContent).toContain(t('settings.rootInfo', { users: 1, tasks: 3 }))
    expect(problemOf(1)).toBe(t('settings.rowProblem.missing'))
    expect(problemOf(2)).toBe(t('settings.rowProblem.library'))
    expect(problemOf(3)).toBe(t('settings.rowProblem.bundledSample'))
    // a root with users and no task yet keeps its counts
    expect(problemOf(4)).toBeUndefined()
    expect(rows[4]!.textContent).toContain(t('settings.rootInfo', { users: 1, tasks: 0 }))
    for (const i of [1, 2, 3]) {
      expect(rows[i]!.textContent, String(i)).not.toContain(t('settings.rootInfo', { users: 0, tasks: 0 }))
      expect(rows[i]!.textContent, String(i)).not.toContain(t('settings.rootInfo', { users: 2, tasks: 5 }))
      // still remembered, and forgettable
      expect(within(rows[i]!).getByTestId('root-remembered').textContent).toBe(t('settings.remembered'))
    }
    const notice = (await screen.findAllByTestId('root-problem')).find((n) => n.getAttribute('data-problem') === 'bundled-sample')!
    expect(notice.textContent).toContain(t('rootProblem.bundledTitle', { path: SAMPLE }))
    expect(notice.textContent).toContain(said('library.bundled_sample_read_only', { path: SAMPLE, copy: COPY, sample: SAMPLE }))
    fireEvent.click(within(rows[3]!).getByTestId('root-forget'))
    await waitFor(() => expect(api.callsOf('roots.remove')).toEqual([{ path: SAMPLE }]))
  })

  it('the bundled sample data: refused, naming its writable copy', async () => {
    setup(lang)
    await add('/opt/skillbench/resources/sample-data')
    const problem = await screen.findByTestId('root-input-problem')
    expect(problem.textContent).toContain(COPY)
    expect(problem.textContent).toContain(said('library.bundled_sample_read_only', { path: '/opt/skillbench/resources/sample-data', copy: COPY, sample: '/opt/skillbench/resources/sample-data' }))
  })
})
