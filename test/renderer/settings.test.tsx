// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../src/shared/api'
import type { DataRootInfo, PublicSettings } from '../../src/shared/api'
import { createFakeApi, FakeLibrary, libraryHandlers, PUBLIC_SETTINGS, ROOT } from './fake-api'
import { renderApp } from './render-app'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

function setup() {
  const api = createFakeApi(libraryHandlers(new FakeLibrary()))
  let settings: PublicSettings = structuredClone(PUBLIC_SETTINGS)
  let roots: DataRootInfo[] = [{ path: ROOT, exists: true, users: ['alice'], taskCount: 3, remembered: true, thisRunOnly: false }]
  api.handlers['settings.get'] = async () => settings
  api.handlers['settings.update'] = async ({ patch }) => {
    settings = { ...settings, ...patch, llm: { ...settings.llm, ...patch.llm }, thresholds: { ...settings.thresholds, ...patch.thresholds } } as PublicSettings
    return settings
  }
  api.handlers['settings.setApiKey'] = async ({ apiKey }) => {
    settings = { ...settings, llm: { ...settings.llm, hasApiKey: !!apiKey, apiKeyHint: apiKey ? `sk-…${apiKey.slice(-4)}` : '' } }
    return settings
  }
  api.handlers['roots.list'] = async () => roots
  api.handlers['roots.add'] = async ({ path }) => {
    if (!path.startsWith('/')) throw new ApiError('bad_request', 'the path must be absolute')
    roots = [...roots, { path, exists: true, users: [], taskCount: 0, remembered: true, thisRunOnly: false }]
    return roots
  }
  api.handlers['roots.remove'] = async ({ path }) => (roots = roots.filter((r) => r.path !== path))
  api.handlers['llm.test'] = async () => ({ ok: true, model: 'gpt-4o-mini', latencyMs: 42, message: 'The model answered' })
  renderApp(api, { screen: 'settings' })
  return { api, get settings() { return settings } }
}

describe('Settings screen', () => {
  it('shows defaults, saves thresholds and switches as one patch', async () => {
    const s = setup()
    const merge = (await screen.findByTestId('settings-merge')) as HTMLInputElement
    expect(merge.value).toBe('0.7')
    fireEvent.change(merge, { target: { value: '0.8' } })
    fireEvent.click(screen.getByTestId('settings-ltm'))
    fireEvent.click(screen.getByTestId('settings-save'))
    await waitFor(() => expect(s.api.callsOf('settings.update')).toHaveLength(1))
    const patch = s.api.callsOf('settings.update')[0]!.patch
    expect(patch.thresholds).toEqual({ merge: 0.8, eps: 0.5, minSamples: 2, cleanupDays: 30 })
    expect(patch.enableLongTermMemory).toBe(false)
    expect(patch.llm?.timeoutMs).toBe(60_000)
    expect(s.settings.thresholds.merge).toBe(0.8)
  })

  it('keeps the API key write-only: shows only the masked hint and where it is stored', async () => {
    const s = setup()
    expect((await screen.findByTestId('key-storage')).textContent).toContain('0600')
    expect(screen.getByTestId('key-storage').textContent).toContain('/home/u/.config/skillbench/settings.json')
    const input = screen.getByLabelText('API key', { selector: 'input' }) as HTMLInputElement
    expect(input.type).toBe('password')
    fireEvent.change(input, { target: { value: 'sk-secret-1234' } })
    fireEvent.click(screen.getByRole('button', { name: 'Store key' }))
    expect((await screen.findByTestId('key-hint')).textContent).toContain('sk-…1234')
    expect(s.api.callsOf('settings.setApiKey')).toEqual([{ apiKey: 'sk-secret-1234' }])
    expect(input.value).toBe('')
    expect(document.body.textContent).not.toContain('sk-secret-1234')
  })

  it('tests the connection and shows the answer', async () => {
    setup()
    fireEvent.click(await screen.findByTestId('llm-test'))
    expect((await screen.findByTestId('llm-test-result')).textContent).toContain('Connected to gpt-4o-mini in 42 ms.')
  })

  it('adds and removes data roots, explaining a refused path', async () => {
    const s = setup()
    const input = await screen.findByTestId('root-input')
    fireEvent.change(input, { target: { value: 'relative/dir' } })
    fireEvent.submit(input.closest('form')!)
    expect((await screen.findByRole('alert')).textContent).toContain('the path must be absolute')
    fireEvent.change(input, { target: { value: '/other/root' } })
    fireEvent.submit(input.closest('form')!)
    await waitFor(() => expect(screen.getByTestId('settings-roots').textContent).toContain('/other/root'))
    fireEvent.click(screen.getAllByRole('button', { name: 'Forget' })[0]!)
    await waitFor(() => expect(s.api.callsOf('roots.remove')).toEqual([{ path: ROOT }]))
    await waitFor(() => expect(screen.getByTestId('settings-roots').textContent).not.toContain(`${ROOT} `))
  })

  it('warns about token cost when auto-enhance is switched on', async () => {
    setup()
    fireEvent.click(await screen.findByTestId('settings-autoenhance'))
    expect(screen.getByRole('note').textContent).toContain('costs tokens')
  })
})

describe('Settings: skill folders', () => {
  it('opens a SKILL.md folder as a library', async () => {
    const s = setup()
    s.api.handlers['libraries.open'] = async ({ path }) => [
      { path: '/data/alice/general/experience', label: 'alice', origin: 'root', exists: true },
      { path, label: 'my-skills', origin: 'opened', exists: true }
    ]
    const input = await screen.findByTestId('folder-input')
    fireEvent.change(input, { target: { value: '/home/u/my-skills' } })
    fireEvent.submit(input.closest('form')!)
    await waitFor(() => expect(screen.getByTestId('settings-libraries').textContent).toContain('my-skills'))
    expect(s.api.callsOf('libraries.open')).toEqual([{ path: '/home/u/my-skills' }])
  })
})
