/**
 * Incremental scan cache: one parsed result per log file, keyed by path + size + mtime.
 *
 * Lives in memory; optionally persisted as one JSON file under the user's cache folder (never in the data root).
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const FORMAT = 1

interface Entry<T> {
  size: number
  mtimeMs: number
  value: T
}

/** `$SKILLBENCH_CACHE_DIR`, else `$XDG_CACHE_HOME/skillbench`, else `~/.cache/skillbench`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SKILLBENCH_CACHE_DIR) {
    return path.resolve(env.SKILLBENCH_CACHE_DIR)
  }
  if (env.XDG_CACHE_HOME) {
    return path.join(path.resolve(env.XDG_CACHE_HOME), 'skillbench')
  }
  return path.join(os.homedir(), '.cache', 'skillbench')
}

/** The persisted cache file for one scanned folder (a hash of its path, so roots never collide). */
export function cacheFileFor(rootDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const hash = crypto.createHash('sha256').update(path.resolve(rootDir)).digest('hex').slice(0, 16)
  return path.join(defaultCacheDir(env), `scan-${hash}.json`)
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

  /** Loads the persisted file; a missing, corrupt or old-format file means an empty cache (never an error). */
  async load(): Promise<void> {
    if (!this.file) {
      return
    }
    try {
      const raw = JSON.parse(await fs.promises.readFile(this.file, 'utf8')) as {
        format?: number
        entries?: [string, Entry<T>][]
      }
      if (raw.format === FORMAT && Array.isArray(raw.entries)) {
        this.entries = new Map(raw.entries.filter((e) => Array.isArray(e) && typeof e[0] === 'string' && e[1]))
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
    await fs.promises.mkdir(path.dirname(this.file), { recursive: true })
    const tmp = `${this.file}.${process.pid}.${Date.now()}.tmp`
    await fs.promises.writeFile(tmp, JSON.stringify({ format: FORMAT, entries: [...this.entries] }))
    await fs.promises.rename(tmp, this.file)
    this.dirty = false
  }
}
