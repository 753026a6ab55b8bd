import { promises as fsp } from 'node:fs'
import path from 'node:path'
import type { LogChunk } from '../../shared/api'
import { coded } from '../../shared/error-codes'
import { badRequest } from './errors'
import { ApiError } from '../../shared/api'
import { readLineWindow } from './log-lines'

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
    throw new ApiError('not_found', coded('path.not_found', { path: target }))
  }
  if (real !== realRoot && !real.startsWith(realRoot + path.sep)) {
    throw new ApiError('path_escape', coded('path.outside_root', { path: target }))
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

/** The log file of a task a caller names (default: the first, `manager.out`), resolved inside the root. */
export async function taskLogFile(root: string, taskPath: string, file: string | undefined): Promise<{ abs: string; file: string; files: string[] }> {
  const taskDir = await resolveInsideRoot(root, taskPath)
  const files = await listTaskLogs(taskDir)
  const name = file ?? files[0]
  if (!name) {
    throw new ApiError('not_found', coded('log.none', { dir: `${path.basename(taskDir)}/logs` }))
  }
  if (!files.includes(name) || name !== path.basename(name)) {
    throw badRequest(coded('log.unknown_file', { name, files: files.join(', ') }))
  }
  const abs = await resolveInsideRoot(root, path.join(taskDir, 'logs', name))
  return { abs, file: name, files }
}

/**
 * Reads a window of whole lines of one log of a task, for the virtualised raw-log view. Never reads the whole
 * file; invalid bytes show as U+FFFD.
 */
export async function readLogWindow(
  root: string,
  taskPath: string,
  opts: { file?: string; start?: number; at?: number; line?: number; end?: number; maxBytes?: number }
): Promise<LogChunk> {
  const { abs, file, files } = await taskLogFile(root, taskPath, opts.file)
  return readLineWindow(abs, file, files, { ...opts, maxBytes: opts.maxBytes ?? DEFAULT_LOG_WINDOW })
}
