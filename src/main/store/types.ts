import type { CodedText, MessageCode, MessageParams, MessageRef } from '../../shared/error-codes'
import type { Skill, SkillFormat, SkillList, SkillMeta } from '../../shared/types'

/** Why a store operation failed; every code maps to a clear, one-line message. */
export type StoreErrorCode =
  | 'not_found'
  | 'conflict'
  | 'invalid_id'
  | 'path_escape'
  | 'invalid_input'
  | 'not_utf8'
  | 'malformed'
  | 'exists'
  /** Another process holds the library lock longer than the caller may wait. */
  | 'busy'
  /** Two active files carry the same skill_id: a change by id would be ambiguous. */
  | 'duplicate_id'
  /** The library (or its `.skillbench` folder) cannot be written by this user: nothing was changed. */
  | 'read_only'

/**
 * The one error class of the store: `code` says what kind, `message` says it in words a user understands. It takes
 * a coded message only (shared/error-codes.ts, `coded(…)`), so its `messageCode` and `params` cross every transport
 * and no client ever parses the English back (eslint.config.mjs refuses a plain string too).
 */
export class StoreError extends Error {
  readonly messageCode: MessageCode
  readonly params: MessageParams

  constructor(
    readonly code: StoreErrorCode,
    message: CodedText
  ) {
    super(message.text)
    this.name = 'StoreError'
    this.messageCode = message.messageCode
    this.params = message.params
  }
}

/** What a caller gives to create a skill; everything else gets the defaults of a new skill. */
export interface NewSkillInput {
  title: string
  body: string
  usage_conditions?: string
  task_directories?: string[]
  user_preferences?: string
  related_code?: string
  quality_index?: number
  fetch_count?: number
  /** Defaults to the current unix time in seconds (bumped until unique in the library). */
  skill_id?: string
  created_at?: string
  /** Defaults to 'agiagent'. */
  format?: SkillFormat
  /** SKILL.md only: kebab-case folder / `name`. */
  name?: string
  description?: string
}

/** A change to one skill. Front matter fields not named stay as they are. */
export interface SkillPatch {
  meta?: Partial<SkillMeta>
  body?: string
}

export interface UpdateOptions {
  /** Refuse with a `conflict` error when the file's current hash differs. */
  baseHash?: string
  /** Set updated_at = now (default true). */
  touchUpdatedAt?: boolean
  /** Refuse a skill in legacy/ (as not_found), as the agent tools do. */
  activeOnly?: boolean
  /** Recorded in the ledger with the write (a rating, an edit's mode): shared by sync, words for its commits. */
  activity?: { what: string; detail?: string; rating?: number }
}

/**
 * A skill library: one folder holding AGIAgent `skill_*.md` files and/or SKILL.md folders.
 *
 * Files on disk are the truth: every call re-reads what it needs; writes are atomic and guarded.
 */
/** When recorded uses are folded into the skill files (see SkillStore.recordUse). */
export type UseFold = 'now' | 'soon'

export interface SkillStore {
  /** Absolute real path of the library folder. */
  readonly root: string
  list(opts?: { includeLegacy?: boolean }): Promise<SkillList>
  /** Throws StoreError('not_found' | 'invalid_id'). */
  get(skillId: string, opts?: { includeLegacy?: boolean }): Promise<Skill>
  /** The skill in the file at this library path, read now (with its uses not folded yet); null when none loads there. */
  skillAt(relPath: string): Promise<Skill | null>
  create(input: NewSkillInput): Promise<Skill>
  update(skillId: string, patch: SkillPatch, opts?: UpdateOptions): Promise<Skill>
  /**
   * Changes a skill based on its current state: `make` gets the skill as it is on disk now (read inside the
   * library lock, so no other process changes it in between) and returns the patch, or null to change nothing.
   */
  updateWith(skillId: string, make: (current: Skill) => SkillPatch | null, opts?: UpdateOptions): Promise<Skill>
  /**
   * Records that these skills were used (fetch_count + 1, last_used_at = now) in the library's ledger: cheap,
   * durable, never lost between processes. Returns the skills as they count now. `fold` says when the counters
   * reach the skill files (which agents' own scripts read): `now` before this returns (a CLI query), `soon` within
   * a couple of seconds, one fold for a burst of queries (an MCP server); absent, when the ledger has grown.
   */
  recordUse(skillIds: readonly string[], opts?: { via?: string; at?: string; fold?: UseFold }): Promise<Skill[]>
  /** Moves an active skill to `legacy/` (suffix on collision). Never deletes. */
  moveToLegacy(skillId: string): Promise<{ from: string; to: string }>
  /** Moves a legacy skill back to the active folder. */
  restore(skillId: string): Promise<Skill>
  /** Reads a library-relative file (guarded). */
  readRaw(relPath: string): Promise<{ text: string; hash: string }>
  /**
   * Writes a library-relative file atomically (guarded). `baseHash`: the expected current hash,
   * `null` = the file must not exist, `undefined` = no check.
   */
  writeRaw(relPath: string, text: string, baseHash?: string | null): Promise<{ hash: string }>
  /** Resolves a library-relative path to an absolute one inside the library, or throws StoreError('path_escape'). */
  resolveInside(relPath: string): Promise<string>
}

