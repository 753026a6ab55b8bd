import { describe, expect, it, vi } from 'vitest'
import type { SkillbenchApi } from '../../src/shared/api'

const exposed: [string, unknown][] = []
const invoked: [string, unknown[]][] = []
const listeners = new Map<string, ((event: unknown, payload: unknown) => void)[]>()

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.push([key, api]) },
  ipcRenderer: {
    invoke: async (channel: string, ...args: unknown[]) => {
      invoked.push([channel, args])
      return channel === 'api:app.info' ? { ok: true, value: { version: 'x' } } : { ok: false, error: { code: 'conflict', message: 'changed on disk' } }
    },
    on: (channel: string, fn: (event: unknown, payload: unknown) => void) => listeners.set(channel, [...(listeners.get(channel) ?? []), fn]),
    removeListener: (channel: string, fn: (event: unknown, payload: unknown) => void) =>
      listeners.set(
        channel,
        (listeners.get(channel) ?? []).filter((f) => f !== fn)
      )
  }
}))

describe('preload', () => {
  it('exposes exactly window.api = { transport, call, onEvent } and nothing of Electron', async () => {
    await import('../../src/preload/index')
    expect(exposed.map(([key]) => key)).toEqual(['api'])
    const api = exposed[0]![1] as SkillbenchApi
    expect(Object.keys(api).sort()).toEqual(['call', 'onEvent', 'transport'])
    expect(api.transport).toBe('electron')

    expect(await api.call('app.info', {})).toEqual({ version: 'x' })
    expect(invoked[0]).toEqual(['api:app.info', [{}]])
    await expect(api.call('skills.save', { library: 'l', skillId: '1', text: 't', baseHash: 'h' })).rejects.toMatchObject({
      name: 'ApiError',
      code: 'conflict',
      message: 'changed on disk'
    })
    // a method name that is not one is never sent
    await expect(api.call('../evil' as never, {} as never)).rejects.toMatchObject({ code: 'not_found' })
    expect(invoked.some(([channel]) => channel.includes('evil'))).toBe(false)

    // events arrive without the Electron event object; unsubscribing stops them
    const got: unknown[] = []
    const off = api.onEvent((e) => got.push(e))
    for (const fn of listeners.get('api:event') ?? []) {
      fn({ sender: 'electron internals' }, { type: 'settings.changed' })
    }
    expect(got).toEqual([{ type: 'settings.changed' }])
    off()
    expect(listeners.get('api:event')).toEqual([])
  })
})

describe('withApiErrors (renderer side of the bridge)', () => {
  it('turns bridged failures back into real errors with their code, message code and params, and keeps the rest of the API', async () => {
    const { withApiErrors } = await import('../../src/preload/channels')
    const { ApiError } = await import('../../src/shared/api-error')
    const onEvent = (): (() => void) => () => undefined
    const raw = {
      transport: 'electron' as const,
      onEvent,
      call: async (method: never, _input: never): Promise<unknown> => {
        if (method === 'ok') return 42
        if (method === 'plain') throw new Error('plain failure')
        if (method === 'stranger') throw { name: 'ApiError', code: 'not_found', message: 'from a newer build', messageCode: 'no.such_code', params: { a: 1 } }
        throw { name: 'ApiError', code: 'conflict', message: 'folder not found: /x', messageCode: 'path.folder_not_found', params: { path: '/x' } }
      }
    }
    const api = withApiErrors(raw, (e) => new ApiError(e.code, e.message, e))
    expect(api.transport).toBe('electron')
    expect(api.onEvent).toBe(onEvent)
    expect(await api.call('ok' as never, {} as never)).toBe(42)
    const err = await api.call('bad' as never, {} as never).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({ code: 'conflict', message: 'folder not found: /x', messageCode: 'path.folder_not_found', params: { path: '/x' } })
    // a code this build does not know is dropped: the English message stays the fallback
    const stranger = (await api.call('stranger' as never, {} as never).catch((e: unknown) => e)) as InstanceType<typeof ApiError>
    expect(stranger.messageCode).toBeUndefined()
    expect(stranger.message).toBe('from a newer build')
    await expect(api.call('plain' as never, {} as never)).rejects.toThrow('plain failure')
  })
})
