import type { MessageCode } from '../shared/error-codes'

/**
 * IPC channel names and the answer envelope, shared by the preload and the main process.
 * Dependency-free on purpose: the sandboxed preload bundles it (it cannot `require` zod).
 */

/** Main → renderer pushed events. */
export const API_EVENT_CHANNEL = 'api:event'

/** The channel of one contract method. */
export function apiChannel(method: string): string {
  return `api:${method}`
}

/** Method names look like `skills.list`; anything else never reaches ipcRenderer. */
export function isMethodName(method: unknown): method is string {
  return typeof method === 'string' && /^[a-z]+\.[A-Za-z]+$/.test(method)
}

/**
 * What a handler returns over IPC. Errors travel as values: Electron flattens a thrown error to a string
 * ("Error invoking remote method…") and the context bridge keeps only an Error's message, so the code
 * would be lost.
 */
export type IpcAnswer = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string; messageCode?: string; params?: unknown } }

/**
 * The rejection value `window.api.call` uses in Electron: a plain object (cloned intact through the
 * context bridge, unlike an Error). The renderer turns it back into `ApiError(code, message)`.
 */
export interface BridgedError {
  name: 'ApiError'
  code: string
  message: string
  /** The message's code and params (shared/error-codes.ts), passed through as they came. */
  messageCode?: string
  params?: unknown
}

/** Unwraps an IPC answer: the value, or throws a `BridgedError` with the same code and message as web mode. */
export function decodeIpcAnswer(answer: unknown): unknown {
  const a = answer as IpcAnswer | undefined
  if (a && a.ok === true) {
    return a.value
  }
  const error: BridgedError =
    a && a.ok === false && a.error
      ? { name: 'ApiError', code: String(a.error.code), message: String(a.error.message), ...codedPart(a.error) }
      : { name: 'ApiError', code: 'internal', message: 'the main process gave no answer', messageCode: 'api.no_answer' satisfies MessageCode, params: {} }
  throw error
}

/** The messageCode and params of an IPC error, when it has them (checked by the renderer's ApiError). */
function codedPart(error: { messageCode?: unknown; params?: unknown }): { messageCode?: string; params?: unknown } {
  return typeof error.messageCode === 'string' ? { messageCode: error.messageCode, params: error.params } : {}
}

/** True for a `BridgedError` (what the renderer checks before rebuilding an ApiError). */
export function isBridgedError(value: unknown): value is BridgedError {
  const v = value as BridgedError | undefined
  return Boolean(v && typeof v === 'object' && v.name === 'ApiError' && typeof v.code === 'string' && typeof v.message === 'string')
}

/**
 * For the renderer (Electron only): wraps `window.api` so failures are real errors again, e.g.
 * `withApiErrors(window.api, (e) => new ApiError(e.code, e.message, e))` in `pickApi`.
 * Needed because a class instance cannot cross the context bridge (the page gets a plain object).
 */
export function withApiErrors<A extends { call(method: never, input: never): Promise<unknown> }>(api: A, toError: (error: BridgedError) => Error): A {
  const call = api.call.bind(api) as (method: unknown, input: unknown) => Promise<unknown>
  return {
    ...api,
    call: async (method: unknown, input: unknown) => {
      try {
        return await call(method, input)
      } catch (err) {
        throw isBridgedError(err) ? toError(err) : err
      }
    }
  }
}
