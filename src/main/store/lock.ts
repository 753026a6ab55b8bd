/**
 * One lock per library, shared by every process on the machine (CLI calls, each agent's MCP server, the app,
 * reflection, curation, memory writes). Every read–check–write of a skill file or a bookkeeping file runs inside it.
 *
 * Protocol (see docs/ARCHITECTURE.md, "Concurrency"):
 * - Acquire: write our owner record (pid, process start time, boot id, host, a random nonce) to a temp file, then
 *   `link()` it to `<dir>/lock`. link() is atomic and refuses an existing name, so exactly one process holds it,
 *   and the lock never exists without its complete owner record.
 * - Wait: while the owner is alive, retry with a short jittered backoff, up to a bounded time, then fail with
 *   StoreError('busy') — never a success that did not happen.
 * - Take over a dead owner's lock: `link(lock, lock.broken.<nonce>)` first. Only one process can create that
 *   name, and the record read through it must still carry the dead owner's nonce, so two waiters can never both
 *   break the same lock, nor break a fresh lock that replaced it (the race that stale-by-age locks have). The
 *   winner removes `lock` and competes for it like everyone else.
 * - Liveness: on Linux the pid's start time in /proc (pid reuse, containers) and the boot id (reboots); elsewhere
 *   `kill(pid, 0)`. A lock of another host (a shared network folder) cannot be checked: it counts as alive until
 *   it is older than FOREIGN_STALE_MS.
 * Within one process, holders queue on a promise chain (no file polling against ourselves), and a holder's own
 * nested calls (same async context) re-enter without waiting.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ABSENT, announceOwnWrite, announcing, stampOf } from './announce-writes'
import { holdTempFile, TEMP_PREFIX, TEMP_SUFFIX } from './atomic'
import { ensureDirInside } from './contained'
import { StoreError } from './types'
import { coded, type CodedText } from '../../shared/error-codes'

/** The lock file's name inside its folder. */
export const LOCK_NAME = 'lock'
/** How long a caller waits for a busy library by default (SKILLBENCH_LOCK_TIMEOUT_MS overrides). */
export const DEFAULT_LOCK_TIMEOUT_MS = 8000
/** A lock written on another host is taken over once it is this old (we cannot see whether its owner lives). */
const FOREIGN_STALE_MS = 60_000
/** A lock whose owner record cannot be read (only after a power loss) is taken over once it is this old. */
const UNREADABLE_STALE_MS = 2_000

export interface LockOwner {
  pid: number
  /** Process start time (Linux: clock ticks since boot from /proc/<pid>/stat), '' when unknown. */
  start: string
  /** Linux boot id, '' when unknown. */
  boot: string
  host: string
  nonce: string
  /** What the holder is doing, for the busy message (e.g. "skillbench rate"). */
  purpose: string
  /** ISO time the lock was taken. */
  at: string
}

export interface LockOptions {
  /** Longest wait for the lock, ms (default SKILLBENCH_LOCK_TIMEOUT_MS or 8000). */
  timeoutMs?: number
  /** Said in the busy message other processes get while we hold it. */
  purpose?: string
  /** Folder of the lock, relative to root (default `.skillbench`; '' = the root itself). */
  lockDir?: string
  /** File name of the lock in that folder (default `lock`). */
  lockName?: string
  /**
   * What `root` is, for the error when this user cannot write there (EACCES, EPERM, EROFS: a shared or mounted
   * folder, `chmod -R a-w`): `library` (default, library.read_only) or any other `folder` (path.no_permission).
   */
  what?: 'library' | 'folder'
}

// ---- process identity -------------------------------------------------------------------------------

function readSmall(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}

/** The start time of a process (Linux), '' when unknown or gone. */
function processStart(pid: number): string {
  if (process.platform !== 'linux') return ''
  const stat = readSmall(`/proc/${pid}/stat`)
  // Field 2 (comm) may hold spaces and parentheses: count fields after its closing parenthesis.
  const close = stat.lastIndexOf(')')
  if (close < 0) return ''
  const fields = stat.slice(close + 2).split(' ')
  return fields[19] ?? '' // field 22 overall: starttime
}

let selfIdentity: { start: string; boot: string; host: string } | undefined
function self(): { start: string; boot: string; host: string } {
  selfIdentity ??= {
    start: processStart(process.pid),
    boot: process.platform === 'linux' ? readSmall('/proc/sys/kernel/random/boot_id').trim() : '',
    host: os.hostname()
  }
  return selfIdentity
}

