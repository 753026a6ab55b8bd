/**
 * The skill store on disk: one folder holding AGIAgent `skill_*.md` files (+ `legacy/`) and/or SKILL.md
 * folders nested at any depth (dot-folders included; retired ones in `.skillbench/legacy/`). Files are the truth; a stat-keyed cache only spares
 * re-reading and re-parsing files that did not change.
 *
 * Several processes share a library (agents' MCP servers, CLI calls, the app). Every write runs under the
 * library lock (lock.ts), re-reads the file inside it and compares the caller's base hash there, so no write is
 * built on a stale read. Uses of skills (query_skill) go to the ledger (ledger.ts) and are folded into the files
 * later (usage-fold.ts); every write is announced in the ledger so other processes reload just what changed.
 */
import fs from 'node:fs'
import path from 'node:path'
import { reasonOf } from '../../shared/api-error'
import { coded, type MessageRef } from '../../shared/error-codes'
import { isLegacyPath } from '../../shared/legacy-paths'
import type { LoadError, Skill, SkillList, SkillMeta } from '../../shared/types'
import { sweepTempFiles, writeFileAtomic } from './atomic'
import { duplicateIdErrors, hashBytes, parseSkillAt, type LoadResult } from './load'
import { loadErrorOf } from '../../shared/coded-reason'
import { LoadCache } from './load-cache'
import { SKIPPED_DIRS, skillFileAt, walkLibrary, type Candidate } from './walk'
import { appendContained, containedFilePath } from './contained'
import { sweepBookkeepingTemps } from './bookkeeping-sweep'
import { LEDGER_REL, LedgerTail, ledgerLine, type LedgerRecord } from './ledger'
import { moveIntoLegacy, moveOutOfLegacy } from './legacy-moves'
import { indexIds, patchListing, presentList, presentSkill } from './listing'
import { withLibraryLock } from './lock'
import { assertSkillId, checkRelPath, resolveInside as resolveInsideRoot } from './paths'
import { readForWrite, readRawFile, writablePath, writeGuardedFile } from './raw-files'
import { newSkillMeta, checkNewSkill, validateMeta } from './skill-input'
import { writeNewSkillFile } from './new-skill-file'
import { decodeSkillBytes, parseSkillText, rewriteSkillFile, parseReasonParam } from './skill-file'
import { syncIndexJsonIfPresent } from './index-json-sync'
import { reconcileLockRetired } from './skills-lock'
import { changesForMeta, formatTimestamp } from './skill-meta'
import { StoreError, type LibraryOptions, type NewSkillInput, type SkillLibrary, type SkillPatch, type UpdateOptions, type UseFold } from './types'
import { UsageFold } from './usage-fold'

export { SKIPPED_DIRS }
export type { LibraryOptions, SkillLibrary } from './types'
export { MAX_SKILL_FILE_BYTES, hashBytes, loadedSkillText } from './load'
/** A write re-lists the library first when its last full listing is older than this (files edited outside Skillbench). */
const WRITE_RESCAN_AFTER_MS = 1000

/** Opens a library folder (must exist). Sweeps temp files left by crashed writers and finishes a crashed fold. */
export async function openLibrary(dir: string, opts: LibraryOptions = {}): Promise<SkillLibrary> {
  let root: string
  try {
    root = await fs.promises.realpath(dir)
  } catch {
    throw new StoreError('not_found', coded('library.not_found', { path: dir }))
  }
  const st = await fs.promises.stat(root)
  if (!st.isDirectory()) throw new StoreError('invalid_input', coded('path.not_folder', { path: dir }))
  const lib = new Library(root, opts.now ?? (() => new Date()), opts.locate, opts.recover)
  await lib.init(opts.lazy === true, opts.onListing, opts.signal)
  return lib
}

class Library implements SkillLibrary {
  sweptTempFiles = 0
  version = 0
  private readonly files = new LoadCache()
  private idPaths = new Map<string, string>()
  /** Ids carried by more than one active skill file (changes by id are refused), from the last listing. */
  private duplicateIds = new Map<string, string[]>()
  private indexedAt = 0
  private readonly ledger: LedgerTail
  /** Why the last index.json sync did not update it (undefined when it did or there is none). */
  indexJsonProblem: string | undefined
  /** The same by code (index.*), for a UI to word it. */
  indexJsonProblemRef: MessageRef | undefined
  private last: { at: number; version: number; all: SkillList } | null = null
  /** Folds the usage ledger into the files (under our lock). */
  private readonly usage: UsageFold

