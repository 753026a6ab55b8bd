import fs, { promises as fsp, type Dirent } from 'node:fs'
import path from 'node:path'
import type { ApiEvent } from '../../shared/api'
import { watchFolders } from '../search/change-feed'
import { stampOf, type FileStamp } from '../store/announce-writes'
import type { OwnWrites } from './own-writes'

/** Names of files that are never news: temp files of atomic writes, editor swap files, VCS folders. */
export function isIgnoredPath(rel: string): boolean {
  const parts = rel.split(/[\\/]/)
  if (parts.some((p) => p === '.git' || p === 'node_modules' || p === '__pycache__')) {
    return true
  }
  const name = parts[parts.length - 1] ?? ''
  return (
    name.endsWith('.tmp') ||
    name.startsWith('.skillbench-tmp-') ||
    name.endsWith('~') ||
    name.endsWith('.swp') ||
    name.startsWith('.#') ||
    name.endsWith('.lock')
  )
}

/** A debouncer that batches paths and flushes them together after `ms` of quiet. */
export function createBatcher(ms: number, flush: (paths: string[]) => void): { add(p: string): void; dispose(): void } {
  const pending = new Set<string>()
  let timer: NodeJS.Timeout | undefined
  return {
    add(p) {
      pending.add(p)
      if (timer) {
        clearTimeout(timer)
      }
      timer = setTimeout(() => {
        timer = undefined
        const paths = [...pending].sort()
        pending.clear()
        flush(paths)
      }, ms)
    },
    dispose() {
      if (timer) {
        clearTimeout(timer)
      }
      pending.clear()
    }
  }
}

interface Watch {
  /** Settles once the watch is in place: a write after it is reported. */
  ready: Promise<void>
  close(): void
}

/** Stat signature of a file tree (rel path → size:mtime), bounded, for the polling fallback. */
async function treeSignature(dir: string, depth: number, limit = 20_000): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  async function walk(abs: string, rel: string, level: number): Promise<void> {
    if (out.size >= limit) {
      return
    }
    let entries: Dirent[]
    try {
      entries = await fsp.readdir(abs, { withFileTypes: true })
    } catch {
      return
    }
    for (const e of entries) {
      const childRel = rel ? `${rel}/${e.name}` : e.name
      if (isIgnoredPath(childRel)) {
        continue
      }
      const childAbs = path.join(abs, e.name)
      if (e.isDirectory()) {
        out.set(childRel + '/', 'dir')
        if (level < depth) {
          await walk(childAbs, childRel, level + 1)
        }
      } else if (e.isFile()) {
        try {
          const st = await fsp.stat(childAbs)
          out.set(childRel, `${st.size}:${st.mtimeMs}`)
        } catch {
          // vanished meanwhile
        }
      }
    }
  }
  await walk(dir, '', 0)
  return out
}

/**
 * Calls `signature()` every `intervalMs` (never two at once) and reports every path whose signature
 * appeared, changed or vanished since the previous call.
 */
function pollSignatures(signature: () => Promise<Map<string, string>>, intervalMs: number, onPath: (rel: string) => void): Watch {
  let previous: Map<string, string> | undefined
  let stopped = false
  let running = false
  const tick = async (): Promise<void> => {
    if (running || stopped) {
      return
    }
    running = true
    try {
      const now = await signature()
      if (previous) {
        for (const [rel, sig] of now) {
          if (previous.get(rel) !== sig) {
            onPath(rel)
          }
        }
        for (const rel of previous.keys()) {
          if (!now.has(rel)) {
            onPath(rel)
          }
        }
      }
      previous = now
    } finally {
      running = false
    }
  }
  const ready = tick().catch(() => undefined)
  const timer = setInterval(() => void tick(), intervalMs)
  timer.unref()
  return {
    ready,
    close() {
      stopped = true
      clearInterval(timer)
    }
  }
}

/** Polls a tree every `intervalMs`, reporting paths whose signature changed. */
function pollTree(dir: string, depth: number, intervalMs: number, onPath: (rel: string) => void): Watch {
  return pollSignatures(() => treeSignature(dir, depth), intervalMs, (rel) => onPath(rel.replace(/\/$/, '')))
}

