/** The error sync throws (its own module: the state files and init throw it too, below sync.ts). */
import type { CodedText, MessageCode, MessageParams } from '../../shared/error-codes'

/** Why sync cannot run; the message says what to do, by code (error-codes.ts) so the app words it in its language. */
export class SyncError extends Error {
  readonly messageCode: MessageCode
  readonly params: MessageParams

  constructor(
    readonly code: 'not_repo' | 'in_progress' | 'no_remote' | 'detached' | 'identity' | 'busy' | 'diverging' | 'failed',
    message: CodedText
  ) {
    super(message.text)
    this.name = 'SyncError'
    this.messageCode = message.messageCode
    this.params = message.params
  }
}
