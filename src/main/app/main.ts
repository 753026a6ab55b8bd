/**
 * The Electron main process: one secure window on the app:// renderer, the workbench behind IPC.
 * This folder is the only place that imports `electron`.
 */
import path from 'node:path'
import { app, BrowserWindow, ipcMain, protocol, safeStorage, session } from 'electron'
import type { ApiEvent } from '../../shared/api'
import { API_EVENT_CHANNEL } from '../../preload/channels'
import { createWorkbench, type Workbench } from '../workbench'
import { resolveSettingsDir } from '../workbench/settings-store'
import { APP_HOST, APP_ORIGIN, APP_SCHEME } from './app-url'
import { wireIpc } from './ipc'
import { createSafeStorageSecretStore } from './safe-storage-secrets'
import { hardenContents, hardenSession, serveAppFile } from './security'
import { rootDirFromArgs } from './launch-args'
import { secureWindowOptions } from './window-options'

// must run before `ready`: app:// behaves like an https origin (fetch, workers, CSP 'self')
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: false } }
])

const devServerUrl = process.env.ELECTRON_RENDERER_URL
const rendererDir = path.join(__dirname, '../renderer')
const preloadPath = path.join(__dirname, '../preload/index.js')

let mainWindow: BrowserWindow | undefined
let workbench: Workbench | undefined

function emit(event: ApiEvent): void {
  for (const win of BrowserWindow.getAllWindows()) {
    if (!win.isDestroyed()) {
      win.webContents.send(API_EVENT_CHANNEL, event)
    }
  }
}

function createWindow(): void {
  mainWindow = new BrowserWindow(secureWindowOptions(preloadPath))
  hardenContents(mainWindow.webContents, devServerUrl)
  mainWindow.once('ready-to-show', () => mainWindow?.show())
  void mainWindow.loadURL(devServerUrl ?? `${APP_ORIGIN}/index.html`)
}

async function start(): Promise<void> {
  hardenSession(session.defaultSession, { devServer: Boolean(devServerUrl) })
  protocol.handle(APP_SCHEME, (request) => {
    const url = new URL(request.url)
    if (url.host !== APP_HOST) {
      return new Response('not found', { status: 404 })
    }
    return serveAppFile(rendererDir, request.url)
  })
  const settingsDir = resolveSettingsDir()
  // `npm start -- --root-dir DIR` (or the sample root on a first run) opens there, as `skillbench serve` does
  const rootDir = rootDirFromArgs(process.argv.slice(1), process.cwd())
  workbench = await createWorkbench({
    settingsDir,
    initialRoots: rootDir ? [rootDir] : [],
    transport: 'electron',
    secrets: createSafeStorageSecretStore(safeStorage, settingsDir),
    emit,
    version: app.getVersion()
  })
  wireIpc(ipcMain, workbench, { devServerUrl })
  createWindow()
}

if (!app.requestSingleInstanceLock()) {
  // a second instance must never write the same libraries: focus the first one instead
  app.quit()
} else {
  app.on('second-instance', () => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) {
        mainWindow.restore()
      }
      mainWindow.focus()
    }
  })
  app.on('web-contents-created', (_event, contents) => hardenContents(contents, devServerUrl))
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') {
      app.quit()
    }
  })
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) {
      createWindow()
    }
  })
  app.on('before-quit', () => {
    void workbench?.dispose()
  })
  app.whenReady().then(start, (err: unknown) => {
    console.error('Skillbench could not start:', err)
    app.quit()
  })
}