/** Folders of a library that never hold skills (backed-up code, processing logs) and are not watched. */
const UNWATCHED_DIRS = new Set(['codes', 'logs', 'node_modules', '.git', '__pycache__'])
const MAX_WATCHED_DIRS = 2_000

/** The folders of a tree to watch (depth-limited, bounded), root first. */
async function watchableDirs(dir: string, depth: number): Promise<string[]> {
  const out: string[] = ['']
  const queue: { rel: string; level: number }[] = [{ rel: '', level: 0 }]
  while (queue.length && out.length < MAX_WATCHED_DIRS) {
    const { rel, level } = queue.shift()!
    if (level >= depth) {
      continue
    }
    const entries = await fsp.readdir(path.join(dir, rel), { withFileTypes: true }).catch(() => [] as Dirent[])
    for (const e of entries) {
      if (e.isDirectory() && !UNWATCHED_DIRS.has(e.name) && !isIgnoredPath(e.name)) {
        const childRel = rel ? `${rel}/${e.name}` : e.name
        out.push(childRel)
        queue.push({ rel: childRel, level: level + 1 })
      }
    }
  }
  return out
}

/**
 * Watches a library's folders through the change feed's folder watches (search/change-feed.ts: one non-recursive
 * `fs.watch` per folder), adding folders as they appear; falls back to polling where watching fails (ENOSPC,
 * EMFILE, unsupported file systems). `ready` settles once the first folders are watched (or polled).
 */
function watchTree(dir: string, onPath: (rel: string) => void, depth: number): Watch {
  let polling: Watch | undefined
  let closed = false
  let initialised = false
  const folders = watchFolders(dir, {
    event: (rel, name, type) => {
      onPath(rel && name ? `${rel}/${name}` : rel || name || '')
      // maybe a new sub-folder (a SKILL.md folder, legacy/): give it its own watch
      if (type === 'rename') scheduleSync()
    },
    error: (rel) => {
      if (rel === '') fallBackToPolling()
    },
    gone: () => undefined
  })
  const fallBackToPolling = (): void => {
    folders.close()
    polling ??= pollTree(dir, depth, 2_000, onPath)
  }
  const sync = async (): Promise<void> => {
    if (closed || polling) {
      return
    }
    const dirs = await watchableDirs(dir, depth)
    if (closed || polling) {
      return
    }
    const fresh = dirs.filter((rel) => !folders.has(rel))
    try {
      folders.track(dirs)
    } catch {
      fallBackToPolling()
      return
    }
    if (initialised) {
      // files written into a new folder before its watch started are news too
      for (const rel of fresh.filter((r) => folders.has(r))) {
        for (const name of await fsp.readdir(path.join(dir, rel)).catch(() => [] as string[])) {
          onPath(`${rel}/${name}`)
        }
      }
    }
  }
  let syncTimer: NodeJS.Timeout | undefined
  function scheduleSync(): void {
    if (!syncTimer) {
      syncTimer = setTimeout(() => {
        syncTimer = undefined
        void sync()
      }, 100)
      syncTimer.unref()
    }
  }
  const ready = sync().then(async () => {
    initialised = true
    await polling?.ready
  })
  return {
    ready,
    close() {
      closed = true
      if (syncTimer) {
        clearTimeout(syncTimer)
      }
      folders.close()
      polling?.close()
    }
  }
}

export interface WatcherSet {
  /**
   * Watches exactly these libraries and roots (starts new watches, stops old ones). Resolves once every one is in
   * place: a write after that is reported (tests wait for it instead of sleeping).
   */
  update(targets: { libraries: string[]; roots: string[] }): Promise<void>
  dispose(): void
}

/** What is at `abs` now (never through a link). */
async function currentStamp(abs: string): Promise<FileStamp> {
  try {
    return stampOf(await fsp.lstat(abs))
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR' ? stampOf(undefined) : { kind: 'other' }
  }
}

/** The real path of a watched folder, as the store names what it writes there (the folder itself when gone). */
function realDir(dir: string): string {
  try {
    return fs.realpathSync(dir)
  } catch {
    return dir
  }
}

