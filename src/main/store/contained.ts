/**
 * File operations that stay inside a root folder, links included: every folder between the root and the target
 * must be a real folder (a symbolic link there is refused, wherever it points), and the target itself is never
 * followed through a link (O_NOFOLLOW; atomic writes replace, never follow). Used for everything the product
 * writes, appends, moves or reads as bookkeeping inside a library: `.skillbench/` and all in it, `legacy/`, `logs/`,
 * `codes/`, `index.json`, memory workspaces, deploy targets.
 *
 * `root` must already be a real path (realpath of the library): the root itself may be reached through a link
 * the user chose; nothing below it may be.
 */
import fs from 'node:fs'
import path from 'node:path'
import { announceOwnWrite, announcing, stampOf } from './announce-writes'
import { moveNoClobber, unlinkFile, writeFileAtomic, type AtomicWriteOptions } from './atomic'
import { checkRelPath } from './paths'
import { readHandleAtMost } from './read-at-most'
import { StoreError } from './types'
import { coded, type CodedText } from '../../shared/error-codes'

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0

function escapeError(root: string, rel: string, why: CodedText): StoreError {
  return new StoreError('path_escape', coded('file.escape', { path: path.join(root, rel), why }))
}

/** The relative path split into checked segments ('' or '.' = the root itself). */
function segments(rel: string): string[] {
  if (rel === '' || rel === '.') return []
  return checkRelPath(rel).split('/')
}

/**
 * Checks (and with `create`, makes) the folder chain `root/rel`: each segment a real folder, never a link.
 * Returns the absolute path, or null when a folder is missing and `create` is false. Synchronous calls on
 * purpose (here and in the other small checks below): each promise-based call is a trip through the thread
 * pool, and a recorded use (`query` on every agent task) makes about a dozen of them.
 */
function walkDirs(root: string, rel: string, create: boolean): string | null {
  let abs = root
  let sofar = ''
  for (const seg of segments(rel)) {
    abs = path.join(abs, seg)
    sofar = sofar ? `${sofar}/${seg}` : seg
    let st = fs.lstatSync(abs, { throwIfNoEntry: false })
    if (!st) {
      if (!create) return null
      let made = false
      try {
        fs.mkdirSync(abs)
        made = true
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      }
      st = fs.lstatSync(abs)
      // synchronous from the mkdir to here: no change notification is handled before this announcement
      if (made && announcing()) announceOwnWrite(abs, stampOf(st))
    }
    if (st.isSymbolicLink()) throw escapeError(root, sofar, coded('file.why_symlink_folder'))
    if (!st.isDirectory()) throw new StoreError('invalid_input', coded('file.is_not_folder', { path: path.join(root, sofar) }))
  }
  return abs
}

/** Makes sure `root/rel` is a real folder inside root (creating what is missing); returns its absolute path. */
export async function ensureDirInside(root: string, rel: string): Promise<string> {
  return (await walkDirs(root, rel, true)) as string
}

/** The absolute path of folder `root/rel` when it exists as a real folder inside root; null when missing. */
export async function existingDirInside(root: string, rel: string): Promise<string | null> {
  return walkDirs(root, rel, false)
}

/** Refuses a target that is a link (or, unless `folderOk`, not a regular file); returns whether it exists. */
function checkFileTarget(root: string, rel: string, abs: string, folderOk: boolean): boolean {
  const st = fs.lstatSync(abs, { throwIfNoEntry: false })
  if (!st) return false
  if (st.isSymbolicLink()) throw escapeError(root, rel, coded('file.why_symlink_write'))
  if (!st.isFile() && !(folderOk && st.isDirectory())) throw new StoreError('invalid_input', coded('file.not_regular_path', { path: abs }))
  return true
}

/**
 * The absolute path of file `root/rel` after checking its folders (made when missing unless `createDirs` is
 * false) and the entry itself (never a link; a folder only with `folderOk`, for moves of SKILL.md folders).
 */
export async function containedFilePath(root: string, rel: string, opts: { createDirs?: boolean; folderOk?: boolean } = {}): Promise<string> {
  const clean = checkRelPath(rel)
  const dirRel = path.posix.dirname(clean)
  const dir = walkDirs(root, dirRel === '.' ? '' : dirRel, opts.createDirs !== false)
  const abs = path.join(dir ?? path.join(root, dirRel), path.posix.basename(clean))
  if (dir) checkFileTarget(root, clean, abs, opts.folderOk === true)
  return abs
}

/** Writes `root/rel` atomically (temp + fsync + rename), its folders made inside root when missing. */
export async function writeContained(root: string, rel: string, data: string | Uint8Array | Iterable<string>, opts: AtomicWriteOptions = {}): Promise<string> {
  const abs = await containedFilePath(root, rel)
  await writeFileAtomic(abs, data, opts)
  return abs
}

/**
 * Appends to `root/rel` (created when missing) without following a link. A last line left unterminated by a
 * crash is ended first, so records never glue together. `fsync` makes the append durable before returning.
 */
