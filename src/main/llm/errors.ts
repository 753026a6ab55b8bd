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

/** The one error the LLM adapter throws. Its message is already redacted (no key, no bearer token). */
export class LlmError extends Error {
  constructor(
    readonly code: LlmErrorCode,
    message: string,
    /** How many HTTP attempts were made (1 = no retry). */
    readonly attempts: number,
    readonly status?: number
  ) {
    super(message)
    this.name = 'LlmError'
  }

  /** True when trying again later may help (the run reports the task failed, not the config wrong). */
  get retryable(): boolean {
    return this.code === 'timeout' || this.code === 'rate_limited' || this.code === 'server' || this.code === 'connection'
  }
}
