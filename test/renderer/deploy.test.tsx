// @vitest-environment jsdom
/** The Deploy view, "Install from git", the provenance panel, and update / learned proposals in words. */
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { DeployResult } from '../../src/shared/api-deploy'
import type { Proposal } from '../../src/shared/types'
import { formatMessage } from '../../src/renderer/i18n/i18n'
import { MESSAGES } from '../../src/renderer/i18n/messages'
import { proposalReason } from '../../src/renderer/features/curate/proposal-text'
import { confirmCounts, customSpec, DEPLOY_PAGE, hasWork, shownName, shownRows, stateCounts } from '../../src/renderer/features/deploy/deploy-view'
import { provenanceOf } from '../../src/renderer/features/sources/ProvenancePanel'
import { createFakeApi, FakeLibrary, LIB, libraryHandlers, makeMeta } from './fake-api'
import { renderApp } from './render-app'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

const t = (key: keyof (typeof MESSAGES)['en'], vars?: Record<string, string | number>): string => formatMessage(MESSAGES.en[key], vars)

function preview(overrides: Partial<DeployResult> = {}): DeployResult {
  return {
    target: { spec: 'claude', agent: 'claude', label: 'Claude Code (personal)', dir: '/home/u/.claude/skills', exists: true, budget: 8000 },
    dryRun: true,
    skills: [
      { name: 'csv-tool', action: 'unchanged', skill_id: '1', title: 'csv-tool', files: [] },
      { name: 'pdf', action: 'update', skill_id: '2', title: 'pdf', files: [{ path: 'references/api.md', change: 'update' }] },
      { name: 'notes', action: 'drifted', skill_id: '3', title: 'notes', files: [], why: 'drifted', reason: 'changed here since it was deployed: left in place', proposal: 'learned-3-abc' },
      { name: 'new-one', action: 'create', skill_id: '4', title: 'New one', files: [{ path: 'SKILL.md', change: 'write' }] },
      { name: 'mine', action: 'unmanaged', files: [], why: 'not-ours' }
    ],
    counts: { written: 1, updated: 1, removed: 0, unchanged: 1, drifted: 1, left: 1 },
    budget: { chars: 6900, ours: 6800, others: 100, limit: 8000, percent: 86, level: 'warn', source: 'docs' },
    journal_id: null,
    proposals: [{ id: 'learned-3-abc', name: 'notes', queued: false }],
    warnings: [],
    ...overrides
  }
}

function setup() {
  const lib = new FakeLibrary()
  lib.add(makeMeta(1))
  const api = createFakeApi(libraryHandlers(lib))
  api.handlers['deploy.targets'] = async () => [
    { spec: 'claude', agent: 'claude', label: 'Claude Code (personal)', dir: '/home/u/.claude/skills', exists: true, budget: 8000 },
    { spec: 'codex', agent: 'codex', label: 'Codex', dir: '/home/u/.codex/skills', exists: false, budget: 8000 }
  ]
  api.handlers['deploy.preview'] = async ({ to }) => preview({ target: { ...preview().target, spec: to } })
  api.handlers['deploy.run'] = async () => ({ ...preview(), dryRun: false, journal_id: 'j-1' })
  api.handlers['curate.undo'] = async ({ entryId }) => ({ id: entryId, proposal_id: 'deploy-claude', kind: 'deploy', at: '2026-01-01T00:00:00Z', by: 'user', changes: [], undone_at: '2026-01-01T00:01:00Z' })
  return { api, lib }
}

