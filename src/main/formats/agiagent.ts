/** AGIAgent `skill_*.md` files (issue 2): fixed front-matter keys, Chinese-friendly titles. */
import { applyCarrier, CARRIER_KEY, diffCarrier, normalizeSkill, str, unknownKeys, type PortableSkill } from './model'
import { isPlainObject } from './safe-yaml'
import { parseFrontMatter, serializeFrontMatter } from './front-matter'
import { coded, type CodedText } from '../../shared/error-codes'
import { skillFieldFindings } from '../store/skill-field-checks'
import type { Problem } from './skill-md'

/** Front-matter keys of an AGIAgent skill, in the order upstream writes them. */
export const AGIAGENT_KEYS = [
  'skill_id', 'title', 'usage_conditions', 'quality_index', 'fetch_count', 'related_code',
  'task_directories', 'created_at', 'updated_at', 'last_used_at', 'user_preferences'
] as const

const KNOWN_KEYS: readonly string[] = [...AGIAGENT_KEYS, 'pinned']

/** An AGIAgent skill file as data: its front matter (known + unknown keys + our carrier) and body. */
export interface AgiAgentRecord {
  frontMatter: Record<string, unknown>
  body: string
}

/** Reads a `skill_*.md` text. Throws FormatError on malformed front matter. */
export function parseAgiAgent(text: string): AgiAgentRecord {
  const { data, body } = parseFrontMatter(text, 'AGIAgent skill')
  return { frontMatter: data, body }
}

/** Writes a `skill_*.md` text (`---\n{yaml}---\n\n{body}`, as upstream). */
export function serializeAgiAgent(record: AgiAgentRecord): string {
  return serializeFrontMatter(record.frontMatter, record.body)
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

function nativeFrom(record: AgiAgentRecord): PortableSkill {
  const fm = record.frontMatter
  const title = str(fm.title) ?? ''
  const usage = str(fm.usage_conditions)
  const skill: PortableSkill = {
    title,
    description: usage || title,
    body: record.body,
    skill_id: typeof fm.skill_id === 'number' ? String(fm.skill_id) : str(fm.skill_id),
    usage_conditions: usage,
    quality_index: num(fm.quality_index),
    fetch_count: num(fm.fetch_count),
    related_code: str(fm.related_code),
    task_directories: stringList(fm.task_directories),
    created_at: str(fm.created_at),
    updated_at: str(fm.updated_at),
    last_used_at: fm.last_used_at === null ? null : str(fm.last_used_at),
    user_preferences: str(fm.user_preferences),
    pinned: typeof fm.pinned === 'boolean' ? fm.pinned : undefined,
    extra: {}
  }
  // Known keys with an unexpected type are kept verbatim as unknown keys, so nothing is lost.
  const typed = skill as unknown as Record<string, unknown>
  const unknown: Record<string, unknown> = unknownKeys(fm, [...KNOWN_KEYS, CARRIER_KEY]) ?? {}
  for (const key of KNOWN_KEYS) {
    const value = fm[key]
    const got = key === 'title' ? (typeof fm.title === 'string' ? fm.title : undefined) : typed[key]
    if (value !== undefined && got === undefined) {
      unknown[key] = value
    }
  }
  if (Object.keys(unknown).length > 0) {
    skill.extra.agiagent = unknown
  }
  return normalizeSkill(skill)
}

function nativeTo(skill: PortableSkill): AgiAgentRecord {
  const defaults: Record<string, unknown> = {
    skill_id: skill.skill_id ?? '',
    title: skill.title,
    usage_conditions: skill.usage_conditions ?? skill.description,
    quality_index: skill.quality_index ?? 0.5,
    fetch_count: skill.fetch_count ?? 0,
    related_code: skill.related_code ?? '',
    task_directories: skill.task_directories ?? [],
    created_at: skill.created_at ?? isoFromLearned(skill.learned_created_at) ?? '',
    updated_at: skill.updated_at ?? skill.created_at ?? isoFromLearned(skill.learned_created_at) ?? '',
    last_used_at: skill.last_used_at ?? null,
    user_preferences: skill.user_preferences ?? ''
  }
  const typed = skill as unknown as Record<string, unknown>
  const extra = skill.extra.agiagent ?? {}
  const fm: Record<string, unknown> = {}
  for (const key of AGIAGENT_KEYS) {
    const has = key === 'title' ? skill.title !== '' : typed[key] !== undefined
    fm[key] = !has && key in extra ? extra[key] : defaults[key]
  }
  if (skill.pinned !== undefined) {
    fm.pinned = skill.pinned
  } else if ('pinned' in extra) {
    fm.pinned = extra.pinned
  }
  for (const [key, value] of Object.entries(extra)) {
    if (!KNOWN_KEYS.includes(key as never) && key !== CARRIER_KEY) {
      fm[key] = value
    }
  }
  return { frontMatter: fm, body: skill.body }
}

/** Epoch-ms → ISO string for a learned skill's createdAt, when it is a sane number. */
export function isoFromLearned(value: number | string | undefined): string | undefined {
  if (typeof value === 'string') {
    return value
  }
  if (typeof value === 'number' && Number.isSafeInteger(value) && Math.abs(value) < 8.64e15) {
    return new Date(value).toISOString()
  }
  return undefined
}

/** AGIAgent record → neutral model (carrier applied). */
export function fromAgiAgent(record: AgiAgentRecord): PortableSkill {
  return applyCarrier(nativeFrom(record), record.frontMatter[CARRIER_KEY])
}

/** Neutral model → AGIAgent record; fields AGIAgent cannot hold go to the `skillbench` front-matter key. */
export function toAgiAgent(skill: PortableSkill): AgiAgentRecord {
  const record = nativeTo(skill)
  const carrier = diffCarrier(skill, nativeFrom(record))
  if (carrier) {
    record.frontMatter[CARRIER_KEY] = carrier
  }
  return record
}

/**
 * Problems of an AGIAgent front matter (empty = valid). The fields are checked by the store's own reading
 * (store/skill-field-checks.ts), so `validate` and every listing agree: a file the store refuses (no usable
 * skill_id) is an error with the store's coded reason; a value read with a default is a warning saying what was read.
 */
export function validateAgiAgent(record: AgiAgentRecord, fileName = 'skill_.md'): Problem[] {
  const fm = record.frontMatter
  const out: Problem[] = []
  const add = (level: Problem['level'], c: CodedText): void => void out.push({ level, message: c.text, messageCode: c.messageCode, params: c.params })
  const { refusal, warnings } = skillFieldFindings(fm, 'agiagent', fileName)
  if (refusal) add('error', refusal)
  for (const w of warnings) add('warning', w)
  if (fm[CARRIER_KEY] !== undefined && !isPlainObject(fm[CARRIER_KEY])) {
    add('error', coded('agiagent.not_mapping', { key: CARRIER_KEY }))
  }
  return out
}
