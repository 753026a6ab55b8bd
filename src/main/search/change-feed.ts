/**
 * What changed in a library since the last look, from the kernel's file notifications: fs.watch on every folder
 * the last walk listed (inotify on Linux). A long-lived process uses it to keep its search index current without
 * a stat of every file before each answer: only the skill files named by notifications are checked again, and a
 * whole walk runs when a folder changed, a watch failed or too many notifications came to be sure none was lost.
 *
 * Where notifications cannot be trusted to see every write (not Linux; network, FUSE or VM-shared filesystems,
 * where writes from elsewhere raise none; no watch available), `take()` always asks for the whole walk.
 */
import fs from 'node:fs'
import { isTempName } from '../store/atomic'
import { SKIPPED_DIRS, skillFileAt } from '../store/walk'

export interface LibraryChanges {
  /** A walk of the whole library is needed (the paths are then not enough). */
  full: boolean
  /**
   * Library-relative skill file paths written, created or removed since the last take — also with `full`: a walk
   * compares stats, and a same-size rewrite within one timestamp tick is only known from its notification.
   */
  paths: string[]
}

export interface ChangeFeed {
  /** Watches exactly these folders (library-relative, '' the root); returns how many were not watched before. */
  track(dirs: readonly string[]): number
  /**
   * What changed since the last take. Call it after the event loop has polled its handles since the question
   * arrived (an immediate queued from an immediate): every write finished before then has had its notification
   * delivered.
   */
  take(): LibraryChanges
  /** Why notifications are not used here (null: they are). */
  readonly fallback: string | null
  close(): void
}

/** What an entry found at a path is now. */
export type EntryKind = 'file' | 'dir' | 'other' | 'gone'

/**
 * What one notification means for the index (pure). `dirRel`: the watched folder; `name`: the entry it names;
 * `kindOf`: what is at a library path now; `watched`: whether a library path is a watched folder.
 */
export function classifyEvent(dirRel: string, name: string | null | undefined, kindOf: (rel: string) => EntryKind, watched: (rel: string) => boolean): { path: string } | 'full' | 'ignore' {
  if (!name) return 'full'
  if (isTempName(name)) return 'ignore' // our own writers' temp files: the rename that follows names the skill file
  // Bookkeeping and never-searched folders at the top (.skillbench, logs, codes, .git…) hold no skills; legacy/ does.
  if (dirRel === '' && name !== 'legacy' && SKIPPED_DIRS.has(name)) return 'ignore'
  // in .skillbench only the folder of retired SKILL.md skills matters (its first appearance)
  if (dirRel === '.skillbench') return name === 'legacy' ? 'full' : 'ignore'
  const rel = dirRel ? `${dirRel}/${name}` : name
  if (skillFileAt(rel)) return { path: rel }
  const kind = kindOf(rel)
  if (kind === 'dir') return 'full' // a new, moved or changed folder may hold skills the index has not seen
  if (kind === 'gone') return watched(rel) ? 'full' : 'ignore' // a folder removed or moved away takes its skills
  return 'ignore' // other files (a skill's references, editor swap files) and links (never followed)
}

/** Filesystem types (statfs magic numbers) where every write made on this machine raises a notification. */
const LOCAL_FILESYSTEMS = new Set([
  0xef53, // ext2/3/4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0x794c7630, // overlayfs
  0xf2f52010, // f2fs
  0x2fc12fc1, // zfs
  0xca451a4e, // bcachefs
  0x3153464a, // jfs
  0x52654973 // reiserfs
])

/** Why notifications would miss writes to the library at `root` (null: they see them all). */
export function notificationGap(root: string): string | null {
  if (process.platform !== 'linux') return `file notifications on ${process.platform} are not relied on: every file is checked`
  try {
    const type = fs.statfsSync(root).type
    if (!LOCAL_FILESYSTEMS.has(type)) return `the library is on a filesystem (type 0x${type.toString(16)}) whose writes from elsewhere raise no notification: every file is checked`
  } catch (err) {
    return `the library's filesystem cannot be identified (${(err as Error).message}): every file is checked`
  }
  return null
}

/** Notifications since the last whole walk above which one may have been lost (the kernel queues 16,384 by default). */
const MAX_EVENTS_BETWEEN_WALKS = 1000

