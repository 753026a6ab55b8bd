/**
 * The skill store on disk: one folder holding AGIAgent `skill_*.md` files (+ `legacy/`) and/or SKILL.md
 * folders nested at any depth (dot-folders included). Files are the truth; a stat-keyed cache only spares
 * re-reading and re-parsing files that did not change. Every write is atomic, locked per path and checked
 * against the file's current content hash.
 */
import { hash as hashOneShot } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { LoadError, Skill, SkillList, SkillMeta } from '../../shared/types'
import { isTempName, moveNoClobber, sweepTempFiles, withPathLock, writeFileAtomic } from './atomic'
import { assertSkillId, buildSkillFileName, derivedSkillId, isAgiagentSkillName, resolveInside as resolveInsideRoot } from './paths'
import { decodeSkillBytes, parseSkillBytes, parseSkillText, rewriteSkillFile, serializeSkillFile } from './skill-file'
import { changesForMeta, formatTimestamp, newAgiagentData, newSkillMdData, SKILL_MD_NAME, skillFromParts } from './skill-meta'
import { StoreError, type NewSkillInput, type SkillPatch, type SkillStore, type UpdateOptions } from './types'

/** Folders never searched for SKILL.md skills. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['node_modules', '.git', '.hg', '.svn', '.skillbench', 'legacy', 'codes', 'logs'])
/** Skill files larger than this are reported, not read. */
export const MAX_SKILL_FILE_BYTES = 8 * 1024 * 1024
const MAX_DEPTH = 12
/** The id index is trusted for this long before a create refreshes it (see ensureIndex). */
const INDEX_MAX_AGE_MS = 1000
/** Files loaded between two yields to the event loop. */
const LOAD_BATCH = 256

export interface LibraryOptions {
  /** Clock for created_at / updated_at (tests pass a fixed one). */
  now?: () => Date
}

/** The store plus a few extras other modules use (all additive to SkillStore). */
export interface SkillLibrary extends SkillStore {
  /** The last listing when it is younger than `maxAgeMs` (default 1000) and nothing was written through this store since; else a fresh list(). */
  snapshot(opts?: { maxAgeMs?: number; includeLegacy?: boolean }): Promise<SkillList>
  /** Like writeRaw for binary content (copied code files). */
  writeBytes(relPath: string, bytes: Uint8Array, baseHash?: string | null): Promise<{ hash: string }>
  /** Leftover temp files removed when the library was opened. */
  readonly sweptTempFiles: number
  /** Increases on every write made through this store (cache key for derived data). */
  readonly version: number
  /** Why the library's index.json could not be kept in sync by the last write (undefined when fine or absent). */
  readonly indexJsonProblem: string | undefined
}

interface Candidate {
  abs: string
  rel: string
  format: Skill['format']
  legacy: boolean
}

interface CacheEntry {
  mtimeMs: number
  size: number
  ino: number
  ctimeMs: number
  result: { ok: true; skill: Skill } | { ok: false; reason: string }
}

/** sha256 hex of bytes (a string counts as its UTF-8 bytes): the base for conflict detection. */
export function hashBytes(bytes: Uint8Array | string): string {
  return hashOneShot('sha256', bytes, 'hex')
}

/** hashBytes of a text's UTF-8 encoding, without making the bytes first. */
function hashText(text: string): string {
  return hashOneShot('sha256', text, 'hex')
}

/** Where a lazily hashed skill keeps its text (non-enumerable: JSON, spreads and structured clones never see it). */
const HASH_SOURCE = Symbol('skillbench.hashSource')

interface HashSource {
  text: string
  hash?: string
}

/** The one getter all skills share (a per-skill closure would push every skill object into slow dictionary mode). */
function lazyHashGetter(this: { [HASH_SOURCE]: HashSource }): string {
  const src = this[HASH_SOURCE]
  return (src.hash ??= hashText(src.text))
}

const LAZY_HASH: PropertyDescriptor = { enumerable: true, get: lazyHashGetter }

/**
 * Adds `hash` to a skill being built as an enumerable accessor computed on first read from `text` (JSON, spreads
 * and structured clones see a plain string), plus its hidden source. Added in key order, never redefined, so all
 * skills of one layout share one fast object shape.
 */
function defineLazyHash(skill: Skill, text: string): void {
  Object.defineProperty(skill, 'hash', LAZY_HASH)
  Object.defineProperty(skill, HASH_SOURCE, { value: { text } satisfies HashSource })
}

