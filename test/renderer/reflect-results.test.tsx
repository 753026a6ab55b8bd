// @vitest-environment jsdom
/**
 * After a reflection the skill each task wrote is a link into the skill editor (the path in its task's line, named by
 * file; a button, so Tab and Enter reach it), and a run that left proposals says so with "Review proposals on Curate".
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { ReflectSummary, TaskSummary } from '../../src/shared/api'
import { formatMessage } from '../../src/renderer/i18n/i18n'
import { MESSAGES } from '../../src/renderer/i18n/messages'
import { createFakeApi, FakeLibrary, LIB, libraryHandlers, makeMeta, ROOT } from './fake-api'
import { renderApp } from './render-app'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

const base: Omit<TaskSummary, 'taskDir' | 'path' | 'mtime'> = {
  user: 'alice', status: 'completed', completed: true, requirements: ['do it'], toolCalls: [], errors: [], interruptions: 0, agentMessages: [], files: [], reflected: false, skills: []
}
const SKILL_PATH = `${LIB}/skill_1700000007.md`

function setup(lang: 'en' | 'zh') {
  const lib = new FakeLibrary()
  lib.add(makeMeta(7))
  const handlers = libraryHandlers(lib)
  const api = createFakeApi(handlers)
  if (lang === 'zh') api.handlers['settings.get'] = async () => ({ ...(await libraryHandlers(new FakeLibrary())['settings.get']!({})), language: 'zh' })
  api.handlers['tasks.list'] = async () => ({
    root: ROOT,
    skipped: [],
    tasks: [
      { ...base, taskDir: 'output_a', path: `${ROOT}/alice/output_a`, mtime: 2 },
      { ...base, taskDir: 'output_b', path: `${ROOT}/alice/output_b`, mtime: 1 }
    ]
  })
  api.handlers['reflect.start'] = async () => ({ jobId: 'job-1', kind: 'reflect', startedAt: '2026-01-01T00:00:00Z', state: 'running' })
  renderApp(api, { screen: 'reflect' })
  return api
}

async function reflect(api: ReturnType<typeof setup>, result: ReflectSummary): Promise<void> {
  const button = await screen.findByTestId('reflect-all')
  await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false))
  fireEvent.click(button)
  await waitFor(() => expect(api.callsOf('reflect.start')).toHaveLength(1))
  const line = (fraction: number, stage: string, taskDir: string, message: string, messageCode?: string, params?: Record<string, string>) =>
    act(() => api.emit({ type: 'job.progress', progress: { jobId: 'job-1', kind: 'reflect', fraction, stage, message, taskDir, ...(messageCode ? { messageCode, params } : {}) } as never }))
  line(0.5, 'task-done', 'output_a', `Skill generated: ${SKILL_PATH}`, 'reflect.generated', { path: SKILL_PATH })
  line(1, 'task-done', 'output_b', 'enhancement of "Skill number 7" proposed for review (p-1)', 'reflect.enhancement_proposed', { title: 'Skill number 7', id: 'p-1' })
  act(() => api.emit({ type: 'job.done', jobId: 'job-1', kind: 'reflect', state: 'done', result }))
  await screen.findByTestId('reflect-summary')
}

const RESULT: ReflectSummary = {
  created: [{ taskDir: 'output_a', skill_id: '1700000007', path: SKILL_PATH, library: LIB }],
  skipped: [{ taskDir: 'output_b', reason: 'enhancement of "Skill number 7" proposed for review (p-1)', messageCode: 'reflect.enhancement_proposed', params: { title: 'Skill number 7', id: 'p-1' } }],
  failed: [],
  cancelled: false,
  proposals: ['p-1']
}

describe.each(['en', 'zh'] as const)('Reflect results (%s)', (lang) => {
  const t = (key: keyof (typeof MESSAGES)['en'], vars?: Record<string, string | number>): string => formatMessage(MESSAGES[lang][key], vars)

  it("the created skill's path in its task's line is a link into the editor, reached by Tab", async () => {
    const api = setup(lang)
    await reflect(api, RESULT)
    const link = await screen.findByTestId('reflect-task-skill')
    expect(link.tagName).toBe('BUTTON')
    expect(link.textContent).toBe('skill_1700000007.md')
    expect(link.getAttribute('aria-label')).toBe(t('reflect.openSkill', { name: 'skill_1700000007.md' }))
    // the line no longer shows the path as plain text
    const step = link.closest('[data-testid="task-step"]')!
    expect(step.textContent).not.toContain(SKILL_PATH)
    expect(step.textContent).toContain('skill_1700000007.md')
    // only the task that wrote a skill has one
    expect(screen.getAllByTestId('reflect-task-skill')).toHaveLength(1)
    link.focus()
    expect(document.activeElement).toBe(link)
    fireEvent.click(link)
    expect(await screen.findByTestId('screen-editor')).toBeTruthy()
  })

  it('a run that left proposals says so and offers "Review proposals on Curate"', async () => {
    const api = setup(lang)
    await reflect(api, RESULT)
    const next = await screen.findByTestId('reflect-next')
    expect(next.textContent).toContain(t('reflect.proposalsLeft', { n: 1 }))
    const go = within(next).getByTestId('reflect-review-proposals')
    expect(go.textContent).toBe(t('reflect.reviewOnCurate'))
    fireEvent.click(go)
    expect(await screen.findByTestId('screen-curate')).toBeTruthy()
  })

  it('a run that left no proposals offers no review', async () => {
    const api = setup(lang)
    await reflect(api, { ...RESULT, skipped: [], proposals: undefined })
    expect(screen.queryByTestId('reflect-next')).toBeNull()
    expect(screen.getAllByTestId('reflect-created-link')).toHaveLength(1)
  })
})
