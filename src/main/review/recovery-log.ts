/**
 * What transaction recovery did, kept for the app (`.skillbench/recovery-log`, JSON lines, append-only under the
 * library lock): whichever process recovers — an accept, undo, restore, curation or sync from the CLI, an agent's
 * MCP server or the app — appends one record when it rolled a change back or could not set one right. The app
 * reads the records after the last one the person dismissed (`.skillbench/recovery-seen.json`, a byte offset
 * written atomically) and shows them on the Skills screen, also after a restart. Nothing is ever removed from the
 * log; dismissing only moves the offset forward. Both files are this machine's (sync's .gitignore keeps
 * `.skillbench/*` out of the repository).
 *
 * The log only grows, so nothing here reads all of it: a listing reads the bytes after the seen offset (at most
 * MAX_UNSEEN_BYTES, the newest; older unseen bytes are reported, not skipped silently), dismissing takes the size
 * from fstat.
 */
import type fs from 'node:fs'
import { codedLine, type CodedLine } from '../../shared/error-codes'
import { appendContained, readContainedText, withContainedFile, writeContained } from '../store/contained'
import { withLibraryLock } from '../store/lock'
import { newRecordId, STATE_DIR } from './journal'

export const RECOVERY_LOG_REL = `${STATE_DIR}/recovery-log`
export const RECOVERY_SEEN_REL = `${STATE_DIR}/recovery-seen.json`
/** Records shown at most (the newest): a library that keeps crashing must not grow the notice without end. */
export const MAX_SHOWN = 50
/** Unseen bytes a listing reads at most (the newest): MAX_SHOWN records take a few kB, thousands ~1 MB. */
export const MAX_UNSEEN_BYTES = 1024 * 1024

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
    const v = JSON.parse((await readContainedText(root, RECOVERY_SEEN_REL, { maxBytes: 64 * 1024 })) ?? '{}') as { offset?: unknown }
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
  /** What of the unseen part is not shown (review.recovery_log_unread, review.recovery_log_more); absent when all is. */
  problems?: CodedLine[]
}

/** `length` bytes of the open file from byte `position` (fewer only if the file is shorter now). */
async function readAt(fh: fs.promises.FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(length)
  let got = 0
  while (got < length) {
    const { bytesRead } = await fh.read(buf, got, length - got, position + got)
    if (bytesRead === 0) break
    got += bytesRead
  }
  return buf.subarray(0, got)
}

/**
 * The records not dismissed yet. Only reads (never through a link), and only the unseen part: at most `maxBytes`
 * (default MAX_UNSEEN_BYTES) of it, the newest; a larger unseen part is said by a problem line. A missing log has none.
 */
export async function readUnseenRecoveries(root: string, opts: { maxBytes?: number } = {}): Promise<UnseenRecoveries> {
  const cap = opts.maxBytes ?? MAX_UNSEEN_BYTES
  const seen = await readSeenOffset(root)
  const read = await withContainedFile(root, RECOVERY_LOG_REL, async (fh, st, abs) => {
    // an offset past the end: the log was replaced by hand with a shorter one, so all of it is new
    const from = seen > st.size ? 0 : seen
    // the newest `cap` bytes; one byte before them too, which says whether they start a line
    const start = Math.max(from, st.size - cap)
    const at = start > from ? start - 1 : start
    return { abs, from, start, at, bytes: await readAt(fh, at, st.size - at) }
  })
  if (read === null) return { records: [], end: 0 }
  const { abs, from, start, at } = read
  let bytes = read.bytes
  let offset = at
  if (at < start) {
    // cut inside the unseen part: the first (partial) line is not read
    const nl = bytes.indexOf(0x0a)
    const skip = nl < 0 ? bytes.length : nl + 1
    bytes = bytes.subarray(skip)
    offset += skip
  }
  // a torn last line (a crash while appending) is not read yet: the next append ends it, then it is skipped as torn
  const last = bytes.lastIndexOf(0x0a)
  const end = last < 0 ? Math.max(from, offset) : offset + last + 1
  const records: RecoveryLogRecord[] = []
  for (const line of bytes.subarray(0, last + 1).toString('utf8').split('\n')) {
    if (line.trim() === '') continue
    try {
      const v: unknown = JSON.parse(line)
      if (isRecord(v)) records.push(v)
    } catch {
      // a torn line, ended by the next append
    }
  }
  const problems: CodedLine[] = []
  if (offset > from) problems.push(codedLine('review.recovery_log_unread', { path: abs, bytes: offset - from, cap }))
  if (records.length > MAX_SHOWN) problems.push(codedLine('review.recovery_log_more', { n: records.length - MAX_SHOWN, path: abs }))
  return { records: records.slice(-MAX_SHOWN), end, ...(problems.length > 0 ? { problems } : {}) }
}

/**
 * Marks the records up to byte `upTo` seen (what the person was shown: records appended since stay shown). The
 * offset only moves forward and never past the log's end; written atomically under the library lock. Returns it.
 */
export async function markRecoveriesSeen(root: string, upTo: number): Promise<number> {
  return withLibraryLock(
    root,
    async () => {
      // the log's size from fstat: dismissing never reads the log
      const size = (await withContainedFile(root, RECOVERY_LOG_REL, async (_fh, st) => st.size)) ?? 0
      const current = await readSeenOffset(root)
      const offset = Math.max(current > size ? 0 : current, Math.min(upTo, size))
      if (offset !== current) await writeContained(root, RECOVERY_SEEN_REL, `${JSON.stringify({ offset, at: new Date().toISOString() })}\n`)
      return offset
    },
    { purpose: 'dismissing recovery notices' }
  )
}
