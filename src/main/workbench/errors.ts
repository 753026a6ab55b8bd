import { ApiError, codedFieldsOf, type ApiErrorShape } from '../../shared/api-error'
import { coded, refOf, type CodedText } from '../../shared/error-codes'
import { messageRefOf } from '../../shared/message-match'
import { redact, redactParams } from '../llm/redact'

/** HTTP status for each error code that crosses a transport (anything else is a 500). */
const STATUS_BY_CODE: Record<string, number> = {
  bad_request: 400,
  invalid_id: 400,
  invalid_input: 400,
  invalid: 400,
  locked: 409,
  busy: 503,
  duplicate_id: 409,
  path_escape: 403,
  forbidden: 403,
  unauthorized: 401,
  not_found: 404,
  conflict: 409,
  exists: 409,
  not_utf8: 422,
  malformed: 422,
  unavailable: 503,
  internal: 500
}

/** The HTTP status a web-mode answer uses for an error code. */
export function statusForCode(code: string): number {
  return STATUS_BY_CODE[code] ?? 500
}

/** A `bad_request` ApiError: the caller sent something the workbench refuses. */
export function badRequest(message: string | CodedText): ApiError {
  return new ApiError('bad_request', message)
}

/**
 * Turns anything thrown by the core into the `{code, message, messageCode?, params?}` every transport sends.
 *
 * Errors with a `code` string (StoreError, LlmError, ApiError) keep it; anything else is 'internal'. An error that
 * carries a known `messageCode` keeps it and its params; one that does not gets them from its English text when the
 * table (shared/error-codes.ts) produced it. Message and params are redacted so a key that slipped
 * into an error never reaches the renderer.
 */
export function toApiErrorShape(err: unknown, secrets: readonly (string | undefined)[] = []): ApiErrorShape {
  if (err && typeof err === 'object') {
    const e = err as { code?: unknown; message?: unknown; name?: unknown }
    const message = typeof e.message === 'string' && e.message ? e.message : String(err)
    // An error of a layer that still throws words carries its code too when the table produced those words.
    const ref = codedFieldsOf(err) ?? messageRefOf(message) ?? undefined
    const codedPart = ref ? { messageCode: ref.messageCode, params: redactParams(ref.params, secrets) } : {}
    if (typeof e.code === 'string' && /^[a-z_]{2,40}$/.test(e.code)) {
      return { code: e.code, message: redact(message, secrets), ...codedPart }
    }
    if (e.code === 'ENOENT') {
      return { code: 'not_found', message: redact(message, secrets), ...codedPart }
    }
    if (e.name === 'AbortError') {
      const cancelled = coded('api.cancelled')
      return { code: 'aborted', message: cancelled.text, ...refOf(cancelled) }
    }
    return { code: 'internal', message: redact(message, secrets), ...codedPart }
  }
  return { code: 'internal', message: redact(String(err), secrets) }
}