  constructor(
    readonly root: string,
    private readonly now: () => Date,
    private readonly locate?: (skillId: string) => string | undefined,
    private readonly recover?: LibraryOptions['recover']
  ) {
    this.ledger = new LedgerTail(root)
    this.usage = new UsageFold({
      root,
      ledger: this.ledger,
      now,
      followLedger: () => this.followLedger(),
      appendLedger: (record, durable) => this.appendLedger(record, durable),
      pathOfId: (id) => this.pathOfId(id),
      primeCache: (rel, bytes) => void this.primeCache(rel, bytes),
      bump: () => this.bump()
    })
  }

  async init(lazy: boolean, onListing?: LibraryOptions['onListing'], signal?: AbortSignal): Promise<void> {
    const temps: string[] = []
    if (!lazy) await this.scan(temps, onListing, signal)
    else this.ledger.poll()
    for (const t of temps) this.sweptTempFiles += await sweepTempFiles(path.dirname(t), [path.basename(t)])
    this.sweptTempFiles += await sweepBookkeepingTemps(this.root)
    if (await this.usage.interrupted()) await this.locked(async () => undefined, 'finishing an interrupted usage fold')
  }

  // ---- locking and the ledger -------------------------------------------------------------------

  async locked<T>(fn: () => Promise<T>, purpose?: string): Promise<T> {
    return withLibraryLock(
      this.root,
      async () => {
        // The ledger every write is announced in must be ours to append to before anything is written
        // (a link there is refused now, not after a skill file was already changed).
        await containedFilePath(this.root, LEDGER_REL)
        // A change a crash interrupted first (the host's recovery, in this same lock hold: nothing starts in
        // between); it is newer than any fold left unfinished, which a transaction's rebase worked on top of.
        if (this.recover && (await this.recover(this.root)).rolledBack.length > 0) this.forgetListing()
        // A fold that crashed must finish before anything else is recorded or rewritten.
        if (await this.usage.interrupted()) await this.usage.finish()
        return fn()
      },
      purpose ? { purpose } : {}
    )
  }

  /** Files changed behind the store's back (a rollback): the next listing or change by id reads the library again. */
  private forgetListing(): void {
    this.last = null
    this.indexedAt = 0
    this.bump()
  }

  /** Reads what other processes appended to the ledger: reloads the paths they wrote. */
  private followLedger(): void {
    const changes = this.ledger.poll()
    if (changes.reset) {
      this.last = null
      this.indexedAt = 0
      return
    }
    for (const rel of changes.paths) this.reloadPath(rel)
  }

  /** Appends a record (call under the lock); `durable` fsyncs it (uses must survive a crash, notices need not). */
  private async appendLedger(record: LedgerRecord, durable: boolean): Promise<void> {
    await appendContained(this.root, LEDGER_REL, ledgerLine(record), { fsync: durable })
    this.followLedger()
  }

  /** Announces written paths to other processes (call under the lock, after the write). */
  private async announce(paths: string[]): Promise<void> {
    await this.appendLedger({ t: 'write', paths, at: formatTimestamp(this.now()) }, false)
  }

  /** A path some process wrote: reload it and keep the listing and the id index in step. */
  private reloadPath(rel: string): void {
    let clean: string
    try {
      clean = checkRelPath(rel)
    } catch {
      return // not a path we wrote: ignore
    }
    const kind = skillFileAt(clean)
    if (!kind) return
    const r = this.files.load({ abs: path.join(this.root, clean), rel: clean, ...kind })
    if (r.ok) {
      const prev = this.idPaths.get(r.skill.skill_id)
      if (!prev || prev === clean || !r.skill.legacy || isLegacyPath(prev)) this.idPaths.set(r.skill.skill_id, clean)
    }
    this.patchListing(clean, r.ok ? r.skill : null)
  }

  /** The skill as callers see it: its file's counters plus the uses recorded since the last fold. */
  private present(skill: Skill): Skill {
    return presentSkill(skill, this.ledger.uses(), this.idPaths)
  }

  private presentList(all: SkillList, includeLegacy: boolean | undefined): SkillList {
    return presentList(all, includeLegacy, this.ledger.uses(), this.idPaths)
  }

