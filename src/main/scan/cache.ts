/**
 * Incremental scan cache: one parsed result per log file, keyed by path + size + mtime.
 *
 * Lives in memory; optionally persisted as one compact binary file under the user's cache folder (never in
 * the data root). Parsed AGIAgent logs are stored column-wise (tool calls as one flat list, parameter names
 * once per log) in V8's serialisation format: loading thousands of tasks is a buffer read and one native
 * deserialisation instead of a large JSON parse.
 */
import crypto from 'node:crypto'
import path from 'node:path'
import v8 from 'node:v8'
import type { AgentMessage, ToolCall } from '../../shared/types'
import { readCacheFile, writeCacheFile } from '../cache-files'
import { defaultCacheDir } from '../cache-dir'
import type { LogParse } from './agiagent-parser'

// 5: AGIAgent 💬 lines are agent messages (older entries lack them)
const FORMAT = 5
/** File signature: a cache written by another format (or a stray file) is ignored, never misread. */
const MAGIC = Buffer.from('SKILLBENCH-SCAN\n')

interface Entry<T> {
  size: number
  mtimeMs: number
  value: T
}

/** The persisted cache file for one scanned folder (a hash of its path, so roots never collide). */
export function cacheFileFor(rootDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const hash = crypto.createHash('sha256').update(path.resolve(rootDir)).digest('hex').slice(0, 16)
  return path.join(defaultCacheDir(env), `scan-${hash}.v${FORMAT}.bin`)
}

/** Parsed results per file; a file whose size or mtime changed is a miss. */
export class ScanCache<T = unknown> {
  private entries = new Map<string, Entry<T>>()
  private dirty = false
  hits = 0
  misses = 0

  /** `file`: where `load`/`save` persist it; omit for an in-memory cache. */
  constructor(readonly file?: string) {}

  get(filePath: string, size: number, mtimeMs: number): T | undefined {
    const e = this.entries.get(filePath)
    if (e && e.size === size && e.mtimeMs === mtimeMs) {
      this.hits++
      return e.value
    }
    this.misses++
    return undefined
  }

  set(filePath: string, size: number, mtimeMs: number, value: T): void {
    this.entries.set(filePath, { size, mtimeMs, value })
    this.dirty = true
  }

  get size(): number {
    return this.entries.size
  }

  /** Drops entries for files no longer seen under `prefix` (deleted task folders). */
  prune(prefix: string, keep: Set<string>): void {
    for (const key of this.entries.keys()) {
      if (key.startsWith(prefix) && !keep.has(key)) {
        this.entries.delete(key)
        this.dirty = true
      }
    }
  }

  /** Loads the persisted file; a missing, corrupt or other-format file means an empty cache (never an error). */
  async load(): Promise<void> {
    if (!this.file) {
      return
    }
    try {
      const buf = await readCacheFile(this.file)
      if (buf && buf.length > MAGIC.length && buf.subarray(0, MAGIC.length).equals(MAGIC)) {
        const raw = v8.deserialize(buf.subarray(MAGIC.length)) as { format?: unknown; v8?: unknown; entries?: unknown }
        // V8's format is read back only by the V8 that wrote it (the CLI and the app may differ).
        if (raw.format === FORMAT && raw.v8 === process.versions.v8 && Array.isArray(raw.entries)) {
          const entries = new Map<string, Entry<T>>()
          for (const e of raw.entries as unknown[]) {
            const entry = decodeEntry<T>(e)
            if (entry) {
              entries.set(entry[0], entry[1])
            }
          }
          this.entries = entries
        }
      }
    } catch {
      // absent or unreadable: start empty
    }
    this.dirty = false
  }

  /** Writes the cache atomically (temp file + rename) when it changed. */
  async save(): Promise<void> {
    if (!this.file || !this.dirty) {
      return
    }
    const entries = [...this.entries].map(([key, e]) => [key, e.size, e.mtimeMs, encodeValue(e.value)])
    await writeCacheFile(this.file, Buffer.concat([MAGIC, v8.serialize({ format: FORMAT, v8: process.versions.v8, entries })]))
    this.dirty = false
  }
}

/** The parsed-log shape stored compactly (see `encodeLog`). */
type LogLike = LogParse

const LOG_TAG = 'log3'
/** Added to a call's parameter count when the call is partial (cut off). */
const PARTIAL = 1 << 20

