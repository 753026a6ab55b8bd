/**
 * What transaction recovery did, kept for the app (`.skillbench/recovery-log`, JSON lines, append-only under the
 * library lock): whichever process recovers — an accept, undo, restore, curation or sync from the CLI, an agent's
 * MCP server or the app — appends one record when it rolled a change back or could not set one right. The app
 * reads the records after the last one the person dismissed (`.skillbench/recovery-seen.json`, a byte offset
 * written atomically) and shows them on the Skills screen, also after a restart. Nothing is ever removed from the
 * log; dismissing only moves the offset forward. Both files are this machine's (sync's .gitignore keeps
 * `.skillbench/*` out of the repository).
 */
import type { CodedLine } from '../../shared/error-codes'
import { appendContained, readContained, readContainedText, writeContained } from '../store/contained'
import { withLibraryLock } from '../store/lock'
import { newRecordId, STATE_DIR } from './journal'

export const RECOVERY_LOG_REL = `${STATE_DIR}/recovery-log`
export const RECOVERY_SEEN_REL = `${STATE_DIR}/recovery-seen.json`
/** Records shown at most (the newest): a library that keeps crashing must not grow the notice without end. */
const MAX_SHOWN = 50
/** A larger log is not read (it is reported by nobody: only the notice is lost). Thousands of records take ~1 MB. */
const MAX_BYTES = 32 * 1024 * 1024

/** One recovery that changed something or could not, as the log keeps it. */
export interface RecoveryLogRecord {
  id: string
  /** ISO time of the recovery. */
  at: string
  pid: number
  /** Transactions rolled back. */
  rolled_back: string[]
  /** What the person is told, in order: each rollback (review.recover_rolled_back), then each problem (review.recover_*). */
  lines: CodedLine[]
}

/** Appends a record (durable before returning); under the library lock, re-entered when the caller holds it. */
export async function appendRecoveryLog(root: string, entry: Pick<RecoveryLogRecord, 'rolled_back' | 'lines'>, now: Date = new Date()): Promise<RecoveryLogRecord> {
  const record: RecoveryLogRecord = { id: newRecordId(now), at: now.toISOString(), pid: process.pid, ...entry }
  await withLibraryLock(root, () => appendContained(root, RECOVERY_LOG_REL, `${JSON.stringify(record)}\n`, { fsync: true }), { purpose: 'keeping what recovery did' })
  return record
}

function isRecord(v: unknown): v is RecoveryLogRecord {
  if (typeof v !== 'object' || v === null) return false
  const r = v as Record<string, unknown>
  return typeof r.id === 'string' && typeof r.at === 'string' && Array.isArray(r.lines) && r.lines.every((l) => typeof (l as CodedLine)?.message === 'string')
}

/** The dismissed offset (0 when nothing was dismissed or the file does not read). Only reads. */
export async function readSeenOffset(root: string): Promise<number> {
  try {
    const v = JSON.parse((await readContainedText(root, RECOVERY_SEEN_REL)) ?? '{}') as { offset?: unknown }
    return typeof v.offset === 'number' && Number.isSafeInteger(v.offset) && v.offset > 0 ? v.offset : 0
  } catch {
    return 0
  }
}

export interface UnseenRecoveries {
  /** Records after the dismissed offset, oldest first (the newest MAX_SHOWN), torn or foreign lines skipped. */
  records: RecoveryLogRecord[]
  /** The byte offset after the last complete line read: dismissing up to it hides exactly these records. */
  end: number
}

/** The records not dismissed yet. Only reads (never through a link); a missing log has none. */
export async function readUnseenRecoveries(root: string): Promise<UnseenRecoveries> {
  const bytes = await readContained(root, RECOVERY_LOG_REL, { maxBytes: MAX_BYTES })
  if (bytes === null) return { records: [], end: 0 }
  let from = await readSeenOffset(root)
  // an offset past the end: the log was replaced by hand with a shorter one, so all of it is new
  if (from > bytes.length) from = 0
  // a torn last line (a crash while appending) is not read yet: the next append ends it, then it is skipped as torn
  const end = bytes.lastIndexOf(0x0a) + 1
  if (end <= from) return { records: [], end: Math.max(end, from) }
  const records: RecoveryLogRecord[] = []
  for (const line of bytes.subarray(from, end).toString('utf8').split('\n')) {
    if (line.trim() === '') continue
    try {
      const v: unknown = JSON.parse(line)
      if (isRecord(v)) records.push(v)
    } catch {
      // a torn line, ended by the next append
    }
  }
  return { records: records.slice(-MAX_SHOWN), end }
}

/**
 * Marks the records up to byte `upTo` seen (what the person was shown: records appended since stay shown). The
 * offset only moves forward and never past the log's end; written atomically under the library lock. Returns it.
 */
export async function markRecoveriesSeen(root: string, upTo: number): Promise<number> {
  return withLibraryLock(
    root,
    async () => {
      const size = (await readContained(root, RECOVERY_LOG_REL, { maxBytes: MAX_BYTES }))?.length ?? 0
      const current = await readSeenOffset(root)
      const offset = Math.max(current > size ? 0 : current, Math.min(upTo, size))
      if (offset !== current) await writeContained(root, RECOVERY_SEEN_REL, `${JSON.stringify({ offset, at: new Date().toISOString() })}\n`)
      return offset
    },
    { purpose: 'dismissing recovery notices' }
  )
}
