/** The custom scheme the renderer is served from (no file://: checklist item 18). */
export const APP_SCHEME = 'app'
export const APP_HOST = 'skillbench'
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`

/**
 * True when `url` belongs to our renderer: the app:// origin, or the dev server origin that
 * electron-vite passes in `ELECTRON_RENDERER_URL` during `electron-vite dev`. Parsed, never `startsWith`.
 */
export function isAppUrl(url: string | undefined, devServerUrl?: string): boolean {
  if (!url) {
    return false
  }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  if (parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST) {
    return true
  }
  if (devServerUrl) {
    try {
      const dev = new URL(devServerUrl)
      return (dev.protocol === 'http:' || dev.protocol === 'https:') && parsed.origin === dev.origin
    } catch {
      return false
    }
  }
  return false
}
