/**
 * The part of Electron's API that src/main/app and src/preload use, for type-checking where the `electron` package
 * is not installed. It is an optional dependency: Electron 42+ declares Node ≥ 22.12, so npm skips it on Node 20
 * (web mode needs no Electron). tsconfig.json maps `electron` to node_modules/electron first, so wherever the real
 * package is installed its own declarations are used and this file is not read. Signatures follow Electron 45's
 * (narrowed where we use less: a handler we never read a parameter of keeps `unknown`).
 */

type Listener<A extends unknown[] = unknown[]> = (...args: A) => void

export interface Event {
  preventDefault(): void
}

export interface WebFrameMain {
  readonly url: string
  readonly parent: WebFrameMain | null
}

export interface IpcMainInvokeEvent extends Event {
  readonly senderFrame: WebFrameMain | null
}

export interface HandlerDetails {
  url: string
}

export interface WindowOpenHandlerResponse {
  action: 'allow' | 'deny'
}

export interface WebContents {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: Event, url: string) => void): this
  on(event: 'will-attach-webview', listener: (event: Event) => void): this
  setWindowOpenHandler(handler: (details: HandlerDetails) => WindowOpenHandlerResponse): void
  send(channel: string, ...args: unknown[]): void
}

export interface OnHeadersReceivedListenerDetails {
  url: string
  responseHeaders?: Record<string, string[]>
}

export interface HeadersReceivedResponse {
  cancel?: boolean
  responseHeaders?: Record<string, string | string[]>
  statusLine?: string
}

export interface Session {
  webRequest: {
    onHeadersReceived(
      listener: ((details: OnHeadersReceivedListenerDetails, callback: (response: HeadersReceivedResponse) => void) => void) | null
    ): void
  }
  setPermissionRequestHandler(
    handler: ((webContents: WebContents, permission: string, callback: (permissionGranted: boolean) => void) => void) | null
  ): void
  setPermissionCheckHandler(handler: ((webContents: WebContents | null, permission: string) => boolean) | null): void
}

export interface WebPreferences {
  preload?: string
  contextIsolation?: boolean
  sandbox?: boolean
  nodeIntegration?: boolean
  nodeIntegrationInWorker?: boolean
  nodeIntegrationInSubFrames?: boolean
  webSecurity?: boolean
  allowRunningInsecureContent?: boolean
  webviewTag?: boolean
  experimentalFeatures?: boolean
  spellcheck?: boolean
  safeDialogs?: boolean
  navigateOnDragDrop?: boolean
}

export interface BrowserWindowConstructorOptions {
  width?: number
  height?: number
  minWidth?: number
  minHeight?: number
  show?: boolean
  title?: string
  backgroundColor?: string
  autoHideMenuBar?: boolean
  webPreferences?: WebPreferences
}

export declare class BrowserWindow {
  constructor(options?: BrowserWindowConstructorOptions)
  static getAllWindows(): BrowserWindow[]
  readonly webContents: WebContents
  once(event: 'ready-to-show', listener: () => void): this
  loadURL(url: string): Promise<void>
  isDestroyed(): boolean
  isMinimized(): boolean
  restore(): void
  focus(): void
  show(): void
}

export interface CustomScheme {
  scheme: string
  privileges?: {
    standard?: boolean
    secure?: boolean
    bypassCSP?: boolean
    allowServiceWorkers?: boolean
    supportFetchAPI?: boolean
    corsEnabled?: boolean
    stream?: boolean
    codeCache?: boolean
  }
}

export declare const app: {
  getVersion(): string
  requestSingleInstanceLock(): boolean
  quit(): void
  whenReady(): Promise<void>
  on(event: 'web-contents-created', listener: (event: Event, webContents: WebContents) => void): unknown
  on(event: 'second-instance' | 'window-all-closed' | 'activate' | 'before-quit', listener: Listener): unknown
}

export declare const protocol: {
  registerSchemesAsPrivileged(customSchemes: CustomScheme[]): void
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void
}

export declare const session: { readonly defaultSession: Session }

export declare const safeStorage: {
  getSelectedStorageBackend(): 'basic_text' | 'gnome_libsecret' | 'kwallet' | 'kwallet5' | 'kwallet6' | 'unknown'
  isEncryptionAvailable(): boolean
  encryptString(plainText: string): Buffer
  decryptString(encrypted: Buffer): string
}

export declare const ipcMain: {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown> | unknown): void
  removeHandler(channel: string): void
}

export declare const contextBridge: { exposeInMainWorld(apiKey: string, api: unknown): void }

export declare const ipcRenderer: {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>
  on(channel: string, listener: (event: unknown, ...args: never[]) => void): unknown
  removeListener(channel: string, listener: (event: unknown, ...args: never[]) => void): unknown
}