/**
 * The decoded text of the file a skill was parsed from (the text its `hash` is of), when the skill came from this
 * store (a listing, get, create or update); undefined for a skill object built elsewhere. Lets a caller that
 * needs every file's text (curation's before/after texts) use the listing's own read instead of a second one.
 */
export function loadedSkillText(skill: Skill): string | undefined {
  return (skill as Skill & { [HASH_SOURCE]?: HashSource })[HASH_SOURCE]?.text
}

/** A reused read buffer: one allocation for all files of a listing instead of one per file. */
let readBuffer = Buffer.allocUnsafe(256 * 1024)

/** Reads `size` bytes of an open file (fewer when it shrank meanwhile; a later stat catches the change). */
function readWhole(fd: number, size: number): Uint8Array {
  if (readBuffer.length < size) readBuffer = Buffer.allocUnsafe(Math.max(size, readBuffer.length * 2))
  let got = 0
  while (got < size) {
    const n = fs.readSync(fd, readBuffer, got, size - got, got)
    if (n === 0) break
    got += n
  }
  return readBuffer.subarray(0, got)
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/')
}

function freezeSkill(skill: Skill): Skill {
  Object.freeze(skill.task_directories)
  return Object.freeze(skill)
}

/** Opens a library folder (must exist). Sweeps temp files left by crashed writers. */
export async function openLibrary(dir: string, opts: LibraryOptions = {}): Promise<SkillLibrary> {
  let root: string
  try {
    root = await fs.promises.realpath(dir)
  } catch {
    throw new StoreError('not_found', `library folder not found: ${dir}`)
  }
  const st = await fs.promises.stat(root)
  if (!st.isDirectory()) throw new StoreError('invalid_input', `not a folder: ${dir}`)
  const lib = new Library(root, opts.now ?? (() => new Date()))
  await lib.init()
  return lib
}

class Library implements SkillLibrary {
  sweptTempFiles = 0
  version = 0
  private cache = new Map<string, CacheEntry>()
  private idPaths = new Map<string, string>()
  /** Ids written through this store since the last scan began (a scan keeps them if it missed the file). */
  private recentWrites = new Map<string, { path: string; version: number }>()
  /** Ids being created right now (claimed before the file exists). */
  private claimedIds = new Set<string>()
  private indexedAt = 0
  private scanMs = 0
  private indexing: Promise<unknown> | undefined
  /** index.json syncs run one after another. */
  private indexJsonChain: Promise<void> = Promise.resolve()
  /** Why the last index.json sync did not update it (undefined when it did or there is none). */
  indexJsonProblem: string | undefined
  private last: { at: number; version: number; all: SkillList } | null = null

  constructor(
    readonly root: string,
    private readonly now: () => Date
  ) {}

  async init(): Promise<void> {
    const temps: string[] = []
    await this.scan(temps)
    for (const t of temps) this.sweptTempFiles += await sweepTempFiles(path.dirname(t), [path.basename(t)])
  }

  // ---- reading -------------------------------------------------------------------------------

  /** Finds skill files; collects temp files (to sweep) and symlinks (reported). */
  private async findCandidates(temps: string[], errors: LoadError[]): Promise<Candidate[]> {
    const out: Candidate[] = []
    // Paths are built by concatenation (path.join/relative per entry cost more than the lstat itself at 10k files).
    const visit = async (absDir: string, relDir: string, depth: number, legacy: boolean, top: boolean): Promise<void> => {
      let entries: fs.Dirent[]
      try {
        entries = await fs.promises.readdir(absDir, { withFileTypes: true })
      } catch (err) {
        if (top) throw err
        errors.push({ path: relDir || '.', reason: `cannot read folder: ${(err as Error).message}` })
        return
      }
      const subdirs: string[] = []
      for (const e of entries) {
        const name = e.name
        if (isTempName(name)) {
          temps.push(absDir + path.sep + name)
          continue
        }
        const agiagentHere = top && isAgiagentSkillName(name)
        if (e.isSymbolicLink()) {
          if (agiagentHere || name === 'SKILL.md') errors.push({ path: relDir ? `${relDir}/${name}` : name, reason: 'symbolic link: skipped (links are never followed)' })
          continue
        }
        if (e.isFile()) {
          if (agiagentHere || name === 'SKILL.md') {
            out.push({
              abs: absDir + path.sep + name,
              rel: relDir ? `${relDir}/${name}` : name,
              format: agiagentHere ? 'agiagent' : 'skill-md',
              legacy
            })
          }
        } else if (e.isDirectory()) {
          subdirs.push(name)
        }
      }
      if (depth >= MAX_DEPTH) return
      await Promise.all(
        subdirs.map((name) => {
          const abs = absDir + path.sep + name
          const rel = relDir ? `${relDir}/${name}` : name
          if (depth === 0 && !legacy && name === 'legacy') return visit(abs, rel, 0, true, true)
          if (SKIPPED_DIRS.has(name)) return undefined
          return visit(abs, rel, depth + 1, legacy, false)
        })
      )
    }
    await visit(this.root, '', 0, false, true)
    return out
  }