/** Whether the process that wrote `owner` may still hold the lock. Pure apart from process look-ups. */
export function ownerAlive(owner: LockOwner, ageMs: number): boolean {
  const me = self()
  if (owner.host !== me.host) return ageMs < FOREIGN_STALE_MS
  if (owner.boot && me.boot && owner.boot !== me.boot) return false // written before a reboot
  if (process.platform === 'linux' && owner.start) {
    const start = processStart(owner.pid)
    return start !== '' && start === owner.start // gone, or the pid now belongs to another process
  }
  try {
    process.kill(owner.pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function parseOwner(text: string): LockOwner | null {
  try {
    const v = JSON.parse(text) as Partial<LockOwner>
    if (typeof v.pid !== 'number' || typeof v.nonce !== 'string' || !/^[0-9a-f]{8,64}$/.test(v.nonce)) return null
    return {
      pid: v.pid,
      start: String(v.start ?? ''),
      boot: String(v.boot ?? ''),
      host: String(v.host ?? ''),
      nonce: v.nonce,
      purpose: String(v.purpose ?? ''),
      at: String(v.at ?? '')
    }
  } catch {
    return null
  }
}

/** Reads a lock file without following a link; null when it is gone. */
function readLockFile(file: string): { owner: LockOwner | null; ino: number; mtimeMs: number } | null {
  let fd: number
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0))
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return null
    if (code === 'ELOOP') throw new StoreError('path_escape', coded('lock.symlink', { file }))
    throw err
  }
  try {
    const st = fs.fstatSync(fd)
    const buf = Buffer.alloc(Math.min(st.size, 4096))
    const n = fs.readSync(fd, buf, 0, buf.length, 0)
    return { owner: parseOwner(buf.subarray(0, n).toString('utf8')), ino: st.ino, mtimeMs: st.mtimeMs }
  } finally {
    fs.closeSync(fd)
  }
}

// ---- the file lock ------------------------------------------------------------------------------

interface Held {
  file: string
  /** Our owner record; `file` is a hard link to it while we hold the lock. */
  staged: string
  unhold: () => void
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms))
}

function timeoutFromEnv(): number {
  const v = Number(process.env.SKILLBENCH_LOCK_TIMEOUT_MS)
  return Number.isFinite(v) && v >= 0 ? v : DEFAULT_LOCK_TIMEOUT_MS
}

function busyMessage(owner: LockOwner | null, waitedMs: number): CodedText {
  const seconds = (waitedMs / 1000).toFixed(1)
  if (!owner) return coded('library.busy_unknown', { seconds })
  return owner.purpose ? coded('library.busy_for', { pid: owner.pid, purpose: owner.purpose, seconds }) : coded('library.busy', { pid: owner.pid, seconds })
}

/** Longest chain of takeovers (a breaker that died while breaking, and so on) before we give up. */
const MAX_BREAK_DEPTH = 4

/**
 * Takes the name `name` in `dir` for our staged owner record, waiting while a live owner holds it and breaking
 * a dead owner's hold. Breaking is itself a lock: the right to remove a dead holder's `name` is the name
 * `<name>.broken.<its nonce>`, taken by this same function, so exactly one process removes a given dead lock,
 * and only while that dead lock is still the one there (its nonce is checked again under the claim).
 */
async function takeName(dir: string, name: string, staged: string, deadline: number, depth: number): Promise<void> {
  const file = path.join(dir, name)
  let delay = 1
  let lastOwner: LockOwner | null
  const started = Date.now()
  for (;;) {
    try {
      fs.linkSync(staged, file)
      // synchronous from the link: no change notification is handled before this announcement
      if (announcing()) announceOwnWrite(file, stampOf(fs.lstatSync(file, { throwIfNoEntry: false })))
      return
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
    const current = readLockFile(file)
    if (current === null) continue // released between our link and our look
    lastOwner = current.owner
    const age = Date.now() - current.mtimeMs
    const alive = current.owner ? ownerAlive(current.owner, age) : age < UNREADABLE_STALE_MS
    if (!alive) {
      if (depth >= MAX_BREAK_DEPTH) {
        throw new StoreError('busy', coded('lock.dead_takeover', { lock: path.join(dir, name), name: LOCK_NAME, dir }))
      }
      const key = current.owner?.nonce ?? `ino${current.ino}`
      const claim = `${name}.broken.${key}`
      await takeName(dir, claim, staged, deadline, depth + 1)
      try {
        // Still the same dead holder? Only then is it ours to remove: nobody else holds the claim, and a dead
        // owner releases nothing, so it cannot change between this look and the unlink.
        const again = readLockFile(file)
        if (again && (again.owner?.nonce ?? `ino${again.ino}`) === key) fs.unlinkSync(file)
      } finally {
        releaseName(path.join(dir, claim), staged)
      }
      continue
    }
    const now = Date.now()
    if (now >= deadline) throw new StoreError('busy', busyMessage(lastOwner, now - started))
    await sleep(Math.min(delay, deadline - now) * (0.5 + Math.random()))
    delay = Math.min(delay * 1.6, 25)
  }
}

/** Removes `file` if it is still our record (same inode as our staged file). */
function releaseName(file: string, staged: string): void {
  try {
    const a = fs.lstatSync(file)
    const b = fs.lstatSync(staged)
    if (a.ino === b.ino && a.dev === b.dev) {
      fs.unlinkSync(file)
      if (announcing()) announceOwnWrite(file, ABSENT)
    }
  } catch {
    // gone already
  }
}

/** Whether a failed write says this user may not write there (not a missing or broken path). */
function isReadOnlyError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code
  return code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
}