function entryKind(abs: string): EntryKind {
  try {
    const st = fs.lstatSync(abs)
    return st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other'
  } catch {
    return 'gone'
  }
}

/**
 * One non-recursive `fs.watch` per folder of a tree (inotify on Linux; Node's recursive mode walks and tracks every
 * file, slow on a 10,000-skill library): the file watching of every process — this change feed, and the app's
 * `files.changed` events (workbench/watcher.ts).
 */
export interface FolderWatches {
  /**
   * Watches exactly these folders (relative to the root, '' the root); returns how many were not watched before.
   * A folder gone meanwhile goes to `gone`; any other failure (out of watches: fs.inotify.max_user_watches) throws.
   */
  track(dirs: readonly string[]): number
  has(dirRel: string): boolean
  close(): void
}

export interface FolderEvents {
  /** A notification in a watched folder; `name` the entry it names (null: the platform did not say). */
  event(dirRel: string, name: string | null, type: 'rename' | 'change'): void
  /** The folder's watch failed and was closed. */
  error(dirRel: string): void
  /** The folder could not be watched: it is gone. */
  gone(dirRel: string): void
}

export function watchFolders(root: string, on: FolderEvents): FolderWatches {
  const watchers = new Map<string, fs.FSWatcher>()
  const unwatch = (dirRel: string): void => {
    watchers.get(dirRel)?.close()
    watchers.delete(dirRel)
  }
  return {
    track(dirs) {
      const want = new Set(dirs)
      for (const dirRel of [...watchers.keys()]) if (!want.has(dirRel)) unwatch(dirRel)
      let added = 0
      for (const dirRel of want) {
        if (watchers.has(dirRel)) continue
        let watcher: fs.FSWatcher
        try {
          watcher = fs.watch(dirRel ? `${root}/${dirRel}` : root, { persistent: false, encoding: 'utf8' }, (type, name) => on.event(dirRel, name, type))
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
            on.gone(dirRel)
            continue
          }
          throw err
        }
        watcher.on('error', () => {
          unwatch(dirRel)
          on.error(dirRel)
        })
        watchers.set(dirRel, watcher)
        added++
      }
      return added
    },
    has: (dirRel) => watchers.has(dirRel),
    close() {
      for (const d of [...watchers.keys()]) unwatch(d)
    }
  }
}

/** A change feed from fs.watch on each folder of the library at `root` (its real path); `onChange`: a change was seen. */
export function watchLibrary(root: string, opts: { onChange?: () => void } = {}): ChangeFeed {
  const fallback = notificationGap(root)
  let paths = new Set<string>()
  let full = true // nothing is watched yet
  let events = 0
  let broken: string | null = fallback

  const onEvent = (dirRel: string, name: string | null): void => {
    if (events > MAX_EVENTS_BETWEEN_WALKS) return // some may be lost: the walk asked for covers what a stat shows
    if (++events > MAX_EVENTS_BETWEEN_WALKS) {
      full = true
      paths = new Set()
      opts.onChange?.()
      return
    }
    const what = classifyEvent(dirRel, name, (rel) => entryKind(`${root}/${rel}`), (rel) => folders.has(rel))
    if (what === 'ignore') return
    if (what === 'full') full = true
    else paths.add(what.path)
    opts.onChange?.()
  }
  const folders = watchFolders(root, {
    event: onEvent,
    error: () => {
      full = true
      opts.onChange?.()
    },
    // a folder gone meanwhile is a change like any
    gone: () => void (full = true)
  })

  return {
    get fallback() {
      return broken
    },
    track(dirs) {
      if (broken) return 0
      try {
        return folders.track(dirs)
      } catch (err) {
        broken = `file notifications are unavailable (${(err as Error).message}): every file is checked`
        folders.close()
        return 0
      }
    },
    take() {
      if (broken) return { full: true, paths: [] }
      const out = { full, paths: [...paths] }
      paths = new Set()
      if (full) {
        // The walk that follows covers everything up to now; counting starts again after it.
        full = false
        events = 0
      }
      return out
    },
    close() {
      folders.close()
      broken = 'closed'
    }
  }
}
