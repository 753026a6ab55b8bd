/**
 * Scanning AGIAgent data: a whole data root (`scanRoot`) or one task folder (`scanTask`); agent session folders
 * are scanned by sessions.ts. Reading never modifies the user's data; parsed logs are cached by path + size + mtime.
 */
import path from 'node:path'
import { coded, refOf } from '../../shared/error-codes'
import type { ScanResult, TaskTrace } from '../../shared/types'
import { AgiAgentLogParser, type LogParse } from './agiagent-parser'
import { ScanCache } from './cache'
import { discoverTasks, inspectTaskDir, mapLimit, resolveRootDir, ScanError, type LogFileInfo, type LogsListing, type TaskCandidate } from './discover'
import { readChunks, readChunksSliced, type LogReader } from './read-log'
import { buildTaskTrace } from './task-trace'

export interface ScanOptions {
  /** The data root; else `gui_default_data_directory` from config.txt, else `<cwd>/data`. */
  rootDir?: string
  configPath?: string
  cwd?: string
  /** Reuse across scans to re-read only changed logs. A process-wide cache is used when omitted. */
  cache?: ScanCache<LogParse>
  signal?: AbortSignal
  onProgress?: (done: number, total: number, path: string) => void
  /** Test hook: how log files are opened. */
  reader?: LogReader
  /** Log files in progress at once (local logs are read in short synchronous slices; a custom reader is async). */
  concurrency?: number
}

/** Shared by every scan in this process unless the caller brings its own. */
const processCache = new ScanCache<LogParse>()

/** Parses one log file (streamed), or returns the cached result when its size and mtime are unchanged. */
export async function parseLogFile(
  log: LogFileInfo,
  opts: { cache?: ScanCache<LogParse>; reader?: LogReader; signal?: AbortSignal } = {}
): Promise<LogParse> {
  const cached = opts.cache?.get(log.path, log.size, log.mtimeMs)
  if (cached) {
    return cached
  }
  const parser = new AgiAgentLogParser(log.agent)
  try {
    // Read no further than the size we stat'ed, so a log being appended is keyed consistently.
    const onChunk = (c: Buffer): void => parser.feed(c)
    if (opts.reader) {
      await readChunks(log.path, onChunk, { reader: opts.reader, signal: opts.signal, length: log.size })
    } else {
      await readChunksSliced(log.path, onChunk, { signal: opts.signal, length: log.size })
    }
  } catch (err) {
    if (opts.signal?.aborted) {
      throw err
    }
    const parsed = parser.finish()
    parsed.errors.push(`log could not be read completely: ${(err as Error).message}`)
    return parsed
  }
  const parsed = parser.finish()
  opts.cache?.set(log.path, log.size, log.mtimeMs, parsed)
  return parsed
}

/** Built traces per cache, reused while none of the task's logs changed (a rescan then costs only stat calls). */
const builtTraces = new WeakMap<ScanCache<LogParse>, Map<string, { sig: string; trace: TaskTrace }>>()

async function traceOf(task: TaskCandidate, opts: ScanOptions, cache: ScanCache<LogParse>): Promise<TaskTrace> {
  let built = builtTraces.get(cache)
  if (!built) {
    built = new Map()
    builtTraces.set(cache, built)
  }
  const sig = `${task.user}|${task.mtime}|${task.startedAt ?? ''}|` + task.logs.map((l) => `${l.path}:${l.size}:${l.mtimeMs}`).join('|')
  const prior = built.get(task.path)
  if (prior && prior.sig === sig && task.logs.every((l) => cache.get(l.path, l.size, l.mtimeMs))) {
    return prior.trace
  }
  const parsed: LogParse[] = []
  for (const log of task.logs) {
    parsed.push(await parseLogFile(log, { cache, reader: opts.reader, signal: opts.signal }))
  }
  const trace = buildTaskTrace(task, parsed)
  built.set(task.path, { sig, trace })
  return trace
}

/** `logs/` listings per cache: a rescan stats an unchanged folder instead of listing it. */
const logsListings = new WeakMap<ScanCache<LogParse>, Map<string, LogsListing>>()

/** Scans an AGIAgent data root: every task folder, newest first, with the skipped folders and why. */
export async function scanRoot(opts: ScanOptions = {}): Promise<ScanResult> {
  const root = resolveRootDir(opts)
  const cache = opts.cache ?? processCache
  let listings = logsListings.get(cache)
  if (!listings) {
    listings = new Map()
    logsListings.set(cache, listings)
  }
  const found = await discoverTasks(root, opts.signal, listings)
  const traces: TaskTrace[] = new Array<TaskTrace>(found.tasks.length)
  let done = 0
  await mapLimit(found.tasks, opts.concurrency ?? 4, async (task, i) => {
    opts.signal?.throwIfAborted()
    traces[i] = await traceOf(task, opts, cache)
    done++
    opts.onProgress?.(done, found.tasks.length, task.path)
  })
  return { root: found.root, tasks: traces, skipped: found.skipped }
}

/** Scans one task folder (`…/output_*`); throws ScanError when it has no logs to parse. */
export async function scanTask(
  taskPath: string,
  opts: { user?: string; cache?: ScanCache<LogParse>; signal?: AbortSignal; reader?: LogReader } = {}
): Promise<TaskTrace> {
  const dir = path.resolve(taskPath)
  const user = opts.user ?? guessUser(dir)
  const found = await inspectTaskDir(dir, user)
  if ('why' in found) {
    throw new ScanError(coded('scan.task_not_parsed', { dir, reason: refOf(found.why) }))
  }
  return traceOf(found, { reader: opts.reader, signal: opts.signal }, opts.cache ?? processCache)
}

/** `<root>/<user>/output_*` → user; a benchmark or root-level task has none. */
function guessUser(dir: string): string {
  const parent = path.basename(path.dirname(dir))
  if (!parent || parent.startsWith('.') || parent.startsWith('output_') || /_outputs$/.test(parent)) {
    return ''
  }
  return parent === 'data' ? '' : parent
}
