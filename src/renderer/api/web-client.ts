/**
 * The web-mode transport: the same `SkillbenchApi` over HTTP + server-sent events.
 *
 * Wire format (see src/main/web-server): `POST /api/<method>` with the input as a JSON body and the
 * session token in the `x-skillbench-token` header; success = 200 + the output as JSON; failure =
 * non-2xx + `{ error: { code, message } }`. Events: `GET /api/events?token=…` as SSE, each
 * `data:` line one JSON `ApiEvent`.
 */
import { ApiError } from '../../shared/api-error'
import { coded } from '../../shared/error-codes'
import type { ApiEvent, ApiInput, ApiMethod, ApiOutput, SkillbenchApi } from '../../shared/api'

export interface WebClientOptions {
  /** Origin + base path, e.g. `http://127.0.0.1:5000` ('' = same origin). */
  baseUrl: string
  token: string
  fetch?: typeof fetch
  EventSource?: typeof EventSource
}

/** Creates the HTTP + SSE client. */
export function createWebClient(options: WebClientOptions): SkillbenchApi {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis)
  const ES = options.EventSource ?? globalThis.EventSource
  const handlers = new Set<(event: ApiEvent) => void>()
  let source: EventSource | null = null

  function openEvents(): void {
    if (source || !ES) return
    source = new ES(`${options.baseUrl}/api/events?token=${encodeURIComponent(options.token)}`)
    let openedBefore = false
    const dispatch = (event: ApiEvent): void => {
      for (const handler of [...handlers]) handler(event)
    }
    source.onopen = () => {
      // EventSource reconnects by itself; whatever changed while it was away was never pushed,
      // so after a reconnect everything is treated as changed (the UI re-reads).
      if (openedBefore) dispatch({ type: 'files.changed', paths: [] })
      openedBefore = true
    }
    source.onmessage = (message: MessageEvent<string>) => {
      let event: ApiEvent
      try {
        event = JSON.parse(message.data) as ApiEvent
      } catch {
        return // a malformed frame must not break the stream
      }
      dispatch(event)
    }
  }

  return {
    transport: 'web',
    async call<M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>> {
      let response: Response
      try {
        response = await doFetch(`${options.baseUrl}/api/${method}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-skillbench-token': options.token },
          body: JSON.stringify(input ?? {})
        })
      } catch (err) {
        throw new ApiError('network', coded('api.unreachable', { detail: (err as Error).message }))
      }
      const text = await response.text()
      let body: unknown
      try {
        body = text ? JSON.parse(text) : undefined
      } catch {
        throw new ApiError('internal', coded('api.not_json', { status: response.status }))
      }
      if (!response.ok) {
        const error = (body as { error?: { code?: unknown; message?: unknown; messageCode?: unknown; params?: unknown } } | undefined)?.error
        throw new ApiError(
          typeof error?.code === 'string' ? error.code : response.status === 401 || response.status === 403 ? 'unauthorized' : 'internal',
          typeof error?.message === 'string' ? error.message : `HTTP ${response.status}`,
          error
        )
      }
      return body as ApiOutput<M>
    },
    onEvent(handler) {
      handlers.add(handler)
      openEvents()
      return () => {
        handlers.delete(handler)
        if (handlers.size === 0 && source) {
          source.close()
          source = null
        }
      }
    }
  }
}
