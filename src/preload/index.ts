/**
 * The preload: exposes exactly one object, `window.api` (a `SkillbenchApi`), and nothing of Electron.
 *
 * Runs sandboxed (CJS, no Node): it imports only types, so the bundle is just these few lines. Every call
 * goes to the `api:<method>` channel; the main process checks the sender and parses the input with the
 * contract's schema. The Electron event object is never handed to the page.
 */
import { contextBridge, ipcRenderer } from 'electron'
import type { ApiEvent, ApiInput, ApiMethod, ApiOutput, SkillbenchApi } from '../shared/api'
import { API_EVENT_CHANNEL, apiChannel, decodeIpcAnswer, isMethodName } from './channels'

const api: SkillbenchApi = {
  transport: 'electron',
  async call<M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>> {
    if (!isMethodName(method)) {
      throw { name: 'ApiError', code: 'not_found', message: `unknown method: ${String(method)}` }
    }
    return decodeIpcAnswer(await ipcRenderer.invoke(apiChannel(method), input)) as ApiOutput<M>
  },
  onEvent(handler: (event: ApiEvent) => void): () => void {
    const listener = (_event: unknown, payload: ApiEvent): void => handler(payload)
    ipcRenderer.on(API_EVENT_CHANNEL, listener)
    return () => {
      ipcRenderer.removeListener(API_EVENT_CHANNEL, listener)
    }
  }
}

contextBridge.exposeInMainWorld('api', api)
