/**
 * The five agent-facing skill tools, with AGIAgent's semantics and answer shapes:
 * query_skill, rate_skill, edit_skill, delete_skill, copy_skill_files.
 *
 * Tools never throw for bad input: every failure is `{status: 'error', message}` with a one-line reason (plus its
 * `message_code` and `params`, shared/error-codes.ts, made where the failure is), and nothing is written when the
 * input is refused. A success's `message` carries its code too (tool.found, tool.rated, tool.edited…).
 */
import { createHash } from 'node:crypto'
import type { QueriedSkill, QueryResult, Skill, SkillList, ToolResult } from '../../shared/types'
import type { SkillLibrary } from '../store/library'
import { isValidSkillId } from '../store/paths'
import { formatTimestamp } from '../store/skill-meta'
import { StoreError, type SkillStore, type UseFold } from '../store/types'
import { indexedText } from '../search/skill-text'
import type { SearchIndex } from '../search/search-index'
import { copySkillFiles, type CopyLimits } from './copy-files'
import { codedFieldsOf } from '../../shared/api-error'
import { codedFields } from './coded-result'
import { coded, type CodedText, type MessageParam, type MessageRef } from '../../shared/error-codes'

export const EDIT_MODES = ['full_replace', 'append', 'lines_replace'] as const
export type EditMode = (typeof EDIT_MODES)[number]

/** A store as the tools use it: the SkillStore contract, plus the library's cached snapshot and binary writes when available. */
export type ToolStore = SkillStore & Partial<Pick<SkillLibrary, 'snapshot' | 'writeBytes'>>

export interface SkillToolsOptions {
  now?: () => Date
  /** Default workspace for copy_skill_files (the agent task's `workspace/` folder). */
  workspaceRoot?: string
  /** How stale (ms) a cached library listing may be for a query (default 1000; 0 = always re-list). */
  snapshotMaxAgeMs?: number
  copyLimits?: Partial<CopyLimits>
  /** Who is asking, recorded with each use in the library's ledger (`mcp`, `cli`, `app`). */
  via?: string
  /**
   * When a query's uses reach the skill files (fetch_count, last_used_at, which agents' own cleanup reads): `now`
   * (default) before the query answers; `soon` within seconds, one fold per burst (a long-lived MCP server).
   */
  foldUses?: UseFold
  /**
   * The library's persistent search index, current (the CLI, the MCP server and the app pass it). Without it, a
   * query ranks the store's listing as it is, through the same search over it in memory (`LibrarySearch.ofSkills`):
   * for reflection's closest-skill lookups, which hold a store and no index, and stores with no folder behind them.
   */
  search?: () => Promise<Pick<SearchIndex, 'query' | 'activeCount'>>
}

export interface QueryOptions {
  /** How many skills to return (default 3, at most 50). */
  top?: number
  /** Write fetch_count + 1 and last_used_at to each returned skill (default true, as upstream). */
  touch?: boolean
}

export interface SkillTools {
  query_skill(query: string, opts?: QueryOptions): Promise<QueryResult>
  rate_skill(skill_id: string, rating: number | string): Promise<ToolResult>
  edit_skill(skill_id: string, edit_mode: string, code_edit: string, old_code?: string | null): Promise<ToolResult>
  delete_skill(skill_id: string): Promise<ToolResult>
  copy_skill_files(skill_id: string, file_paths: string[], workspace?: string): Promise<ToolResult>
}

export const SKILL_TOOL_NAMES = ['query_skill', 'rate_skill', 'edit_skill', 'delete_skill', 'copy_skill_files'] as const
export type SkillToolName = (typeof SKILL_TOOL_NAMES)[number]

const MAX_EDIT_CHARS = 1_000_000
const MAX_QUERY_CHARS = 20_000

/** An error answer: the English `message` as agents read it, its code and params beside it. */
function fail(message: CodedText, extra: Record<string, unknown> = {}): ToolResult {
  return { status: 'error', message: message.text, ...extra, ...codedFields(message) }
}

