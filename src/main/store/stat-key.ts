/**
 * The stat key of a file (size, mtime, inode, ctime, mode) without building an `fs.Stats`. The never-stale rule
 * costs one lstat per skill file on every query; on Node 20 each `fs.lstatSync` also builds a Stats object with
 * four Date objects — at 10,000 files that is more time than the system calls, and most of a whole query's garbage.
 * Node's own stat binding returns the raw numbers; it is internal, so it is used only after it has given exactly
 * what `fs.lstatSync` gives for a real path in this process, and `fs.lstatSync` is used otherwise.
 */
import fs from 'node:fs'

/** size, mtimeMs, ino, ctimeMs, mode — the order of `StatKey` fields in a key buffer. */
export const KEY_SIZE = 0
export const KEY_MTIME = 1
export const KEY_INO = 2
export const KEY_CTIME = 3
export const KEY_MODE = 4

type RawLstat = (p: string) => ArrayLike<number> | undefined

/** Offsets of Node's stat array: dev, mode, nlink, uid, gid, rdev, blksize, ino, size, blocks, atime s/ns, mtime s/ns, ctime s/ns. */
const MODE = 1
const INO = 7
const SIZE = 8
const MTIME_S = 12
const CTIME_S = 14

let raw: RawLstat | null | undefined

function fromRaw(a: ArrayLike<number>, out: Float64Array): void {
  out[KEY_SIZE] = a[SIZE]!
  // The same arithmetic as Node's Stats: seconds × 1e3 + nanoseconds / 1e6.
  out[KEY_MTIME] = a[MTIME_S]! * 1e3 + a[MTIME_S + 1]! / 1e6
  out[KEY_INO] = a[INO]!
  out[KEY_CTIME] = a[CTIME_S]! * 1e3 + a[CTIME_S + 1]! / 1e6
  out[KEY_MODE] = a[MODE]!
}

function fromStats(st: fs.Stats, out: Float64Array): void {
  out[KEY_SIZE] = st.size
  out[KEY_MTIME] = st.mtimeMs
  out[KEY_INO] = st.ino
  out[KEY_CTIME] = st.ctimeMs
  out[KEY_MODE] = st.mode
}

/** The raw binding, if this Node has one that agrees with `fs.lstatSync` on `probe` (a path that exists). */
function probeRaw(probe: string): RawLstat | null {
  try {
    const binding = (process as unknown as { binding?: (name: string) => { lstat?: (...args: unknown[]) => unknown } }).binding?.('fs')
    const lstat = binding?.lstat
    if (typeof lstat !== 'function') return null
    const fn: RawLstat = (p) => {
      const a = lstat.call(binding, p, false, undefined, false)
      return a === undefined ? undefined : (a as Float64Array)
    }
    const a = fn(probe)
    if (!(a instanceof Float64Array)) return null
    const mine = new Float64Array(5)
    const theirs = new Float64Array(5)
    fromRaw(a, mine)
    fromStats(fs.lstatSync(probe), theirs)
    return mine.every((x, i) => x === theirs[i]) ? fn : null
  } catch {
    return null
  }
}

/**
 * Writes the stat key of `p` (not following a final link) into `out` (5 numbers); false when it cannot be
 * stat'ed (gone, not a folder on the way, no permission).
 */
export function lstatKey(p: string, out: Float64Array): boolean {
  if (raw === undefined) {
    // Probed on the first path asked for that exists (until then, the public call).
    try {
      fromStats(fs.lstatSync(p), out)
    } catch {
      return false
    }
    raw = probeRaw(p)
    return true
  }
  try {
    if (raw) {
      const a = raw(p)
      if (a === undefined) return false
      fromRaw(a, out)
    } else {
      fromStats(fs.lstatSync(p), out)
    }
    return true
  } catch {
    return false
  }
}

/** Whether a key's mode is a regular file. */
export function isRegularFile(key: Float64Array): boolean {
  return (key[KEY_MODE]! & fs.constants.S_IFMT) === fs.constants.S_IFREG
}

/** Which way keys are read: Node's binding (after the probe agreed), `fs.lstatSync`, or not decided yet. */
export function statKeySource(): 'binding' | 'fs' | 'unprobed' {
  return raw === undefined ? 'unprobed' : raw ? 'binding' : 'fs'
}

/** For tests: forget the probe (and optionally refuse the binding). */
export function resetStatKeyProbe(useRaw = true): void {
  raw = useRaw ? undefined : null
}