describe('Deploy view', () => {
  it('shows each skill\'s status for the chosen agent, the budget, and deploys then undoes', async () => {
    const { api } = setup()
    renderApp(api, { screen: 'deploy' })
    await screen.findByTestId('deploy-table')
    const rows = screen.getAllByTestId('deploy-row')
    expect(rows.map((r) => r.getAttribute('data-action'))).toEqual(['unchanged', 'update', 'drifted', 'create', 'unmanaged'])
    expect(within(rows[2]!).getByText(t('deploy.state.drifted'))).toBeTruthy()
    expect(within(rows[2]!).getByText(t('deploy.why.drifted'))).toBeTruthy()
    expect(within(rows[1]!).getByText('~references/api.md')).toBeTruthy()
    expect(screen.getByTestId('deploy-summary').textContent).toBe(t('deploy.summary', { inSync: 1, drifted: 1, notDeployed: 1, outdated: 1, retired: 0 }))
    expect(screen.getByTestId('deploy-budget').getAttribute('data-level')).toBe('warn')
    expect(screen.getByTestId('deploy-budget').textContent).toContain(t('deploy.budgetWarn'))
    expect(screen.getByTestId('deploy-offered').textContent).toBe(t('deploy.willOffer', { n: 1 }))
    expect(api.callsOf('deploy.preview')).toEqual([{ library: LIB, to: 'claude' }])
    fireEvent.click(screen.getByTestId('deploy-run'))
    fireEvent.click(await screen.findByTestId('deploy-confirm-run'))
    expect((await screen.findByTestId('deploy-done')).textContent).toContain(`${t('deploy.done', { written: 1, updated: 1, removed: 0 })} ${t('deploy.offered', { n: 1 })}`)
    expect(api.callsOf('deploy.run')).toEqual([{ library: LIB, to: 'claude' }])
    fireEvent.click(screen.getByTestId('deploy-undo'))
    await screen.findByText(t('deploy.undone'))
    expect(api.callsOf('curate.undo')).toEqual([{ library: LIB, entryId: 'j-1' }])
  })

  it('Deploy asks first: per folder what is written new, updated and left alone, where, and where Undo lives; Esc writes nothing and gives the focus back', async () => {
    const { api } = setup()
    renderApp(api, { screen: 'deploy' })
    await screen.findByTestId('deploy-table')
    const deployButton = screen.getByTestId('deploy-run')
    expect(deployButton.getAttribute('aria-haspopup')).toBe('dialog')
    deployButton.focus()
    fireEvent.click(deployButton)
    const dialog = await screen.findByRole('dialog', { name: t('deployConfirm.title', { target: t('deploy.label.claude') }) })
    expect(dialog.getAttribute('aria-modal')).toBe('true')
    // what screen readers read after the title: the counts, the folder, the undo
    const about = document.getElementById(dialog.getAttribute('aria-describedby')!)!
    expect(about.textContent).toContain('/home/u/.claude/skills')
    const folders = within(dialog).getAllByTestId('deploy-confirm-folder')
    expect(folders).toHaveLength(1)
    expect(within(folders[0]!).getByTestId('deploy-confirm-dir').textContent).toBe('/home/u/.claude/skills')
    // 1 create, 1 update; unchanged + drifted + not ours = 3 left alone; the drifted copy's change offered back
    expect(within(folders[0]!).getByTestId('deploy-confirm-counts').textContent).toBe(`${t('deployConfirm.counts', { written: 1, updated: 1, left: 3 })} ${t('deployConfirm.offered', { n: 1 })}`)
    expect(within(dialog).getByTestId('deploy-confirm-undo').textContent).toBe(t('deployConfirm.undoWhere'))
    expect(within(dialog).queryByTestId('deploy-confirm-sample')).toBeNull()
    expect(within(dialog).getByTestId('deploy-confirm-run').textContent).toBe(t('deployConfirm.run'))
    // focus moved in, on Cancel (as the app's other confirmations)
    expect(document.activeElement).toBe(within(dialog).getByTestId('deploy-confirm-cancel'))
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' })
    await waitFor(() => expect(screen.queryByTestId('deploy-confirm')).toBeNull())
    expect(document.activeElement).toBe(deployButton)
    expect(api.callsOf('deploy.run')).toEqual([])
    // Cancel does the same
    fireEvent.click(deployButton)
    fireEvent.click(await screen.findByTestId('deploy-confirm-cancel'))
    await waitFor(() => expect(screen.queryByTestId('deploy-confirm')).toBeNull())
    expect(api.callsOf('deploy.run')).toEqual([])
    expect(screen.queryByTestId('deploy-done')).toBeNull()
    // confirmed: written, the result says where Undo lives, the keyboard on its Undo, History one click away
    fireEvent.click(deployButton)
    fireEvent.click(await screen.findByTestId('deploy-confirm-run'))
    const done = await screen.findByTestId('deploy-done')
    expect(api.callsOf('deploy.run')).toEqual([{ library: LIB, to: 'claude' }])
    expect(within(done).getByTestId('deploy-undo-where').textContent).toBe(` ${t('deploy.undoWhere')}`)
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('deploy-undo')))
    api.handlers['curate.journal'] = async () => [{ id: 'j-1', proposal_id: 'deploy-claude', kind: 'deploy', at: '2026-01-01T00:00:00Z', by: 'user', changes: [] }]
    fireEvent.click(within(done).getByTestId('deploy-history'))
    const historyTab = await screen.findByTestId('curate-tab-history')
    expect(historyTab.getAttribute('aria-selected')).toBe('true')
    await screen.findByTestId('journal-entry')
  })

  it('warns in the confirmation when the library is the bundled sample, and only then', async () => {
    const { api } = setup()
    api.handlers['libraries.list'] = async () => [{ path: LIB, label: 'alice · sample-data', root: '/cfg/sample-data', user: 'alice', origin: 'root', exists: true, sample: true }]
    const view = renderApp(api, { screen: 'deploy' })
    await screen.findByTestId('deploy-table')
    fireEvent.click(screen.getByTestId('deploy-run'))
    const dialog = await screen.findByTestId('deploy-confirm')
    const warning = await within(dialog).findByTestId('deploy-confirm-sample')
    expect(warning.textContent).toBe(`${t('deployConfirm.sampleTitle')} ${t('deployConfirm.sampleBody')}`)
    // read with the dialog (its description), not only seen
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)!.contains(warning)).toBe(true)
    expect(within(dialog).getByTestId('deploy-confirm-run').textContent).toBe(t('deployConfirm.runSample'))
    fireEvent.keyDown(dialog, { key: 'Escape' })
    await waitFor(() => expect(screen.queryByTestId('deploy-confirm')).toBeNull())
    expect(api.callsOf('deploy.run')).toEqual([])
    view.unmount()
    // another library: no warning
    const other = setup()
    other.api.handlers['libraries.list'] = async () => [{ path: LIB, label: 'alice · work', root: '/work', user: 'alice', origin: 'root', exists: true }]
    renderApp(other.api, { screen: 'deploy' })
    await screen.findByTestId('deploy-table')
    fireEvent.click(screen.getByTestId('deploy-run'))
    const plain = await screen.findByTestId('deploy-confirm')
    expect(within(plain).queryByTestId('deploy-confirm-sample')).toBeNull()
    expect(within(plain).getByTestId('deploy-confirm-run').textContent).toBe(t('deployConfirm.run'))
  })

  it('takes another agent or a folder typed as an absolute path, previewing only then', async () => {
    const { api } = setup()
    renderApp(api, { screen: 'deploy' })
    await screen.findByTestId('deploy-table')
    fireEvent.click(screen.getByTestId('deploy-target-codex'))
    await waitFor(() => expect(api.callsOf('deploy.preview').map((c) => c.to)).toEqual(['claude', 'codex']))
    fireEvent.click(screen.getByTestId('deploy-target-agents'))
    fireEvent.change(screen.getByTestId('deploy-folder'), { target: { value: 'relative/path' } })
    expect((screen.getByTestId('deploy-preview') as HTMLButtonElement).disabled).toBe(true)
    fireEvent.change(screen.getByTestId('deploy-folder'), { target: { value: '/work/repo' } })
    await waitFor(() => expect(api.callsOf('deploy.preview').map((c) => c.to)).toContain('agents:/work/repo'))
  })

  it('the table shows a page of rows at first, more as asked, never more than there are', () => {
    expect(DEPLOY_PAGE).toBe(50)
    expect(shownRows(12, DEPLOY_PAGE)).toBe(12)
    expect(shownRows(130, DEPLOY_PAGE)).toBe(50)
    expect(shownRows(130, 100)).toBe(100)
    expect(shownRows(130, 150)).toBe(130)
    expect(shownRows(130, 0)).toBe(50)
  })

  it('a long deployed name is cut after a whole word with an ellipsis; the full name is its tooltip and what screen readers hear', async () => {
    const long = 'ren-wu-cheng-gong-wan-cheng-yong-hu-zui-zhong-huo-de-le-yi-ge-gong-neng'
    expect(shownName(long)).toBe('ren-wu-cheng-gong-wan-cheng-yong-hu-zui-…')
    expect(shownName('csv-tool')).toBe('csv-tool')
    expect(shownName('a'.repeat(50))).toBe('a'.repeat(40) + '…')
    const { api } = setup()
    api.handlers['deploy.preview'] = async () => preview({ skills: [{ name: long, action: 'create', skill_id: '9', title: '任务成功完成', files: [{ path: 'SKILL.md', change: 'write' }] }] })
    renderApp(api, { screen: 'deploy' })
    const row = (await screen.findAllByTestId('deploy-row', {}, { timeout: 5000 }))[0]!
    const name = row.querySelector('[data-full-name]')!
    expect(name.getAttribute('title')).toBe(long)
    expect(name.querySelector('[aria-hidden="true"]')!.textContent).toBe('ren-wu-cheng-gong-wan-cheng-yong-hu-zui-…')
    expect(within(row).getByText(long).className).toBe('sr-only')
  })

  it('far over the budget, lists the first 10 skills to disable and the rest on request; the button still takes them all', async () => {
    const suggest = Array.from({ length: 40 }, (_, i) => ({ name: `skill-${i}`, title: `Skill ${i}`, uses: 0, chars: 300 - i, last_used_at: null }))
    const { api } = setup()
    api.handlers['deploy.preview'] = async () => preview({ budget: { chars: 12000, ours: 12000, others: 0, limit: 8000, percent: 150, level: 'over', source: 'docs', suggest } })
    renderApp(api, { screen: 'deploy' })
    const box = await screen.findByTestId('deploy-suggest')
    expect(within(box).getAllByRole('listitem')).toHaveLength(10)
    expect(screen.getByTestId('deploy-suggest-disable').textContent).toBe(t('deploySel.disableThese', { n: 40 }))
    // on a line of its own, not run into the button beside it
    expect(screen.getByTestId('deploy-suggest-all').parentElement!.tagName).toBe('P')
    fireEvent.click(screen.getByTestId('deploy-suggest-all'))
    expect(within(box).getAllByRole('listitem')).toHaveLength(40)
    expect(screen.queryByTestId('deploy-suggest-all')).toBeNull()
  })

  it('pure helpers: specs, counts, whether a run has anything to do', () => {
    expect(customSpec('claude-project', ' /p ')).toBe('claude-project:/p')
    expect(customSpec('folder', '~/skills')).toBe('~/skills')
    expect(customSpec('agents', 'p')).toBeNull()
    expect(stateCounts(preview())).toEqual({ inSync: 1, drifted: 1, notDeployed: 1, outdated: 1, retired: 0, left: 1 })
    expect(hasWork(preview({ proposals: [], skills: [{ name: 'a', action: 'unchanged', files: [] }] }))).toBe(false)
    expect(hasWork(preview())).toBe(true)
    expect(confirmCounts(preview())).toEqual({ written: 1, updated: 1, removed: 0, leftAlone: 3, offered: 1 })
    expect(confirmCounts(preview({ proposals: [{ id: 'x', name: 'notes', queued: true }], counts: { written: 0, updated: 0, removed: 2, unchanged: 4, drifted: 0, left: 1 } }))).toEqual({ written: 0, updated: 0, removed: 2, leftAlone: 5, offered: 0 })
  })
})

