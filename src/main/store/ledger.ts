/**
 * The library's change ledger, `.skillbench/usage.jsonl`: append-only JSON lines written under the library lock
 * by every process.
 *
 * - `use`: a query returned these skills (fetch_count + 1 each, last_used_at = at). Uses are cheap to record —
 *   one small fsynced append instead of rewriting each skill file — and are folded into the skills' front
 *   matter later (see Library.foldUsage), so the files keep the fields upstream agents read.
 * - `write`: these library paths were written, created or moved. Long-lived readers (an MCP server, the app) tail
 *   the ledger and reload just those paths, so another process's change is seen at the next query without
 *   re-reading the library.
 * - `fold`: every use before this line is now in the files (and these paths were rewritten). It is the commit
 *   point of a fold; readers drop the uses they were adding on top of the files.
 *
 * A process sees a skill's counters as its file's values plus the uses after the last fold. Big, fully folded
 * ledgers are moved to `.skillbench/usage-archive/` (kept as usage history, never deleted).
 */
import fs from 'node:fs'
import path from 'node:path'
import { listContained, readContained } from './contained'

export const LEDGER_REL = '.skillbench/usage.jsonl'
/** The intent of a fold in progress (present only while folding or after a crash mid-fold). */
export const FOLD_INTENT_REL = '.skillbench/usage-fold.json'
export const LEDGER_ARCHIVE_REL = '.skillbench/usage-archive'

export type LedgerRecord =
  | { t: 'use'; ids: string[]; at: string; via?: string }
  | { t: 'write'; paths: string[]; at: string }
  | { t: 'fold'; paths: string[]; at: string }
  /**
   * What a tool did to one skill (`rate` with its rating, `edit` with its mode): the facts sync shares with other
   * machines (ratings replay in time order) and the words of its commit messages. Written with the change.
   */
  | { t: 'act'; id: string; at: string; what: string; title?: string; detail?: string; rating?: number }

/** Uses of one skill not yet folded into its file. */
export interface PendingUse {
  count: number
  /** Latest use (same timestamp format as last_used_at). */
  last: string
}

function isStringList(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string')
}

/**
 * A JSON-lines record with its time: the object of `line`, or null when the line is no JSON object with an `at`
 * string (empty, over 1 MB, torn, another shape). The local ledger's lines and the team ledger's share it.
 */
export function timedRecordOf(line: string): (Record<string, unknown> & { at: string }) | null {
  if (line.length === 0 || line.length > 1_000_000) return null
  let v: unknown
  try {
    v = JSON.parse(line)
  } catch {
    return null
  }
  if (typeof v !== 'object' || v === null) return null
  const r = v as Record<string, unknown>
  return typeof r.at === 'string' ? (r as Record<string, unknown> & { at: string }) : null
}

/** One ledger line, or null for a line that is not a record we know (skipped, never fatal). */
export function parseLedgerLine(line: string): LedgerRecord | null {
  const r = timedRecordOf(line)
  if (!r) return null
  if (r.t === 'use' && isStringList(r.ids)) return { t: 'use', ids: r.ids, at: r.at, ...(typeof r.via === 'string' ? { via: r.via } : {}) }
  if ((r.t === 'write' || r.t === 'fold') && isStringList(r.paths)) return { t: r.t, paths: r.paths, at: r.at }
  if (r.t === 'act' && typeof r.id === 'string' && typeof r.what === 'string') {
    return { t: 'act', id: r.id, at: r.at, what: r.what, ...(typeof r.title === 'string' ? { title: r.title } : {}), ...(typeof r.detail === 'string' ? { detail: r.detail } : {}), ...(typeof r.rating === 'number' && Number.isFinite(r.rating) ? { rating: r.rating } : {}) }
  }
  return null
}

/**
 * The complete lines of a chunk (a line is complete once its newline is written; the unterminated tail of an
 * append in progress, or torn by a crash, is left for later). `consumed` is the byte length of those lines.
 */