export async function appendContained(root: string, rel: string, text: string, opts: { fsync?: boolean; mode?: number } = {}): Promise<void> {
  const abs = await containedFilePath(root, rel)
  let fd: number
  try {
    fd = fs.openSync(abs, fs.constants.O_RDWR | fs.constants.O_APPEND | fs.constants.O_CREAT | O_NOFOLLOW, opts.mode ?? 0o644)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw escapeError(root, rel, coded('file.why_symlink_append'))
    throw err
  }
  try {
    const st = fs.fstatSync(fd)
    if (!st.isFile()) throw new StoreError('invalid_input', coded('file.not_regular_path', { path: abs }))
    let prefix = ''
    if (st.size > 0) {
      const last = Buffer.alloc(1)
      fs.readSync(fd, last, 0, 1, st.size - 1)
      if (last[0] !== 0x0a) prefix = '\n'
    }
    const bytes = Buffer.from(prefix + text, 'utf8')
    writeAllSync(fd, bytes)
    if (opts.fsync) fs.fdatasyncSync(fd)
    if (announcing()) {
      // ours only when the file grew by exactly our bytes since it was opened: another process's append in
      // between makes it someone else's change too, so nothing is announced and the change is news
      const after = fs.fstatSync(fd)
      if (after.size === st.size + bytes.length) announceOwnWrite(abs, stampOf(after))
    }
  } finally {
    fs.closeSync(fd)
  }
}

/** Writes all of `bytes` (a write may take fewer than asked). */
function writeAllSync(fd: number, bytes: Buffer): void {
  for (let done = 0; done < bytes.length; ) done += fs.writeSync(fd, bytes, done, bytes.length - done)
}

export interface ReadContainedOptions {
  maxBytes?: number
  /** Read to be rewritten (index.json's sync): a link is refused as the write would refuse it ("never written through"). */
  toRewrite?: boolean
}

/**
 * Opens `root/rel` read-only without following links (folders or file) and hands the open regular file and its
 * fstat to `use` (closed after); null when it does not exist. For reads of a part of a file (an offset, a size).
 */
export async function withContainedFile<T>(root: string, rel: string, use: (fh: fs.promises.FileHandle, st: fs.Stats, abs: string) => Promise<T>, opts: Pick<ReadContainedOptions, 'toRewrite'> = {}): Promise<T | null> {
  const clean = checkRelPath(rel)
  const dirRel = path.posix.dirname(clean)
  const dir = await walkDirs(root, dirRel === '.' ? '' : dirRel, false)
  if (!dir) return null
  const abs = path.join(dir, path.posix.basename(clean))
  let fh: fs.promises.FileHandle
  try {
    fh = await fs.promises.open(abs, fs.constants.O_RDONLY | O_NOFOLLOW | (fs.constants.O_NONBLOCK ?? 0))
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return null
    if (code === 'ELOOP') throw escapeError(root, clean, coded(opts.toRewrite ? 'file.why_symlink_write' : 'file.why_symlink_read'))
    throw err
  }
  try {
    const st = await fh.stat()
    if (!st.isFile()) throw new StoreError('invalid_input', coded('file.not_regular_path', { path: abs }))
    return await use(fh, st, abs)
  } finally {
    await fh.close()
  }
}

/** Reads `root/rel` as bytes without following links (folders or file); null when it does not exist. */
export async function readContained(root: string, rel: string, opts: ReadContainedOptions = {}): Promise<Buffer | null> {
  return withContainedFile(
    root,
    rel,
    async (fh, st, abs) => {
      if (opts.maxBytes === undefined) return fh.readFile()
      // the limit holds for what is read: a file that grew since the fstat is refused, not read past it
      const bytes = st.size > opts.maxBytes ? null : await readHandleAtMost(fh, st.size, opts.maxBytes)
      if (!bytes) throw new StoreError('invalid_input', coded('file.larger_than', { path: abs, bytes: opts.maxBytes }))
      return bytes
    },
    opts
  )
}

/** Reads `root/rel` as UTF-8 text without following links; null when it does not exist. */
export async function readContainedText(root: string, rel: string, opts: ReadContainedOptions = {}): Promise<string | null> {
  const bytes = await readContained(root, rel, opts)
  return bytes === null ? null : bytes.toString('utf8')
}

/** The names in folder `root/rel` (a real folder inside root); [] when it does not exist. */
export async function listContained(root: string, rel: string): Promise<string[]> {
  const dir = await walkDirs(root, rel, false)
  if (!dir) return []
  return fs.promises.readdir(dir)
}

/** Removes file `root/rel` (never through a link); false when it was not there. */
export async function unlinkContained(root: string, rel: string): Promise<boolean> {
  const clean = checkRelPath(rel)
  const dirRel = path.posix.dirname(clean)
  const dir = await walkDirs(root, dirRel === '.' ? '' : dirRel, false)
  if (!dir) return false
  try {
    await unlinkFile(path.join(dir, path.posix.basename(clean)))
    return true
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw err
  }
}

/**
 * Moves `root/from` (a file or a folder) to `root/to`, which must not exist; the folders around both are checked,
 * the destination's made inside root. The moved entry itself may not be a link.
 */
export async function moveContained(root: string, from: string, to: string): Promise<void> {
  const src = checkRelPath(from)
  const dst = checkRelPath(to)
  const srcDir = path.posix.dirname(src)
  const fromDir = await walkDirs(root, srcDir === '.' ? '' : srcDir, false)
  if (!fromDir) throw new StoreError('not_found', coded('path.does_not_exist', { path: src }))
  const fromAbs = path.join(fromDir, path.posix.basename(src))
  let st: fs.Stats
  try {
    st = await fs.promises.lstat(fromAbs)
  } catch {
    throw new StoreError('not_found', coded('path.does_not_exist', { path: src }))
  }
  if (st.isSymbolicLink()) throw escapeError(root, src, coded('file.why_symlink_move'))
  const dstDir = path.posix.dirname(dst)
  const toDir = await ensureDirInside(root, dstDir === '.' ? '' : dstDir)
  await moveNoClobber(fromAbs, path.join(toDir, path.posix.basename(dst)))
}
