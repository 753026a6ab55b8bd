import type { CodedText, MessageCode, MessageParams } from '../../shared/error-codes'
/** What went wrong talking to the model, in words a user can act on. */
export type LlmErrorCode =
  | 'timeout'
  | 'rate_limited'
  | 'server'
  | 'connection'
  | 'auth'
  | 'bad_request'
  | 'aborted'
  | 'bad_answer'
  | 'config'

/**
 * The one error the LLM adapter throws. Its message is already redacted (no key, no bearer token); it takes a coded
 * message only (shared/error-codes.ts), whose code and params cross every transport beside the English.
 */
export class LlmError extends Error {
  readonly messageCode: MessageCode
  readonly params: MessageParams

  constructor(
    readonly code: LlmErrorCode,
    message: CodedText,
    /** How many HTTP attempts were made (1 = no retry). */
    readonly attempts: number,
    readonly status?: number
  ) {
    super(message.text)
    this.name = 'LlmError'
    this.messageCode = message.messageCode
    this.params = message.params
  }

  /** True when trying again later may help (the run reports the task failed, not the config wrong). */
  get retryable(): boolean {
    return this.code === 'timeout' || this.code === 'rate_limited' || this.code === 'server' || this.code === 'connection'
  }
}
