import { isMessageRef, type CodedText, type MessageCode, type MessageParam, type MessageParams } from './error-codes'

/**
 * How an error crosses every transport (IPC, HTTP, CLI --json, MCP): `code` says what kind (not_found, conflict…:
 * the HTTP status and the hint come from it), `message` is English for people and logs, and `messageCode` + `params`
 * say which message it is (error-codes.ts), so a client words it in its own language without reading the English.
 */
export interface ApiErrorShape {
  code: string
  message: string
  messageCode?: MessageCode
  params?: MessageParams
}

/**
 * The error `SkillbenchApi.call` throws, same on both transports. Its own module without zod: the renderer imports
 * it, and the API contract's schemas (zod) would otherwise be parsed and built by every page load.
 */
export class ApiError extends Error {
  readonly messageCode?: MessageCode
  readonly params?: MessageParams

  constructor(
    readonly code: string,
    message: string | CodedText,
    ref?: { messageCode?: unknown; params?: unknown }
  ) {
    super(typeof message === 'string' ? message : message.text)
    this.name = 'ApiError'
    const coded = typeof message === 'string' ? ref : message
    if (coded && isMessageRef(coded)) {
      this.messageCode = coded.messageCode
      this.params = coded.params
    }
  }
}

/**
 * An error of a layer without an error class of its own (a parser, a validator): its kind `code` (the HTTP status
 * comes from it) and a coded message, so it crosses every transport, or becomes a param of its caller's message
 * through reasonOf, still with its code.
 */
export class CodedError extends Error {
  readonly messageCode: MessageCode
  readonly params: MessageParams

  constructor(
    readonly code: string,
    message: CodedText,
    options?: ErrorOptions
  ) {
    super(message.text, options)
    this.name = 'CodedError'
    this.messageCode = message.messageCode
    this.params = message.params
  }
}

/** The `{messageCode, params}` an error carries, when it carries a known one (any error class, duck-typed). */
export function codedFieldsOf(err: unknown): { messageCode: MessageCode; params: MessageParams } | undefined {
  if (!err || typeof err !== 'object') return undefined
  const e = err as { messageCode?: unknown; params?: unknown }
  return isMessageRef(e) ? { messageCode: e.messageCode, params: e.params } : undefined
}

/**
 * What was thrown, as coded words: its English message, by its own code when it carries one, else by `fallback`
 * given those words (a file system's or a parser's error keeps its words as a param of the caller's code).
 */
export function errorAsCoded(err: unknown, fallback: (detail: string) => CodedText): CodedText {
  const text = err instanceof Error ? err.message : String(err)
  const fields = codedFieldsOf(err)
  return fields ? { ...fields, text } : fallback(text)
}

/** An error as a param of another message ("{path}: {reason}"): its code and params when it carries them, else its text. */
export function reasonOf(err: unknown): MessageParam {
  return codedFieldsOf(err) ?? (err instanceof Error ? err.message : String(err))
}

/** The wire shape of a coded error, e.g. `errorShape('unauthorized', coded('api.bad_token'))`. */
export function errorShape(code: string, message: CodedText): ApiErrorShape {
  return { code, message: message.text, messageCode: message.messageCode, params: message.params }
}
