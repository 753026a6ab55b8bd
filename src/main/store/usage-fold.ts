/**
 * Folding the usage ledger into the skill files. Uses of skills (query_skill) are appended to the ledger
 * (ledger.ts) under the library lock and carried into the files' counters later, by a fold: the intent (every
 * file's before/after hash) is saved first, the files are rewritten atomically, and a `fold` ledger record commits
 * it. A crash before the commit is finished by the next lock holder. The library (library.ts) composes one
 * UsageFold and holds the lock around every call here but `scheduleSoon` and `cancelSoon`.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Skill } from '../../shared/types'
import { writeFileAtomic } from './atomic'
import { containedFilePath, moveContained, readContainedText, unlinkContained, writeContained } from './contained'
import { FOLD_INTENT_REL, laterTime, LEDGER_ARCHIVE_REL, LEDGER_REL, type LedgerRecord, type LedgerTail } from './ledger'
import { hashBytes, parseSkillAt } from './load'
import { checkRelPath } from './paths'
import { decodeSkillBytes, parseSkillText, rewriteSkillFile } from './skill-file'
import { changesForMeta, formatTimestamp } from './skill-meta'
import { skillFileAt } from './walk'

/** Unfolded ledger bytes after which recording a use folds the ledger into the files (~600 uses; tests set it lower). */
const FOLD_AFTER_BYTES = Number(process.env.SKILLBENCH_FOLD_AFTER_BYTES) || 64 * 1024
/**
 * A fold asked for `soon` (recordUse) runs this long after the first use that asked for it: the counters reach the
 * files within seconds, and a burst of queries (an agent's MCP server) costs one fold, not one per query.
 */
const FOLD_SOON_MS = Number(process.env.SKILLBENCH_FOLD_SOON_MS) || 1500
/** A fully folded ledger larger than this moves to the archive (usage history is kept, never deleted). */
const ARCHIVE_AFTER_BYTES = 1024 * 1024

/** What a fold is about to do, kept in `.skillbench/usage-fold.json` until the fold's ledger record commits it. */
interface FoldIntent {
  at: string
  entries: { id: string; path: string; before: string; after: string; add: number; last: string }[]
}

/** What a fold needs of the library it folds into. */
export interface FoldHost {
  readonly root: string
  readonly ledger: LedgerTail
  now(): Date
  /** Reads what other processes appended to the ledger (reloading the paths they wrote). */
  followLedger(): void
  /** Appends a record (under the lock) and follows the ledger. */
  appendLedger(record: LedgerRecord, durable: boolean): Promise<void>
  /** Where the skill with this id lives now (active preferred), or null. */
  pathOfId(id: string): Promise<string | null>
  /** Records a file just written in the library's cache. */
  primeCache(rel: string, bytes: Uint8Array): void
  /** The library's files changed: its version moves on. */
  bump(): void
}

/** A skill file's text with `use` added to its counters; null when the file cannot be rewritten. Pure. */
export function withUses(bytes: Uint8Array, rel: string, use: { count: number; last: string }): { text: string; skill: Skill } | null {
  const kind = skillFileAt(rel)
  if (!kind) return null
  const r = parseSkillAt(bytes, { rel, ...kind }, 0)
  if (!r.ok) return null
  const decoded = decodeSkillBytes(bytes)
  const parsed = decoded.ok ? parseSkillText(decoded.text) : null
  if (!parsed?.ok) return null
  const meta = { fetch_count: r.skill.fetch_count + use.count, last_used_at: laterTime(r.skill.last_used_at, use.last) }
  return { text: rewriteSkillFile(parsed.file, changesForMeta(r.skill.format, parsed.file.data, meta, r.skill.skill_id)), skill: r.skill }
}

export class UsageFold {
  /** The fold scheduled `soon` (at most one at a time). */
  private timer: NodeJS.Timeout | undefined

  constructor(private readonly host: FoldHost) {}

  /** The ledger has grown enough since the last fold that recording a use should fold it now. */
  get due(): boolean {
    return this.host.ledger.unfoldedBytes > FOLD_AFTER_BYTES
  }

  /** A fold crashed before its commit (its intent is still on disk). */
  async interrupted(): Promise<boolean> {
    try {
      fs.lstatSync(path.join(this.host.root, FOLD_INTENT_REL))
      return true
    } catch {
      return false
    }
  }