  async recordUse(ids: readonly string[], opts: { via?: string; at?: string; fold?: UseFold } = {}): Promise<Skill[]> {
    const unique = [...new Set(ids.map((id) => assertSkillId(id)))]
    if (unique.length === 0) return []
    const at = opts.at ?? formatTimestamp(this.now())
    await this.locked(async () => {
      this.followLedger()
      // The use is durable in the ledger first; the fold (same lock hold) then carries every pending use, this
      // process's and others', into the files. A crash in between loses nothing: the next fold counts it.
      await this.appendLedger({ t: 'use', ids: unique, at, ...(opts.via ? { via: opts.via } : {}) }, true)
      if (opts.fold === 'now' || this.usage.due) await this.usage.foldLocked()
    }, 'recording skill uses')
    if (opts.fold === 'soon') this.usage.scheduleSoon(() => this.foldUsage())
    const out: Skill[] = []
    for (const id of unique) {
      const rel = this.idPaths.get(id)
      const skill = rel ? await this.tryPath(rel, id) : null
      if (skill) out.push(this.present(skill))
    }
    return out
  }

  async foldUsage(): Promise<{ skills: number; uses: number }> {
    return this.locked(() => this.usage.foldLocked(), 'folding skill usage')
  }

  async settleUsage(): Promise<void> {
    if (this.usage.cancelSoon()) await this.foldUsage()
  }

  /** Where the skill with this id lives now (active preferred), or null (under the lock). */
  private async pathOfId(id: string): Promise<string | null> {
    const known = this.idPaths.get(id) ?? this.locate?.(id)
    if (known && (await this.tryPath(known, id))) return known
    const all = await this.scan()
    const matches = all.skills.filter((s) => s.skill_id === id)
    return (matches.find((s) => !s.legacy) ?? matches[0])?.path ?? null
  }

  // ---- reading -------------------------------------------------------------------------------

  /** Finds skill files; collects temp files (to sweep) and reports every entry it passes over. */
  private async findCandidates(temps: string[], errors: LoadError[]): Promise<Candidate[]> {
    const found = await walkLibrary(this.root)
    temps.push(...found.temps)
    errors.push(...found.skipped)
    return found.candidates
  }

