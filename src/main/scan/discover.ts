/**
 * Finds AGIAgent task folders under a data root (read-only; symlinks never lead out of the root).
 */
import fs from 'node:fs'
import path from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { coded, type CodedText, type MessageCode, type MessageParams } from '../../shared/error-codes'
import type { SkippedTask } from '../../shared/types'
import { skippedTask, specialKind } from './jsonl'
import { parseConfigTxt } from '../config/config-txt'
import { startedAtFromName, startedAtFromStatus } from './task-trace'

/** A scan problem the user must fix (bad root, missing folder): a clear message, nothing changed. */
export class ScanError extends Error {
  /** Which message (error-codes.ts), so a client words it by code; no kind `code`: transports treat it as before. */
  readonly messageCode: MessageCode
  readonly params: MessageParams

  constructor(message: CodedText) {
    super(message.text)
    this.name = 'ScanError'
    this.messageCode = message.messageCode
    this.params = message.params
  }
}

/** One log file of a task, with the fields the cache is keyed by. */
export interface LogFileInfo {
  path: string
  /** `manager` or the sub-agent id (`agent_001`). */
  agent: string
  size: number
  mtimeMs: number
}

/** A task folder that has logs to parse. */
export interface TaskCandidate {
  path: string
  user: string
  taskDir: string
  /** Newest modification time of its log files (ms): the task's last activity. */
  mtime: number
  /** When the task started, from its folder name or `.agia_spawn_manager_status.json`; undefined when neither says. */
  startedAt?: number
  logs: LogFileInfo[]
}

export interface Discovery {
  root: string
  tasks: TaskCandidate[]
  skipped: SkippedTask[]
}

/** Where the data root comes from: `--root-dir`, else `gui_default_data_directory` in config.txt, else `./data`. */
export function resolveRootDir(opts: { rootDir?: string; configPath?: string; cwd?: string }): string {
  return resolveRootDirFrom(opts).root
}

/**
 * The data root and where it was named: the config.txt file (`file`) when `gui_default_data_directory` gave it, so a
 * problem with it can say which file to change; no `file` for `--root-dir` or the `./data` default.
 */
export function resolveRootDirFrom(opts: { rootDir?: string; configPath?: string; cwd?: string }): { root: string; file?: string } {
  const cwd = opts.cwd ?? process.cwd()
  if (opts.rootDir) {
    return { root: path.resolve(cwd, opts.rootDir) }
  }
  const candidates = opts.configPath
    ? [path.resolve(cwd, opts.configPath)]
    : [path.join(cwd, 'config', 'config.txt'), path.join(cwd, 'config.txt')]
  for (const file of candidates) {
    let text: string
    try {
      text = fs.readFileSync(file, 'utf8')
    } catch {
      if (opts.configPath) {
        throw new ScanError(coded('scan.config_not_found', { file }))
      }
      continue
    }
    const dir = parseConfigTxt(text).get('gui_default_data_directory')
    if (dir) {
      // A relative setting is relative to the project (the folder holding config/), as AGIAgent reads it.
      const base = path.basename(path.dirname(file)) === 'config' ? path.dirname(path.dirname(file)) : path.dirname(file)
      return { root: path.resolve(base, dir), file }
    }
  }
  return { root: path.join(cwd, 'data') }
}

const LOG_FILE = /^(manager|agent_[A-Za-z0-9_-]+)\.out$/

/**
 * Metadata calls run synchronously in time slices of at most SLICE_MS, with a yield to the event loop between
 * slices: the app's main process is never blocked for longer than that, and a stat costs microseconds. (Thread-
 * pool `fs.stat` calls cost far more each — queueing, wake-ups, callbacks — which measured 2–3× slower on a
 * rescan of 2,000 tasks, the case that must stay under 300 ms.)
 */
const SLICE_MS = 4

/** Yields to the event loop once the current slice of synchronous work is used up. */
class TimeSlicer {
  private sliceStart = performance.now()

  async pause(signal?: AbortSignal): Promise<void> {
    if (performance.now() - this.sliceStart >= SLICE_MS) {
      await nextTurn()
      this.sliceStart = performance.now()
      signal?.throwIfAborted()
    }
  }
}

const readdirTyped = (dir: string): fs.Dirent[] | null => {
  try {
    return fs.readdirSync(dir, { withFileTypes: true })
  } catch {
    return null
  }
}
const statOf = (p: string): fs.Stats | null => {
  try {
    return fs.statSync(p, { throwIfNoEntry: false }) ?? null
  } catch {
    return null
  }
}
const realpathOf = (p: string): string | null => {
  try {
    return fs.realpathSync(p)
  } catch {
    return null
  }
}