  /**
   * Loads one candidate, re-reading only when its stat changed. Synchronous on purpose: a promise-based
   * lstat/readFile costs several thread-pool hops per file, which made 10k files take seconds of CPU;
   * callers run it in small batches and yield to the event loop between them.
   */
  private load(c: Candidate): CacheEntry['result'] {
    const hit = this.cache.get(c.abs)
    if (hit) {
      // Known file: one lstat tells whether it changed.
      let st: fs.Stats | undefined
      try {
        st = fs.lstatSync(c.abs)
      } catch (err) {
        this.cache.delete(c.abs)
        return { ok: false, reason: `cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` }
      }
      if (hit.mtimeMs === st.mtimeMs && hit.size === st.size && hit.ino === st.ino && hit.ctimeMs === st.ctimeMs) return hit.result
    }
    // New or changed: open first and stat the open file (one syscall fewer than lstat + open + fstat).
    // O_NOFOLLOW refuses a file swapped for a symlink; O_NONBLOCK keeps a FIFO named like a skill from hanging us.
    let fd: number
    try {
      fd = fs.openSync(c.abs, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0))
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      this.cache.delete(c.abs)
      if (code === 'ELOOP') return { ok: false, reason: 'symbolic link: skipped (links are never followed)' }
      return { ok: false, reason: `cannot read: ${code ?? (err as Error).message}` }
    }
    let st: fs.Stats
    let result: CacheEntry['result']
    try {
      st = fs.fstatSync(fd)
      if (!st.isFile()) result = { ok: false, reason: 'not a regular file' }
      else if (st.size > MAX_SKILL_FILE_BYTES) result = { ok: false, reason: `file is larger than ${MAX_SKILL_FILE_BYTES / 1024 / 1024} MB` }
      else {
        const bytes = readWhole(fd, st.size)
        result = this.parse(bytes, c, st.mtimeMs)
      }
    } catch (err) {
      this.cache.delete(c.abs)
      return { ok: false, reason: `cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` }
    } finally {
      fs.closeSync(fd)
    }
    this.cache.set(c.abs, { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino, ctimeMs: st.ctimeMs, result })
    return result
  }

  /** Loads many candidates in batches, yielding to the event loop between batches so the process stays responsive. */
  private async loadAll(candidates: Candidate[]): Promise<CacheEntry['result'][]> {
    const out: CacheEntry['result'][] = []
    for (let i = 0; i < candidates.length; i += LOAD_BATCH) {
      if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve))
      const end = Math.min(candidates.length, i + LOAD_BATCH)
      for (let k = i; k < end; k++) out.push(this.load(candidates[k]!))
    }
    return out
  }

  /**
   * Parses file bytes (which may live in the shared read buffer: nothing here keeps them). The content hash is
   * computed on first use from the decoded text: strict UTF-8 round-trips exactly, so it equals the bytes' hash,
   * and a listing of 10k skills does not pay for 10k hashes nobody reads.
   */
  private parse(bytes: Uint8Array, c: Candidate, mtimeMs: number): CacheEntry['result'] {
    const decoded = decodeSkillBytes(bytes)
    if (!decoded.ok) return decoded
    const text = decoded.text
    const parsed = parseSkillText(text)
    if (!parsed.ok) return parsed
    let fallbackId: string | undefined
    if (c.format === 'skill-md') {
      const relDir = path.posix.dirname(c.rel)
      fallbackId = derivedSkillId(relDir === '.' ? '' : relDir)
    }
    const defineHash = (skill: Skill): void => defineLazyHash(skill, text)
    const res = skillFromParts(parsed.file, { path: c.rel, format: c.format, legacy: c.legacy, hash: '', mtimeMs, fallbackId, defineHash })
    if (!res.ok) return res
    return { ok: true, skill: freezeSkill(res.skill) }
  }

  /** Reads every skill (active and legacy), sorted by path. */
  private async scan(temps: string[] = []): Promise<SkillList> {
    const started = Date.now()
    const startVersion = this.version
    const errors: LoadError[] = []
    const candidates = await this.findCandidates(temps, errors)
    candidates.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))
    const results = await this.loadAll(candidates)
    const skills: Skill[] = []
    const seen = new Set<string>()
    const idPaths = new Map<string, string>()
    results.forEach((r, i) => {
      const c = candidates[i]!
      seen.add(c.abs)
      if (!r.ok) {
        errors.push({ path: c.rel, reason: r.reason })
        return
      }
      skills.push(r.skill)
      // Active skills win over legacy ones with the same id (legacy sorts after most active paths anyway).
      const prev = idPaths.get(r.skill.skill_id)
      if (!prev || (!r.skill.legacy && prev.startsWith('legacy/'))) idPaths.set(r.skill.skill_id, r.skill.path)
    })
    // Our own writes that finished while this scan ran may be missing from what it read: keep them in the index.
    for (const [id, w] of this.recentWrites) {
      if (w.version > startVersion) idPaths.set(id, w.path)
      else this.recentWrites.delete(id)
    }
    this.idPaths = idPaths
    for (const key of this.cache.keys()) if (!seen.has(key)) this.cache.delete(key)
    const all = { skills, errors }
    // Stamped with the version it started from: a write during the scan makes the snapshot stale, as it should.
    this.last = { at: Date.now(), version: startVersion, all }
    this.indexedAt = Date.now()
    this.scanMs = this.indexedAt - started
    return all
  }

  /** One scan at a time for index refreshes (concurrent creates share it). */
  private refreshIndex(): Promise<unknown> {
    this.indexing ??= this.scan().finally(() => {
      this.indexing = undefined
    })
    return this.indexing
  }

  /**
   * The id → path index is built by every listing and kept up to date by our own writes. It is refreshed when
   * older than a second (or 20× what a scan costs, so refreshing stays under ~5% of the time): other processes'
   * new ids show up that late at most; file names never depend on it (creates use exclusive links).
   */
  private async ensureIndex(): Promise<void> {
    if (this.indexedAt === 0 || Date.now() - this.indexedAt > Math.max(INDEX_MAX_AGE_MS, 20 * this.scanMs)) await this.refreshIndex()
  }

  /** Records a write of ours in the id index (after bump(), so a scan running now keeps it). */
  private noteWrite(id: string, rel: string): void {
    this.idPaths.set(id, rel)
    this.recentWrites.set(id, { path: rel, version: this.version })
  }

  private filter(all: SkillList, includeLegacy: boolean | undefined): SkillList {
    return includeLegacy ? { skills: [...all.skills], errors: [...all.errors] } : { skills: all.skills.filter((s) => !s.legacy), errors: [...all.errors] }
  }

  async list(opts: { includeLegacy?: boolean } = {}): Promise<SkillList> {
    return this.filter(await this.scan(), opts.includeLegacy)
  }

  async snapshot(opts: { maxAgeMs?: number; includeLegacy?: boolean } = {}): Promise<SkillList> {
    const maxAge = opts.maxAgeMs ?? 1000
    const last = this.last
    if (last && last.version === this.version && Date.now() - last.at < maxAge) return this.filter(last.all, opts.includeLegacy)
    return this.list(opts)
  }

  /** Records what we just wrote in the cache (keyed by the new stat), so reading it back costs no re-read. */
  private primeCache(rel: string, bytes: Uint8Array): CacheEntry['result'] | undefined {
    const abs = path.join(this.root, rel)
    try {
      const st = fs.lstatSync(abs)
      if (!st.isFile() || st.size !== bytes.length) return undefined
      const format: Skill['format'] = path.posix.basename(rel) === 'SKILL.md' ? 'skill-md' : 'agiagent'
      const result = this.parse(bytes, { abs, rel, format, legacy: rel.startsWith('legacy/') }, st.mtimeMs)
      this.cache.set(abs, { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino, ctimeMs: st.ctimeMs, result })
      return result
    } catch {
      return undefined // the next read will load it from disk
    }
  }

  /** Loads the skill at a known path if it still has this id. */
  private async tryPath(rel: string, id: string): Promise<Skill | null> {
    const format: Skill['format'] = rel.endsWith('/SKILL.md') || rel === 'SKILL.md' ? 'skill-md' : 'agiagent'
    const r = this.load({ abs: path.join(this.root, rel), rel, format, legacy: rel.startsWith('legacy/') })
    return r.ok && r.skill.skill_id === id ? r.skill : null
  }

  async get(skillId: string, opts: { includeLegacy?: boolean } = {}): Promise<Skill> {
    const id = assertSkillId(skillId)
    const known = this.idPaths.get(id)
    let skill = known ? await this.tryPath(known, id) : null
    if (!skill || (skill.legacy && !opts.includeLegacy)) {
      const all = await this.scan()
      const matches = all.skills.filter((s) => s.skill_id === id && (opts.includeLegacy || !s.legacy))
      skill = matches.find((s) => !s.legacy) ?? matches[0] ?? null
    }
    if (!skill) throw new StoreError('not_found', `no ${opts.includeLegacy ? '' : 'active '}skill with id ${id}`)
    return skill
  }

  // ---- writing -------------------------------------------------------------------------------

  private bump(): void {
    this.version++
  }

  /**
   * Keeps the cached listing valid after our own write of one skill (queries touch skills often; reflection
   * creates many): replaces the skill at its path, or inserts a created one in path order. The listing is
   * sorted by path and never handed out itself (callers get copies), so this is a binary search and one splice.
   */
  private patchSnapshot(skill: Skill, versionBefore: number, created = false): void {
    const last = this.last
    if (!last || last.version !== versionBefore) return
    const skills = last.all.skills
    let lo = 0
    let hi = skills.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (skills[mid]!.path < skill.path) lo = mid + 1
      else hi = mid
    }
    if (skills[lo]?.path === skill.path) skills[lo] = skill
    else if (created) skills.splice(lo, 0, skill)
    else return
    last.version = this.version
  }

  private validateMeta(meta: Partial<SkillMeta>): void {
    if (meta.skill_id !== undefined) assertSkillId(meta.skill_id)
    if (meta.quality_index !== undefined && !(Number.isFinite(meta.quality_index) && meta.quality_index >= 0 && meta.quality_index <= 1)) {
      throw new StoreError('invalid_input', 'quality_index must be a number between 0 and 1')
    }
    if (meta.fetch_count !== undefined && !(Number.isInteger(meta.fetch_count) && meta.fetch_count >= 0)) {
      throw new StoreError('invalid_input', 'fetch_count must be a whole number ≥ 0')
    }
    if (meta.title !== undefined && (typeof meta.title !== 'string' || meta.title.trim() === '')) {
      throw new StoreError('invalid_input', 'title must be a non-empty string')
    }
    if (meta.task_directories !== undefined && !(Array.isArray(meta.task_directories) && meta.task_directories.every((t) => typeof t === 'string'))) {
      throw new StoreError('invalid_input', 'task_directories must be a list of strings')
    }
  }

  /** Reads a file's current bytes for a guarded rewrite: refuses links, checks hash and UTF-8. */
  private async readForWrite(abs: string, rel: string, baseHash: string | undefined): Promise<{ bytes: Buffer; hash: string }> {
    let st: fs.Stats
    try {
      st = await fs.promises.lstat(abs)
    } catch {
      throw new StoreError(baseHash ? 'conflict' : 'not_found', `${rel} no longer exists on disk`)
    }
    if (st.isSymbolicLink()) throw new StoreError('path_escape', `refusing to write through a symbolic link: ${rel}`)
    const bytes = await fs.promises.readFile(abs)
    const hash = hashBytes(bytes)
    if (baseHash !== undefined && hash !== baseHash) {
      throw new StoreError('conflict', `${rel} changed on disk since it was read: reload it and try again`)
    }
    return { bytes, hash }
  }

  async update(skillId: string, patch: SkillPatch, opts: UpdateOptions = {}): Promise<Skill> {
    const found = await this.get(skillId, { includeLegacy: true })
    const meta: Partial<SkillMeta> = { ...(patch.meta ?? {}) }
    this.validateMeta(meta)
    if (patch.body !== undefined && typeof patch.body !== 'string') throw new StoreError('invalid_input', 'body must be a string')
    if (opts.touchUpdatedAt !== false) meta.updated_at = formatTimestamp(this.now())
    const abs = path.join(this.root, found.path)
    await withPathLock(abs, async () => {
      const { bytes } = await this.readForWrite(abs, found.path, opts.baseHash)
      const parsed = parseSkillBytes(bytes)
      if (!parsed.ok) {
        const code = decodeSkillBytes(bytes).ok ? 'malformed' : 'not_utf8'
        throw new StoreError(code, `${found.path}: ${parsed.reason}`)
      }
      const changes = changesForMeta(found.format, parsed.file.data, meta, found.skill_id)
      let text: string
      try {
        text = rewriteSkillFile(parsed.file, changes, patch.body)
      } catch (err) {
        throw new StoreError('malformed', `${found.path}: ${(err as Error).message}`)
      }
      const out = Buffer.from(text, 'utf8')
      await writeFileAtomic(abs, out, { mustExist: true })
      this.primeCache(found.path, out)
    })
    const versionBefore = this.version
    this.bump()
    const skill = await this.tryPath(found.path, meta.skill_id ?? found.skill_id)
    if (!skill) throw new StoreError('malformed', `${found.path} could not be read back after writing`)
    this.noteWrite(skill.skill_id, skill.path)
    this.patchSnapshot(skill, versionBefore)
    if (skill.format === 'skill-md' && (meta.title !== undefined || meta.usage_conditions !== undefined)) await this.syncIndexJson()
    return skill
  }

  /** True when a skill with this id is known (checked at its recorded path when the index says so). */
  private async idTaken(id: string): Promise<boolean> {
    if (this.claimedIds.has(id)) return true
    const known = this.idPaths.get(id)
    if (known === undefined) return false
    if (await this.tryPath(known, id)) return true
    // Moved or changed behind our back: only a fresh scan can tell.
    await this.refreshIndex()
    return this.idPaths.has(id)
  }

  /** Claims an id for a create (the caller releases it): the wanted one, or a free unix-seconds id. O(1) in library size. */
  private async claimId(wanted: string | undefined): Promise<string> {
    if (wanted !== undefined) assertSkillId(wanted)
    await this.ensureIndex()
    if (wanted !== undefined) {
      // Checked again without awaiting before the claim: a concurrent create may have claimed or written it meanwhile.
      if ((await this.idTaken(wanted)) || this.claimedIds.has(wanted) || this.idPaths.has(wanted)) {
        throw new StoreError('exists', `a skill with id ${wanted} already exists`)
      }
      this.claimedIds.add(wanted)
      return wanted
    }
    let n = Math.floor(this.now().getTime() / 1000)
    while (this.claimedIds.has(String(n)) || this.idPaths.has(String(n))) n++
    this.claimedIds.add(String(n))
    return String(n)
  }

  async create(input: NewSkillInput): Promise<Skill> {
    if (typeof input.title !== 'string' || input.title.trim() === '') throw new StoreError('invalid_input', 'a new skill needs a title')
    if (typeof input.body !== 'string') throw new StoreError('invalid_input', 'a new skill needs a body')
    const id = await this.claimId(input.skill_id)
    try {
      return await this.createWithId(input, id)
    } finally {
      this.claimedIds.delete(id)
    }
  }

  private async createWithId(input: NewSkillInput, id: string): Promise<Skill> {
    const ts = formatTimestamp(this.now())
    const meta: SkillMeta = {
      skill_id: id,
      title: input.title,
      usage_conditions: input.usage_conditions ?? '',
      quality_index: input.quality_index ?? 0.5,
      fetch_count: input.fetch_count ?? 0,
      related_code: input.related_code ?? '',
      task_directories: input.task_directories ?? [],
      created_at: input.created_at ?? ts,
      updated_at: ts,
      last_used_at: null,
      user_preferences: input.user_preferences ?? ''
    }
    this.validateMeta(meta)
    let rel: string
    let bytes: Buffer
    if ((input.format ?? 'agiagent') === 'agiagent') {
      bytes = Buffer.from(serializeSkillFile(newAgiagentData(meta), input.body), 'utf8')
      // The name is verified by the exclusive link itself; a name taken meanwhile (another writer) picks the next one.
      for (let attempt = 1; ; attempt++) {
        const name = buildSkillFileName(input.title, id, (n) => fs.existsSync(path.join(this.root, n)))
        try {
          await writeFileAtomic(path.join(this.root, name), bytes, { mustNotExist: true })
          rel = name
          break
        } catch (err) {
          if (!(err instanceof StoreError && err.code === 'exists') || attempt >= 8) throw err
        }
      }
    } else {
      const name = input.name ?? ''
      if (!SKILL_MD_NAME.test(name)) throw new StoreError('invalid_input', `SKILL.md name ${JSON.stringify(name.slice(0, 70))} must be lowercase letters, digits and hyphens (≤ 64)`)
      const data = newSkillMdData(name, input.description ?? meta.usage_conditions, meta)
      const dirAbs = await this.resolveInside(name)
      try {
        await fs.promises.mkdir(dirAbs)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new StoreError('exists', `a folder named ${name} already exists`)
        throw err
      }
      rel = `${name}/SKILL.md`
      bytes = Buffer.from(serializeSkillFile(data, input.body), 'utf8')
      await writeFileAtomic(path.join(dirAbs, 'SKILL.md'), bytes, { mustNotExist: true })
    }
    const versionBefore = this.version
    this.bump()
    // Built from the bytes just written (no read back); cached under the file's stat like any loaded file.
    const result = this.primeCache(rel, bytes)
    const skill = result?.ok && result.skill.skill_id === id ? result.skill : await this.tryPath(rel, id)
    if (!skill) throw new StoreError('malformed', `${rel} could not be read back after writing`)
    this.noteWrite(id, rel)
    this.patchSnapshot(skill, versionBefore, true)
    if (skill.format === 'skill-md') await this.syncIndexJson()
    return skill
  }

  /** A free name in `dir` for `base`: `base`, then `stem_<ts><ext>`, then with a counter. */
  private freeName(dirAbs: string, base: string, ext: string): string {
    const stem = ext ? base.slice(0, -ext.length) : base
    if (!fs.existsSync(path.join(dirAbs, base))) return base
    const ts = Math.floor(this.now().getTime() / 1000)
    for (let n = 1; ; n++) {
      const name = `${stem}_${ts}${n > 1 ? `_${n}` : ''}${ext}`
      if (!fs.existsSync(path.join(dirAbs, name))) return name
    }
  }

  async moveToLegacy(skillId: string): Promise<{ from: string; to: string }> {
    let skill = await this.get(skillId)
    if (skill.format === 'skill-md') {
      // Store the id first, so the skill keeps it wherever the folder goes.
      skill = await this.update(skill.skill_id, { meta: {} }, { touchUpdatedAt: false })
    }
    const legacyRoot = path.join(this.root, 'legacy')
    if (skill.format === 'agiagent') {
      const from = path.join(this.root, skill.path)
      return withPathLock(from, async () => {
        await fs.promises.mkdir(legacyRoot, { recursive: true })
        const name = this.freeName(legacyRoot, path.basename(skill.path), '.md')
        await moveNoClobber(from, path.join(legacyRoot, name))
        this.bump()
        this.noteWrite(skill.skill_id, `legacy/${name}`)
        return { from: skill.path, to: `legacy/${name}` }
      })
    }
    const relDir = path.posix.dirname(skill.path)
    if (relDir === '.') throw new StoreError('invalid_input', 'the library folder itself is this skill: it cannot be moved to legacy/')
    const fromDir = path.join(this.root, relDir)
    const parent = path.join(legacyRoot, path.dirname(relDir))
    await fs.promises.mkdir(parent, { recursive: true })
    const name = this.freeName(parent, path.basename(relDir), '')
    const to = path.join(parent, name)
    await moveNoClobber(fromDir, to)
    this.bump()
    const toRel = toPosix(path.relative(this.root, path.join(to, 'SKILL.md')))
    this.noteWrite(skill.skill_id, toRel)
    await this.syncIndexJson()
    return { from: skill.path, to: toRel }
  }

  async restore(skillId: string): Promise<Skill> {
    const skill = await this.get(skillId, { includeLegacy: true })
    if (!skill.legacy) throw new StoreError('invalid_input', `skill ${skill.skill_id} is not in legacy/`)
    const active = (await this.list()).skills.find((s) => s.skill_id === skill.skill_id)
    if (active) throw new StoreError('exists', `an active skill with id ${skill.skill_id} already exists (${active.path})`)
    let toRel: string
    if (skill.format === 'agiagent') {
      const base = path.basename(skill.path)
      const exists = (n: string): boolean => fs.existsSync(path.join(this.root, n))
      const name = exists(base) ? buildSkillFileName(skill.title, skill.skill_id, exists) : base
      await moveNoClobber(path.join(this.root, skill.path), path.join(this.root, name))
      toRel = name
    } else {
      const relDir = path.posix.dirname(skill.path).replace(/^legacy\//, '')
      const parent = path.join(this.root, path.dirname(relDir))
      const name = this.freeName(parent, path.basename(relDir), '')
      await moveNoClobber(path.join(this.root, path.posix.dirname(skill.path)), path.join(parent, name))
      toRel = toPosix(path.relative(this.root, path.join(parent, name, 'SKILL.md')))
    }
    this.bump()
    this.noteWrite(skill.skill_id, toRel)
    const restored = await this.tryPath(toRel, skill.skill_id)
    if (!restored) throw new StoreError('malformed', `${toRel} could not be read back after restoring`)
    if (restored.format === 'skill-md') await this.syncIndexJson()
    return restored
  }

  /**
   * Regenerates the library's `index.json` catalogue of SKILL.md folders after we add, move or rename one, but
   * only when the library already has one (we never create it unasked). The index is derived data: a failure
   * here leaves the skill written and is repaired by the next sync, so it is recorded, not thrown.
   */
  private async syncIndexJson(): Promise<void> {
    if (!fs.existsSync(path.join(this.root, 'index.json'))) return
    const prev = this.indexJsonChain
    const run = prev.then(async () => {
      // Loaded on demand: the formats module imports the store, and most libraries have no index.json.
      const { syncSkillIndex } = await import('../formats/skill-index')
      const r = await syncSkillIndex(this.root)
      this.indexJsonProblem = r.status === 'skipped' ? (r.reason ?? 'index.json left as it is') : undefined
    })
    this.indexJsonChain = run.catch((err: unknown) => {
      this.indexJsonProblem = `index.json could not be updated: ${(err as Error).message}`
    })
    await this.indexJsonChain
  }

  async resolveInside(relPath: string): Promise<string> {
    return resolveInsideRoot(this.root, relPath)
  }

  async readRaw(relPath: string): Promise<{ text: string; hash: string }> {
    const abs = await this.resolveInside(relPath)
    let bytes: Buffer
    try {
      bytes = await fs.promises.readFile(abs)
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code === 'ENOENT') throw new StoreError('not_found', `${relPath} does not exist`)
      if (code === 'EISDIR') throw new StoreError('invalid_input', `${relPath} is a folder`)
      throw err
    }
    const decoded = decodeSkillBytes(bytes)
    if (!decoded.ok) throw new StoreError('not_utf8', `${relPath}: ${decoded.reason}`)
    return { text: decoded.text, hash: hashBytes(bytes) }
  }

  async writeRaw(relPath: string, text: string, baseHash?: string | null): Promise<{ hash: string }> {
    if (typeof text !== 'string') throw new StoreError('invalid_input', 'text must be a string')
    return this.writeGuarded(relPath, Buffer.from(text, 'utf8'), baseHash, true)
  }

  async writeBytes(relPath: string, bytes: Uint8Array, baseHash?: string | null): Promise<{ hash: string }> {
    return this.writeGuarded(relPath, bytes, baseHash, false)
  }

  private async writeGuarded(relPath: string, bytes: Uint8Array, baseHash: string | null | undefined, textFile: boolean): Promise<{ hash: string }> {
    const abs = await this.resolveInside(relPath)
    if (isTempName(path.basename(abs))) throw new StoreError('invalid_input', 'that name is reserved for temp files')
    await withPathLock(abs, async () => {
      if (baseHash === null) {
        await fs.promises.mkdir(path.dirname(abs), { recursive: true })
        // The folders just made must still be inside (a symlinked ancestor is caught here).
        await this.resolveInside(relPath)
        await writeFileAtomic(abs, bytes, { mustNotExist: true })
        return
      }
      let exists = true
      try {
        await fs.promises.lstat(abs)
      } catch {
        exists = false
      }
      if (exists) {
        const current = await this.readForWrite(abs, relPath, baseHash)
        if (textFile && !decodeSkillBytes(current.bytes).ok) {
          throw new StoreError('not_utf8', `${relPath} is not valid UTF-8: it is never rewritten`)
        }
      } else if (baseHash !== undefined) {
        throw new StoreError('conflict', `${relPath} no longer exists on disk`)
      } else {
        await fs.promises.mkdir(path.dirname(abs), { recursive: true })
        await this.resolveInside(relPath)
      }
      await writeFileAtomic(abs, bytes)
    })
    this.bump()
    return { hash: hashBytes(bytes) }
  }
}
