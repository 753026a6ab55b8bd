import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { API_METHODS } from '../../src/shared/api'
import { secureWindowOptions } from '../../src/main/app/window-options'
import { isTrustedSender, wireIpc, type IpcMainLike } from '../../src/main/app/ipc'
import { isAppUrl } from '../../src/main/app/app-url'
import { createSafeStorageSecretStore, ENCRYPTED_SECRET_FILE, type SafeStorageLike } from '../../src/main/app/safe-storage-secrets'
import { hardenContents, hardenSession, serveAppFile } from '../../src/main/app/security'
import { decodeIpcAnswer, isBridgedError } from '../../src/preload/channels'
import { openTestBench, tempDir, type TestBench } from '../workbench/helpers'

// Nothing here may need the Electron binary: the modules under test import only types from 'electron'.
vi.mock('electron', () => ({}))

describe('window options', () => {
  it('sets every security flag of the Electron checklist', () => {
    const options = secureWindowOptions('/app/out/preload/index.js')
    expect(options.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.js',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false
    })
    expect(options.webPreferences).not.toHaveProperty('enableBlinkFeatures')
    expect(options.show).toBe(false)
  })
})

interface FakeEvent {
  senderFrame: { url: string; parent: unknown } | null
}

function fakeIpcMain(): IpcMainLike & { handlers: Map<string, (event: FakeEvent, ...args: unknown[]) => unknown> } {
  const handlers = new Map<string, (event: FakeEvent, ...args: unknown[]) => unknown>()
  return {
    handlers,
    handle(channel, listener) {
      if (handlers.has(channel)) {
        throw new Error(`second handler for ${channel}`)
      }
      handlers.set(channel, listener as unknown as (event: FakeEvent, ...args: unknown[]) => unknown)
    },
    removeHandler(channel) {
      handlers.delete(channel)
    }
  }
}

const trusted: FakeEvent = { senderFrame: { url: 'app://skillbench/index.html', parent: null } }

describe('IPC wiring', () => {
  let bench: TestBench | undefined
  afterEach(async () => {
    await bench?.wb.dispose()
    bench = undefined
  })

  it('handles every contract method on its own channel (contract completeness) and removes them on dispose', async () => {
    bench = await openTestBench()
    const ipc = fakeIpcMain()
    const wiring = wireIpc(ipc, bench.wb)
    expect(Object.keys(wiring.channels).sort()).toEqual([...API_METHODS].sort())
    expect([...ipc.handlers.keys()].sort()).toEqual(API_METHODS.map((m) => `api:${m}`).sort())
    wiring.dispose()
    expect(ipc.handlers.size).toBe(0)
  })

  it('answers trusted calls, refuses other senders, sub-frames and bad input', async () => {
    bench = await openTestBench()
    const ipc = fakeIpcMain()
    wireIpc(ipc, bench.wb)
    const call = (event: FakeEvent, method: string, ...args: unknown[]): Promise<unknown> => Promise.resolve(ipc.handlers.get(`api:${method}`)!(event, ...args))

    const ok = await call(trusted, 'app.info', {})
    expect(decodeIpcAnswer(ok)).toMatchObject({ transport: 'web', version: '0.1.0' })

    for (const event of [
      { senderFrame: { url: 'https://evil.example/', parent: null } },
      { senderFrame: { url: 'app://skillbench.evil/index.html', parent: null } },
      { senderFrame: { url: 'file:///etc/passwd', parent: null } },
      { senderFrame: { url: 'app://skillbench/index.html', parent: {} } },
      { senderFrame: null }
    ]) {
      const answer = (await call(event, 'settings.get', {})) as { ok: boolean; error?: { code: string } }
      expect(answer.ok).toBe(false)
      expect(answer.error?.code).toBe('forbidden')
    }
    const bad = (await call(trusted, 'skills.list', { library: 7 })) as { ok: boolean; error?: { code: string; message: string } }
    expect(bad.ok).toBe(false)
    expect(bad.error?.code).toBe('bad_request')
    const extra = (await call(trusted, 'app.info', {}, 'second')) as { ok: boolean; error?: { code: string } }
    expect(extra.error?.code).toBe('bad_request')
    // the preload turns a failure into a plain object that survives the context bridge with its code
    let thrown: unknown
    try {
      decodeIpcAnswer(bad)
    } catch (err) {
      thrown = err
    }
    expect(isBridgedError(thrown)).toBe(true)
    expect(thrown).toMatchObject({ code: 'bad_request' })
  })

  it('trusts only the app origin (parsed, not prefix-matched) and the dev server when given', () => {
    expect(isAppUrl('app://skillbench/index.html')).toBe(true)
    expect(isAppUrl('app://skillbench.evil.com/')).toBe(false)
    expect(isAppUrl('http://localhost:5173/')).toBe(false)
    expect(isAppUrl('http://localhost:5173/x', 'http://localhost:5173')).toBe(true)
    expect(isAppUrl('http://localhost:5174/x', 'http://localhost:5173')).toBe(false)
    expect(isAppUrl('not a url')).toBe(false)
    expect(isTrustedSender({ senderFrame: null } as never)).toBe(false)
  })
})

