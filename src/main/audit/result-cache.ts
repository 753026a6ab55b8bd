/**
 * The audit's result cache: each skill's findings, kept against the size, mtime, ctime, inode and mode of every one
 * of its files. A library-wide audit then reads only the skills whose files changed, and costs about a `list`.
 * One file per audited root in the user's cache folder (never in the library); written whole (temp + rename), so
 * processes auditing at once read the old file or the new one. A cache that is absent, corrupt, from other rules,
 * or cannot be written costs only time: the audit reads the files again.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { SECRET_PATTERNS } from '../llm/redact'
import { findHiddenRuns } from '../../shared/hidden-text'
import { readCacheFile, writeCacheFile } from '../cache-files'
import { LINE_RULES } from './line-rules'
import { auditSkill } from './skill-audit'
import { auditText } from './text-audit'
import type { AuditFinding } from './types'

/** Bump when a rule changes in a way its code text does not show (a constant a check reads, a threshold). */
const RULES_VERSION = 2 // 2: the warning judgment (cautionary.ts) and rm in backticks

/** What the cached findings were computed by: a changed rule (its code or hint) is a different fingerprint. */
export const RULES_FINGERPRINT: string = crypto
  .createHash('sha256')
  .update(String(RULES_VERSION))
  .update([auditSkill, auditText, findHiddenRuns].map(String).join('\n'))
  .update(LINE_RULES.map((r) => `${r.rule}\u0000${r.hint.source}/${r.hint.flags}\u0000${String(r.check)}`).join('\n'))
  .update(SECRET_PATTERNS.map((p) => `${p.kind}${p.re.source}${p.keep ?? ''}`).join('\n'))
  .digest('hex')
  .slice(0, 16)

export interface CachedSkill {
  /** The files' signature (see `signatureOf`). */
  sig: string
  name: string
  files: number
  findings: AuditFinding[]
}

interface SavedCache {
  rules: string
  skills: Record<string, CachedSkill>
}

/** One file's stamp: any write changes its size, mtime or ctime; a replaced file changes its inode. */
export function signatureOf(files: readonly { rel: string; stat: fs.Stats }[]): string {
  return files.map((f) => `${f.rel}\u0000${f.stat.size}\u0000${f.stat.mtimeMs}\u0000${f.stat.ctimeMs}\u0000${f.stat.ino}\u0000${f.stat.mode}`).join('\u0001')
}

/** The cache file for one audited root (a hash of its path and of the rules, so neither ever mixes). */
export function auditCacheFile(cacheDir: string, root: string): string {
  const hash = crypto.createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 16)
  return path.join(cacheDir, 'audit', `${hash}.json`)
}

/** Findings per skill folder (or single file) of one root, loaded once and saved when something changed. */
export class AuditResultCache {
  private skills = new Map<string, CachedSkill>()
  private seen = new Set<string>()
  private dirty = false
  hits = 0
  misses = 0

  constructor(private readonly file: string | null) {}

  /** Loads the saved file; anything unreadable or from other rules is an empty cache. */
  async load(): Promise<void> {
    if (!this.file) return
    const buf = await readCacheFile(this.file)
    if (!buf) return
    try {
      const saved = JSON.parse(buf.toString('utf8')) as SavedCache
      if (saved?.rules !== RULES_FINGERPRINT || typeof saved.skills !== 'object' || saved.skills === null) return
      for (const [key, entry] of Object.entries(saved.skills)) {
        if (typeof entry?.sig === 'string' && typeof entry.name === 'string' && typeof entry.files === 'number' && Array.isArray(entry.findings)) this.skills.set(key, entry)
      }
    } catch {
      // a torn or foreign file: start empty
    }
  }

  /** The cached result of the skill at `key` when its files' signature is unchanged. */
  get(key: string, sig: string): CachedSkill | undefined {
    this.seen.add(key)
    const hit = this.skills.get(key)
    if (hit && hit.sig === sig) {
      this.hits++
      return hit
    }
    this.misses++
    return undefined
  }

  set(key: string, entry: CachedSkill): void {
    this.seen.add(key)
    this.skills.set(key, entry)
    this.dirty = true
  }

  /**
   * Writes the cache when it changed, dropping skills this run did not see (removed ones). Never through a link:
   * the cache folder and its `audit/` folder must be real folders, or nothing is written.
   */
  async save(): Promise<void> {
    if (!this.file) return
    for (const key of this.skills.keys()) {
      if (!this.seen.has(key)) {
        this.skills.delete(key)
        this.dirty = true
      }
    }
    if (!this.dirty) return
    const dir = path.dirname(this.file)
    for (const d of [path.dirname(dir), dir]) if (fs.lstatSync(d, { throwIfNoEntry: false })?.isSymbolicLink()) return
    const saved: SavedCache = { rules: RULES_FINGERPRINT, skills: Object.fromEntries(this.skills) }
    await writeCacheFile(this.file, JSON.stringify(saved)).catch(() => undefined)
    this.dirty = false
  }
}