  /** Runs `fold` in FOLD_SOON_MS, unless one is scheduled already (it carries this use too). */
  scheduleSoon(fold: () => Promise<unknown>): void {
    if (this.timer) return
    this.timer = setTimeout(() => {
      this.timer = undefined
      // A busy or failing fold leaves the uses in the ledger, where the next fold (any process's) counts them.
      fold().catch(() => undefined)
    }, FOLD_SOON_MS)
  }

  /** Cancels the scheduled fold; true when there was one (the caller then folds at once). */
  cancelSoon(): boolean {
    if (!this.timer) return false
    clearTimeout(this.timer)
    this.timer = undefined
    return true
  }

  /**
   * Folds the pending uses into the files (under the lock): the intent (every file's before/after hash) is saved
   * first, the files are rewritten atomically, and the `fold` ledger record commits it. A crash before the commit
   * is finished by the next lock holder (finish); a file already at its "after" hash is not counted twice.
   */
  async foldLocked(): Promise<{ skills: number; uses: number }> {
    const host = this.host
    host.followLedger()
    const pending = [...host.ledger.uses()]
    if (pending.length === 0) {
      // Nothing to fold, but a ledger grown by write notices alone still moves to the archive in time.
      if (host.ledger.size > ARCHIVE_AFTER_BYTES) await this.commit({ at: formatTimestamp(host.now()), entries: [] })
      return { skills: 0, uses: 0 }
    }
    const intent: FoldIntent = { at: formatTimestamp(host.now()), entries: [] }
    const texts: string[] = []
    let uses = 0
    for (const [id, use] of pending) {
      uses += use.count
      const rel = await host.pathOfId(id)
      if (!rel) continue // the skill is gone: its uses have nothing left to count on
      const abs = await containedFilePath(host.root, rel, { createDirs: false })
      let bytes: Buffer
      try {
        bytes = await fs.promises.readFile(abs)
      } catch {
        continue
      }
      const next = withUses(bytes, rel, use)
      if (!next) continue // unreadable or not UTF-8: never rewritten
      intent.entries.push({ id, path: rel, before: hashBytes(bytes), after: hashBytes(next.text), add: use.count, last: use.last })
      texts.push(next.text)
    }
    await writeContained(host.root, FOLD_INTENT_REL, JSON.stringify(intent))
    for (let i = 0; i < intent.entries.length; i++) {
      const e = intent.entries[i]!
      const out = Buffer.from(texts[i]!, 'utf8')
      await writeFileAtomic(path.join(host.root, e.path), out, { mustExist: true })
      host.primeCache(e.path, out)
    }
    await this.commit(intent)
    return { skills: intent.entries.length, uses }
  }

  /** Finishes a fold a crash interrupted (call under the lock). */
  async finish(): Promise<void> {
    const host = this.host
    let intent: FoldIntent
    try {
      intent = JSON.parse((await readContainedText(host.root, FOLD_INTENT_REL)) ?? 'null') as FoldIntent
      if (!intent || !Array.isArray(intent.entries)) throw new Error('not a fold intent')
    } catch {
      // Written atomically, so only a hand edit makes it unreadable: set it aside, never act on a guess.
      await moveContained(host.root, FOLD_INTENT_REL, `${FOLD_INTENT_REL}.unreadable-${Date.now()}`).catch(() => undefined)
      return
    }
    for (const e of intent.entries) {
      let abs: string
      let bytes: Buffer
      try {
        abs = await containedFilePath(host.root, checkRelPath(e.path), { createDirs: false })
        bytes = await fs.promises.readFile(abs)
      } catch {
        continue
      }
      if (hashBytes(bytes) === e.after) continue // this one was written before the crash
      const next = withUses(bytes, e.path, { count: e.add, last: e.last })
      if (!next) continue
      const out = Buffer.from(next.text, 'utf8')
      await writeFileAtomic(abs, out, { mustExist: true })
      host.primeCache(e.path, out)
    }
    await this.commit(intent)
  }

  private async commit(intent: FoldIntent): Promise<void> {
    const host = this.host
    host.bump()
    await host.appendLedger({ t: 'fold', paths: intent.entries.map((e) => e.path), at: intent.at }, true)
    await unlinkContained(host.root, FOLD_INTENT_REL)
    if (host.ledger.size > ARCHIVE_AFTER_BYTES) {
      const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, 'Z')
      await moveContained(host.root, LEDGER_REL, `${LEDGER_ARCHIVE_REL}/usage-${stamp}-${process.pid}.jsonl`)
      host.followLedger()
    }
  }
}
