import net from 'node:net'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_METHODS, type ApiEvent, type JobInfo, type LibraryInfo } from '../../src/shared/api'
import { startWebServer, type RunningWebServer } from '../../src/main/web-server/http-server'
import { copySampleRoot, tempDir } from '../workbench/helpers'

interface Reply {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
  json: () => { error?: { code: string; message: string } } & Record<string, unknown>
}

/** A raw HTTP request (so Host / Origin can be set freely). */
function request(server: RunningWebServer, opts: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: server.port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8')
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) })
        })
      }
    )
    req.on('error', reject)
    req.end(opts.body)
  })
}

function api(server: RunningWebServer, method: string, input: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return request(server, {
    method: 'POST',
    path: `/api/${method}`,
    headers: { 'content-type': 'application/json', 'x-skillbench-token': server.token, ...headers },
    body: JSON.stringify(input)
  })
}

let server: RunningWebServer
let rendererDir: string
let root: string

beforeAll(async () => {
  rendererDir = tempDir('renderer')
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Skillbench test page</title>')
  fs.mkdirSync(path.join(rendererDir, 'assets'))
  fs.writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1)')
  fs.writeFileSync(path.join(tempDir('outside'), 'secret.txt'), 'SECRET')
  root = copySampleRoot()
  server = await startWebServer({ port: 0, rootDir: root, settingsDir: tempDir('settings'), rendererDir, watch: false })
})

afterAll(async () => {
  await server?.close()
})

describe('web mode server: access control', () => {
  it('prints a loopback URL with a long random token', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`)
    expect(server.openUrl).toBe(`${server.url}?token=${server.token}`)
    expect(server.token.length).toBeGreaterThanOrEqual(40)
  })

  it('refuses API calls without the token or with a wrong one', async () => {
    const none = await request(server, { method: 'POST', path: '/api/app.info', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(none.status).toBe(401)
    expect(none.json().error?.code).toBe('unauthorized')
    const wrong = await api(server, 'app.info', {}, { 'x-skillbench-token': 'x'.repeat(server.token.length) })
    expect(wrong.status).toBe(401)
    const sse = await request(server, { path: '/api/events?token=nope' })
    expect(sse.status).toBe(401)
  })

  it('refuses a foreign Host (DNS rebinding) and a foreign Origin, and never sends CORS headers', async () => {
    const rebinding = await api(server, 'app.info', {}, { host: `evil.example:${server.port}` })
    expect(rebinding.status).toBe(403)
    const page = await request(server, { path: '/', headers: { host: 'evil.example' } })
    expect(page.status).toBe(403)
    const origin = await api(server, 'app.info', {}, { origin: 'http://evil.example' })
    expect(origin.status).toBe(403)
    const otherPort = await api(server, 'app.info', {}, { origin: `http://127.0.0.1:${server.port + 1}` })
    expect(otherPort.status).toBe(403)
    const sameOrigin = await api(server, 'app.info', {}, { origin: `http://127.0.0.1:${server.port}` })
    expect(sameOrigin.status).toBe(200)
    expect(sameOrigin.headers['access-control-allow-origin']).toBeUndefined()
    const preflight = await request(server, { method: 'OPTIONS', path: '/api/app.info', headers: { origin: 'http://evil.example' } })
    expect(preflight.status).toBe(403)
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('requires JSON bodies and POST', async () => {
    const form = await request(server, {
      method: 'POST',
      path: '/api/app.info',
      headers: { 'content-type': 'text/plain', 'x-skillbench-token': server.token },
      body: '{}'
    })
    expect(form.status).toBe(415)
    const get = await request(server, { path: '/api/app.info', headers: { 'x-skillbench-token': server.token } })
    expect(get.status).toBe(405)
    const broken = await request(server, {
      method: 'POST',
      path: '/api/app.info',
      headers: { 'content-type': 'application/json', 'x-skillbench-token': server.token },
      body: '{oops'
    })
    expect(broken.status).toBe(400)
  })
})

describe('web mode server: API', () => {
  it('answers schema-invalid input with 400 and a message naming the field', async () => {
    const r = await api(server, 'skills.list', { library: 42 })
    expect(r.status).toBe(400)
    expect(r.json().error?.code).toBe('bad_request')
    expect(r.json().error?.message).toMatch(/library/)
    const unknown = await api(server, 'nope.nope', {})
    expect(unknown.status).toBe(404)
  })

  it('reaches every method of the contract (no route is missing)', async () => {
    // llm.test must not reach a real endpoint: point it at a closed local port (one just freed; port 9 and the
    // like are refused as ports the runtime blocks)
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const port = (probe.address() as net.AddressInfo).port
        probe.close(() => resolve(port))
      })
    })
    expect((await api(server, 'settings.update', { patch: { llm: { baseUrl: `http://127.0.0.1:${closed}/v1` } } })).status).toBe(200)
    for (const method of API_METHODS) {
      const r = await api(server, method, {})
      // an empty input is valid for some methods and a 400 for others, but never "unknown method"
      expect(r.status, method).not.toBe(401)
      expect(r.body, method).not.toMatch(/unknown method/)
      if (r.status !== 200) {
        expect(r.json().error?.code, method).toBeTruthy()
      }
    }
  })

  it('maps store errors to statuses: unknown library 400, missing skill 404', async () => {
    const libs = (await api(server, 'libraries.list', {})).json() as unknown as LibraryInfo[]
    const library = libs[0]!.path
    expect((await api(server, 'skills.get', { library: '/etc', skillId: '1' })).status).toBe(400)
    const missing = await api(server, 'skills.get', { library, skillId: '999' })
    expect(missing.status).toBe(404)
    expect(missing.json().error?.code).toBe('not_found')
  })

  it('pushes job progress and the end of a reflection over server-sent events', async () => {
    const events: ApiEvent[] = []
    const sse = http.get({ host: '127.0.0.1', port: server.port, path: `/api/events?token=${server.token}` })
    const opened = new Promise<http.IncomingMessage>((resolve) => sse.on('response', resolve))
    const res = await opened
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/text\/event-stream/)
    let buffer = ''
    let jobId = ''
    const done = new Promise<void>((resolve) => {
      res.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8')
        let cut: number
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, cut)
          buffer = buffer.slice(cut + 2)
          for (const line of frame.split('\n')) {
            if (line.startsWith('data: ')) {
              const event = JSON.parse(line.slice(6)) as ApiEvent
              events.push(event)
              if (event.type === 'job.done' && event.jobId === jobId) {
                resolve()
              }
            }
          }
        }
      })
    })
    const started = await api(server, 'reflect.start', { root: fs.realpathSync(root) })
    expect(started.status).toBe(200)
    jobId = (started.json() as unknown as JobInfo).jobId
    await done
    sse.destroy()
    const progress = events.filter((e): e is Extract<ApiEvent, { type: 'job.progress' }> => e.type === 'job.progress' && e.progress.jobId === jobId)
    expect(progress.length).toBeGreaterThan(0)
    expect(progress[progress.length - 1]!.progress.fraction).toBe(1)
    const end = events.find((e) => e.type === 'job.done') as Extract<ApiEvent, { type: 'job.done' }>
    expect(end.state).toBe('done')
  })
})