export function parseLedgerChunk(bytes: Uint8Array): { records: LedgerRecord[]; consumed: number; afterLastFold: number } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const end = buf.lastIndexOf(0x0a)
  if (end < 0) return { records: [], consumed: 0, afterLastFold: -1 }
  const records: LedgerRecord[] = []
  let afterLastFold = -1
  for (let start = 0; start <= end; ) {
    const nl = buf.indexOf(0x0a, start)
    const r = parseLedgerLine(buf.toString('utf8', start, nl))
    if (r) {
      records.push(r)
      if (r.t === 'fold') afterLastFold = nl + 1
    }
    start = nl + 1
  }
  return { records, consumed: end + 1, afterLastFold }
}

/** Adds a use record to the pending uses (count + 1 per id, latest time kept). */
export function addUse(pending: Map<string, PendingUse>, record: { ids: readonly string[]; at: string }): void {
  for (const id of new Set(record.ids)) {
    const p = pending.get(id)
    if (p) {
      p.count++
      if (record.at > p.last) p.last = record.at
    } else {
      pending.set(id, { count: 1, last: record.at })
    }
  }
}

/** The uses after the last fold record, per skill id. Pure. */
export function pendingUsesOf(records: readonly LedgerRecord[]): Map<string, PendingUse> {
  const pending = new Map<string, PendingUse>()
  for (const r of records) {
    if (r.t === 'fold') pending.clear()
    else if (r.t === 'use') addUse(pending, r)
  }
  return pending
}

/** The later of two timestamps in the same format (null = never). */
export function laterTime(a: string | null, b: string): string {
  return a !== null && a >= b ? a : b
}

/** The counters a skill shows with its uses not folded yet added. Pure. */
export function withPendingUse(counters: { fetch_count: number; last_used_at: string | null }, use: PendingUse): { fetch_count: number; last_used_at: string } {
  return { fetch_count: counters.fetch_count + use.count, last_used_at: laterTime(counters.last_used_at, use.last) }
}

/** A record as one ledger line. */
export function ledgerLine(record: LedgerRecord): string {
  return JSON.stringify(record) + '\n'
}

/** What changed since the last poll of a ledger tail. */
export interface LedgerChanges {
  /** The ledger was replaced or shortened (archived, or edited by hand): anything derived from it must be rebuilt. */
  reset: boolean
  /** Library paths written by some process (writes and folds), in ledger order, deduplicated. */
  paths: string[]
  /** A use was recorded or a fold committed: the pending uses changed. */
  usesChanged: boolean
}

/**
 * Follows one library's ledger incrementally: each poll costs two lstat calls when nothing changed, and reads
 * only the bytes appended since. Never follows a link (`.skillbench` or the ledger itself being one makes the
 * ledger count as absent, and writers refuse it).
 */
export class LedgerTail {
  private ino = -1
  private offset = 0
  /** Byte offset just after the last fold record (0 when none). */
  private foldEnd = 0
  private readonly pending = new Map<string, PendingUse>()
  private readonly dir: string
  private readonly file: string

  constructor(readonly root: string) {
    this.dir = path.join(root, path.dirname(LEDGER_REL))
    this.file = path.join(root, LEDGER_REL)
  }

  /** The uses not folded yet, as of the last poll. */
  uses(): ReadonlyMap<string, PendingUse> {
    return this.pending
  }

  /** Size and inode of the ledger (null when absent or not a plain file in a real folder). */
  private statLedger(): fs.Stats | null {
    try {
      const d = fs.lstatSync(this.dir)
      if (!d.isDirectory()) return null
      const st = fs.lstatSync(this.file)
      return st.isFile() ? st : null
    } catch {
      return null
    }
  }

