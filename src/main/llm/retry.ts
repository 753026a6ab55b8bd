/** Backoff policy for model calls (pure: the random source is injected so tests are deterministic). */

export interface BackoffPolicy {
  /** First delay before a retry, ms. */
  baseMs: number
  /** Upper bound of a single delay, ms. */
  maxMs: number
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 500, maxMs: 8_000 }

/**
 * Delay before retry number `attempt` (1 = first retry): exponential growth with "equal jitter"
 * (half fixed, half random) so many clients hitting a 429 do not retry in lock-step.
 * A server's `Retry-After` (ms) wins when given, capped by `maxMs`.
 */
export function backoffDelayMs(
  attempt: number,
  policy: BackoffPolicy = DEFAULT_BACKOFF,
  random: () => number = Math.random,
  retryAfterMs?: number
): number {
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) {
    return Math.min(retryAfterMs, policy.maxMs)
  }
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1))
  return Math.round(exp / 2 + random() * (exp / 2))
}

/** Parses a `Retry-After` header (seconds or an HTTP date) into ms; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (!value) {
    return undefined
  }
  const seconds = Number(value)
  if (Number.isFinite(seconds)) {
    return Math.max(0, seconds * 1000)
  }
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** Waits `ms`, or rejects as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError())
      return
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(abortError())
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

function abortError(): Error {
  const err = new Error('cancelled')
  err.name = 'AbortError'
  return err
}
