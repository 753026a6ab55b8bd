/**
 * The one reading of a skill file's bookkeeping fields, shared by the store (every listing: `list`, `query`, the app)
 * and `skillbench validate` (formats/), so both name the same problems in the same words. Pure.
 *
 * The policy, per field: a file is refused only when nothing can address it (an AGIAgent `skill_id` missing or not
 * 1–20 digits, a SKILL.md's stored `metadata.skillbench.skill_id` not 1–20 digits) — the same coded reason in both.
 * Every other value a sloppy agent wrote wrong (or left out, where upstream always writes it) is read with a default
 * (or as written) and named as a warning that says what was read: nothing a user has is hidden or lost.
 */
import { coded, type CodedText } from '../../shared/error-codes'
import { DEFAULT_QUALITY_INDEX, type SkillMeta } from '../../shared/types'
import { isValidSkillId } from './paths'

/** What a field of a file reads as, and the warnings met on the way (pushed onto `warnings`). */
export type Warnings = CodedText[]

/** A present value as a warning shows it: quoted when a string, as YAML-ish JSON otherwise, at most 60 characters. */
export function shownValue(v: unknown): string {
  const s = v === undefined ? 'undefined' : (JSON.stringify(v) ?? String(v))
  return s.length > 60 ? `${s.slice(0, 59)}…` : s
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

export function str(v: unknown, dflt = ''): string {
  if (typeof v === 'string') return v
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  return dflt
}

function num(v: unknown, dflt: number): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN
  return Number.isFinite(n) ? n : dflt
}

function strList(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((x) => typeof x === 'string' || typeof x === 'number').map(String)
  if (typeof v === 'string' && v !== '') return [v]
  return []
}

/** `required`: upstream always writes the field, so its absence is named too (AGIAgent top-level keys). */
interface FieldOpts {
  field: string
  required?: boolean
}

export function readQuality(v: unknown, o: FieldOpts, warnings: Warnings): number {
  const n = num(v, DEFAULT_QUALITY_INDEX)
  if (v === undefined || v === null) {
    if (o.required) warnings.push(coded('field.missing', { field: o.field, used: String(n) }))
  } else if (typeof v !== 'number' || !(v >= 0 && v <= 1)) {
    warnings.push(coded('field.quality_range', { field: o.field, value: shownValue(v), used: String(n) }))
  }
  return n
}

export function readFetchCount(v: unknown, o: FieldOpts, warnings: Warnings): number {
  const n = Math.max(0, Math.trunc(num(v, 0)))
  if (v === undefined || v === null) {
    if (o.required) warnings.push(coded('field.missing', { field: o.field, used: String(n) }))
  } else if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    warnings.push(coded('field.fetch_count', { field: o.field, value: shownValue(v), used: String(n) }))
  }
  return n
}

export function readTaskDirectories(v: unknown, o: FieldOpts, warnings: Warnings): string[] {
  const list = strList(v)
  if (v === undefined || v === null) {
    if (o.required) warnings.push(coded('field.missing', { field: o.field, used: '[]' }))
  } else if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) {
    warnings.push(coded('field.task_dirs', { field: o.field, value: shownValue(v), used: shownValue(list) }))
  }
  return list
}

/** A text field: numbers and booleans read as their text (YAML typed them); a list or mapping is not text. */
export function readText(v: unknown, o: FieldOpts, warnings: Warnings): string {
  if (v !== undefined && v !== null && str(v, '\0') === '\0') warnings.push(coded('field.not_string', { field: o.field, value: shownValue(v), used: '""' }))
  return str(v)
}

/** A date field: text as written; one that is no ISO-8601 date is named (sorting and cleanup cannot read it). */
export function readDate(v: unknown, o: FieldOpts, warnings: Warnings): string {
  const s = readText(v, o, warnings)
  if (s !== '' && typeof v === 'string' && Number.isNaN(Date.parse(s))) warnings.push(coded('field.not_date', { field: o.field, value: shownValue(v) }))
  return s
}

export function readLastUsed(v: unknown, o: FieldOpts, warnings: Warnings): string | null {
  if (v !== undefined && v !== null && typeof v !== 'string') warnings.push(coded('field.last_used_at', { field: o.field, value: shownValue(v) }))
  return typeof v === 'string' && v !== '' ? v : null
}