  /** Reads what was appended since the last poll. */
  poll(): LedgerChanges {
    const st = this.statLedger()
    const changes: LedgerChanges = { reset: false, paths: [], usesChanged: false }
    if (!st) {
      if (this.ino !== -1 || this.offset !== 0) {
        this.ino = -1
        this.offset = 0
        this.foldEnd = 0
        changes.reset = true
        changes.usesChanged = this.pending.size > 0
        this.pending.clear()
      }
      return changes
    }
    if (st.ino !== this.ino || st.size < this.offset) {
      changes.reset = this.ino !== -1 || this.offset !== 0
      changes.usesChanged = this.pending.size > 0
      this.ino = st.ino
      this.offset = 0
      this.foldEnd = 0
      this.pending.clear()
    }
    if (st.size === this.offset) return changes
    let fd: number
    try {
      fd = fs.openSync(this.file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0))
    } catch {
      return changes
    }
    let bytes: Buffer
    try {
      const fst = fs.fstatSync(fd)
      if (fst.ino !== this.ino) return { ...changes, reset: true } // replaced between stat and open: next poll
      const length = fst.size - this.offset
      bytes = Buffer.allocUnsafe(Math.max(0, length))
      let got = 0
      while (got < length) {
        const n = fs.readSync(fd, bytes, got, length - got, this.offset + got)
        if (n === 0) break
        got += n
      }
      bytes = bytes.subarray(0, got)
    } finally {
      fs.closeSync(fd)
    }
    const { records, consumed, afterLastFold } = parseLedgerChunk(bytes)
    if (afterLastFold >= 0) this.foldEnd = this.offset + afterLastFold
    this.offset += consumed
    const seen = new Set<string>()
    for (const r of records) {
      if (r.t === 'use') {
        addUse(this.pending, r)
        changes.usesChanged = true
      } else if (r.t !== 'act') {
        if (r.t === 'fold') {
          this.pending.clear()
          changes.usesChanged = true
        }
        for (const p of r.paths) {
          if (!seen.has(p)) {
            seen.add(p)
            changes.paths.push(p)
          }
        }
      }
    }
    return changes
  }

  /** Bytes of the ledger read so far (its size at the last poll, up to the last complete line). */
  get size(): number {
    return this.offset
  }

  /** Bytes recorded after the last fold (what the next fold will read). */
  get unfoldedBytes(): number {
    return this.offset - this.foldEnd
  }
}

/** One recorded query hit: which skills a `query_skill` (MCP, CLI, app) returned, when, and through what. */
export interface UseRecord {
  ids: string[]
  /** As written: naive local ISO time. */
  at: string
  /** `mcp`, `cli`… (absent in old lines). */
  via?: string
}

/** Largest ledger file read for history (a bigger one is reported, not read). */
const HISTORY_MAX_BYTES = 256 * 1024 * 1024

/**
 * Every query hit Skillbench recorded for a library, oldest first: the archived ledgers
 * (`.skillbench/usage-archive/usage-*.jsonl`, named by time) and then the current one. Only reads, and never
 * through a link: a linked folder or file is named in `problems` and skipped, as is a file that cannot be read.
 * `root` must be the library's real path.
 */
export async function readUseHistory(root: string): Promise<{ uses: UseRecord[]; problems: string[] }> {
  const uses: UseRecord[] = []
  const problems: string[] = []
  const files: string[] = []
  try {
    const names = await listContained(root, LEDGER_ARCHIVE_REL)
    files.push(...names.filter((n) => /^usage-.*\.jsonl$/.test(n)).sort().map((n) => `${LEDGER_ARCHIVE_REL}/${n}`))
  } catch (err) {
    problems.push(`${LEDGER_ARCHIVE_REL}: ${(err as Error).message}`)
  }
  files.push(LEDGER_REL)
  for (const rel of files) {
    let bytes: Buffer | null
    try {
      bytes = await readContained(root, rel, { maxBytes: HISTORY_MAX_BYTES })
    } catch (err) {
      problems.push(`${rel}: ${(err as Error).message}`)
      continue
    }
    if (!bytes) continue
    for (const r of parseLedgerChunk(bytes).records) {
      if (r.t === 'use') uses.push({ ids: r.ids, at: r.at, ...(r.via ? { via: r.via } : {}) })
    }
  }
  return { uses, problems }
}
