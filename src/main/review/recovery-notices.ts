/**
 * What recovery did, told to whoever ran the work it happened in: a CLI command prints it on stderr and in its
 * `--json` (`recovered`), an MCP tool call adds it to its answer. The recovery-log keeps it for the app; this is the
 * same lines, said at once to the caller.
 *
 * Recovery runs deep below the hosts (inside the store's lock, a transaction, a deploy), so the caller is found by
 * async context, not passed down: a host runs its work in `hearRecoveries(listener, work)`, and a recovery inside
 * that work — whatever awaits lie between — calls `tellRecovery`. Two MCP tool calls in flight each hear only their
 * own; work outside any listener (the app: it has the banner) tells nobody.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { CodedLine, MessageCode, MessageParams } from '../../shared/error-codes'

export type RecoveryListener = (lines: readonly CodedLine[]) => void

const listeners = new AsyncLocalStorage<RecoveryListener>()

/** Runs `work` with `listener` hearing every recovery inside it (an inner hearRecoveries hears instead). */
export function hearRecoveries<T>(listener: RecoveryListener, work: () => T): T {
  return listeners.run(listener, work)
}

/** Tells the listener of the current work what a recovery did (rollbacks, then problems); nothing without one. */
export function tellRecovery(lines: readonly CodedLine[]): void {
  if (lines.length === 0) return
  const listener = listeners.getStore()
  try {
    listener?.(lines)
  } catch {
    // a listener that fails must not fail the recovery, which already happened and is logged
  }
}

/** A recovery line as the CLI's `--json` and the MCP answers carry it. */
export interface RecoveredEntry {
  code: MessageCode
  params: MessageParams
  message: string
}

export function recoveredEntry(line: CodedLine): RecoveredEntry {
  return { code: line.messageCode, params: line.params, message: line.message }
}

/** What a host keeps of the recoveries in one piece of work (a CLI command, an MCP call, a daemon's answer). */
export interface RecoveryCollector {
  /** Every line heard so far, as `recovered` carries them. */
  readonly entries: RecoveredEntry[]
  /** Runs `work` hearing its recoveries (hearRecoveries). */
  run<T>(work: () => T): T
}

/** Collects what recovery did in the work `run` is given; each line also goes to `onLine` as it is heard (stderr, a log). */
export function recoveryCollector(onLine?: (line: CodedLine) => void): RecoveryCollector {
  const entries: RecoveredEntry[] = []
  const listener: RecoveryListener = (lines) => {
    for (const line of lines) {
      onLine?.(line)
      entries.push(recoveredEntry(line))
    }
  }
  return { entries, run: (work) => hearRecoveries(listener, work) }
}
