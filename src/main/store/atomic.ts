/**
 * Crash-safe file writes: temp file in the same folder (exclusive create), fsync, rename over the target,
 * fsync the folder. A symlink at the target is refused (never followed). Temp files carry our pid so a
 * later open can sweep the ones whose writer died, and readers can ignore them by name.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { ABSENT, announceOwnWrite, announcing, stampOf, type FileStamp } from './announce-writes'
import { StoreError } from './types'
import { coded } from '../../shared/error-codes'

export const TEMP_PREFIX = '.skillbench-tmp-'
export const TEMP_SUFFIX = '.tmp'
const TEMP_NAME = /^\.skillbench-tmp-(\d+)-[0-9a-f]+\.tmp$/

/** True for our temp file names (readers skip them). */
export function isTempName(name: string): boolean {
  return name.startsWith(TEMP_PREFIX) && name.endsWith(TEMP_SUFFIX)
}

/** Temp files of this process that are being written or held right now (never swept). */
const liveTemps = new Set<string>()

/** Marks a temp-named file of this process as in use (e.g. a lock's owner record), so no sweep removes it. */
export function holdTempFile(file: string): () => void {
  liveTemps.add(file)
  return () => void liveTemps.delete(file)
}

function pidAlive(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Removes leftover temp files in `dir` whose writer is gone; returns how many were removed. */
export async function sweepTempFiles(dir: string, names?: string[]): Promise<number> {
  let entries: string[]
  try {
    entries = names ?? (await fs.promises.readdir(dir))
  } catch {
    return 0
  }
  let removed = 0
  for (const name of entries) {
    const m = TEMP_NAME.exec(name)
    if (!m) continue
    const full = path.join(dir, name)
    const pid = Number(m[1])
    if (liveTemps.has(full) || (pid !== process.pid && pidAlive(pid))) continue
    try {
      const st = await fs.promises.lstat(full)
      if (!st.isFile()) continue
      await fs.promises.unlink(full)
      removed++
    } catch {
      // Already gone or not ours to remove: ignore.
    }
  }
  return removed
}

const locks = new Map<string, Promise<unknown>>()

/** Runs `fn` while holding this process's lock on `key` (an absolute path); calls on one path run one at a time. */
export async function withPathLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const prev = locks.get(key) ?? Promise.resolve()
  let release!: () => void
  const mine = new Promise<void>((r) => (release = r))
  const chained = prev.then(() => mine)
  locks.set(key, chained)
  try {
    await prev.catch(() => undefined)
    return await fn()
  } finally {
    release()
    if (locks.get(key) === chained) locks.delete(key)
  }
}

async function fsyncDirNow(dir: string): Promise<void> {
  if (process.platform === 'win32') return
  let fh: fs.promises.FileHandle | undefined
  try {
    fh = await fs.promises.open(dir, 'r')
    await fh.sync()
  } catch {
    // Best effort: some file systems refuse fsync on a directory.
  } finally {
    await fh?.close().catch(() => undefined)
  }
}

/** Folders with a directory fsync in flight, and the callers waiting for the next one. */
const dirSyncs = new Map<string, { waiting: Array<() => void> }>()

/**
 * Makes the entries renamed/linked into `dir` so far durable. Group commit: callers that arrive while a sync of
 * the folder is in flight share the next one (their entry may postdate the running sync), so many writes into
 * one folder at once cost a few directory fsyncs instead of one each, and each caller still returns only after
 * a sync that began after its own rename.
 */
export function fsyncDir(dir: string): Promise<void> {
  return new Promise<void>((resolve) => {
    const running = dirSyncs.get(dir)
    if (running) {
      running.waiting.push(resolve)
      return
    }
    const state = { waiting: [resolve] }
    dirSyncs.set(dir, state)
    void (async () => {
      while (state.waiting.length > 0) {
        const batch = state.waiting
        state.waiting = []
        await fsyncDirNow(dir)
        for (const done of batch) done()
      }
      dirSyncs.delete(dir)
    })()
  })
}

export interface AtomicWriteOptions {
  /** Refuse when the target already exists. */
  mustNotExist?: boolean
  /** Refuse when the target does not exist. */
  mustExist?: boolean
  /** Permission bits of the written file, set on the temp file from its creation (e.g. 0o600 for secrets). */
  mode?: number
  /** Create the file's folder (and missing parents) first, with these permission bits (e.g. 0o700 for settings). */
  folderMode?: number
}