/** The coded error for a folder this user cannot write: every change needs its lock first, so nothing was changed. */
function readOnly(root: string, what: 'library' | 'folder'): StoreError {
  return new StoreError('read_only', what === 'library' ? coded('library.read_only', { path: root }) : coded('path.no_permission', { path: root }))
}

async function acquireFileLock(root: string, lockDir: string, lockName: string, opts: { timeoutMs: number; purpose: string; what: 'library' | 'folder' }): Promise<Held> {
  let dir: string
  try {
    dir = await ensureDirInside(root, lockDir)
  } catch (err) {
    throw isReadOnlyError(err) ? readOnly(root, opts.what) : err
  }
  const file = path.join(dir, lockName)
  const nonce = randomBytes(12).toString('hex')
  const owner: LockOwner = { pid: process.pid, ...self(), nonce, purpose: opts.purpose, at: new Date().toISOString() }
  // The owner record is complete before any lock name points at it (link, not open+write). The staged file
  // stays until release: it is how we recognise our own names.
  const staged = path.join(dir, `${TEMP_PREFIX}${process.pid}-${nonce}${TEMP_SUFFIX}`)
  const unhold = holdTempFile(staged) // a sweep at open (this process) must never remove it while we hold the lock
  try {
    fs.writeFileSync(staged, JSON.stringify(owner), { flag: 'wx', mode: 0o644 })
  } catch (err) {
    unhold()
    throw isReadOnlyError(err) ? readOnly(root, opts.what) : err
  }
  try {
    await takeName(dir, lockName, staged, Date.now() + opts.timeoutMs, 0)
  } catch (err) {
    unlinkQuietly(staged)
    unhold()
    throw err
  }
  return { file, staged, unhold }
}

function unlinkQuietly(file: string): void {
  try {
    fs.unlinkSync(file)
  } catch {
    // gone already
  }
}

function releaseFileLock(held: Held): void {
  // Only our own record is removed (nobody breaks a live owner's lock; this is a safety check).
  releaseName(held.file, held.staged)
  unlinkQuietly(held.staged)
  held.unhold()
}

// ---- in-process queue and re-entry ---------------------------------------------------------------------

const heldHere = new AsyncLocalStorage<ReadonlySet<string>>()
const queues = new Map<string, Promise<unknown>>()

/** True when the current async context holds the lock of `root` (for assertions in writers). */
export function holdsLibraryLock(root: string, lockDir = '.skillbench', lockName = LOCK_NAME): boolean {
  return heldHere.getStore()?.has(path.join(root, lockDir, lockName)) ?? false
}

/**
 * Runs `fn` holding the library's lock (`root` must be the library's real path). Nested calls from inside `fn`
 * re-enter at once. Throws StoreError('busy') when the lock cannot be had within the timeout.
 */
export async function withLibraryLock<T>(root: string, fn: () => Promise<T>, opts: LockOptions = {}): Promise<T> {
  const lockDir = opts.lockDir ?? '.skillbench'
  const lockName = opts.lockName ?? LOCK_NAME
  const key = path.join(root, lockDir, lockName)
  const held = heldHere.getStore()
  if (held?.has(key)) return fn()
  const timeoutMs = opts.timeoutMs ?? timeoutFromEnv()
  const purpose = opts.purpose ?? defaultPurpose()
  // Queue behind this process's other holders of the same lock.
  const previous = queues.get(key) ?? Promise.resolve()
  let done!: () => void
  const mine = new Promise<void>((r) => (done = r))
  const tail = previous.then(() => mine)
  queues.set(key, tail)
  const queuedAt = Date.now()
  try {
    await waitInQueue(previous, timeoutMs)
    const left = Math.max(0, timeoutMs - (Date.now() - queuedAt))
    const file = await acquireFileLock(root, lockDir, lockName, { timeoutMs: left, purpose, what: opts.what ?? 'library' })
    try {
      const inner = new Set(held ?? [])
      inner.add(key)
      return await heldHere.run(inner, fn)
    } finally {
      releaseFileLock(file)
    }
  } finally {
    done()
    if (queues.get(key) === tail) queues.delete(key)
  }
}

/** Waits for this process's earlier holders, at most `timeoutMs` (then the caller gets a busy error). */
async function waitInQueue(previous: Promise<unknown>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreError('busy', coded('library.busy_here', { seconds: (timeoutMs / 1000).toFixed(1) }))), timeoutMs)
  })
  try {
    await Promise.race([previous, expired])
  } finally {
    clearTimeout(timer)
  }
}

function defaultPurpose(): string {
  const script = path.basename(process.argv[1] ?? 'node')
  const command = process.argv[2] && !process.argv[2].startsWith('-') ? ` ${process.argv[2]}` : ''
  return `${script.replace(/\.(m?js|ts)$/, '')}${command}`.slice(0, 80)
}