/** An error answer for a failure caught from the store: its first line, and its code when it carries one. */
function failWith(err: unknown, extra: Record<string, unknown> = {}): ToolResult {
  const fields = err instanceof Error && !err.message.includes('\n') ? codedFieldsOf(err) : undefined
  return { status: 'error', message: errMessage(err), ...extra, ...(fields ? codedFields(fields) : {}) }
}

/** A success answer: the English `message` as agents read it (unchanged), its code and params beside it. */
function done<R extends Record<string, unknown>>(message: CodedText, extra: R): { status: 'success'; message: string; message_code: CodedText['messageCode']; params: CodedText['params'] } & R {
  return { status: 'success', message: message.text, ...extra, ...codedFields(message) }
}

/** A query's error answer (no skills), coded like the others. */
function queryFail(message: CodedText, extra: Record<string, unknown> = {}): QueryResult {
  return { status: 'error', message: message.text, skills_count: 0, skills: [], ...extra, ...codedFields(message) }
}

/** The store's error code of a failure (path_escape, conflict, busy…), for callers that map it (the web API). */
function errCode(err: unknown): Record<string, unknown> {
  return err instanceof StoreError ? { code: err.code } : {}
}

/** A caught error as a param: its code when it carries one, else its first line. */
function reasonParam(err: unknown): MessageParam {
  // by code only when its English is one line (the answer says the first line, and the code must say the same)
  const fields = err instanceof Error && !err.message.includes('\n') ? codedFieldsOf(err) : undefined
  return fields ?? errMessage(err)
}

function errMessage(err: unknown): string {
  if (err instanceof StoreError || err instanceof Error) return err.message.split('\n')[0] ?? err.message
  return String(err)
}

function idProblem(id: unknown): CodedText | null {
  if (typeof id !== 'string' || !isValidSkillId(id)) return coded('tool.invalid_id', { id: JSON.stringify(typeof id === 'string' ? id.slice(0, 40) : id ?? null) })
  return null
}

export { indexedText }

/** Per-skill-object key of its indexed text; Skill objects are reused by the store while the file is unchanged. */
const textKeys = new WeakMap<Skill, string>()
function textKey(skill: Skill): string {
  let k = textKeys.get(skill)
  if (k === undefined) {
    k = `${skill.skill_id}:${skill.path}:${createHash('sha1').update(indexedText(skill)).digest('hex')}`
    if (Object.isFrozen(skill)) textKeys.set(skill, k)
  }
  return k
}

interface IndexCache {
  keys: string[]
  skills: Skill[]
  index: SearchIndex
}

