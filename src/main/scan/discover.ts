/**
 * Finds AGIAgent task folders under a data root (read-only; symlinks never lead out of the root).
 */
import fs from 'node:fs'
import path from 'node:path'
import type { SkippedTask } from '../../shared/types'
import { parseConfigTxt } from '../config/config-txt'

/** A scan problem the user must fix (bad root, missing folder): a clear message, nothing changed. */
export class ScanError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ScanError'
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
  logs: LogFileInfo[]
}

export interface Discovery {
  root: string
  tasks: TaskCandidate[]
  skipped: SkippedTask[]
}

/** Where the data root comes from: `--root-dir`, else `gui_default_data_directory` in config.txt, else `./data`. */
export function resolveRootDir(opts: { rootDir?: string; configPath?: string; cwd?: string }): string {
  const cwd = opts.cwd ?? process.cwd()
  if (opts.rootDir) {
    return path.resolve(cwd, opts.rootDir)
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
        throw new ScanError(`config file not found: ${file}`)
      }
      continue
    }
    const dir = parseConfigTxt(text).get('gui_default_data_directory')
    if (dir) {
      // A relative setting is relative to the project (the folder holding config/), as AGIAgent reads it.
      const base = path.basename(path.dirname(file)) === 'config' ? path.dirname(path.dirname(file)) : path.dirname(file)
      return path.resolve(base, dir)
    }
  }
  return path.join(cwd, 'data')
}

const LOG_FILE = /^(manager|agent_[A-Za-z0-9_-]+)\.out$/

/** Lists every task folder under the root, newest first, with the folders that cannot be parsed in `skipped`. */
export async function discoverTasks(rootDir: string, signal?: AbortSignal): Promise<Discovery> {
  const root = path.resolve(rootDir)
  let realRoot: string
  try {
    realRoot = await fs.promises.realpath(root)
    if (!(await fs.promises.stat(realRoot)).isDirectory()) {
      throw new ScanError(`data root is not a folder: ${root}`)
    }
  } catch (err) {
    if (err instanceof ScanError) {
      throw err
    }
    throw new ScanError(`data root not found: ${root}`)
  }
  const inside = (real: string): boolean => real === realRoot || real.startsWith(realRoot + path.sep)
  const skipped: SkippedTask[] = []

  /** Child folders of `dir` (symlinked ones only when they stay inside the root). Sync: metadata calls are µs. */
  const linked = new Set<string>()
  const subdirs = async (dir: string): Promise<string[]> => {
    let entries: fs.Dirent[]
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true })
    } catch {
      return []
    }
    const out: string[] = []
    for (const e of entries) {
      const full = path.join(dir, e.name)
      if (e.isDirectory()) {
        out.push(full)
      } else if (e.isSymbolicLink()) {
        const target = await fs.promises.realpath(full).catch(() => null)
        if (!target) {
          continue
        }
        if (!inside(target)) {
          if (e.name.startsWith('output_')) {
            skipped.push({ path: full, reason: 'symlink pointing outside the data root (not followed)' })
          }
          continue
        }
        const st = await fs.promises.stat(target).catch(() => null)
        if (st?.isDirectory()) {
          linked.add(full)
          out.push(full)
        }
      }
    }
    return out
  }

  const found: { dir: string; user: string; requireContent: boolean }[] = []
  for (const dir of await subdirs(root)) {
    const name = path.basename(dir)
    if (name.startsWith('output_')) {
      found.push({ dir, user: '', requireContent: true })
    } else if (name === 'benchmark_results') {
      for (const bench of await subdirs(dir)) {
        for (const kind of ['baseline_outputs', 'skill_outputs']) {
          for (const t of await subdirs(path.join(bench, kind))) {
            if (path.basename(t).startsWith('output_')) {
              found.push({ dir: t, user: '', requireContent: false })
            }
          }
        }
      }
    } else if (!name.startsWith('.')) {
      for (const t of await subdirs(dir)) {
        if (path.basename(t).startsWith('output_')) {
          found.push({ dir: t, user: name, requireContent: false })
        }
      }
    }
  }

  const seen = new Set<string>()
  const tasks: TaskCandidate[] = []
  for (const f of found) {
    signal?.throwIfAborted()
    // Only a folder reached through a symlink can be a duplicate of another one.
    const key = linked.has(f.dir) || linked.has(path.dirname(f.dir)) ? await fs.promises.realpath(f.dir).catch(() => f.dir) : f.dir
    if (seen.has(key)) {
      continue
    }
    seen.add(key)
    const result = await inspectTaskDir(f.dir, f.user, inside)
    if ('reason' in result) {
      if (!(f.requireContent && result.noContent)) {
        skipped.push({ path: f.dir, reason: result.reason })
      }
      continue
    }
    tasks.push(result)
  }
  tasks.sort((a, b) => b.mtime - a.mtime || a.path.localeCompare(b.path))
  skipped.sort((a, b) => a.path.localeCompare(b.path))
  return { root, tasks, skipped }
}

/** Looks inside one task folder: its log files, or why it cannot be parsed. */
export async function inspectTaskDir(
  dir: string,
  user: string,
  inside: (real: string) => boolean = () => true
): Promise<TaskCandidate | { reason: string; noContent: boolean }> {
  const logsDir = path.join(dir, 'logs')
  let entries: fs.Dirent[]
  try {
    entries = fs.readdirSync(logsDir, { withFileTypes: true })
  } catch {
    if (!fs.existsSync(dir)) {
      return { reason: 'folder not readable', noContent: true }
    }
    const hasWorkspace = fs.statSync(path.join(dir, 'workspace'), { throwIfNoEntry: false })?.isDirectory() ?? false
    return { reason: 'no logs/ folder', noContent: !hasWorkspace }
  }
  const logs: LogFileInfo[] = []
  // The newest log write is the task's last activity (no extra stat of the folder: rescans stay cheap).
  let mtime = 0
  for (const e of entries) {
    const m = LOG_FILE.exec(e.name)
    if (!m || !(e.isFile() || e.isSymbolicLink())) {
      continue
    }
    const full = path.join(logsDir, e.name)
    if (e.isSymbolicLink()) {
      const target = await fs.promises.realpath(full).catch(() => null)
      if (!target || !inside(target)) {
        continue
      }
    }
    const st = fs.statSync(full, { throwIfNoEntry: false })
    if (!st?.isFile()) {
      continue
    }
    logs.push({ path: full, agent: m[1]!, size: st.size, mtimeMs: st.mtimeMs })
    mtime = Math.max(mtime, st.mtimeMs)
  }
  if (logs.length === 0) {
    return { reason: 'logs/ has no manager.out or agent_*.out', noContent: false }
  }
  // manager first, then the agents in id order.
  logs.sort((a, b) => (a.agent === 'manager' ? -1 : b.agent === 'manager' ? 1 : a.agent.localeCompare(b.agent)))
  return { path: dir, user, taskDir: path.basename(dir), mtime: Math.round(mtime), logs }
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