/**
 * File watching → `files.changed` events: libraries with `fs.watch` per folder (the change feed's folder watches,
 * the one file watcher of the project), data roots by
 * polling their task logs (a root's workspaces can be huge; only the task logs matter).
 * Debounced (250 ms), temp files ignored, and the app's own writes dropped: a path is left out only when
 * `ownWrites` (fed by the store's announcements, `store/announce-writes.ts`) says what is there now is exactly what
 * our own last write left and nothing else was notified for it (`own-writes.ts`).
 */
export function createWatchers(opts: { emit: (e: ApiEvent) => void; ownWrites: OwnWrites; debounceMs?: number; rootPollMs?: number }): WatcherSet {
  const active = new Map<string, { watch: Watch; batcher: ReturnType<typeof createBatcher> }>()
  const debounce = opts.debounceMs ?? 250

  function start(key: string, dir: string, kind: 'library' | 'root'): void {
    const real = realDir(dir)
    const batcher = createBatcher(debounce, (paths) => {
      void (async () => {
        const news: string[] = []
        for (const rel of paths) {
          const abs = path.join(real, rel)
          if (!opts.ownWrites.isOwn(abs, await currentStamp(abs), Date.now())) {
            news.push(rel)
          }
        }
        if (news.length) {
          opts.emit(kind === 'library' ? { type: 'files.changed', library: dir, paths: news } : { type: 'files.changed', root: dir, paths: news })
        }
      })()
    })
    const onPath = (rel: string): void => {
      if (rel && !isIgnoredPath(rel)) {
        opts.ownWrites.noticed(path.join(real, rel), Date.now())
        batcher.add(rel)
      }
    }
    const watch =
      kind === 'library'
        ? watchTree(dir, onPath, 3)
        : pollRootLogs(dir, opts.rootPollMs ?? 3_000, onPath)
    active.set(key, { watch, batcher })
  }

  return {
    update({ libraries, roots }) {
      const wanted = new Map<string, { dir: string; kind: 'library' | 'root' }>()
      for (const l of libraries) {
        wanted.set(`library:${l}`, { dir: l, kind: 'library' })
      }
      for (const r of roots) {
        wanted.set(`root:${r}`, { dir: r, kind: 'root' })
      }
      for (const [key, entry] of active) {
        if (!wanted.has(key)) {
          entry.watch.close()
          entry.batcher.dispose()
          active.delete(key)
        }
      }
      for (const [key, target] of wanted) {
        if (!active.has(key)) {
          start(key, target.dir, target.kind)
        }
      }
      return Promise.all([...wanted.keys()].map((key) => active.get(key)?.watch.ready)).then(() => undefined)
    },
    dispose() {
      for (const entry of active.values()) {
        entry.watch.close()
        entry.batcher.dispose()
      }
      active.clear()
    }
  }
}

/** Polls the task folders (`output_...` under the root and its users) and their `logs/` files. */
function pollRootLogs(root: string, intervalMs: number, onPath: (rel: string) => void): Watch {
  const signature = async (): Promise<Map<string, string>> => {
    const out = new Map<string, string>()
    const taskDirs: string[] = []
    const top = await fsp.readdir(root, { withFileTypes: true }).catch(() => [] as Dirent[])
    for (const e of top) {
      if (!e.isDirectory() || e.name.startsWith('.')) {
        continue
      }
      if (e.name.startsWith('output_')) {
        taskDirs.push(e.name)
        continue
      }
      const inner = await fsp.readdir(path.join(root, e.name), { withFileTypes: true }).catch(() => [] as Dirent[])
      for (const i of inner) {
        if (i.isDirectory() && i.name.startsWith('output_')) {
          taskDirs.push(`${e.name}/${i.name}`)
        }
      }
    }
    for (const t of taskDirs) {
      out.set(t, 'dir')
      const logs = await fsp.readdir(path.join(root, t, 'logs'), { withFileTypes: true }).catch(() => [] as Dirent[])
      for (const l of logs) {
        if (!l.isFile()) {
          continue
        }
        const st = await fsp.stat(path.join(root, t, 'logs', l.name)).catch(() => undefined)
        if (st) {
          out.set(`${t}/logs/${l.name}`, `${st.size}:${st.mtimeMs}`)
        }
      }
    }
    return out
  }
  return pollSignatures(signature, intervalMs, onPath)
}
