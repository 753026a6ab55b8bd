/**
 * A deploy stopped by its signal (the CLI's first Ctrl-C), and the points of a real run a test may hold it at.
 * Before the first file is written the deploy stops and says "cancelled", as `sync` does (the same code, the same
 * exit). Once files are being written it stops between two files and takes back the ones written (run.ts), so the
 * target is never left half-deployed by a cancel. Pure.
 */
import { CodedError } from '../../shared/api-error'
import { coded, type CodedText } from '../../shared/error-codes'

/** Where a real run may be held (tests: SKILLBENCH_DEPLOY_PAUSE_AT in the CLI). */
export type DeployStop = { step: 'planned' } | { step: 'file'; n: number; rel: string }

/**
 * Awaited at each point of a real run a crash test stops at: `planned` (the plan made, nothing written yet), then
 * `file` n for every file written (its folder made, its bytes not yet written).
 */
export type DeployCheckpoint = (at: DeployStop) => Promise<void>

/** The deploy's "cancelled" (`source.cancelled`, what `sync` says), or what a cancel took back. */
export function deployCancelled(message: CodedText = coded('source.cancelled')): CodedError {
  return new CodedError('aborted', message)
}

export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw deployCancelled()
}

/** A step aborted by the deploy's signal (an AbortError: Node's "This operation was aborted") is the deploy's "cancelled". */
export function asCancelled(err: unknown, signal: AbortSignal | undefined): unknown {
  return signal?.aborted && err instanceof Error && err.name === 'AbortError' ? deployCancelled() : err
}
