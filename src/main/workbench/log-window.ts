import { promises as fsp } from 'node:fs'
import path from 'node:path'
import type { LogChunk } from '../../shared/api'
import { badRequest } from './errors'
import { ApiError } from '../../shared/api'

/** Default window of the virtualised log view. */
export const DEFAULT_LOG_WINDOW = 256 * 1024

/** Resolves `target` inside `root` (both real paths), or throws: no `..`, no symlink out of the root. */
export async function resolveInsideRoot(root: string, target: string): Promise<string> {
  const realRoot = await fsp.realpath(root)
  const abs = path.resolve(realRoot, target)
  let real: string
  try {
    real = await fsp.realpath(abs)
  } catch {
    throw new ApiError('not_found', `not found: ${target}`)
  }
  if (real !== realRoot && !real.startsWith(realRoot + path.sep)) {
    throw new ApiError('path_escape', `refused: ${target} is outside the data root`)
  }
  return real
}

/** The log files of a task folder (`logs/manager.out` first, then the rest by name). */
export async function listTaskLogs(taskDir: string): Promise<string[]> {
  let names: string[]
  try {
    const entries = await fsp.readdir(path.join(taskDir, 'logs'), { withFileTypes: true })
    names = entries.filter((e) => e.isFile() && !e.name.startsWith('.')).map((e) => e.name)
  } catch {
    return []
  }
  return names.sort((a, b) => (a === 'manager.out' ? -1 : b === 'manager.out' ? 1 : a.localeCompare(b)))
}

/** Moves a byte offset forward past UTF-8 continuation bytes so a window never starts mid-character. */
function alignStart(buf: Buffer, offset: number): number {
  let i = offset
  while (i < buf.length && i - offset < 3 && ((buf[i] ?? 0) & 0xc0) === 0x80) {
    i++
  }
  return i
}

/** Cuts a trailing incomplete UTF-8 sequence so the window ends on a whole character. */
function alignEnd(buf: Buffer): number {
  const end = buf.length
  // find the lead byte of the last sequence (at most 3 bytes back)
  for (let back = 1; back <= 4 && end - back >= 0; back++) {
    const byte = buf[end - back] ?? 0
    if ((byte & 0xc0) === 0x80) {
      continue
    }
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1
    return need > back ? end - back : end
  }
  return end
}

/**
 * Reads a byte window of one log of a task, for the virtualised raw-log view. Never reads the whole file.
 *
 * The window is aligned to whole UTF-8 characters; invalid bytes show as U+FFFD.
 */
export async function readLogWindow(
  root: string,
  taskPath: string,
  opts: { file?: string; start?: number; maxBytes?: number }
): Promise<LogChunk> {
  const taskDir = await resolveInsideRoot(root, taskPath)
  const files = await listTaskLogs(taskDir)
  const file = opts.file ?? files[0]
  if (!file) {
    throw new ApiError('not_found', `no log files in ${path.basename(taskDir)}/logs`)
  }
  if (!files.includes(file) || file !== path.basename(file)) {
    throw badRequest(`unknown log file "${file}" (this task has: ${files.join(', ') || 'none'})`)
  }
  const abs = await resolveInsideRoot(root, path.join(taskDir, 'logs', file))
  return readFileWindow(abs, file, files, opts)
}

/** A byte window of one file (already checked by the caller), aligned to whole UTF-8 characters. */
export async function readFileWindow(abs: string, file: string, files: string[], opts: { start?: number; maxBytes?: number }): Promise<LogChunk> {
  const handle = await fsp.open(abs, 'r')
  try {
    const size = (await handle.stat()).size
    const start = Math.min(opts.start ?? 0, size)
    const want = Math.min(opts.maxBytes ?? DEFAULT_LOG_WINDOW, size - start)
    const buf = Buffer.alloc(want)
    const { bytesRead } = await handle.read(buf, 0, want, start)
    const raw = buf.subarray(0, bytesRead)
    const from = start === 0 ? 0 : alignStart(raw, 0)
    const to = start + bytesRead >= size ? raw.length : Math.max(from, alignEnd(raw))
    const text = new TextDecoder('utf-8').decode(raw.subarray(from, to))
    return { file, size, start: start + from, end: start + to, text, files }
  } finally {
    await handle.close()
  }
}
