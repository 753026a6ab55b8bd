/**
 * Web mode: the same API contract over HTTP + server-sent events, on 127.0.0.1 only.
 *
 * WIRE FORMAT (what `src/renderer/api/web-client.ts` speaks)
 * - The server prints `http://127.0.0.1:PORT/?token=TOKEN`. The page reads `token` from its URL once,
 *   keeps it (sessionStorage) and removes it from the address bar (history.replaceState).
 * - Call:   `POST /api/<method>` (method = a key of API_INPUT_SCHEMAS, e.g. `/api/skills.list`)
 *           headers `Content-Type: application/json`, `X-Skillbench-Token: TOKEN`
 *           body = the method's input object as JSON (`{}` for methods without input).
 *   Answer: 200 + the output as JSON; or an error status + `{"error":{"code":"…","message":"…"}}`.
 *           400 bad_request (schema-invalid input: the message names the field), 401 unauthorized (token
 *           missing/wrong), 403 forbidden (bad Host/Origin) / path_escape, 404 not_found (also unknown
 *           method), 409 conflict / exists, 413 too large, 415 not JSON, 422 malformed / not_utf8,
 *           503 unavailable (a module not built yet), 500 internal. Map it back to `new ApiError(code, message)`.
 * - Events: `GET /api/events?token=TOKEN` (EventSource cannot send headers, so the token goes in the query)
 *           → `text/event-stream`; each event is one `data: <ApiEvent as JSON>` message (no `event:` name).
 *           Comment lines (`: ping`) keep the connection alive; EventSource reconnects by itself.
 * - Everything else: GET of the built renderer (`out/renderer`), index.html for unknown paths (SPA).
 *
 * Security: a 256-bit random token guards every /api request; `Host` must be 127.0.0.1/localhost:PORT
 * (DNS rebinding) and a present `Origin` must be this server's origin; no CORS headers are ever sent;
 * the page gets a strict CSP. Static files are public (the renderer bundle has no secrets).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import type { ApiEvent } from '../../shared/api'
import { errorShape } from '../../shared/api-error'
import { coded } from '../../shared/error-codes'
import type { Workbench } from '../workbench'
import { createFileSecretStore, type SecretStore } from '../workbench/secrets'
import { resolveSettingsDir } from '../config/settings-dir'
import type { CoreModules } from '../workbench/core-modules'
import { RENDERER_CSP } from './csp'
import { defaultRendererDir } from './project-paths'

/** Header carrying the session token on API calls. */
export const TOKEN_HEADER = 'x-skillbench-token'
/** Largest accepted request body (skills.save allows 5 MB of text; JSON escaping may double it). */
const MAX_BODY_BYTES = 12 * 1024 * 1024
const SSE_PING_MS = 15_000
/** How long after listening the API loads when no page has been asked for yet (a browser is slower to come). */
const API_LOAD_IDLE_MS = 1000
/** How long after the page the API loads when its script has not been asked for yet. */
const API_LOAD_AFTER_PAGE_MS = 400
/** How long after a script of the page the API loads (each script sent restarts the wait). */
const API_LOAD_AFTER_SCRIPT_MS = 30

export interface WebServerOptions {
  /** 0 = a free port. */
  port?: number
  /** Only loopback is allowed. */
  host?: '127.0.0.1'
  /** A data root for this run: listed first, the app opens on it; not remembered unless the user chooses to. */
  rootDir?: string
  /** Settings dir (default: `resolveSettingsDir()`). */
  settingsDir?: string
  /** Built renderer (default `<project>/out/renderer`). */
  rendererDir?: string
  /** A fixed token (tests); default random. */
  token?: string
  secrets?: SecretStore
  core?: CoreModules
  watch?: boolean
  /**
   * Called as soon as the server listens, before the workbench has loaded: the page can be fetched while the API
   * loads (API calls wait for it). `startWebServer` itself resolves once the API is ready.
   */
  onListening?: (urls: { url: string; openUrl: string }) => void
}

export interface RunningWebServer {
  url: string
  /** `url` + `?token=…`: what a browser opens. */
  openUrl: string
  token: string
  port: number
  workbench: Workbench
  close(): Promise<void>
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8'
}

const COMMON_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin'
}

