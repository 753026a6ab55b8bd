// @vitest-environment jsdom
/**
 * One change the app makes reads the skill list once: the mutation's own invalidation and the re-read for the
 * recovery notice (api/problems-refresh) are one read, not two — counted through the fake API, with the app's query
 * client. A read under way when the change lands is still read again (it may predate the change).
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import type { QueryClient } from '@tanstack/react-query'
import { describe, expect, it, vi } from 'vitest'
import { createQueryClient } from '../../src/renderer/App'
import { createFakeApi, FakeLibrary, LIB, libraryHandlers, makeMeta } from './fake-api'
import type { FakeApi } from './fake-api'
import { renderApp } from './render-app'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

function setup(): { api: FakeApi; lib: FakeLibrary; client: QueryClient } {
  const lib = new FakeLibrary()
  for (let i = 0; i < 3; i++) lib.add(makeMeta(i, { title: `Skill number ${i}` }))
  lib.add(makeMeta(9, { title: 'Old retired skill' }), 'old', true)
  const api = createFakeApi(libraryHandlers(lib))
  const client = createQueryClient()
  return { api, lib, client }
}

const reads = (api: FakeApi): number => api.callsOf('skills.list').length

const idle = (client: QueryClient): boolean => client.isFetching() === 0 && client.isMutating() === 0

/**
 * Nothing is fetching or mutating, and still not once React has run what that rendered (its effects may start a
 * read): a condition waited on, not a length of time. A read after a change starts as the mutation settles (the
 * mutation cache's hooks and listeners run then, synchronously), so once nothing mutates a second read shows here.
 */
async function settled(client: QueryClient): Promise<void> {
  for (;;) {
    await waitFor(() => expect(idle(client)).toBe(true))
    await act(async () => undefined)
    if (idle(client)) return
  }
}

async function openLegacy(): Promise<void> {
  fireEvent.change(screen.getByTestId('skill-legacy-filter'), { target: { value: 'legacy' } })
  fireEvent.click((await screen.findByText('Old retired skill')).closest('[data-testid="skill-row"]') as HTMLElement)
}

/** The Skills screen shown and settled, the retired skill restored: the reads of the list the restore caused. */
async function readsForRestore(api: FakeApi, client: QueryClient, outcome: () => Promise<unknown>): Promise<number> {
  renderApp(api, { screen: 'skills' }, client)
  await screen.findAllByTestId('skill-row')
  await settled(client)
  await openLegacy()
  const before = reads(api)
  fireEvent.click(await screen.findByTestId('skill-restore'))
  await outcome()
  await settled(client)
  return reads(api) - before
}

describe('reads of the skill list after a change', () => {
  it('restore on the Skills screen: one read', async () => {
    const { api, client } = setup()
    expect(await readsForRestore(api, client, () => screen.findByTestId('restored-banner'))).toBe(1)
  })

  it("undoing the restore (a delete): one read", async () => {
    const { api, client, lib } = setup()
    renderApp(api, { screen: 'skills' }, client)
    await screen.findAllByTestId('skill-row')
    await openLegacy()
    fireEvent.click(await screen.findByTestId('skill-restore'))
    const banner = await screen.findByTestId('restored-banner')
    await settled(client)
    const before = reads(api)
    fireEvent.click(within(banner).getByRole('button', { name: /undo/i }))
    await waitFor(() => expect(screen.queryByTestId('restored-banner')).toBeNull())
    await settled(client)
    expect(lib.require('1700000009').legacy).toBe(true)
    expect(reads(api) - before).toBe(1)
  })

  it('a failed change: still one read (its write may have recovered first)', async () => {
    const { api, client } = setup()
    api.handlers['skills.restore'] = async () => {
      throw new Error('disk full')
    }
    expect(await readsForRestore(api, client, () => screen.findByRole('alert'))).toBe(1)
  })

  it('a read under way when the change lands is read again: the last read starts after the change', async () => {
    const { api, client } = setup()
    renderApp(api, { screen: 'skills' }, client)
    await screen.findAllByTestId('skill-row')
    await openLegacy()
    await settled(client)
    // the list's next read is slow and starts before the restore's write lands
    const list = api.handlers['skills.list']!
    const order: string[] = []
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let first = true
    api.handlers['skills.list'] = async (input) => {
      const slow = first
      first = false
      order.push('list-start')
      if (slow) await gate
      return list(input)
    }
    const restore = api.handlers['skills.restore']!
    api.handlers['skills.restore'] = async (input) => {
      const out = await restore(input)
      order.push('restored')
      return out
    }
    act(() => void client.invalidateQueries({ queryKey: ['library', LIB, 'skills'] }))
    await waitFor(() => expect(order).toEqual(['list-start']))
    fireEvent.click(await screen.findByTestId('skill-restore'))
    await screen.findByTestId('restored-banner')
    release()
    await settled(client)
    expect(order.lastIndexOf('list-start')).toBeGreaterThan(order.indexOf('restored'))
  })
})