describe('web mode server: the page', () => {
  it('serves the built renderer with a strict CSP and security headers, index.html for app routes', async () => {
    const page = await request(server, { path: '/?token=abc' })
    expect(page.status).toBe(200)
    expect(page.body).toContain('Skillbench test page')
    const csp = String(page.headers['content-security-policy'])
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('unsafe-eval')
    expect(csp).toMatch(/script-src 'self';/)
    expect(csp).toContain("frame-ancestors 'none'")
    expect(page.headers['x-content-type-options']).toBe('nosniff')
    expect(page.headers['referrer-policy']).toBe('no-referrer')
    const route = await request(server, { path: '/skills/123' })
    expect(route.body).toContain('Skillbench test page')
    const asset = await request(server, { path: '/assets/app.js' })
    expect(asset.status).toBe(200)
    expect(asset.headers['content-type']).toMatch(/javascript/)
  })

  it('never serves files outside the renderer folder', async () => {
    for (const p of ['/../outside/secret.txt', '/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2fetc%2fpasswd', '/assets/../../package.json']) {
      const r = await request(server, { path: p })
      expect(r.body, p).not.toContain('SECRET')
      expect(r.body, p).not.toContain('root:')
      expect(r.body, p).not.toContain('"dependencies"')
    }
    const missing = await request(server, { path: '/assets/missing.js' })
    expect(missing.status).toBe(404)
  })
})

describe('web mode server: start-up', () => {
  it('listens before the API has loaded: the page and an early API call made at once are both answered', async () => {
    let early: Promise<[Reply, Reply]> | undefined
    let resolvedBeforeListening = true
    const started = startWebServer({
      port: 0,
      rootDir: root,
      settingsDir: tempDir('settings-early'),
      rendererDir,
      watch: false,
      onListening: ({ url, openUrl }) => {
        resolvedBeforeListening = false
        const port = Number(new URL(url).port)
        const token = new URL(openUrl).searchParams.get('token')!
        // a RunningWebServer-shaped handle for the helpers: only port and token are used
        const handle = { port, token } as RunningWebServer
        early = Promise.all([request(handle, { path: '/' }), api(handle, 'app.info', {})])
      }
    })
    const running = await started
    try {
      expect(resolvedBeforeListening).toBe(false)
      const [page, info] = await early!
      expect(page.status).toBe(200)
      expect(page.body).toContain('Skillbench test page')
      expect(info.status).toBe(200)
      expect(info.json()).toEqual((await api(running, 'app.info', {})).json())
    } finally {
      await running.close()
    }
  })
})