function isLogLike(v: unknown): v is LogLike {
  const l = v as LogLike
  return (
    typeof v === 'object' && v !== null && typeof l.agent === 'string' && Array.isArray(l.toolCalls) && Array.isArray(l.requirements) &&
    Array.isArray(l.errors) && Array.isArray(l.agentMessages) && Array.isArray(l.preferences) && Array.isArray(l.requirementOffsets) &&
    Array.isArray(l.errorOffsets) && Array.isArray(l.queryResults) && Object.keys(v).length === 14 &&
    // Only what the log parser produces: every call of the log's own agent, with nothing but name/params/offset/partial.
    l.toolCalls.every((c) => c.agent === l.agent && c.ok === undefined && typeof c.offset === 'number' && Object.keys(c).length === (c.partial ? 5 : 4))
  )
}

/** A parsed log as flat lists (tool calls without their repeated agent, parameter names once); anything else as is. */
function encodeValue(value: unknown): unknown {
  if (!isLogLike(value)) {
    return ['raw', value]
  }
  const keys: string[] = []
  const keyIndex = new Map<string, number>()
  const calls: (string | number)[] = []
  for (const c of value.toolCalls) {
    const params = Object.entries(c.params)
    calls.push(c.name, params.length + (c.partial ? PARTIAL : 0), c.offset ?? 0)
    for (const [k, v] of params) {
      let i = keyIndex.get(k)
      if (i === undefined) {
        i = keys.length
        keys.push(k)
        keyIndex.set(k, i)
      }
      calls.push(i, v)
    }
  }
  const v = value
  // query results as [offset, ids] pairs (rare: most logs have none)
  const queries = v.queryResults.map((q) => [q.offset, q.ids])
  return [LOG_TAG, v.agent, v.requirements, v.interruptions, v.completed, v.stoppedByUser, keys, calls, v.errors, v.agentMessages, v.preferences, v.bytes, v.toolCallsTotal, v.requirementOffsets, v.errorOffsets, queries]
}

function decodeEntry<T>(e: unknown): [string, Entry<T>] | null {
  if (!Array.isArray(e) || e.length !== 4 || typeof e[0] !== 'string' || typeof e[1] !== 'number' || typeof e[2] !== 'number') {
    return null
  }
  const value = decodeValue(e[3])
  return value === undefined ? null : [e[0], { size: e[1], mtimeMs: e[2], value: value as T }]
}

function decodeValue(v: unknown): unknown {
  if (!Array.isArray(v)) {
    return undefined
  }
  if (v[0] === 'raw' && v.length === 2) {
    return v[1]
  }
  if (v[0] !== LOG_TAG || v.length !== 16) {
    return undefined
  }
  const [, agent, requirements, interruptions, completed, stoppedByUser, keys, calls, errors, agentMessages, preferences, bytes, toolCallsTotal, requirementOffsets, errorOffsets, queries] = v as [
    string, string, string[], number, boolean, boolean, string[], (string | number)[], string[], AgentMessage[], string[], number, number, number[], number[], [number, string[]][]
  ]
  if (!Array.isArray(requirementOffsets) || !Array.isArray(errorOffsets) || !Array.isArray(queries)) {
    return undefined
  }
  const toolCalls: ToolCall[] = []
  for (let i = 0; i < calls.length; ) {
    const name = calls[i++]
    let n = calls[i++]
    const offset = calls[i++]
    if (typeof name !== 'string' || typeof n !== 'number' || typeof offset !== 'number') {
      return undefined
    }
    const partial = n >= PARTIAL
    if (partial) {
      n -= PARTIAL
    }
    const params: Record<string, string> = {}
    for (let j = 0; j < n; j++) {
      const k = keys[calls[i++] as number]
      const value = calls[i++] as string
      if (k === undefined || typeof value !== 'string') {
        return undefined // damaged entry: parse the log again
      }
      params[k] = value
    }
    const call: ToolCall = { agent, name, params }
    if (partial) {
      call.partial = true
    }
    call.offset = offset
    toolCalls.push(call)
  }
  const queryResults = queries.map(([offset, ids]) => ({ offset, ids }))
  return { agent, requirements, requirementOffsets, interruptions, completed, stoppedByUser, toolCalls, toolCallsTotal, errors, errorOffsets, queryResults, agentMessages, preferences, bytes }
}
