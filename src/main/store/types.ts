import type { CodedText, MessageCode, MessageParams } from '../../shared/error-codes'
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
