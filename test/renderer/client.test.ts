import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { QueryClient } from '@tanstack/react-query'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { invalidateForEvent } from '../../src/renderer/api/events'
import { JobStore, latestJob } from '../../src/renderer/api/job-store'
import { queryKeys } from '../../src/renderer/api/query-keys'
import { pickApi, takeToken } from '../../src/renderer/api/pick-api'
import { createWebClient } from '../../src/renderer/api/web-client'
import { ApiError } from '../../src/shared/api'
import type { ApiEvent, SkillbenchApi } from '../../src/shared/api'

describe('web client (HTTP + SSE wire format)', () => {
  let server: http.Server
  let base = ''
  const seen: { url: string; token: string | undefined; body: string }[] = []
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = ''
      req.on('data', (d: Buffer) => (body += d.toString()))
      req.on('end', () => {
        seen.push({ url: req.url ?? '', token: req.headers['x-skillbench-token'] as string | undefined, body })
        const send = (status: number, value: unknown, raw?: string) => {
          res.writeHead(status, { 'content-type': 'application/json' })
          res.end(raw ?? JSON.stringify(value))
        }
        if (req.headers['x-skillbench-token'] !== 'tok') return send(401, { error: { code: 'unauthorized', message: 'bad token' } })
        if (req.url === '/api/roots.list') return send(200, [{ path: '/r', exists: true, users: [], taskCount: 0 }])
        if (req.url === '/api/skills.save') return send(409, { error: { code: 'conflict', message: 'skill_a.md changed on disk' } })
        if (req.url === '/api/app.info') return send(200, null, '<html>not json')
        return send(500, {}, '')
      })
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((r) => server.close(() => r())))

  it('POSTs the input as JSON with the token header and returns the output', async () => {
    const api = createWebClient({ baseUrl: base, token: 'tok' })
    expect(await api.call('roots.list', {})).toEqual([{ path: '/r', exists: true, users: [], taskCount: 0 }])
    expect(seen.at(-1)).toEqual({ url: '/api/roots.list', token: 'tok', body: '{}' })
  })

  it('turns error answers into ApiError with the server code', async () => {
    const api = createWebClient({ baseUrl: base, token: 'tok' })
    const err = await api.call('skills.save', { library: '/l', skillId: '1', text: 'x', baseHash: 'h' }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({ code: 'conflict', message: 'skill_a.md changed on disk' })
    const unauth = await createWebClient({ baseUrl: base, token: 'wrong' }).call('roots.list', {}).catch((e: unknown) => e)
    expect(unauth).toMatchObject({ code: 'unauthorized' })
    expect(await api.call('app.info', {}).catch((e: unknown) => e)).toMatchObject({ code: 'internal' })
  })

  it('reports an unreachable server as a network error', async () => {
    const api = createWebClient({ baseUrl: 'http://127.0.0.1:9', token: 'tok' })
    expect(await api.call('roots.list', {}).catch((e: unknown) => e)).toMatchObject({ code: 'network' })
  })

  it('opens one SSE stream for all subscribers, with the token in the query; closes it with the last one', () => {
    const opened: FakeEventSource[] = []
    class FakeEventSource {
      onmessage: ((m: MessageEvent<string>) => void) | null = null
      onopen: (() => void) | null = null
      closed = false
      constructor(readonly url: string) {
        opened.push(this)
      }
      close() {
        this.closed = true
      }
    }
    const api = createWebClient({ baseUrl: base, token: 't k', EventSource: FakeEventSource as unknown as typeof EventSource })
    const a: ApiEvent[] = []
    const b: ApiEvent[] = []
    const offA = api.onEvent((e) => a.push(e))
    const offB = api.onEvent((e) => b.push(e))
    expect(opened).toHaveLength(1)
    expect(opened[0]!.url).toBe(`${base}/api/events?token=t%20k`)
    opened[0]!.onmessage!({ data: JSON.stringify({ type: 'settings.changed' }) } as MessageEvent<string>)
    opened[0]!.onmessage!({ data: 'not json' } as MessageEvent<string>)
    expect(a).toEqual([{ type: 'settings.changed' }])
    expect(b).toEqual([{ type: 'settings.changed' }])
    opened[0]!.onopen!() // first connection: nothing missed
    opened[0]!.onopen!() // a reconnect: events may have been missed, so everything is stale
    expect(a).toEqual([{ type: 'settings.changed' }, { type: 'files.changed', paths: [] }])
    offA()
    expect(opened[0]!.closed).toBe(false)
    offB()
    expect(opened[0]!.closed).toBe(true)
  })
})

