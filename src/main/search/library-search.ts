/**
 * The one way to search a library: its search index opened, kept current, listed and ranked, behind one object and
 * one options type. (search-index.ts is the data structure it hands out; open.ts where it is saved.)
 *
 * Two lifetimes. A long-lived process (an MCP server, the app, the search daemon; `keep: true`) opens the
 * index once (warm from the cache folder), then keeps it current cheaply before each use. With a change feed (file
 * notifications, change-feed.ts) only the files it names are checked again, and the whole library when it asks for
 * that: always current. Without one, the ledger says which skills other Skillbench processes wrote (those files are
 * re-read), and a full check of every file's stat runs when the last one is older than `maxAgeMs` (edits by other
 * programs). Saved back to the cache folder after changes, at most every few seconds. A command that answers once
 * (`keep: false`, the default) opens it once: the saved index, checked against every file, only changed files read, saved back
 * when any were.
 *
 * Skills already in memory with no library folder behind them are ranked the same way by `LibrarySearch.ofSkills`.
 */
import path from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { sweepTempFiles } from '../store/atomic'
import { LedgerTail } from '../store/ledger'
import { walkLibrary, type LibraryWalk } from '../store/walk'
import type { SkillListResult } from '../../shared/api'
import type { LoadError, Skill } from '../../shared/types'
import type { ChangeFeed } from './change-feed'
import { listingOf, loadSearchIndex, saveSearchIndex } from './open'
import { listedPreview, parseListed, SearchIndex, type ListedSkill, type ListedText } from './search-index'
import { summaryOf } from './skill-text'
import { paceRefresh, type RefreshPace } from './daemon/refresh-pace'

export interface LibrarySearchOptions {
  /** Where the cache folder is (SKILLBENCH_CACHE_DIR, XDG_CACHE_HOME…); default process.env. */
  env?: NodeJS.ProcessEnv
  /**
   * A long-lived process: the index stays in memory and is made current before each use. Default false: a command
   * that answers once — opened once, never checked again.
   */
  keep?: boolean
  /** With `keep`: how old the last full check of the files may be (default 1000 ms). */
  maxAgeMs?: number
  /** With `keep`: how long after a change the index is saved (default 5000 ms; 0 = at once). */
  saveDelayMs?: number
  /**
   * With `keep`: the least time between the starts of two saves while changes keep coming (default `saveDelayMs`:
   * one save every `saveDelayMs`); after the last change there is always one more save, `saveDelayMs` after it at
   * the earliest. The saved index is then at most about this far behind the files.
   */
  saveGapMs?: number
  /** With `keep`: after each save of the kept index made after changes (`SKILLBENCH_SEARCH_TRACE=1` prints the daemon's). */
  onSave?: () => void
  /** With `keep`: file notifications for this library (closed with it); used unless it reports a fallback. */
  feed?: ChangeFeed
  /** Read the saved ranking arrays at open (default true); false for a listing: read at the first query, if any. */
  ranking?: boolean
  /** Save a changed index at open (default true). */
  save?: boolean
}

/** An index opened once (`LibrarySearch.open`). */
export interface OpenedSearch {
  index: SearchIndex
  /** The walk the index was brought up to date with (skipped entries are part of a listing). */
  walk: LibraryWalk
  /** Documents re-read because they were new, changed or gone. */
  changed: number
}

export class LibrarySearch {
  private index: SearchIndex | null = null
  private opening: Promise<SearchIndex> | null = null
  private checkedAt = 0
  private readonly ledger: LedgerTail
  /** When the kept index is saved after changes (created at the first change). */
  private savePace: RefreshPace | undefined
  /** What the last full walk passed over (links, special files): part of a listing. */
  private skipped: LoadError[] = []

  constructor(
    /** The library's real path (the index is saved under a hash of it). */
    readonly root: string,
    private readonly opts: LibrarySearchOptions = {}
  ) {
    this.ledger = new LedgerTail(root)
  }

  /**
   * A current index of the library at `root` (its real path), once: the saved one loaded, checked against every
   * file, the changed ones read, saved when anything changed (`keep`, `maxAgeMs`, `saveDelayMs`, `feed` do not apply).
   */
  static async open(root: string, opts: LibrarySearchOptions = {}): Promise<OpenedSearch> {
    const env = opts.env ?? process.env
    // The library's top folder is read on the thread pool while the saved index loads here.
    const walking = walkLibrary(root)
    const index = loadSearchIndex(root, env, { ranking: opts.ranking })
    const walk = await walking
    // Temp files of crashed writers are swept at open, as the store does.
    for (const t of walk.temps) await sweepTempFiles(path.dirname(t), [path.basename(t)])
    const changed = await index.sync(walk)
    if (index.dirty && opts.save !== false) saveSearchIndex(index, env)
    return { index, walk, changed }
  }

  /**
   * An index over skills in memory, in their order (ties go to the earlier one), ranked as a library's: for a
   * store with no folder behind its listing, or a listing that must include what was written a moment ago.
   */
  static ofSkills(skills: readonly Skill[]): SearchIndex {
    return SearchIndex.ofSkills(skills)
  }

  /** The index as last made current (null before the first use). */
  peek(): SearchIndex | null {
    return this.index
  }

