/**
 * Maps parsed skill files to the `Skill` domain type and skill patches back to front-matter changes. Pure.
 *
 * AGIAgent files hold the bookkeeping at the top level, in upstream key order. SKILL.md files keep only
 * their own keys at the top (`name` = our title, `description` = our usage conditions); our bookkeeping lives
 * under `metadata.skillbench`, so the folders stay valid for Claude Code, Codex and the others.
 */
import type { Skill, SkillFormat, SkillMeta } from '../../shared/types'
import { isValidSkillId } from './paths'
import { failed, type Failed, type FrontMatterChange, type SkillFileParts } from './skill-file'
import { StoreError } from './types'
import { coded, type CodedText } from '../../shared/error-codes'
import { codedReason } from '../../shared/coded-reason'
import { agiagentIdRefusal, readBookkeeping, readSkillbenchMapping, readText, readTitle, storedIdRefusal, str, titleFromPath } from './skill-field-checks'

/** Front-matter keys of an AGIAgent skill, in the order upstream writes them. */
export const AGIAGENT_KEYS = [
  'skill_id',
  'title',
  'usage_conditions',
  'quality_index',
  'fetch_count',
  'related_code',
  'task_directories',
  'created_at',
  'updated_at',
  'last_used_at',
  'user_preferences'
] as const

/** Bookkeeping keys stored under `metadata.skillbench` in SKILL.md files. */
export const SKILLBENCH_META_KEYS = [
  'skill_id',
  'quality_index',
  'fetch_count',
  'related_code',
  'task_directories',
  'created_at',
  'updated_at',
  'last_used_at',
  'user_preferences',
  'pinned'
] as const

export interface SkillLocation {
  /** Library-relative path with forward slashes. */
  path: string
  format: SkillFormat
  legacy: boolean
  hash: string
  /** File modification time, used when a SKILL.md has no dates of its own. */
  mtimeMs: number
  /** Id to use when the file stores none (SKILL.md only). */
  fallbackId?: string
  /** Defines `hash` on the new skill instead of `loc.hash` (the store computes it lazily). Called in `hash`'s place in key order. */
  defineHash?: (skill: Skill) => void
}