/** How a library is opened (openLibrary in library.ts). */
export interface LibraryOptions {
  /** Clock for created_at / updated_at (tests pass a fixed one). */
  now?: () => Date
  /**
   * Do not list the library when opening it (a command that needs only a few skills — a query answered from the
   * search index — must not read 10,000 files). The first list() or change by id lists it then; temp files are
   * swept by whoever walks the library (the search index does).
   */
  lazy?: boolean
  /** Where a skill id probably is (e.g. from the search index), tried before listing the library to find it. */
  locate?: (skillId: string) => string | undefined
  /**
   * Told of the listing made when opening (not a lazy one) once its files are found: the library's root and how
   * many files it will read. It may return a function that is then given each skill read, in the listing's order,
   * as it is read (for work that overlaps the reading, such as curation's text scan).
   */
  onListing?: (root: string, files: number) => ((skill: Skill) => void) | undefined
  /** Stops the listing made when opening between its batches of files (the open then rejects with an AbortError). */
  signal?: AbortSignal
  /**
   * Run by every write of this library first, inside the library lock: the hosts pass the review engine's
   * recovery (review/recover-first.ts), which the store cannot import, so a change a crash interrupted is
   * finished or rolled back before a tool's edit, rating, move or usage fold lands on its half. It answers which
   * transactions it rolled back (their files changed behind the store's back: the listing is read again).
   */
  recover?: (root: string) => Promise<{ rolledBack: readonly string[] }>
}

/** The store plus a few extras other modules use (all additive to SkillStore). */
export interface SkillLibrary extends SkillStore {
  /**
   * The last listing when nothing changed since: no write through any Skillbench process (the ledger says so;
   * those paths are reloaded) and younger than `maxAgeMs` (default 1000; edits by other programs show up within
   * that); else a fresh list().
   */
  snapshot(opts?: { maxAgeMs?: number; includeLegacy?: boolean }): Promise<SkillList>
  /** Like writeRaw for binary content (copied code files). */
  writeBytes(relPath: string, bytes: Uint8Array, baseHash?: string | null): Promise<{ hash: string }>
  /** Folds every recorded use into the skills' front matter now (also done when the ledger grows). */
  foldUsage(): Promise<{ skills: number; uses: number }>
  /** Runs a fold that recordUse scheduled `soon` at once (a process about to exit); nothing when none is scheduled. */
  settleUsage(): Promise<void>
  /** Runs `fn` holding this library's cross-process lock (re-entrant within `fn`). */
  locked<T>(fn: () => Promise<T>, purpose?: string): Promise<T>
  /** Leftover temp files removed when the library was opened. */
  readonly sweptTempFiles: number
  /** Increases on every write made through this store (cache key for derived data). */
  readonly version: number
  /** Why the library's index.json could not be kept in sync by the last write (undefined when fine or absent). */
  readonly indexJsonProblem: string | undefined
  /** The same by code (index.*), for a screen to word it. */
  readonly indexJsonProblemRef?: MessageRef
  /**
   * Files another module wrote into the library under its lock (e.g. skills installed from git): reload them,
   * announce them to other processes through the ledger, and keep index.json in step.
   */
  adoptWrites(relPaths: readonly string[]): Promise<void>
}
