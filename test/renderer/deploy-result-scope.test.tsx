// @vitest-environment jsdom
/** The Deploy screen's result (and its undo) belongs to the library it deployed: another library never shows it. */
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { DeployResult } from '../../src/shared/api-deploy'
import { formatMessage } from '../../src/renderer/i18n/i18n'
import { MESSAGES } from '../../src/renderer/i18n/messages'
import { createFakeApi, FakeLibrary, LIB, libraryHandlers, makeMeta, ROOT } from './fake-api'
import { renderApp } from './render-app'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

const t = (key: keyof (typeof MESSAGES)['en'], vars?: Record<string, string | number>): string => formatMessage(MESSAGES.en[key], vars)
const OTHER = '/home/u/skills-b'

function preview(library: string): DeployResult {
  return {
    target: { spec: 'claude', agent: 'claude', label: 'Claude Code (personal)', dir: '/home/u/.claude/skills', exists: true, budget: 8000 },
    dryRun: true,
    skills: [{ name: library === LIB ? 'csv-tool' : 'other-tool', action: 'create', skill_id: '1', title: 'csv-tool', files: [{ path: 'SKILL.md', change: 'write' }] }],
    counts: { written: 1, updated: 0, removed: 0, unchanged: 0, drifted: 0, left: 0 },
    budget: { chars: 100, ours: 100, others: 0, limit: 8000, percent: 1, level: 'ok', source: 'docs' },
    journal_id: null,
    proposals: [],
    warnings: []
  }
}

function setup(failUndo = false) {
  const lib = new FakeLibrary()
  lib.add(makeMeta(1))
  const api = createFakeApi(libraryHandlers(lib))
  api.handlers['libraries.list'] = async () => [
    { path: LIB, label: 'alice', root: ROOT, user: 'alice', origin: 'root', exists: true },
    { path: OTHER, label: 'skills-b', origin: 'opened', exists: true }
  ]
  api.handlers['deploy.targets'] = async () => [{ spec: 'claude', agent: 'claude', label: 'Claude Code (personal)', dir: '/home/u/.claude/skills', exists: true, budget: 8000 }]
  api.handlers['deploy.preview'] = async ({ library }) => preview(library)
  api.handlers['deploy.run'] = async ({ library }) => ({ ...preview(library), dryRun: false, journal_id: 'j-1' })
  api.handlers['curate.undo'] = async ({ entryId }) => {
    if (failUndo) throw new Error('undo went wrong')
    return { id: entryId, proposal_id: 'deploy-claude', kind: 'deploy', at: '2026-01-01T00:00:00Z', by: 'user', changes: [], undone_at: '2026-01-01T00:01:00Z' }
  }
  return api
}

async function deployAndUndo(): Promise<void> {
  await screen.findByTestId('deploy-table')
  fireEvent.click(screen.getByTestId('deploy-run'))
  fireEvent.click(await screen.findByTestId('deploy-confirm-run'))
  await screen.findByTestId('deploy-done')
  fireEvent.click(screen.getByTestId('deploy-undo'))
}

async function pick(library: string): Promise<void> {
  const picker = (await screen.findByTestId('library-picker')) as HTMLSelectElement
  fireEvent.change(picker, { target: { value: library } })
  await waitFor(() => expect(picker.value).toBe(library))
}

describe('Deploy result, scoped to its library', () => {
  it('"Undone: …" under one library is gone under another, whose own deploy says its own result', async () => {
    const api = setup()
    renderApp(api, { screen: 'deploy' })
    await deployAndUndo()
    await screen.findByText(t('deploy.undone'))
    await pick(OTHER)
    await waitFor(() => expect(screen.getByTestId('deploy-table').textContent).toContain('other-tool'))
    expect(screen.queryByTestId('deploy-done')).toBeNull()
    expect(screen.queryByText(t('deploy.undone'))).toBeNull()
    // a deploy there says its own result
    fireEvent.click(screen.getByTestId('deploy-run'))
    fireEvent.click(await screen.findByTestId('deploy-confirm-run'))
    expect((await screen.findByTestId('deploy-done')).textContent).toContain(t('deploy.done', { written: 1, updated: 0, removed: 0 }))
    expect(api.callsOf('deploy.run').map((c) => c.library)).toEqual([LIB, OTHER])
  })

  it('a failed undo is said under its library only', async () => {
    renderApp(setup(true), { screen: 'deploy' })
    await deployAndUndo()
    await screen.findByText(t('failed.undoDeploy'), { exact: false })
    await pick(OTHER)
    await waitFor(() => expect(screen.getByTestId('deploy-table').textContent).toContain('other-tool'))
    expect(screen.queryByTestId('error-notice')).toBeNull()
    expect(screen.queryByTestId('deploy-done')).toBeNull()
  })
})