describe('navigation, windows, permissions', () => {
  it('blocks navigation away from the app, new windows and webviews', () => {
    const listeners = new Map<string, (event: { preventDefault(): void }, url?: string) => void>()
    let openHandler: (() => { action: string }) | undefined
    const contents = {
      on(name: string, fn: (event: { preventDefault(): void }, url?: string) => void) {
        listeners.set(name, fn)
        return contents
      },
      setWindowOpenHandler(fn: () => { action: string }) {
        openHandler = fn
      }
    }
    hardenContents(contents as never)
    const attempt = (name: string, url?: string): boolean => {
      let prevented = false
      listeners.get(name)!({ preventDefault: () => (prevented = true) }, url)
      return prevented
    }
    for (const url of ['https://evil.example/', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,hi', 'app://skillbench.evil/']) {
      expect(attempt('will-navigate', url), url).toBe(true)
      expect(attempt('will-redirect', url), url).toBe(true)
    }
    expect(attempt('will-navigate', 'app://skillbench/index.html#/skills')).toBe(false)
    expect(attempt('will-attach-webview')).toBe(true)
    expect(openHandler!()).toEqual({ action: 'deny' })
  })

  it('adds the CSP header to every response and denies every permission', () => {
    let headersHook: ((details: { responseHeaders?: Record<string, string[]> }, cb: (r: { responseHeaders: Record<string, string[]> }) => void) => void) | undefined
    let requestHook: ((wc: unknown, permission: string, cb: (granted: boolean) => void) => void) | undefined
    let checkHook: (() => boolean) | undefined
    hardenSession({
      webRequest: { onHeadersReceived: (fn: typeof headersHook) => (headersHook = fn) },
      setPermissionRequestHandler: (fn: typeof requestHook) => (requestHook = fn),
      setPermissionCheckHandler: (fn: typeof checkHook) => (checkHook = fn)
    } as never)
    let headers: Record<string, string[]> = {}
    headersHook!({ responseHeaders: { 'Content-Type': ['text/html'] } }, (r) => (headers = r.responseHeaders))
    expect(headers['Content-Security-Policy']?.[0]).toMatch(/script-src 'self';/)
    expect(headers['Content-Type']).toEqual(['text/html'])
    expect(headers['Content-Security-Policy']?.[0]).not.toMatch(/script-src[^;]*unsafe-inline/)
    let devHook: typeof headersHook
    hardenSession(
      {
        webRequest: { onHeadersReceived: (fn: typeof headersHook) => (devHook = fn) },
        setPermissionRequestHandler: () => undefined,
        setPermissionCheckHandler: () => undefined
      } as never,
      { devServer: true }
    )
    let devHeaders: Record<string, string[]> = {}
    devHook!({ responseHeaders: {} }, (r) => (devHeaders = r.responseHeaders))
    expect(devHeaders['Content-Security-Policy']?.[0]).toMatch(/script-src 'self' 'unsafe-inline'/)
    let granted = true
    requestHook!(null, 'media', (g) => (granted = g))
    expect(granted).toBe(false)
    expect(checkHook!()).toBe(false)
  })

  it('serves app:// files from the renderer folder only', async () => {
    const dir = tempDir('renderer')
    fs.writeFileSync(path.join(dir, 'index.html'), '<title>app</title>')
    fs.writeFileSync(path.join(path.dirname(dir), 'outside-secret.txt'), 'SECRET')
    const index = await serveAppFile(dir, 'app://skillbench/')
    expect(index.status).toBe(200)
    expect(index.headers.get('content-security-policy')).toMatch(/default-src 'none'/)
    expect(await index.text()).toContain('app')
    for (const url of ['app://skillbench/../outside-secret.txt', 'app://skillbench/%2e%2e/outside-secret.txt', 'app://skillbench/..%2foutside-secret.txt']) {
      const r = await serveAppFile(dir, url)
      expect(r.status, url).not.toBe(200)
    }
  })
})

describe('safeStorage secrets', () => {
  const KEY = 'sk-live-0123456789abcdefSECRET'

  function fakeSafeStorage(available: boolean, backend = 'gnome_libsecret'): SafeStorageLike {
    return {
      isEncryptionAvailable: () => available,
      getSelectedStorageBackend: () => backend,
      // a reversible transform standing in for the OS keyring (the stored bytes must not contain the key)
      encryptString: (text) => Buffer.from(Buffer.from(text, 'utf8').map((b) => b ^ 0x5a)),
      decryptString: (buf) => {
        if (buf.length === 0 || buf[0] === 0) {
          throw new Error('cannot decrypt')
        }
        return Buffer.from(buf.map((b) => b ^ 0x5a)).toString('utf8')
      }
    }
  }

  it('stores only ciphertext, 0600, and reads it back', async () => {
    const dir = tempDir('settings')
    const store = createSafeStorageSecretStore(fakeSafeStorage(true), dir)
    expect(store.kind).toBe('safeStorage')
    await store.set('llm.apiKey', KEY)
    const file = path.join(dir, ENCRYPTED_SECRET_FILE)
    expect(fs.readFileSync(file, 'utf8')).not.toContain(KEY)
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
    expect(await store.get('llm.apiKey')).toBe(KEY)
  })

  it('refuses to write plaintext when no keyring exists (basic_text or unavailable): memory only, with a warning', async () => {
    for (const ss of [fakeSafeStorage(false), fakeSafeStorage(true, 'basic_text')]) {
      const dir = tempDir('settings')
      const store = createSafeStorageSecretStore(ss, dir)
      expect(store.kind).toBe('none')
      expect(store.warning).toMatch(/keyring/)
      await store.set('llm.apiKey', KEY)
      expect(await store.get('llm.apiKey')).toBe(KEY)
      expect(fs.readdirSync(dir)).toEqual([])
    }
  })

  it('treats ciphertext that no longer decrypts as "no key" instead of crashing', async () => {
    const dir = tempDir('settings')
    fs.writeFileSync(path.join(dir, ENCRYPTED_SECRET_FILE), JSON.stringify({ 'llm.apiKey': Buffer.from([0, 1, 2]).toString('base64') }))
    const store = createSafeStorageSecretStore(fakeSafeStorage(true), dir)
    expect(await store.get('llm.apiKey')).toBeUndefined()
  })

  it('the workbench in Electron mode never returns the key and reports the storage kind', async () => {
    const settingsDir = tempDir('settings')
    const bench = await openTestBench({ transport: 'electron', secrets: createSafeStorageSecretStore(fakeSafeStorage(true, 'basic_text'), settingsDir) }, undefined, settingsDir)
    try {
      const s = await bench.call<{ llm: { keyStorage: string; keyWarning?: string; apiKeyHint: string } }>('settings.setApiKey', { apiKey: KEY })
      expect(s.llm.keyStorage).toBe('none')
      expect(s.llm.keyWarning).toMatch(/keyring/)
      expect(JSON.stringify(s)).not.toContain(KEY)
      for (const name of fs.readdirSync(settingsDir)) {
        expect(fs.readFileSync(path.join(settingsDir, name), 'utf8')).not.toContain(KEY)
      }
    } finally {
      await bench.wb.dispose()
    }
  })
})