/** The permission bits of an existing regular target (0o644 when absent); refuses symlinks and other kinds. */
async function targetMode(target: string, mustExist: boolean): Promise<number> {
  try {
    const st = await fs.promises.lstat(target)
    if (st.isSymbolicLink()) throw new StoreError('path_escape', coded('file.symlink_write', { name: path.basename(target) }))
    if (!st.isFile()) throw new StoreError('invalid_input', coded('file.not_regular', { name: path.basename(target) }))
    return st.mode & 0o777
  } catch (err) {
    if (err instanceof StoreError) throw err
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    if (mustExist) throw new StoreError('not_found', coded('file.gone', { name: path.basename(target) }))
    return 0o644
  }
}

/**
 * Writes `data` to `target` atomically; refuses symlinks and non-regular targets. `data` may also be a sequence of
 * strings written one after another (a large text that should never exist as one string).
 */
export async function writeFileAtomic(target: string, data: string | Uint8Array | Iterable<string>, opts: AtomicWriteOptions = {}): Promise<void> {
  const dir = path.dirname(target)
  if (opts.folderMode !== undefined) await fs.promises.mkdir(dir, { recursive: true, mode: opts.folderMode })
  let mode = 0o644
  // A create needs no look first: the exclusive link() below refuses any existing name (links included).
  if (!opts.mustNotExist) mode = await targetMode(target, opts.mustExist === true)
  if (opts.mode !== undefined) mode = opts.mode
  const tmp = path.join(dir, `${TEMP_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`)
  liveTemps.add(tmp)
  try {
    const fh = await fs.promises.open(tmp, 'wx', mode)
    let stamp: FileStamp | undefined
    try {
      if (typeof data === 'string' || data instanceof Uint8Array) await fh.writeFile(data)
      else for (const piece of data) await fh.writeFile(piece) // each call goes on where the last one ended
      await fh.sync()
      // what the target will be: the rename and the link keep the file's size, modification time and inode
      if (announcing()) stamp = stampOf(await fh.stat())
    } finally {
      await fh.close()
    }
    if (stamp) announceOwnWrite(target, stamp)
    if (opts.mustNotExist) {
      // link() fails when the name exists, so a file created meanwhile is never clobbered.
      try {
        await fs.promises.link(tmp, target)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new StoreError('exists', coded('file.exists', { name: path.basename(target) }))
        throw err
      }
      await fs.promises.unlink(tmp)
    } else {
      await renameWithRetry(tmp, target)
    }
    await fsyncDir(dir)
  } catch (err) {
    await fs.promises.unlink(tmp).catch(() => undefined)
    throw err
  } finally {
    liveTemps.delete(tmp)
  }
}

/** rename(), retried briefly on the Windows errors a virus scanner or an open editor cause. */
async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.promises.rename(from, to)
      return
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (attempt >= 10 || (code !== 'EPERM' && code !== 'EBUSY' && code !== 'EACCES')) throw err
      await new Promise((r) => setTimeout(r, 20 * (attempt + 1)))
    }
  }
}

/** Moves a file or folder to a name that must not exist yet (never overwrites); creates the parent folder. */
export async function moveNoClobber(from: string, to: string): Promise<void> {
  await fs.promises.mkdir(path.dirname(to), { recursive: true })
  try {
    await fs.promises.lstat(to)
    throw new StoreError('exists', coded('file.exists', { name: path.basename(to) }))
  } catch (err) {
    if (err instanceof StoreError) throw err
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  if (announcing()) {
    const st = await fs.promises.lstat(from).catch(() => undefined)
    announceOwnWrite(to, stampOf(st))
    announceOwnWrite(from, ABSENT)
  }
  await renameWithRetry(from, to)
  await fsyncDir(path.dirname(to))
  await fsyncDir(path.dirname(from))
}

/** Removes a file (ENOENT and other errors thrown as they come), announced as this process's own change. */
export async function unlinkFile(file: string): Promise<void> {
  if (announcing()) announceOwnWrite(file, ABSENT)
  await fs.promises.unlink(file)
}
