import type { BrowserWindowConstructorOptions } from 'electron'

/**
 * The options of every Skillbench window: the renderer is an untrusted web page with no Node, no
 * Electron, in a sandbox, talking to the main process only through the preload's `window.api`.
 */
export function secureWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 840,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Skillbench',
    backgroundColor: '#1e1e1e',
    autoHideMenuBar: true,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      spellcheck: false,
      safeDialogs: true,
      navigateOnDragDrop: false
    }
  }
}
