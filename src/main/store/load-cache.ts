/**
 * The library's loaded skill files, kept by their stat key (mtime, size, inode, ctime): a file whose key did not
 * change is not read or parsed again. Only spares work: the files stay the truth, and a file that cannot be
 * stat'ed is forgotten.
 */
import fs from 'node:fs'
import path from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Skill } from '../../shared/types'
import { isLegacyPath } from '../../shared/legacy-paths'
import { cannotRead, loadSkillFile, loadSkillFiles, parseSkillAt, type LoadedFile, type LoadResult } from './load'
import type { Candidate } from './walk'

/** Files loaded between two yields to the event loop. */
const LOAD_BATCH = 512

interface CacheEntry {
  mtimeMs: number
  size: number
  ino: number
  ctimeMs: number
  result: LoadResult
}

export class LoadCache {
  private readonly entries = new Map<string, CacheEntry>()

  /**
   * Loads one candidate, re-reading only when its stat changed. Synchronous on purpose: a promise-based
   * lstat/readFile costs several thread-pool hops per file, which made 10k files take seconds of CPU;
   * callers run it in small batches and yield to the event loop between them.
   */
  load(c: Candidate): LoadResult {
    return this.unchanged(c) ?? this.remember(c, loadSkillFile(c))
  }

  /** Loads many candidates in batches, yielding to the event loop between batches so the process stays responsive. */
  async loadAll(candidates: Candidate[], onSkill?: (skill: Skill) => void, signal?: AbortSignal): Promise<LoadResult[]> {
    const out: LoadResult[] = []
    for (let i = 0; i < candidates.length; i += LOAD_BATCH) {
      if (i > 0) await nextTurn()
      signal?.throwIfAborted()
      const batch = candidates.slice(i, i + LOAD_BATCH)
      // New and changed files are read together (load.ts decodes a batch at once).
      const kept = batch.map((c) => this.unchanged(c))
      const fresh = loadSkillFiles(batch.filter((_, k) => kept[k] === undefined))
      let f = 0
      for (const [k, c] of batch.entries()) {
        const r = kept[k] ?? this.remember(c, fresh[f++]!)
        out.push(r)
        if (onSkill && r.ok) onSkill(r.skill)
      }
    }
    return out
  }

  /** Records what was just written at `rel` under `root` (keyed by the new stat), so reading it back costs no re-read. */
  prime(root: string, rel: string, bytes: Uint8Array): LoadResult | undefined {
    const abs = path.join(root, rel)
    try {
      const st = fs.lstatSync(abs)
      if (!st.isFile() || st.size !== bytes.length) return undefined
      const format: Skill['format'] = path.posix.basename(rel) === 'SKILL.md' ? 'skill-md' : 'agiagent'
      const result = parseSkillAt(bytes, { rel, format, legacy: isLegacyPath(rel) }, st.mtimeMs)
      this.entries.set(abs, { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino, ctimeMs: st.ctimeMs, result })
      return result
    } catch {
      return undefined // the next read will load it from disk
    }
  }

  /** Forgets every file but these (absolute paths), after a full listing. */
  keepOnly(seen: ReadonlySet<string>): void {
    for (const key of this.entries.keys()) if (!seen.has(key)) this.entries.delete(key)
  }

  /**
   * What the cache holds for a known file whose stat key (one lstat) is unchanged, or why it can no longer be
   * stat'ed; undefined when the file must be read (new or changed).
   */
  private unchanged(c: Candidate): LoadResult | undefined {
    const hit = this.entries.get(c.abs)
    if (!hit) return undefined
    let st: fs.Stats
    try {
      st = fs.lstatSync(c.abs)
    } catch (err) {
      this.entries.delete(c.abs)
      return cannotRead(err)
    }
    return hit.mtimeMs === st.mtimeMs && hit.size === st.size && hit.ino === st.ino && hit.ctimeMs === st.ctimeMs ? hit.result : undefined
  }

  /** A file just read: cached by its stat key (forgotten when it could not be read). */
  private remember(c: Candidate, loaded: LoadedFile): LoadResult {
    const st = loaded.stat
    if (!st) this.entries.delete(c.abs)
    else this.entries.set(c.abs, { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino, ctimeMs: st.ctimeMs, result: loaded.result })
    return loaded.result
  }
}
