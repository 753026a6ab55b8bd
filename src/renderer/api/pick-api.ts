import type { SkillbenchApi } from '../../shared/api'
import { createWebClient } from './web-client'

declare global {
  interface Window {
    /** Set by the Electron preload; absent in web mode. */
    api?: SkillbenchApi
  }
}

/** The preload's `window.api` when running in Electron, else the web client using the page's `?token=`. */
export function pickApi(win: Window = window): SkillbenchApi {
  if (win.api) return win.api
  const token = new URLSearchParams(win.location.search).get('token') ?? ''
  return createWebClient({ baseUrl: '', token })
}