/** The log files a `logs/` folder held when its mtime was `mtimeMs` (a folder's mtime changes when files come or go). */
export interface LogsListing {
  mtimeMs: number
  files: { name: string; agent: string; link: boolean }[]
  /** Log names that are neither files nor links (a FIFO named manager.out): reported, never opened. */
  special?: string[]
}

/**
 * Lists every task folder under the root, newest first, with the folders that cannot be parsed in `skipped`.
 * `listings`: remembered `logs/` listings (pass the same map on every scan): an unchanged folder then costs a
 * stat instead of a listing.
 */
export async function discoverTasks(rootDir: string, signal?: AbortSignal, listings?: Map<string, LogsListing>): Promise<Discovery> {
  const root = path.resolve(rootDir)
  const realRoot = realpathOf(root)
  if (realRoot === null) {
    throw new ScanError(coded('scan.root_not_found', { root }))
  }
  if (!statOf(realRoot)?.isDirectory()) {
    throw new ScanError(coded('scan.root_not_folder', { root }))
  }
  const inside = (real: string): boolean => real === realRoot || real.startsWith(realRoot + path.sep)
  const skipped: SkippedTask[] = []
  const slicer = new TimeSlicer()

  /** Child folders of `dir` (symlinked ones only when they stay inside the root). */
  const linked = new Set<string>()
  const subdirs = async (dir: string): Promise<string[]> => {
    await slicer.pause(signal)
    const entries = readdirTyped(dir)
    if (!entries) {
      return []
    }
    const out: string[] = []
    for (const e of entries) {
      const full = path.join(dir, e.name)
      if (e.isDirectory()) {
        out.push(full)
      } else if (!e.isSymbolicLink()) {
        // A task name on something that is not a folder (a file, a FIFO): said, never opened.
        if (e.name.startsWith('output_')) skipped.push(skippedTask(full, e.isFile() ? coded('scan.file_not_task') : coded('scan.not_folder', { what: specialKind(e) })))
      } else {
        const target = realpathOf(full)
        if (!target) {
          continue
        }
        if (!inside(target)) {
          if (e.name.startsWith('output_')) {
            skipped.push(skippedTask(full, coded('scan.link_outside_root')))
          }
          continue
        }
        if (statOf(target)?.isDirectory()) {
          linked.add(full)
          out.push(full)
        }
      }
    }
    return out
  }

  const found: { dir: string; user: string; requireContent: boolean }[] = []
  const add = (dirs: string[], user: string, requireContent: boolean): void => {
    for (const t of dirs) {
      if (path.basename(t).startsWith('output_')) {
        found.push({ dir: t, user, requireContent })
      }
    }
  }
  for (const dir of await subdirs(root)) {
    const name = path.basename(dir)
    if (name.startsWith('output_')) {
      add([dir], '', true)
    } else if (name === 'benchmark_results') {
      for (const bench of await subdirs(dir)) {
        for (const kind of ['baseline_outputs', 'skill_outputs']) {
          add(await subdirs(path.join(bench, kind)), '', false)
        }
      }
    } else if (!name.startsWith('.')) {
      add(await subdirs(dir), name, false)
    }
  }

  const seen = new Set<string>()
  const tasks: TaskCandidate[] = []
  for (const f of found) {
    await slicer.pause(signal)
    signal?.throwIfAborted()
    // Only a folder reached through a symlink can be a duplicate of another one.
    const key = linked.has(f.dir) || linked.has(path.dirname(f.dir)) ? (realpathOf(f.dir) ?? f.dir) : f.dir
    if (seen.has(key)) {
      continue
    }
    seen.add(key)
    const result = inspectTaskDirNow(f.dir, f.user, inside, listings, (paths) => {
      for (const p of paths) skipped.push(skippedTask(p, coded('scan.log_not_file')))
    })
    if ('why' in result) {
      if (!(f.requireContent && result.noContent)) {
        skipped.push(skippedTask(f.dir, result.why))
      }
      continue
    }
    tasks.push(result)
  }
  tasks.sort((a, b) => b.mtime - a.mtime || a.path.localeCompare(b.path))
  skipped.sort((a, b) => a.path.localeCompare(b.path))
  return { root, tasks, skipped }
}

/** Why a folder is not a task to parse (its words are `why.text`); `noContent` when it holds nothing of a task. */
export interface NotATask {
  why: CodedText
  noContent: boolean
}

function notATask(why: CodedText, noContent: boolean): NotATask {
  return { why, noContent }
}

