import { ApiError } from '../../shared/api-error'
import type { SkillbenchApi } from '../../shared/api'
import { withApiErrors } from '../../preload/channels'
import { createWebClient } from './web-client'

declare global {
  interface Window {
    /** Set by the Electron preload; absent in web mode. */
    api?: SkillbenchApi
  }
}

const TOKEN_KEY = 'skillbench.token'

/**
 * Web mode's session token: taken from `?token=` once, kept in sessionStorage (so a reload works)
 * and removed from the address bar so it doesn't linger in history or screenshots.
 */
export function takeToken(win: Window): string {
  const url = new URL(win.location.href)
  const fromUrl = url.searchParams.get('token')
  if (fromUrl) {
    try {
      win.sessionStorage.setItem(TOKEN_KEY, fromUrl)
    } catch {
      // no storage: the token lives only in this page
    }
    url.searchParams.delete('token')
    win.history.replaceState(win.history.state, '', url.pathname + url.search + url.hash)
    return fromUrl
  }
  try {
    return win.sessionStorage.getItem(TOKEN_KEY) ?? ''
  } catch {
    return ''
  }
}

/**
 * The preload's `window.api` when running in Electron (its failures, plain objects after the context
 * bridge, become `ApiError`s again), else the web client.
 */
export function pickApi(win: Window = window): SkillbenchApi {
  if (win.api) return withApiErrors(win.api, (e) => new ApiError(e.code, e.message, e))
  return createWebClient({ baseUrl: '', token: takeToken(win) })
}
