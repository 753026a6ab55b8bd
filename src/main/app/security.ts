import { promises as fsp } from 'node:fs'
import path from 'node:path'
import type { Session, WebContents } from 'electron'
import { RENDERER_CSP } from '../web-server/csp'
import { isAppUrl } from './app-url'

/**
 * Session-wide rules: the CSP header on every response of our renderer, and no permission ever granted
 * (camera, notifications, clipboard-read… the workbench needs none).
 */
export function hardenSession(
  session: Pick<Session, 'webRequest' | 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>,
  opts: { devServer?: boolean } = {}
): void {
  // `electron-vite dev` only: Vite's dev server injects an inline React-refresh preamble and talks over a websocket
  const csp = opts.devServer ? RENDERER_CSP.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace("connect-src 'self'", "connect-src 'self' ws:") : RENDERER_CSP
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } })
  })
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.setPermissionCheckHandler(() => false)
}

/** Per-window rules: no navigation away from the app, no new windows, no webviews. */
export function hardenContents(contents: Pick<WebContents, 'on' | 'setWindowOpenHandler'>, devServerUrl?: string): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, devServerUrl)) {
      event.preventDefault()
    }
  })
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url, devServerUrl)) {
      event.preventDefault()
    }
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(() => ({ action: 'deny' }))
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ttf': 'font/ttf',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon'
}

/**
 * Answers an `app://skillbench/<path>` request from the built renderer folder: only files inside it
 * (real paths compared with a trailing separator), index.html for the root, 404 otherwise.
 */
export async function serveAppFile(rendererDir: string, requestUrl: string): Promise<Response> {
  const url = new URL(requestUrl)
  let rel: string
  try {
    rel = decodeURIComponent(url.pathname)
  } catch {
    return new Response('bad path', { status: 400 })
  }
  if (rel === '/' || rel === '') {
    rel = '/index.html'
  }
  const root = await fsp.realpath(rendererDir)
  const target = path.resolve(root, '.' + path.posix.normalize(rel))
  let real: string
  try {
    real = await fsp.realpath(target)
  } catch {
    return new Response('not found', { status: 404 })
  }
  if (!real.startsWith(root + path.sep)) {
    return new Response('forbidden', { status: 403 })
  }
  const body = await fsp.readFile(real)
  const headers: Record<string, string> = {
    'Content-Type': MIME[path.extname(real)] ?? 'application/octet-stream',
    'X-Content-Type-Options': 'nosniff'
  }
  if (path.extname(real) === '.html') {
    headers['Content-Security-Policy'] = RENDERER_CSP
  }
  return new Response(body, { status: 200, headers })
}