/** Looks inside one task folder: its log files (one stat each), or why it cannot be parsed. */
export async function inspectTaskDir(
  dir: string,
  user: string,
  inside: (real: string) => boolean = () => true,
  listings?: Map<string, LogsListing>
): Promise<TaskCandidate | NotATask> {
  return inspectTaskDirNow(dir, user, inside, listings)
}

function inspectTaskDirNow(
  dir: string,
  user: string,
  inside: (real: string) => boolean,
  listings?: Map<string, LogsListing>,
  onSpecial?: (paths: string[]) => void
): TaskCandidate | NotATask {
  const logsDir = path.join(dir, 'logs')
  const wanted = listLogs(logsDir, listings, onSpecial)
  if (!wanted) {
    if (!statOf(dir)) {
      return notATask(coded('scan.folder_unreadable'), true)
    }
    const hasWorkspace = statOf(path.join(dir, 'workspace'))?.isDirectory() ?? false
    return notATask(coded('scan.no_logs'), !hasWorkspace)
  }
  const logs: LogFileInfo[] = []
  // The newest log write is the task's last activity (no extra stat of the folder: rescans stay cheap).
  let mtime = 0
  for (const w of wanted) {
    if (w.link) {
      const target = realpathOf(w.full)
      if (!target || !inside(target)) {
        continue
      }
    }
    const st = statOf(w.full)
    if (st?.isFile()) {
      logs.push({ path: w.full, agent: w.agent, size: st.size, mtimeMs: st.mtimeMs })
      mtime = Math.max(mtime, st.mtimeMs)
    }
  }
  if (logs.length === 0) {
    return notATask(coded('scan.no_agent_logs'), false)
  }
  // manager first, then the agents in id order.
  logs.sort((a, b) => (a.agent === 'manager' ? -1 : b.agent === 'manager' ? 1 : a.agent.localeCompare(b.agent)))
  const taskDir = path.basename(dir)
  const startedAt = startedAtFromName(taskDir) ?? startedAtOfStatusFile(dir)
  return { path: dir, user, taskDir, mtime: Math.round(mtime), ...(startedAt !== undefined ? { startedAt } : {}), logs }
}

/** Largest status file read: AGIAgent writes a few hundred bytes; anything bigger is not its status. */
const STATUS_FILE_MAX = 64 * 1024

/**
 * `start_time` of the task's `.agia_spawn_manager_status.json`, for folders whose name holds no date. A link or
 * an oversized or unreadable file gives undefined (the task then falls back to its logs' mtime).
 */
function startedAtOfStatusFile(dir: string): number | undefined {
  const file = path.join(dir, '.agia_spawn_manager_status.json')
  try {
    const st = fs.lstatSync(file)
    if (!st.isFile() || st.size > STATUS_FILE_MAX) {
      return undefined
    }
    return startedAtFromStatus(fs.readFileSync(file, 'utf8'))
  } catch {
    return undefined
  }
}

/** The log files in `logs/` (null when it cannot be listed), from `listings` while the folder's mtime is unchanged. */
function listLogs(
  logsDir: string,
  listings?: Map<string, LogsListing>,
  onSpecial?: (paths: string[]) => void
): { full: string; agent: string; link: boolean }[] | null {
  const known = listings?.get(logsDir)
  if (known) {
    const st = statOf(logsDir)
    if (st?.isDirectory() && st.mtimeMs === known.mtimeMs) {
      if (known.special?.length) onSpecial?.(known.special.map((n) => path.join(logsDir, n)))
      return known.files.map((f) => ({ full: path.join(logsDir, f.name), agent: f.agent, link: f.link }))
    }
  }
  // The stat comes first: a file added while listing changes the mtime, so the next scan lists again.
  const st = listings ? statOf(logsDir) : null
  const entries = readdirTyped(logsDir)
  if (!entries) {
    listings?.delete(logsDir)
    return null
  }
  const files: LogsListing['files'] = []
  const special: string[] = []
  for (const e of entries) {
    const m = LOG_FILE.exec(e.name)
    if (m && (e.isFile() || e.isSymbolicLink())) {
      files.push({ name: e.name, agent: m[1]!, link: e.isSymbolicLink() })
    } else if (m && !e.isDirectory()) {
      special.push(e.name)
    }
  }
  if (listings && st) {
    listings.set(logsDir, { mtimeMs: st.mtimeMs, files, special })
  }
  if (special.length) onSpecial?.(special.map((n) => path.join(logsDir, n)))
  return files.map((f) => ({ full: path.join(logsDir, f.name), agent: f.agent, link: f.link }))
}

/** Runs `fn` over items with at most `limit` in flight. */
export async function mapLimit<T>(items: T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++
      await fn(items[i]!, i)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}