  /** Reads every skill (active and legacy), sorted by path; reports duplicate active ids. */
  private async scan(temps: string[] = [], onListing?: LibraryOptions['onListing'], signal?: AbortSignal): Promise<SkillList> {
    const startVersion = this.version
    // Uses and writes announced so far are covered by what this scan reads (or come after it).
    this.ledger.poll()
    const errors: LoadError[] = []
    const candidates = await this.findCandidates(temps, errors)
    candidates.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))
    const results = await this.files.loadAll(candidates, onListing?.(this.root, candidates.length), signal)
    const skills: Skill[] = []
    const seen = new Set<string>()
    results.forEach((r, i) => {
      const c = candidates[i]!
      seen.add(c.abs)
      if (!r.ok) errors.push(loadErrorOf(c.rel, r, 'unreadable'))
      else skills.push(r.skill)
    })
    const { idPaths, duplicates } = indexIds(skills)
    errors.push(...duplicateIdErrors(duplicates))
    this.idPaths = idPaths
    this.duplicateIds = duplicates
    this.files.keepOnly(seen)
    const all = { skills, errors }
    // Stamped with the version it started from: a write during the scan makes the snapshot stale, as it should.
    this.last = { at: Date.now(), version: startVersion, all }
    this.indexedAt = Date.now()
    return all
  }

  async list(opts: { includeLegacy?: boolean } = {}): Promise<SkillList> {
    return this.presentList(await this.scan(), opts.includeLegacy)
  }

  async snapshot(opts: { maxAgeMs?: number; includeLegacy?: boolean } = {}): Promise<SkillList> {
    const maxAge = opts.maxAgeMs ?? 1000
    this.followLedger()
    const last = this.last
    if (last && last.version === this.version && Date.now() - last.at < maxAge) return this.presentList(last.all, opts.includeLegacy)
    return this.list(opts)
  }

  /** Records what we just wrote in the cache (keyed by the new stat), so reading it back costs no re-read. */
  private primeCache(rel: string, bytes: Uint8Array): LoadResult | undefined {
    return this.files.prime(this.root, rel, bytes)
  }

  /** Loads the skill at a known path if it still has this id. */
  private async tryPath(rel: string, id: string): Promise<Skill | null> {
    const kind = skillFileAt(rel)
    if (!kind) return null
    const r = this.files.load({ abs: path.join(this.root, rel), rel, ...kind })
    return r.ok && r.skill.skill_id === id ? r.skill : null
  }

  private refuseDuplicate(id: string): void {
    const paths = this.duplicateIds.get(id)
    if (paths) {
      throw new StoreError('duplicate_id', coded('skill.duplicate_id', { id, count: paths.length, paths: paths.join(', ') }))
    }
  }

  /** The file skill of an id (not presented): the recorded path when it still holds the id, else from a fresh listing. */
  private async find(id: string, includeLegacy: boolean): Promise<Skill> {
    const known = this.idPaths.get(id) ?? this.locate?.(id)
    let skill = known ? await this.tryPath(known, id) : null
    if (skill && this.indexedAt === 0) {
      // Found without a listing (lazy open): a duplicate of this id elsewhere cannot be ruled out without one.
      await this.scan()
    }
    let retired: Skill | undefined
    if (!skill || (skill.legacy && !includeLegacy)) {
      const all = await this.scan()
      const matches = all.skills.filter((s) => s.skill_id === id && (includeLegacy || !s.legacy))
      skill = matches.find((s) => !s.legacy) ?? matches[0] ?? null
      // An id that only a retired skill has: said so (a second delete, an agent's edit after a merge), not "no skill".
      if (!skill && !includeLegacy) retired = all.skills.find((s) => s.skill_id === id && s.legacy)
    }
    this.refuseDuplicate(id)
    if (!skill && retired) throw new StoreError('not_found', coded('skill.retired_id', { id, path: retired.path }))
    if (!skill) throw new StoreError('not_found', coded(includeLegacy ? 'skill.no_id' : 'skill.no_active_id', { id }))
    return skill
  }

  async skillAt(relPath: string): Promise<Skill | null> {
    let rel: string
    try {
      rel = checkRelPath(relPath)
    } catch {
      return null
    }
    const kind = skillFileAt(rel)
    if (!kind) return null
    this.followLedger()
    const r = this.files.load({ abs: path.join(this.root, rel), rel, ...kind })
    if (!r.ok) return null
    const prev = this.idPaths.get(r.skill.skill_id)
    if (!prev || (!r.skill.legacy && isLegacyPath(prev))) this.idPaths.set(r.skill.skill_id, rel)
    return this.present(r.skill)
  }

  async get(skillId: string, opts: { includeLegacy?: boolean } = {}): Promise<Skill> {
    const id = assertSkillId(skillId)
    this.followLedger()
    return this.present(await this.find(id, opts.includeLegacy === true))
  }

  /** Inside the lock, before a write: catch up with other processes (ledger) and with other programs (a re-list when stale). */
  private async catchUp(): Promise<void> {
    this.followLedger()
    if (Date.now() - this.indexedAt > WRITE_RESCAN_AFTER_MS) await this.scan()
  }

  // ---- writing -------------------------------------------------------------------------------

  private bump(): void {
    this.version++
  }

  /**
   * Keeps the cached listing valid after a write of one skill file (by us or, through the ledger, by another
   * process): replaces the skill at its path, inserts a new one in path order, or removes one that is gone.
   * The listing is sorted by path and never handed out itself (callers get copies).
   */
  private patchListing(rel: string, skill: Skill | null): void {
    if (this.last) patchListing(this.last.all.skills, rel, skill)
  }

  /** After a write of ours: the listing stays valid (patched), stamped with the new version. */
  private noteWrite(rel: string, skill: Skill | null): void {
    const before = this.version
    this.bump()
    if (skill) this.idPaths.set(skill.skill_id, rel)
    if (this.last && this.last.version === before) {
      this.patchListing(rel, skill)
      this.last.version = this.version
    } else {
      this.last = null
    }
  }

  async update(skillId: string, patch: SkillPatch, opts: UpdateOptions = {}): Promise<Skill> {
    return this.updateWith(skillId, () => patch, opts)
  }

  async updateWith(skillId: string, make: (current: Skill) => SkillPatch | null, opts: UpdateOptions = {}): Promise<Skill> {
    const id = assertSkillId(skillId)
    return this.locked(async () => {
      await this.catchUp()
      const found = await this.find(id, opts.activeOnly !== true)
      const { abs, bytes } = await readForWrite(this.root, found.path, opts.baseHash)
      const decoded = decodeSkillBytes(bytes)
      if (!decoded.ok) throw new StoreError('not_utf8', coded('file.problem', { path: found.path, reason: parseReasonParam(decoded) }))
      const parsed = parseSkillText(decoded.text)
      if (!parsed.ok) throw new StoreError('malformed', coded('file.problem', { path: found.path, reason: parseReasonParam(parsed) }))
      // The skill as it is on disk now (inside the lock), with the uses not folded yet: what `make` builds on.
      const onDisk = parseSkillAt(bytes, { rel: found.path, format: found.format, legacy: found.legacy }, 0)
      if (!onDisk.ok || onDisk.skill.skill_id !== id) throw new StoreError('conflict', coded('skill.no_longer_holds', { path: found.path, id }))
      const patch = make(this.present(onDisk.skill))
      if (patch === null) return this.present(onDisk.skill)
      const meta: Partial<SkillMeta> = { ...(patch.meta ?? {}) }
      validateMeta(meta)
      if (patch.body !== undefined && typeof patch.body !== 'string') throw new StoreError('invalid_input', coded('skill.body_not_string'))
      if (opts.touchUpdatedAt !== false) meta.updated_at = formatTimestamp(this.now())
      let text: string
      try {
        text = rewriteSkillFile(parsed.file, changesForMeta(found.format, parsed.file.data, meta, found.skill_id), patch.body)
      } catch (err) {
        throw new StoreError('malformed', coded('file.problem', { path: found.path, reason: reasonOf(err) }))
      }
      const out = Buffer.from(text, 'utf8')
      await writeFileAtomic(abs, out, { mustExist: true })
      const primed = this.primeCache(found.path, out)
      const skill = primed?.ok ? primed.skill : await this.tryPath(found.path, meta.skill_id ?? found.skill_id)
      if (!skill) throw new StoreError('malformed', coded('skill.not_read_back', { path: found.path }))
      this.noteWrite(skill.path, skill)
      await this.announce([skill.path])
      if (opts.activity) await this.appendLedger({ t: 'act', id: skill.skill_id, title: skill.title, at: formatTimestamp(this.now()), ...opts.activity }, true)
      if (skill.format === 'skill-md' && (meta.title !== undefined || meta.usage_conditions !== undefined)) await this.syncIndexJson()
      return this.present(skill)
    }, `updating skill ${id}`)
  }

  /** True when a skill file still holds this id (checked at its recorded path; a removed file frees it). */
  private async idTaken(id: string): Promise<boolean> {
    const known = this.idPaths.get(id)
    if (known === undefined) return false
    if (await this.tryPath(known, id)) return true
    await this.scan() // moved or removed behind our back: only a listing can tell
    return this.idPaths.has(id)
  }

  /** A free unix-seconds id, or the wanted one when nobody has it (under the lock, after catchUp). */
  private async chooseId(wanted: string | undefined): Promise<string> {
    if (wanted !== undefined) {
      assertSkillId(wanted)
      if (await this.idTaken(wanted)) throw new StoreError('exists', coded('skill.id_exists', { id: wanted }))
      return wanted
    }
    let n = Math.floor(this.now().getTime() / 1000)
    while (await this.idTaken(String(n))) n++
    return String(n)
  }

  async create(input: NewSkillInput): Promise<Skill> {
    checkNewSkill(input)
    return this.locked(async () => {
      // Every Skillbench writer announces its creates in the ledger, so the id index is current here.
      await this.catchUp()
      return this.createWithId(input, await this.chooseId(input.skill_id))
    }, 'creating a skill')
  }

  private async createWithId(input: NewSkillInput, id: string): Promise<Skill> {
    const meta = newSkillMeta(input, id, formatTimestamp(this.now()))
    validateMeta(meta)
    const { rel, bytes } = await writeNewSkillFile(this.root, input, meta)
    // Built from the bytes just written (no read back); cached under the file's stat like any loaded file.
    const result = this.primeCache(rel, bytes)
    const skill = result?.ok && result.skill.skill_id === id ? result.skill : await this.tryPath(rel, id)
    if (!skill) throw new StoreError('malformed', coded('skill.not_read_back', { path: rel }))
    this.noteWrite(rel, skill)
    await this.announce([rel])
    if (skill.format === 'skill-md') await this.syncIndexJson()
    return skill
  }

  async moveToLegacy(skillId: string): Promise<{ from: string; to: string }> {
    const id = assertSkillId(skillId)
    return this.locked(async () => {
      await this.catchUp()
      let skill = await this.find(id, false)
      if (skill.format === 'skill-md') {
        // Store the id first, so the skill keeps it wherever the folder goes.
        skill = await this.update(skill.skill_id, { meta: {} }, { touchUpdatedAt: false })
      }
      const toRel = await moveIntoLegacy(this.root, skill, this.now)
      this.idPaths.delete(skill.skill_id)
      this.noteWrite(skill.path, null)
      const moved = await this.tryPath(toRel, skill.skill_id)
      this.noteWrite(toRel, moved)
      await this.announce([skill.path, toRel])
      if (skill.format === 'skill-md') {
        await this.syncIndexJson()
        await reconcileLockRetired(this.root).catch(() => undefined) // skills.lock: --locked leaves a retired skill out
      }
      return { from: skill.path, to: toRel }
    }, `retiring skill ${id}`)
  }

  async restore(skillId: string): Promise<Skill> {
    const id = assertSkillId(skillId)
    return this.locked(async () => {
      await this.catchUp()
      const skill = await this.find(id, true)
      if (!skill.legacy) throw new StoreError('invalid_input', coded('skill.not_in_legacy', { id: skill.skill_id }))
      const active = (await this.scan()).skills.find((s) => s.skill_id === skill.skill_id && !s.legacy)
      if (active) throw new StoreError('exists', coded('skill.active_exists', { id: skill.skill_id, path: active.path }))
      const toRel = await moveOutOfLegacy(this.root, skill, this.now)
      this.noteWrite(skill.path, null)
      const restored = await this.tryPath(toRel, skill.skill_id)
      if (!restored) throw new StoreError('malformed', coded('skill.not_read_back_restored', { path: toRel }))
      this.noteWrite(toRel, restored)
      await this.announce([skill.path, toRel])
      if (restored.format === 'skill-md') {
        await this.syncIndexJson()
        await reconcileLockRetired(this.root).catch(() => undefined)
      }
      return this.present(restored)
    }, `restoring skill ${id}`)
  }

  async adoptWrites(relPaths: readonly string[]): Promise<void> {
    const paths = relPaths.map((p) => checkRelPath(p))
    if (paths.length === 0) return
    await this.locked(async () => {
      for (const rel of paths) {
        this.noteWrite(rel, null)
        this.reloadPath(rel)
      }
      await this.announce(paths)
      if (paths.some((p) => skillFileAt(p)?.format === 'skill-md')) await this.syncIndexJson()
    }, 'noting written files')
  }

  /** index.json brought up to date when the library has one (index-json-sync.ts); its problem kept for the caller. */
  private async syncIndexJson(): Promise<void> {
    const r = await syncIndexJsonIfPresent(this.root)
    if (r) {
      this.indexJsonProblem = r.problem
      this.indexJsonProblemRef = r.problemRef
    }
  }

  async resolveInside(relPath: string): Promise<string> {
    return resolveInsideRoot(this.root, relPath)
  }

  async readRaw(relPath: string): Promise<{ text: string; hash: string }> {
    return readRawFile(this.root, relPath)
  }

  async writeRaw(relPath: string, text: string, baseHash?: string | null): Promise<{ hash: string }> {
    if (typeof text !== 'string') throw new StoreError('invalid_input', coded('file.text_not_string'))
    return this.writeGuarded(relPath, Buffer.from(text, 'utf8'), baseHash, true)
  }

  async writeBytes(relPath: string, bytes: Uint8Array, baseHash?: string | null): Promise<{ hash: string }> {
    return this.writeGuarded(relPath, bytes, baseHash, false)
  }

  private async writeGuarded(relPath: string, bytes: Uint8Array, baseHash: string | null | undefined, textFile: boolean): Promise<{ hash: string }> {
    const rel = writablePath(relPath)
    return this.locked(async () => {
      await writeGuardedFile(this.root, rel, bytes, baseHash, textFile)
      const kind = skillFileAt(rel)
      if (kind) {
        this.noteWrite(rel, null)
        this.reloadPath(rel)
        await this.announce([rel])
      } else {
        this.bump()
      }
      return { hash: hashBytes(bytes) }
    }, `writing ${rel}`)
  }
}