/** The title of an AGIAgent file: its `title`, else (named) the file name's. */
export function readTitle(v: unknown, fromPath: string, warnings: Warnings): string {
  const t = str(v)
  if (v === undefined || v === null) warnings.push(coded('field.missing', { field: 'title', used: shownValue(fromPath) }))
  else if (str(v, '\0') === '\0') warnings.push(coded('field.not_string', { field: 'title', value: shownValue(v), used: shownValue(fromPath) }))
  else if (t.trim() === '') warnings.push(coded('field.empty', { field: 'title', used: shownValue(t || fromPath) }))
  return t || fromPath
}

/** Why an AGIAgent file cannot be loaded by its id (missing or not 1–20 digits), or null. */
export function agiagentIdRefusal(v: unknown): CodedText | null {
  if (v === undefined || v === null) return coded('parse.missing_skill_id')
  const id = str(v)
  return isValidSkillId(id) ? null : coded('parse.invalid_skill_id', { value: JSON.stringify(id.slice(0, 40)) })
}

/** Why a SKILL.md cannot be loaded by its stored id (`metadata.skillbench.skill_id` not 1–20 digits), or null. */
export function storedIdRefusal(v: unknown): CodedText | null {
  if (v === undefined) return null
  const id = str(v)
  return isValidSkillId(id) ? null : coded('parse.invalid_stored_id', { value: JSON.stringify(id.slice(0, 40)) })
}

/** The SKILL.md bookkeeping mapping; a `metadata.skillbench` that is not a mapping is named and read as none. */
export function readSkillbenchMapping(metadata: unknown, warnings: Warnings): Record<string, unknown> {
  if (!isPlainObject(metadata) || metadata.skillbench === undefined) return {}
  if (isPlainObject(metadata.skillbench)) return metadata.skillbench
  warnings.push(coded('field.not_mapping', { field: 'metadata.skillbench', value: shownValue(metadata.skillbench) }))
  return {}
}

/** Every bookkeeping field of a file, read as the store reads it (the skill's own fields, shared/types.ts). */
export type BookkeepingFields = Pick<SkillMeta, 'quality_index' | 'fetch_count' | 'related_code' | 'task_directories' | 'created_at' | 'updated_at' | 'last_used_at' | 'user_preferences'>

/**
 * The bookkeeping of an AGIAgent file's top level (`prefix` ''; `required`: upstream writes them all) or of a
 * SKILL.md's `metadata.skillbench` (`prefix` 'metadata.skillbench.'; written by us only when there is something to keep).
 */
export function readBookkeeping(d: Record<string, unknown>, prefix: string, required: boolean, warnings: Warnings): BookkeepingFields {
  const at = (field: string): FieldOpts => ({ field: prefix + field, required })
  return {
    quality_index: readQuality(d.quality_index, at('quality_index'), warnings),
    fetch_count: readFetchCount(d.fetch_count, at('fetch_count'), warnings),
    related_code: readText(d.related_code, at('related_code'), warnings),
    task_directories: readTaskDirectories(d.task_directories, at('task_directories'), warnings),
    created_at: readDate(d.created_at, at('created_at'), warnings),
    updated_at: readDate(d.updated_at, at('updated_at'), warnings),
    last_used_at: readLastUsed(d.last_used_at, at('last_used_at'), warnings),
    user_preferences: readText(d.user_preferences, at('user_preferences'), warnings)
  }
}

/** The findings of the store's reading of a file's front matter: the refusal (the file does not load) or the warnings. */
export function skillFieldFindings(
  d: Record<string, unknown>,
  format: 'agiagent' | 'skill-md',
  relPath: string
): { refusal: CodedText | null; warnings: CodedText[] } {
  const warnings: Warnings = []
  if (format === 'agiagent') {
    const refusal = agiagentIdRefusal(d.skill_id)
    if (refusal) return { refusal, warnings }
    readTitle(d.title, titleFromPath(relPath), warnings)
    readText(d.usage_conditions, { field: 'usage_conditions' }, warnings)
    readBookkeeping(d, '', true, warnings)
    return { refusal: null, warnings }
  }
  if (d.metadata !== undefined && !isPlainObject(d.metadata)) return { refusal: coded('parse.metadata_not_mapping'), warnings }
  const sb = readSkillbenchMapping(d.metadata, warnings)
  const refusal = storedIdRefusal(sb.skill_id)
  if (refusal) return { refusal, warnings: [] }
  readBookkeeping(sb, 'metadata.skillbench.', false, warnings)
  return { refusal: null, warnings }
}

/** Title of an AGIAgent file that has none: its file name without `skill_` and `.md`. */
export function titleFromPath(p: string): string {
  const base = p.split('/').pop() ?? p
  return base.replace(/^skill_/, '').replace(/\.md$/, '')
}
