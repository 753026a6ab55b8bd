/**
 * The library's curation journal (`.skillbench/journal`, JSON lines): every applied change, from what,
 * to what, when and by whom. Append-only; a torn last line (a crash while appending) is skipped on read
 * and never glued to the next record.
 */
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import type { FileChange, ProposalKind } from '../../shared/types'
import { appendContained, readContainedText } from '../store/contained'

/**
 * One step of a transaction. `write` with after:null removes a file the transaction itself created.
 * `move` renames a file or a SKILL.md folder; `file` names the skill file inside it ('' when the move is
 * of the file itself) and `text` is the content it must have when moved (conflict check).
 */
export type TxOp =
  | { op: 'write'; path: string; before: string | null; after: string | null }
  | { op: 'move'; from: string; to: string; file: string; text: string }

export interface JournalRecord {
  /** Transaction id (unique). */
  id: string
  /** `unreject`: a rejection undone (no files change: `changes` and `ops` are empty; review/unreject.ts). */
  action: 'apply' | 'undo' | 'restore' | 'unreject'
  proposal_id: string
  kind: ProposalKind | 'restore' | 'deploy'
  /** ISO-8601 time of the commit. */
  at: string
  /** Who accepted it (user name), or the author when no user was given. */
  by: string
  /** Who wrote the change: "offline" or the model name. */
  author?: string
  /** Exact before/after of every file (as in the proposal). */
  changes: FileChange[]
  /** What was done on disk, in order (undo reverses it). */
  ops: TxOp[]
  /** For undo records: the id of the record undone. */
  undoes?: string
  /** Deploy records (kind `deploy`, `ops` empty): what was written into an agent's skills folder outside the library. */
  deploy?: DeployRecord
  /** Memory records (kind `memory`, `ops` empty): the bullets written into a workspace's memory files (memory-proposals.ts). */
  memory?: { workspace: string; written: { file: string; entry: string; replaced?: string }[] }
}

/**
 * One file a deploy wrote, replaced or removed in a target folder: its path relative to the target and the
 * sha256 of its bytes before and after (null = absent). The bytes live in the library's deploy blob store.
 */
export interface DeployFileOp {
  rel: string
  before: string | null
  after: string | null
  /** Permission bits written (executable scripts keep theirs). */
  mode?: number
}

/** What a deploy did to one target folder, enough to undo it (the manifest's bytes are blobs too). */
export interface DeployRecord {
  /** The target folder's real path. */
  target: string
  /** How it was named (`claude`, `codex`, `agents:/repo`, a folder). */
  spec: string
  ops: DeployFileOp[]
  /** sha256 of the target's manifest before and after (null = absent). */
  manifest: { before: string | null; after: string | null }
}

export const STATE_DIR = '.skillbench'
/** Library-relative folder of transaction intents (transactions.ts writes them; recover-first.ts looks for them). */
export const TX_DIR = `${STATE_DIR}/tx`

/** A journal record's id: time first (records sort by it), then random bytes (processes writing at once never clash). */
export function newRecordId(now: Date = new Date()): string {
  return `${now.getTime().toString(36)}-${randomBytes(4).toString('hex')}`
}

export function stateDir(root: string): string {
  return path.join(root, STATE_DIR)
}

/** Library-relative path of the journal. */
export const JOURNAL_REL = `${STATE_DIR}/journal`

export function journalPath(root: string): string {
  return path.join(stateDir(root), 'journal')
}

function isRecord(v: unknown): v is JournalRecord {
  if (typeof v !== 'object' || v === null) return false
  const r = v as Record<string, unknown>
  return typeof r.id === 'string' && typeof r.action === 'string' && Array.isArray(r.ops) && typeof r.at === 'string'
}

/** Every well-formed record, oldest first, and how many lines could not be read. */
export async function readJournal(root: string): Promise<{ records: JournalRecord[]; unreadable: number }> {
  // Never read through a link: a journal that is one is refused (path_escape), like every write to it.
  const text = await readContainedText(root, JOURNAL_REL)
  if (text === null) return { records: [], unreadable: 0 }
  const records: JournalRecord[] = []
  let unreadable = 0
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    try {
      const v: unknown = JSON.parse(line)
      if (isRecord(v)) records.push(v)
      else unreadable++
    } catch {
      unreadable++
    }
  }
  return { records, unreadable }
}

/** Appends one record durably (fsync); starts a fresh line if a crash left the last one unterminated. */
export async function appendJournal(root: string, record: JournalRecord): Promise<void> {
  await appendContained(root, JOURNAL_REL, `${JSON.stringify(record)}\n`, { fsync: true })
}

/** True for a record of a change that undo can take back: an apply (proposals, direct edits, deploys) or a restore. */
export function isUndoable(r: JournalRecord): boolean {
  return r.action === 'apply' || r.action === 'restore'
}

/** The records of applies (and restores) not undone since, newest first. */
export function activeApplies(records: readonly JournalRecord[]): JournalRecord[] {
  const undone = new Set(records.filter((r) => r.action === 'undo' && r.undoes).map((r) => r.undoes as string))
  return records.filter((r) => isUndoable(r) && !undone.has(r.id)).reverse()
}