/** Adds `hash` (after `body`, before `legacy`: the key order every skill object shares). */
function setHash(skill: Skill, loc: SkillLocation): void {
  if (loc.defineHash) loc.defineHash(skill)
  else skill.hash = loc.hash
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** The skill's bookkeeping as stored in SKILL.md metadata (empty object when absent). */
export function skillbenchMetadata(data: Record<string, unknown>): Record<string, unknown> {
  const md = data.metadata
  if (isPlainObject(md) && isPlainObject(md.skillbench)) return md.skillbench
  return {}
}

/** Names the values read with a default (`load_warnings`, last: absent when there are none). */
function setWarnings(skill: Skill, warnings: CodedText[]): void {
  if (warnings.length > 0) skill.load_warnings = warnings.map((w) => codedReason(w))
}

/**
 * Builds a Skill from a parsed file, or says why the file is not a usable skill. The fields are read by
 * skill-field-checks.ts (the reading `skillbench validate` shares): a value read with a default is named in
 * `load_warnings`.
 */
export function skillFromParts(file: SkillFileParts, loc: SkillLocation): { ok: true; skill: Skill } | Failed {
  const d = file.data
  const warnings: CodedText[] = []
  if (loc.format === 'agiagent') {
    const refusal = agiagentIdRefusal(d.skill_id)
    if (refusal) return failed(refusal)
    const title = readTitle(d.title, titleFromPath(loc.path), warnings)
    const usage = readText(d.usage_conditions, { field: 'usage_conditions' }, warnings)
    const b = readBookkeeping(d, '', true, warnings)
    const skill = {
      skill_id: str(d.skill_id),
      title,
      usage_conditions: usage,
      quality_index: b.quality_index,
      fetch_count: b.fetch_count,
      related_code: b.related_code,
      task_directories: b.task_directories,
      created_at: b.created_at,
      updated_at: b.updated_at,
      last_used_at: b.last_used_at,
      user_preferences: b.user_preferences,
      format: 'agiagent',
      path: loc.path,
      body: file.body
    } as Skill
    setHash(skill, loc)
    skill.legacy = loc.legacy
    if (typeof d.pinned === 'boolean') skill.pinned = d.pinned
    setWarnings(skill, warnings)
    return { ok: true, skill }
  }
  if (d.metadata !== undefined && !isPlainObject(d.metadata)) return failed(coded('parse.metadata_not_mapping'))
  const sb = readSkillbenchMapping(d.metadata, warnings)
  const refusal = storedIdRefusal(sb.skill_id)
  if (refusal) return failed(refusal)
  const storedId = str(sb.skill_id)
  const id = storedId || loc.fallbackId
  if (!id || !isValidSkillId(id)) return failed(coded('parse.no_skill_id'))
  const folder = loc.path.split('/').slice(-2, -1)[0] ?? ''
  const name = str(d.name) || folder
  const fileDate = (): string => new Date(loc.mtimeMs).toISOString()
  const b = readBookkeeping(sb, 'metadata.skillbench.', false, warnings)
  const skill = {
    skill_id: id,
    title: name,
    usage_conditions: str(d.description),
    quality_index: b.quality_index,
    fetch_count: b.fetch_count,
    related_code: b.related_code,
    task_directories: b.task_directories,
    created_at: b.created_at || fileDate(),
    updated_at: b.updated_at || fileDate(),
    last_used_at: b.last_used_at,
    user_preferences: b.user_preferences,
    format: 'skill-md',
    path: loc.path,
    body: file.body
  } as Skill
  setHash(skill, loc)
  skill.legacy = loc.legacy
  // A file time says when the file was written or checked out, never when the skill arrived: cleanup ignores it.
  if (!b.created_at) skill.dated_by_file = true
  skill.name = name
  skill.description = str(d.description)
  if (typeof sb.pinned === 'boolean') skill.pinned = sb.pinned
  setWarnings(skill, warnings)
  return { ok: true, skill }
}

/** Front-matter changes that apply `meta` to a skill of the given format. */
export function changesForMeta(
  format: SkillFormat,
  data: Record<string, unknown>,
  meta: Partial<SkillMeta>,
  currentId: string
): FrontMatterChange[] {
  const changes: FrontMatterChange[] = []
  const entries = Object.entries(meta).filter(([, v]) => v !== undefined)
  if (format === 'agiagent') {
    for (const [k, v] of entries) changes.push({ path: [k], value: v })
    return changes
  }
  if (data.metadata !== undefined && !isPlainObject(data.metadata)) {
    throw new StoreError('malformed', coded('skill.metadata_not_mapping'))
  }
  const md = data.metadata as Record<string, unknown> | undefined
  if (md && md.skillbench !== undefined && !isPlainObject(md.skillbench)) {
    throw new StoreError('malformed', coded('skill.skillbench_not_mapping'))
  }
  const sb = skillbenchMetadata(data)
  // The first write stores the id so it survives renames and moves.
  if (sb.skill_id === undefined && meta.skill_id === undefined) {
    changes.push({ path: ['metadata', 'skillbench', 'skill_id'], value: currentId })
  }
  for (const [k, v] of entries) {
    if (k === 'title') changes.push({ path: ['name'], value: v })
    else if (k === 'usage_conditions') changes.push({ path: ['description'], value: v })
    else changes.push({ path: ['metadata', 'skillbench', k], value: v })
  }
  return changes
}

/** Front-matter data of a new AGIAgent skill, keys in upstream order. */
export function newAgiagentData(meta: SkillMeta): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const k of AGIAGENT_KEYS) out[k] = meta[k]
  if (meta.pinned !== undefined) out.pinned = meta.pinned
  return out
}

/** Front-matter data of a new SKILL.md: `name`, `description`, our bookkeeping under `metadata.skillbench`. */
export function newSkillMdData(name: string, description: string, meta: SkillMeta): Record<string, unknown> {
  const sb: Record<string, unknown> = {}
  for (const k of SKILLBENCH_META_KEYS) {
    if (meta[k] !== undefined) sb[k] = meta[k]
  }
  return { name, description, metadata: { skillbench: sb } }
}

/** Valid SKILL.md `name` (Agent Skills spec: lowercase letters, digits, hyphens, ≤ 64). */
export const SKILL_MD_NAME = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0')
}

/**
 * A timestamp as upstream AGIAgent writes it: naive local ISO-8601 with microseconds
 * (`2026-01-17T09:59:21.686000`), so Python's `datetime.fromisoformat` and naive comparisons keep working.
 */
export function formatTimestamp(date: Date): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}000`
  )
}