/** Starts web mode: the workbench plus an HTTP server on 127.0.0.1. */
export async function startWebServer(options: WebServerOptions = {}): Promise<RunningWebServer> {
  const host = '127.0.0.1'
  if (options.host && options.host !== host) {
    throw new Error('web mode listens on 127.0.0.1 only')
  }
  const token = options.token ?? randomBytes(32).toString('base64url')
  const settingsDir = options.settingsDir ?? resolveSettingsDir()
  const rendererDir = options.rendererDir ?? defaultRendererDir()
  const clients = new Set<http.ServerResponse>()
  const broadcast = (event: ApiEvent): void => {
    const frame = `data: ${JSON.stringify(event)}\n\n`
    for (const res of clients) {
      res.write(frame)
    }
  }
  // The API's modules (zod, the workbench: ~450 ms of loading, in one synchronous block per module) load after
  // the first page's script has been sent (or shortly after listening when no browser comes at once), so the
  // browser parses the page while they load; API calls arriving before wait for them.
  let api: Promise<{ workbench: Workbench; statusForCode: (code: string) => number }> | undefined
  let apiTimer: NodeJS.Timeout | undefined
  const scheduleApiLoad = (ms: number): void => {
    clearTimeout(apiTimer)
    apiTimer = setTimeout(() => void loadApi(), ms)
  }
  let markStarted!: () => void
  const apiStarted = new Promise<void>((resolve) => (markStarted = resolve))
  const loadApi = (): typeof api & object => {
    markStarted()
    return (api ??= (async () => {
      const [{ createWorkbench }, { statusForCode }] = await Promise.all([import('../workbench'), import('../workbench/errors')])
      const workbench = await createWorkbench({
        settingsDir,
        transport: 'web',
        secrets: options.secrets ?? createFileSecretStore(settingsDir),
        emit: broadcast,
        initialRoots: options.rootDir ? [path.resolve(options.rootDir)] : [],
        core: options.core,
        watch: options.watch
      })
      return { workbench, statusForCode }
    })())
  }

  let port = 0
  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) {
        sendJson(res, 500, { error: { code: 'internal', message: err instanceof Error ? err.message : String(err) } })
      } else {
        res.end()
      }
    })
  })

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const guard = checkHostAndOrigin(req, port)
    if (guard) {
      sendJson(res, 403, { error: { code: 'forbidden', message: guard } })
      return
    }
    const url = new URL(req.url ?? '/', `http://${host}:${port}`)
    if (url.pathname === '/api/events') {
      if (req.method !== 'GET') {
        sendJson(res, 405, { error: { code: 'bad_request', message: 'use GET for /api/events' } })
        return
      }
      if (!tokenMatches(token, url.searchParams.get('token') ?? headerToken(req))) {
        sendJson(res, 401, { error: errorShape('unauthorized', coded('api.bad_token')) })
        return
      }
      openEventStream(req, res)
      return
    }
    if (url.pathname.startsWith('/api/')) {
      let method: string
      try {
        method = decodeURIComponent(url.pathname.slice('/api/'.length))
      } catch {
        // A malformed percent-encoding is the caller's mistake, not a server failure.
        sendJson(res, 400, { error: { code: 'bad_request', message: 'the API path has a malformed percent-encoding' } })
        return
      }
      await handleApi(req, res, method)
      return
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendJson(res, 405, { error: { code: 'bad_request', message: `${req.method} is not allowed here` } })
      return
    }
    await serveStatic(res, url.pathname, req.method === 'HEAD')
  }

  async function handleApi(req: http.IncomingMessage, res: http.ServerResponse, method: string): Promise<void> {
    if (req.method !== 'POST') {
      sendJson(res, 405, { error: { code: 'bad_request', message: `use POST for /api/${method}` } })
      return
    }
    if (!tokenMatches(token, headerToken(req))) {
      sendJson(res, 401, { error: errorShape('unauthorized', coded('api.bad_token')) })
      return
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase()
    if (type !== 'application/json') {
      sendJson(res, 415, { error: { code: 'bad_request', message: 'send the input as Content-Type: application/json' } })
      return
    }
    let body: string
    try {
      body = await readBody(req, MAX_BODY_BYTES)
    } catch {
      sendJson(res, 413, { error: { code: 'bad_request', message: `request body larger than ${MAX_BODY_BYTES} bytes` } })
      return
    }
    let input: unknown = {}
    if (body.trim()) {
      try {
        input = JSON.parse(body)
      } catch {
        sendJson(res, 400, { error: { code: 'bad_request', message: 'the request body is not valid JSON' } })
        return
      }
    }
    const { workbench, statusForCode } = await loadApi()
    const answer = await workbench.dispatch(method, input)
    if (answer.ok) {
      sendJson(res, 200, answer.value)
    } else {
      sendJson(res, statusForCode(answer.error.code), { error: answer.error })
    }
  }

  function openEventStream(req: http.IncomingMessage, res: http.ServerResponse): void {
    res.writeHead(200, {
      ...COMMON_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive'
    })
    res.write('retry: 2000\n: connected\n\n')
    clients.add(res)
    const ping = setInterval(() => res.write(': ping\n\n'), SSE_PING_MS)
    ping.unref()
    req.on('close', () => {
      clearInterval(ping)
      clients.delete(res)
    })
  }

  async function serveStatic(res: http.ServerResponse, pathname: string, headOnly: boolean): Promise<void> {
    const indexFile = path.join(rendererDir, 'index.html')
    let rel: string
    try {
      rel = decodeURIComponent(pathname)
    } catch {
      rel = '/'
    }
    const target = path.resolve(rendererDir, '.' + path.posix.normalize('/' + rel))
    const inside = target === rendererDir || target.startsWith(rendererDir + path.sep)
    const hidden = rel.split('/').some((p) => p.startsWith('.') && p.length > 0)
    let file = indexFile
    if (inside && !hidden && rel !== '/' && isFile(target)) {
      file = target
    } else if (path.extname(rel) && rel !== '/index.html') {
      // a missing asset is a 404, not the page (so a broken build is visible)
      sendJson(res, 404, { error: { code: 'not_found', message: `no such file: ${rel}` } })
      return
    }
    let data: Buffer
    try {
      // Read synchronously (a few hundred KB, under a millisecond): async reads would queue in libuv's thread pool
      // behind the thousands of skill-file reads of a library being listed, and the first page would wait for them.
      data = fs.readFileSync(file)
    } catch {
      if (file === indexFile) {
        sendNotBuilt(res, rendererDir)
        return
      }
      sendJson(res, 404, { error: { code: 'not_found', message: `no such file: ${rel}` } })
      return
    }
    const ext = path.extname(file)
    const headers: Record<string, string> = {
      ...COMMON_HEADERS,
      'Content-Type': MIME[ext] ?? 'application/octet-stream',
      'Content-Length': String(data.length),
      'Cache-Control': file === indexFile ? 'no-store' : 'no-cache'
    }
    if (ext === '.html') {
      headers['Content-Security-Policy'] = RENDERER_CSP
    }
    res.writeHead(200, headers)
    res.end(headOnly ? undefined : data)
    // The page's scripts come in parallel (the entry and its preloaded chunks): the API loads once the last of
    // them is sent, not between them (its modules load in one block that would hold the others back).
    if (!api && ext === '.js') scheduleApiLoad(API_LOAD_AFTER_SCRIPT_MS)
    else if (!api && file === indexFile) scheduleApiLoad(API_LOAD_AFTER_PAGE_MS)
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  port = (server.address() as AddressInfo).port
  const url = `http://${host}:${port}/`
  options.onListening?.({ url, openUrl: `${url}?token=${token}` })
  // Without a page to wait for (no onListening: tests, embedding), the API loads at once.
  scheduleApiLoad(options.onListening ? API_LOAD_IDLE_MS : 0)
  let workbench: Workbench
  try {
    await apiStarted
    workbench = (await loadApi()).workbench
  } catch (err) {
    server.close()
    throw err
  } finally {
    clearTimeout(apiTimer)
  }
  return {
    url,
    openUrl: `${url}?token=${token}`,
    token,
    port,
    workbench,
    async close() {
      for (const res of clients) {
        res.end()
      }
      clients.clear()
      await workbench.dispose()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    }
  }
}

/** Refuses requests whose Host is not our loopback address (DNS rebinding) or whose Origin is another site. */
export function checkHostAndOrigin(req: Pick<http.IncomingMessage, 'headers'>, port: number): string | undefined {
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`]
  const hostHeader = (req.headers.host ?? '').toLowerCase()
  if (!allowedHosts.includes(hostHeader)) {
    return `refused: Host "${hostHeader}" is not this server`
  }
  const origin = req.headers.origin
  if (origin !== undefined && !allowedHosts.map((h) => `http://${h}`).includes(origin.toLowerCase())) {
    return `refused: requests from ${origin} are not allowed`
  }
  if (req.headers['sec-fetch-site'] === 'cross-site') {
    return 'refused: cross-site request'
  }
  return undefined
}

