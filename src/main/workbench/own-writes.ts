/**
 * Which reported changes are the app's own writes (pure: no I/O, the clock passed in). The store announces each
 * file or folder this process writes with what it left there (`store/announce-writes.ts`: size, modification time
 * and inode); the file watcher asks about each path it is about to report, giving what is there now. A path is
 * the app's own only when
 * - every notification for it since the last report came while a write of ours was announced (one with no
 *   announcement pending cannot be ours: an outside change, maybe just before ours), and
 * - what is there now equals what our last write left (nothing changed it since: another process writing the same
 *   file after us leaves another stamp — a new inode for an atomic write, another size or time for an append).
 * An answer consumes the announcement: a later change to the path is judged afresh. Announcements older than
 * `ttlMs` are forgotten (their change then goes out as news: a needless re-read, never a hidden change).
 *
 * What stamps cannot tell apart: another process rewriting the file in place, to the same size, within the same
 * timestamp tick as ours, and reported in the same batch — the same limit as every stat-keyed check here.
 */
import { sameStamp, type FileStamp } from '../store/announce-writes'

export class OwnWrites {
  /** abs path → our last write's stamp and when it was announced (Map order: oldest first). */
  private readonly writes = new Map<string, { stamp: FileStamp; at: number }>()
  /** Paths notified with no announcement of ours pending, not yet judged. */
  private readonly outside = new Set<string>()

  constructor(
    private readonly ttlMs = 10_000,
    private readonly max = 50_000
  ) {}

  /** Our write at `abs` left (or will leave) `stamp`. */
  record(abs: string, stamp: FileStamp, now: number): void {
    this.writes.delete(abs)
    this.writes.set(abs, { stamp, at: now })
    this.prune(now)
  }

  /** A change notification for `abs` arrived. */
  noticed(abs: string, now: number): void {
    if (this.live(abs, now)) return
    this.outside.add(abs)
    while (this.outside.size > this.max) this.outside.delete(this.outside.values().next().value as string)
  }

  /** True when the change at `abs` (now `current`) is only our own write; consumes what was known of the path. */
  isOwn(abs: string, current: FileStamp, now: number): boolean {
    const write = this.live(abs, now) ? this.writes.get(abs) : undefined
    const unexplained = this.outside.delete(abs)
    this.writes.delete(abs)
    return !unexplained && write !== undefined && sameStamp(write.stamp, current)
  }

  /** How many announcements are kept (for tests). */
  get size(): number {
    return this.writes.size
  }

  private live(abs: string, now: number): boolean {
    const write = this.writes.get(abs)
    if (!write) return false
    if (now - write.at <= this.ttlMs) return true
    this.writes.delete(abs)
    return false
  }

  private prune(now: number): void {
    for (const [abs, write] of this.writes) {
      if (this.writes.size <= this.max && now - write.at <= this.ttlMs) break
      this.writes.delete(abs)
    }
  }
}