  /**
   * The index, current: reloads what other processes wrote, and every changed file when the last check is old
   * (or `full`: always — a list a person looks at right after an editor saved).
   */
  async current(opts: { full?: boolean } = {}): Promise<SearchIndex> {
    if (!this.opts.keep) return this.index ?? this.openOnce()
    if (!this.index) {
      this.opening ??= (async () => {
        this.ledger.poll() // what is in the ledger now is covered by the walk below
        const { index, walk } = await LibrarySearch.open(this.root, { env: this.opts.env })
        this.skipped = walk.skipped
        this.checkedAt = Date.now()
        if (this.watched()) {
          // Watched from now on: one more walk covers what was written before the watches were in place.
          this.opts.feed!.track(walk.dirs)
          this.opts.feed!.take()
          await this.walkAndSync(index)
        }
        this.index = index
        return index
      })().finally(() => (this.opening = null))
      return this.opening
    }
    const index = this.index
    if (this.watched()) {
      // A poll of the event loop first, so every write finished before this call has had its notification
      // delivered: an immediate queued from another immediate runs only after the loop polled its handles again.
      await nextTurn()
      await nextTurn()
      const seen = this.opts.feed!.take()
      const written = this.ledger.poll()
      if (seen.full || written.reset) await this.walkAndSync(index)
      // Named files are read again even after a walk: a same-size rewrite in one timestamp tick shows only here.
      if (seen.paths.length + written.paths.length > 0) index.refreshPaths([...new Set([...seen.paths, ...written.paths])])
      if (index.dirty) this.scheduleSave()
      return index
    }
    const changes = this.ledger.poll()
    if (opts.full || changes.reset || Date.now() - this.checkedAt >= (this.opts.maxAgeMs ?? 1000)) {
      const walk = await walkLibrary(this.root)
      await index.sync(walk)
      this.skipped = walk.skipped
      this.checkedAt = Date.now()
    } else if (changes.paths.length > 0) {
      index.refreshPaths(changes.paths)
    }
    if (index.dirty) this.scheduleSave()
    return index
  }

  /** A command's index: opened at the first use, then handed out as it is. */
  private openOnce(): Promise<SearchIndex> {
    this.opening ??= LibrarySearch.open(this.root, this.opts).then(
      ({ index, walk }) => {
        this.skipped = walk.skipped
        this.checkedAt = Date.now()
        return (this.index = index)
      },
      (err: unknown) => {
        this.opening = null
        throw err
      }
    )
    return this.opening
  }

  /** Whether a change feed keeps the index current (else: stat checks). */
  private watched(): boolean {
    return this.opts.feed !== undefined && this.opts.feed.fallback === null
  }

  /** Walks the library and brings the index in line; again while the walk found folders not watched before. */
  private async walkAndSync(index: SearchIndex): Promise<void> {
    for (;;) {
      const walk = await walkLibrary(this.root)
      await index.sync(walk)
      this.skipped = walk.skipped
      this.checkedAt = Date.now()
      // Writes in a folder between its listing and its new watch raised no notification: one more walk sees them.
      if (this.opts.feed!.track(walk.dirs) === 0) return
    }
  }

  /** The library's listing (as `skillbench list` prints it) from the index, checked as `current({ full: true })`. */
  async listing(includeLegacy: boolean): Promise<{ skills: ListedText[]; errors: LoadError[] }> {
    return listingOf(await this.current({ full: true }), this.skipped, includeLegacy)
  }

  /** The same listing with every skill parsed. */
  async list(includeLegacy: boolean): Promise<{ skills: ListedSkill[]; errors: LoadError[] }> {
    const { skills, errors } = await this.listing(includeLegacy)
    return { skills: skills.map(parseListed), errors }
  }

  /** The library's list rows from the index, checked against every file's stat: only changed files are read. */
  async summaries(includeLegacy: boolean): Promise<SkillListResult> {
    const index = await this.current({ full: true })
    const { skills, errors } = listingOf(index, this.skipped, includeLegacy)
    return { skills: skills.map((s) => summaryOf(parseListed(s), listedPreview(s))), errors }
  }

  /**
   * A save after changes, paced as the daemon's refreshes are (daemon/refresh-pace.ts): `saveDelayMs` after a lone
   * change, at most once per `saveGapMs` while changes keep coming, always once more after the last. A save takes
   * in everything the index holds when it starts, so a change made meanwhile is in this save or sets the next one;
   * each save replaces its file whole (temp + rename), so a crash between two leaves the previous one, loadable.
   */
  private scheduleSave(): void {
    const delay = this.opts.saveDelayMs ?? 5000
    this.savePace ??= paceRefresh(
      () => {
        if (!this.index?.dirty || !saveSearchIndex(this.index, this.opts.env)) return
        try {
          this.opts.onSave?.()
        } catch {
          // a trace sink that fails costs its line, never the process (this runs on a timer)
        }
      },
      { soonMs: delay, minGapMs: this.opts.saveGapMs ?? delay, unref: true }
    )
    this.savePace.poke()
  }

  /** Saves a changed index now and stops the paced saves (on shutdown). */
  close(): void {
    this.savePace?.cancel()
    if (this.opts.keep && this.index?.dirty) saveSearchIndex(this.index, this.opts.env)
    this.index?.closeFile()
    this.opts.feed?.close()
  }
}