function sameObjects(a: Skill[], b: Skill[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

function sameKeys(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

function round(n: number, digits: number): number {
  const f = 10 ** digits
  return Math.round(n * f) / f
}

function toQueried(skill: Skill, score: number): QueriedSkill {
  const out: QueriedSkill = {
    skill_id: skill.skill_id,
    title: skill.title,
    usage_conditions: skill.usage_conditions,
    quality_index: skill.quality_index,
    fetch_count: skill.fetch_count,
    similarity_score: round(score, 4),
    content: skill.body,
    related_code: skill.related_code,
    task_directories: [...skill.task_directories],
    user_preferences: skill.user_preferences,
    created_at: skill.created_at,
    updated_at: skill.updated_at,
    last_used_at: skill.last_used_at,
    path: skill.path,
    format: skill.format
  }
  if (skill.pinned !== undefined) out.pinned = skill.pinned
  return out
}

/**
 * The `message` of a query answer by code: `Found N relevant skills:` then one block per skill — tool.found with
 * one tool.found_skill per skill, chained by tool.found_skills ("{first}\n\n{rest}", built from the end so a long
 * answer stays linear); none: the empty library's line (tool.found_none).
 */
export function queryMessage(skills: QueriedSkill[]): CodedText {
  if (skills.length === 0) return coded('tool.found_none')
  let chain: MessageRef | null = null
  for (let i = skills.length - 1; i >= 0; i--) {
    const s = skills[i]!
    const block: MessageRef = { messageCode: 'tool.found_skill', params: { i: i + 1, id: s.skill_id, title: s.title, similarity: s.similarity_score.toFixed(3), usage: s.usage_conditions, quality: s.quality_index } }
    chain = chain ? { messageCode: 'tool.found_skills', params: { first: block, rest: chain } } : block
  }
  return coded('tool.found', { n: skills.length, skills: chain! })
}

/** An edit that cannot be made as asked; nothing was changed. */
class EditRefused extends Error {
  readonly messageCode: CodedText['messageCode']
  readonly params: CodedText['params']

  constructor(message: CodedText) {
    super(message.text)
    this.messageCode = message.messageCode
    this.params = message.params
  }
}

/** The body after an edit of the given mode; throws EditRefused when old_code does not match exactly once. Pure. */
export function editedBody(body: string, mode: EditMode, codeEdit: string, oldCode: string): string {
  if (mode === 'full_replace') return codeEdit
  if (mode === 'append') return body === '' || body.endsWith('\n') ? body + codeEdit : `${body}\n${codeEdit}`
  const first = body.indexOf(oldCode)
  if (first < 0) throw new EditRefused(coded('tool.old_code_not_found'))
  let count = 0
  for (let at = first; at >= 0; at = body.indexOf(oldCode, at + 1)) count++
  if (count > 1) throw new EditRefused(coded('tool.old_code_ambiguous', { n: count }))
  return body.slice(0, first) + codeEdit + body.slice(first + oldCode.length)
}

/** Creates the five skill tools over a store. */
export function createSkillTools(store: ToolStore, opts: SkillToolsOptions = {}): SkillTools {
  const now = opts.now ?? (() => new Date())
  let cache: IndexCache | null = null

  const listActive = async (): Promise<SkillList> =>
    store.snapshot ? store.snapshot({ maxAgeMs: opts.snapshotMaxAgeMs ?? 1000 }) : store.list()

  /** The search index over the active skills in memory, rebuilt only when some skill's path or indexed text changed. */
  const indexFor = async (skills: Skill[]): Promise<SearchIndex> => {
    // Same skill objects as last time (the store reuses them while files are unchanged): nothing to compare.
    if (cache && sameObjects(cache.skills, skills)) return cache.index
    const keys = skills.map(textKey)
    if (cache && sameKeys(cache.keys, keys)) {
      cache = { ...cache, skills }
      return cache.index
    }
    // Loaded here: a store that is only edited or rated never needs the search modules.
    const index = (await import('../search/library-search')).LibrarySearch.ofSkills(skills)
    cache = { keys, skills, index }
    return index
  }


  /** Ranks the listing's active skills as they are in memory (no persistent index given), the same way. */
  const rankInMemory = async (listed: Skill[], text: string, top: number): Promise<{ skill: Skill; score: number }[]> => {
    const skills = listed.filter((s) => !s.legacy)
    if (skills.length === 0) return []
    const index = await indexFor(skills)
    const byPath = new Map<string, Skill>()
    for (const s of skills) if (!byPath.has(s.path)) byPath.set(s.path, s)
    return index.query(text, top).map((h) => ({ skill: byPath.get(h.path)!, score: h.score }))
  }

  /** Ranks with the persistent index, then reads the chosen skills' files as they are now. */
  const rankWithIndex = async (index: Pick<SearchIndex, 'query' | 'activeCount'>, text: string, top: number): Promise<{ skill: Skill; score: number }[]> => {
    const out: { skill: Skill; score: number }[] = []
    for (const hit of index.query(text, top)) {
      const skill = await store.skillAt(hit.path)
      if (skill && !skill.legacy) out.push({ skill, score: hit.score })
    }
    return out
  }

  return {
    async query_skill(query, qopts = {}) {
      if (typeof query !== 'string' || query.trim() === '') {
        return queryFail(coded('tool.query_empty'))
      }
      const top = Math.max(1, Math.min(50, Math.trunc(Number(qopts.top ?? 3)) || 3))
      const text = query.slice(0, MAX_QUERY_CHARS)
      let chosen: { skill: Skill; score: number }[]
      try {
        chosen = opts.search ? await rankWithIndex(await opts.search(), text, top) : await rankInMemory((await listActive()).skills, text, top)
      } catch (err) {
        return queryFail(coded('tool.library_unreadable', { reason: reasonParam(err) }))
      }
      if (chosen.length === 0) {
        return done(queryMessage([]), { skills_count: 0, skills: [] })
      }
      // A skill that shares no word with the query is not relevant: not returned, and not counted as a use
      // (upstream returned its best match even at 0, which fed unrelated skills' fetch_count).
      chosen = chosen.filter((c) => c.score > 0)
      if (chosen.length === 0) {
        return done(coded('tool.found_no_match'), { skills_count: 0, skills: [] })
      }
      let notRecorded: CodedText | null = null
      if (qopts.touch !== false) {
        // fetch_count + 1 and last_used_at = now for each returned skill, as upstream: one durable ledger
        // record under the library lock. If it cannot be recorded the query fails: never a use that did not count.
        // A library this user cannot write (shared, mounted, `chmod -R a-w`) answers all the same, saying so.
        let used: Skill[] = []
        try {
          used = await store.recordUse(
            chosen.map((c) => c.skill.skill_id),
            { at: formatTimestamp(now()), fold: opts.foldUses ?? 'now', ...(opts.via ? { via: opts.via } : {}) }
          )
        } catch (err) {
          if (!(err instanceof StoreError && err.code === 'read_only')) return queryFail(coded('tool.use_not_recorded', { reason: reasonParam(err) }), errCode(err))
          notRecorded = coded('tool.use_not_counted_read_only', { path: String(err.params.path ?? '') })
        }
        const byId = new Map(used.map((u) => [u.skill_id, u]))
        chosen = chosen.map((c) => ({ skill: byId.get(c.skill.skill_id) ?? c.skill, score: c.score }))
      }
      const out = chosen.map((c) => toQueried(c.skill, c.score))
      const notice = notRecorded ? { use_recorded: false as const, use_notice: { message: notRecorded.text, ...codedFields(notRecorded) } } : {}
      return done(queryMessage(out), { skills_count: out.length, skills: out, ...notice })
    },

    async rate_skill(skill_id, rating) {
      const bad = idProblem(skill_id)
      if (bad) return fail(bad)
      const r = typeof rating === 'string' && rating.trim() !== '' ? Number(rating) : rating
      if (typeof r !== 'number' || !Number.isFinite(r) || r < 0 || r > 1) {
        return fail(coded('tool.rating_range', { value: JSON.stringify(rating ?? null) }))
      }
      try {
        // Computed from the quality on disk inside the library lock: concurrent ratings all count, in order.
        let old = 0
        let next = 0
        await store.updateWith(skill_id, (current) => {
          old = current.quality_index
          next = round(Math.min(1, Math.max(0, 0.7 * old + 0.3 * r)), 3)
          return { meta: { quality_index: next } }
        }, { activeOnly: true, activity: { what: 'rate', rating: r } })
        return done(coded('tool.rated', { id: skill_id, rating: r, old, new: next }), { skill_id, rating: r, old_quality_index: old, new_quality_index: next })
      } catch (err) {
        return failWith(err, { skill_id, ...errCode(err) })
      }
    },

    async edit_skill(skill_id, edit_mode, code_edit, old_code) {
      const bad = idProblem(skill_id)
      if (bad) return fail(bad)
      if (!(EDIT_MODES as readonly string[]).includes(edit_mode)) {
        return fail(coded('tool.edit_mode', { modes: EDIT_MODES.join(', '), value: JSON.stringify(edit_mode ?? null) }))
      }
      if (typeof code_edit !== 'string') return fail(coded('tool.code_edit_not_string'))
      if (code_edit.length > MAX_EDIT_CHARS) return fail(coded('tool.code_edit_too_long', { max: MAX_EDIT_CHARS }))
      if (edit_mode === 'lines_replace' && (typeof old_code !== 'string' || old_code === '')) return fail(coded('tool.old_code_needed'))
      try {
        // The edit is applied to the body on disk inside the library lock, so concurrent edits never drop each other.
        const updated = await store.updateWith(skill_id, (current) => ({ body: editedBody(current.body, edit_mode as EditMode, code_edit, old_code ?? '') }), { activeOnly: true, activity: { what: 'edit', detail: edit_mode } })
        return done(coded('tool.edited', { id: skill_id, mode: edit_mode }), { skill_id, edit_mode, path: updated.path })
      } catch (err) {
        return failWith(err, { skill_id, ...errCode(err) })
      }
    },

    async delete_skill(skill_id) {
      const bad = idProblem(skill_id)
      if (bad) return fail(bad)
      try {
        const moved = await store.moveToLegacy(skill_id)
        return done(coded('tool.moved_to_legacy', { id: skill_id, to: moved.to }), { skill_id, from: moved.from, to: moved.to })
      } catch (err) {
        return failWith(err, { skill_id, ...errCode(err) })
      }
    },

    async copy_skill_files(skill_id, file_paths, workspace) {
      const bad = idProblem(skill_id)
      if (bad) return fail(bad)
      const ws = workspace ?? opts.workspaceRoot
      if (!ws) return fail(coded('tool.no_workspace'))
      if (!Array.isArray(file_paths)) return fail(coded('tool.file_paths_list'))
      try {
        return await copySkillFiles(store, skill_id, file_paths, ws, opts.copyLimits)
      } catch (err) {
        return failWith(err, { skill_id, ...errCode(err) })
      }
    }
  }
}

/** The answer every tool gives when long-term memory is off (as upstream). */
export const DISABLED_MESSAGE = coded('tool.disabled').text

/** Tools that all answer `{status: 'error', message: DISABLED_MESSAGE}` (code tool.disabled). */
export function createDisabledSkillTools(): SkillTools {
  const off = async (): Promise<ToolResult> => fail(coded('tool.disabled'))
  return {
    query_skill: async () => queryFail(coded('tool.disabled')),
    rate_skill: off,
    edit_skill: off,
    delete_skill: off,
    copy_skill_files: off
  }
}

function asRecord(args: unknown): Record<string, unknown> | null {
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args)
    } catch {
      return null
    }
  }
  return typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : null
}

/**
 * Runs one tool from a function call (name + JSON arguments, object or string), as an LLM or MCP client sends it.
 * Unknown tools and malformed arguments get an error answer.
 */
export async function callSkillTool(tools: SkillTools, name: string, args: unknown): Promise<QueryResult | ToolResult> {
  const a = asRecord(args)
  if (!a) return fail(coded('tool.args_not_object'))
  const s = (k: string): string => (typeof a[k] === 'string' ? (a[k] as string) : '')
  switch (name) {
    case 'query_skill':
      return tools.query_skill(s('query'))
    case 'rate_skill':
      return tools.rate_skill(s('skill_id'), a.rating as number | string)
    case 'edit_skill':
      return tools.edit_skill(s('skill_id'), s('edit_mode'), a.code_edit as string, typeof a.old_code === 'string' ? a.old_code : undefined)
    case 'delete_skill':
      return tools.delete_skill(s('skill_id'))
    case 'copy_skill_files': {
      const paths = a.file_paths
      if (!Array.isArray(paths)) return fail(coded('tool.file_paths_list'))
      return tools.copy_skill_files(s('skill_id'), paths as string[])
    }
    default:
      return fail(coded('tool.unknown', { name: JSON.stringify(String(name).slice(0, 60)) }))
  }
}