function headerToken(req: http.IncomingMessage): string | undefined {
  const value = req.headers[TOKEN_HEADER]
  return Array.isArray(value) ? value[0] : value
}

/** Constant-time token comparison. */
function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (!given) {
    return false
  }
  const a = Buffer.from(expected)
  const b = Buffer.from(given)
  return a.length === b.length && timingSafeEqual(a, b)
}

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value)
  res.writeHead(status, {
    ...COMMON_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store'
  })
  res.end(body)
}

function sendNotBuilt(res: http.ServerResponse, rendererDir: string): void {
  const body = `<!doctype html><meta charset="utf-8"><title>Skillbench</title><p>The Skillbench page is not built yet (${escapeHtml(
    rendererDir
  )} is missing). Run <code>npm run build</code>, then reload.</p>`
  res.writeHead(503, { ...COMMON_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': RENDERER_CSP })
  res.end(body)
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile() // sync for the same reason as the read of a page file
  } catch {
    return false
  }
}

async function readBody(req: http.IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        // keep draining (so the 413 answer can still be sent) but hold nothing
        tooLarge = true
        chunks.length = 0
        return
      }
      if (!tooLarge) {
        chunks.push(chunk)
      }
    })
    req.on('end', () => (tooLarge ? reject(new Error('too large')) : resolve(Buffer.concat(chunks).toString('utf8'))))
    req.on('error', reject)
  })
}
