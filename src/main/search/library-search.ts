/**
 * The search index of one library in a long-lived process (an MCP server, the app): opened once (warm from the
 * cache folder), then kept current cheaply before each use — the ledger says which skills other Skillbench
 * processes wrote (those files are re-read), and a full check of every file's stat runs when the last one is older
 * than `maxAgeMs` (edits by other programs). Saved back to the cache folder after changes, at most every few seconds.
 */
import { LedgerTail } from '../store/ledger'
import { walkLibrary } from '../store/walk'
import type { SkillListResult } from '../../shared/api'
import type { LoadError } from '../../shared/types'
import { listingOf, openSearchIndex, saveSearchIndex } from './open'
import { parseListed, type SearchIndex } from './search-index'
import { summaryOf } from './skill-text'

export interface LibrarySearchOptions {
  env?: NodeJS.ProcessEnv
  /** How old the last full check of the files may be (default 1000 ms). */
  maxAgeMs?: number
  /** How long after a change the index is saved (default 5000 ms; 0 = at once). */
  saveDelayMs?: number
}

export class LibrarySearch {
  private index: SearchIndex | null = null
  private opening: Promise<SearchIndex> | null = null
  private checkedAt = 0
  private readonly ledger: LedgerTail
  private saveTimer: NodeJS.Timeout | undefined
  /** What the last full walk passed over (links, special files): part of a listing. */
  private skipped: LoadError[] = []

  constructor(
    readonly root: string,
    private readonly opts: LibrarySearchOptions = {}
  ) {
    this.ledger = new LedgerTail(root)
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
    if (!this.index) {
      this.opening ??= (async () => {
        this.ledger.poll() // what is in the ledger now is covered by the walk below
        const { index, walk } = await openSearchIndex(this.root, { env: this.opts.env })
        this.index = index
        this.skipped = walk.skipped
        this.checkedAt = Date.now()
        return index
      })().finally(() => (this.opening = null))
      return this.opening
    }
    const index = this.index
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

  /** The library's list rows from the index, checked against every file's stat: only changed files are read. */
  async summaries(includeLegacy: boolean): Promise<SkillListResult> {
    const index = await this.current({ full: true })
    const { skills, errors } = listingOf(index, this.skipped, includeLegacy)
    return { skills: skills.map((s) => summaryOf(parseListed(s), s.preview)), errors }
  }

  private scheduleSave(): void {
    if (this.saveTimer) return
    const delay = this.opts.saveDelayMs ?? 5000
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined
      if (this.index?.dirty) saveSearchIndex(this.index, this.opts.env)
    }, delay)
    this.saveTimer.unref()
  }

  /** Saves a changed index now and stops the timer (on shutdown). */
  close(): void {
    clearTimeout(this.saveTimer)
    this.saveTimer = undefined
    if (this.index?.dirty) saveSearchIndex(this.index, this.opts.env)
    this.index?.closeFile()
  }
}
