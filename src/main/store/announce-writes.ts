/**
 * The store's writes, announced to whoever in this process listens (the app's workbench, so its file watcher
 * can tell its own writes from everyone else's). Every write the product makes goes through `atomic.ts` or
 * `contained.ts`; they announce each file or folder they are about to change, or just changed, with what will be
 * (or now is) there: a `FileStamp`. Nothing is announced while nobody listens (no stat costs for the CLI).
 *
 * Timing: an asynchronous change (rename, link, unlink, a folder's mkdir) is announced *before* it is made (a
 * mkdir's folder as `pending`, its stamp once made), so a change notification that reaches the listener's
 * process with no announcement for its path cannot be ours. A synchronous one (an append, a folder made on the
 * way to a file) is announced right after it: no notification is handled in between.
 */
import type fs from 'node:fs'

/** What is at a path: a file by size, modification time and inode; a folder by inode; nothing; or not yet known. */
export type FileStamp =
  | { kind: 'file'; size: number; mtimeMs: number; ino: number }
  | { kind: 'dir'; ino: number }
  | { kind: 'absent' }
  | { kind: 'other' }
  | { kind: 'pending' }

export const ABSENT: FileStamp = { kind: 'absent' }
export const PENDING: FileStamp = { kind: 'pending' }

/** The stamp of an entry from its (l)stat; `undefined`/`null`: nothing there. */
export function stampOf(st: fs.Stats | fs.BigIntStats | undefined | null): FileStamp {
  if (!st) return ABSENT
  if (st.isFile()) return { kind: 'file', size: Number(st.size), mtimeMs: Number(st.mtimeMs), ino: Number(st.ino) }
  if (st.isDirectory()) return { kind: 'dir', ino: Number(st.ino) }
  return { kind: 'other' }
}

/** True when two stamps say the same entry is there (a pending or other stamp equals nothing). */
export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  if (a.kind === 'file' && b.kind === 'file') return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino
  if (a.kind === 'dir' && b.kind === 'dir') return a.ino === b.ino
  return a.kind === 'absent' && b.kind === 'absent'
}

export type OwnWriteListener = (abs: string, stamp: FileStamp) => void

const listeners = new Set<OwnWriteListener>()

/** Listens to this process's writes (absolute paths as written); returns the function that stops. */
export function onOwnWrites(listener: OwnWriteListener): () => void {
  listeners.add(listener)
  return () => void listeners.delete(listener)
}

/** Whether anyone listens (callers skip the stat a stamp needs when nobody does). */
export function announcing(): boolean {
  return listeners.size > 0
}

/** Tells the listeners what this process wrote at `abs` (or is about to). */
export function announceOwnWrite(abs: string, stamp: FileStamp): void {
  for (const l of listeners) {
    try {
      l(abs, stamp)
    } catch {
      // a listener's failure is never the write's
    }
  }
}