describe('Install from git and provenance', () => {
  it('installs from the Skills screen and says what was installed and what was not, and why', async () => {
    const { api } = setup()
    api.handlers['sources.install'] = async () => ({
      installed: [{ name: 'pdf', path: 'pdf/SKILL.md', source: { repo: 'https://github.com/o/r', ref: 'main', commit: 'a'.repeat(40), path: 'skills/pdf' } }],
      skipped: [{ name: 'csv', reason: 'a skill named csv already exists in the library (csv/SKILL.md): not overwritten' }]
    })
    renderApp(api, { screen: 'skills' })
    fireEvent.click(await screen.findByTestId('install-open'))
    const dialog = screen.getByTestId('install-dialog')
    expect((within(dialog).getByTestId('install-run') as HTMLButtonElement).disabled).toBe(true)
    fireEvent.change(within(dialog).getByTestId('install-source'), { target: { value: 'https://github.com/o/r' } })
    fireEvent.change(within(dialog).getByTestId('install-path'), { target: { value: 'skills' } })
    fireEvent.change(within(dialog).getByTestId('install-skills'), { target: { value: 'pdf, csv' } })
    fireEvent.click(within(dialog).getByTestId('install-run'))
    await within(dialog).findByTestId('install-result')
    expect(api.callsOf('sources.install')).toEqual([{ library: LIB, source: 'https://github.com/o/r', path: 'skills', skills: ['pdf', 'csv'] }])
    expect(within(dialog).getByTestId('install-installed').textContent).toContain('pdf')
    expect(within(dialog).getByTestId('install-skipped').textContent).toContain('not overwritten')
  })

  it('shows an installed skill\'s source in the editor and checks it for updates', async () => {
    const { api, lib } = setup()
    const meta = makeMeta(2, { title: 'pdf' })
    const s = lib.add(meta)
    s.text = `---\nname: pdf\ndescription: PDFs.\nmetadata:\n  skillbench:\n    skill_id: '${meta.skill_id}'\n    source:\n      repo: https://github.com/o/r\n      ref: main\n      commit: ${'b'.repeat(40)}\n      path: skills/pdf\n---\n\nBody\n`
    api.handlers['sources.update'] = async () => ({ checked: 1, proposals: [{ id: 'update-x', name: 'pdf', path: s.path, from: 'b'.repeat(40), to: 'c'.repeat(40), local_edit: false, conflicts: 0, status: 'added' }], unchanged: [], failed: [] })
    api.handlers['curate.plan'] = async () => ({ library: LIB, computedAt: null, skills_loaded: 0, proposals: [], errors: [] })
    renderApp(api, { screen: 'editor', library: LIB, skillId: meta.skill_id })
    const panel = await screen.findByTestId('provenance')
    expect(within(panel).getByTestId('provenance-repo').textContent).toBe('https://github.com/o/r')
    expect(within(panel).getByText('bbbbbbbbbbbb')).toBeTruthy()
    fireEvent.click(within(panel).getByTestId('provenance-check'))
    expect((await within(panel).findByTestId('provenance-result')).textContent).toContain(t('source.queued'))
  })

  it('reads provenance only from metadata.skillbench.source', () => {
    expect(provenanceOf('---\nname: x\ndescription: y\n---\n\nbody')).toBeNull()
    expect(provenanceOf('---\nname: x\nmetadata:\n  skillbench:\n    source: {repo: r, ref: main, commit: abc1234, path: ""}\n---\n')).toEqual({ repo: 'r', ref: 'main', commit: 'abc1234', path: '' })
  })

  it('words update and learned proposals, saying where both sides changed', () => {
    const base: Proposal = { id: 'u', kind: 'update', members: [{ skill_id: '1', title: 'pdf', path: 'pdf/SKILL.md' }], score: 1, reason: '', evidence: { repo: 'https://g/r', from: 'a'.repeat(40), to: 'b'.repeat(40), local_edit: true, conflicts: 2 }, changes: [] }
    expect(proposalReason(t, base, 'en').text).toBe(`${t('reason.updateLocal', { repo: 'https://g/r', title: 'pdf', from: 'aaaaaaaaaaaa', to: 'bbbbbbbbbbbb' })} ${t('reason.bothChanged', { n: 2 })}`)
    expect(proposalReason(t, { ...base, kind: 'learned', evidence: { spec: 'codex', conflicts: 0 } }, 'en').text).toBe(t('reason.learned', { title: 'pdf', target: 'codex' }))
  })
})