describe('transport choice', () => {
  it("uses Electron's window.api when present and rebuilds ApiError from the bridged plain object", async () => {
    const events: ApiEvent[] = []
    const bridged: SkillbenchApi = {
      transport: 'electron',
      call: async () => {
        throw { name: 'ApiError', code: 'conflict', message: 'changed on disk' }
      },
      onEvent: (h) => {
        h({ type: 'settings.changed' })
        return () => undefined
      }
    }
    const api = pickApi({ api: bridged } as unknown as Window)
    expect(api.transport).toBe('electron')
    const err = await api.call('roots.list', {}).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({ code: 'conflict', message: 'changed on disk' })
    api.onEvent((e) => events.push(e))
    expect(events).toEqual([{ type: 'settings.changed' }])
  })

  it('web mode takes the token from the URL once, keeps it for reloads and removes it from the address bar', () => {
    const stored = new Map<string, string>()
    let replaced = ''
    const win = {
      location: { href: 'http://127.0.0.1:5000/?token=abc&x=1#skills' },
      sessionStorage: { setItem: (k: string, v: string) => stored.set(k, v), getItem: (k: string) => stored.get(k) ?? null },
      history: { state: null, replaceState: (_s: unknown, _t: string, url: string) => (replaced = url) }
    } as unknown as Window
    expect(takeToken(win)).toBe('abc')
    expect(replaced).toBe('/?x=1#skills')
    const reloaded = { ...win, location: { href: 'http://127.0.0.1:5000/?x=1' } } as unknown as Window
    expect(takeToken(reloaded)).toBe('abc')
  })
})

describe('event → query invalidation', () => {
  function client() {
    const qc = new QueryClient()
    const keys = [queryKeys.skills('/lib1'), queryKeys.skill('/lib1', '7'), queryKeys.skills('/lib2'), queryKeys.tasks('/root'), queryKeys.settings(), queryKeys.roots(), queryKeys.libraries(), queryKeys.jobs()]
    for (const k of keys) qc.setQueryData(k, 1)
    const stale = () => keys.filter((k) => qc.getQueryState(k)?.isInvalidated).map((k) => k.join(':'))
    return { qc, stale }
  }
  it('files.changed in a library invalidates that library only (plus the library list)', () => {
    const { qc, stale } = client()
    invalidateForEvent(qc, { type: 'files.changed', library: '/lib1', paths: ['a.md'] })
    expect(stale()).toEqual(['library:/lib1:skills', 'library:/lib1:skill:7', 'libraries'])
  })
  it('files.changed in a data root invalidates its tasks and the roots', () => {
    const { qc, stale } = client()
    invalidateForEvent(qc, { type: 'files.changed', root: '/root', paths: ['x/logs/manager.out'] })
    expect(stale()).toEqual(['root:/root:tasks', 'roots', 'libraries'])
  })
  it('settings.changed invalidates settings, roots and libraries', () => {
    const { qc, stale } = client()
    invalidateForEvent(qc, { type: 'settings.changed' })
    expect(stale()).toEqual(['settings', 'roots', 'libraries'])
  })
  it('a finished curate job invalidates its library and the jobs', () => {
    const { qc, stale } = client()
    invalidateForEvent(qc, { type: 'job.done', jobId: 'j', kind: 'curate', state: 'done', result: { library: '/lib2', plan: { skills_loaded: 0, proposals: [], errors: [] } } })
    expect(stale()).toEqual(['library:/lib2:skills', 'jobs'])
  })
  it('plain progress invalidates nothing', () => {
    const { qc, stale } = client()
    invalidateForEvent(qc, { type: 'job.progress', progress: { jobId: 'j', kind: 'reflect', fraction: 0.1, stage: 'log', message: 'hi' } })
    expect(stale()).toEqual([])
  })
})

describe('job store', () => {
  it('folds progress and completion into per-job views, keeping per-task state and a bounded log', () => {
    const store = new JobStore()
    let notified = 0
    store.subscribe(() => notified++)
    store.track({ jobId: 'j1', kind: 'reflect', startedAt: '2026-01-01T00:00:00Z', state: 'running' })
    const p = (fraction: number, stage: string, taskDir: string | undefined, message: string) =>
      store.apply({ type: 'job.progress', progress: { jobId: 'j1', kind: 'reflect', fraction, stage, message, taskDir } })
    p(0.1, 'task-start', 'a', 'start a')
    p(0.5, 'task-done', 'a', 'made skill')
    p(2, 'task-failed', 'b', 'boom')
    for (let i = 0; i < 600; i++) p(1, 'log', undefined, `line ${i}`)
    const job = store.getSnapshot().j1!
    expect(job.fraction).toBe(1) // clamped
    expect(job.tasks).toEqual({ a: { state: 'done', message: 'made skill', skillPath: undefined }, b: { state: 'failed', message: 'boom', skillPath: undefined } })
    expect(job.lines).toHaveLength(500)
    expect(job.lines.at(-1)).toEqual({ text: 'line 599' })
    store.apply({ type: 'job.done', jobId: 'j1', kind: 'reflect', state: 'failed', error: 'model down' })
    expect(store.getSnapshot().j1).toMatchObject({ state: 'failed', error: 'model down' })
    expect(notified).toBe(605)
  })
  it('finds the newest job of a kind', () => {
    const store = new JobStore()
    store.track({ jobId: 'old', kind: 'curate', startedAt: '2026-01-01T00:00:00Z', state: 'done' })
    store.track({ jobId: 'new', kind: 'curate', startedAt: '2026-01-02T00:00:00Z', state: 'running' })
    store.track({ jobId: 'r', kind: 'reflect', startedAt: '2026-01-03T00:00:00Z', state: 'running' })
    expect(latestJob(store.getSnapshot(), 'curate')?.jobId).toBe('new')
  })
})
