/** Agent Skills `SKILL.md` folders: conversion to/from the neutral model and the spec's validation rules. */
import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import { applyCarrier, CARRIER_KEY, diffCarrier, normalizeSkill, str, unknownKeys, type PortableSkill } from './model'
import { isPlainObject } from './safe-yaml'
import { parseFrontMatter, serializeFrontMatter } from './front-matter'
import { coded, type CodedText, type MessageCode, type MessageParams } from '../../shared/error-codes'
import { skillFieldFindings } from '../store/skill-field-checks'

/** The only top-level front-matter keys the Agent Skills spec allows. */
export const SKILL_MD_KEYS = ['name', 'description', 'license', 'compatibility', 'allowed-tools', 'metadata'] as const
export const MAX_NAME_CHARS = 64
export const MAX_DESCRIPTION_CHARS = 1024
export const MAX_COMPATIBILITY_CHARS = 500
/** kebab-case: lowercase letters and digits in groups joined by single hyphens. */
export const SKILL_NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/

/** A SKILL.md file as data, plus the resource files of its folder (relative paths). */
export interface SkillMdRecord {
  frontMatter: Record<string, unknown>
  body: string
  resources?: string[]
}

/** Reads a SKILL.md text. Throws FormatError on malformed front matter. */
export function parseSkillMd(text: string): SkillMdRecord {
  const { data, body } = parseFrontMatter(text, 'SKILL.md')
  return { frontMatter: data, body }
}

/** Writes a SKILL.md text. */
export function serializeSkillMd(record: SkillMdRecord): string {
  return serializeFrontMatter(record.frontMatter, record.body)
}

const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/u
type PinyinFn = (text: string, opts: { toneType: 'none'; nonZh: 'consecutive'; v: boolean; type: 'array' }) => string[]
let pinyinFn: PinyinFn | undefined

/**
 * Chinese characters spelled in pinyin without tones ("用Python写快速排序" → "yong Python xie kuai su pai xu"), other
 * text kept. pinyin-pro's dictionary is large: it is loaded on the first Chinese title only.
 */
export function romanize(text: string): string {
  if (!HAN.test(text)) return text
  pinyinFn ??= (createRequire(__filename)('pinyin-pro') as { pinyin: PinyinFn }).pinyin
  return pinyinFn(text, { toneType: 'none', nonZh: 'consecutive', v: true, type: 'array' }).join(' ')
}

/**
 * Turns any title into a valid skill name (kebab-case, ≤ 64 chars, cut at a word): Chinese in pinyin (issue 36), so
 * a Chinese title reads as a name, not `skill-<id>`; only a title with no letters at all falls back to `skill-<id>`.
 */
export function slugifySkillName(text: string, seed?: string): string {
  const slug = cutName(
    romanize(text)
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
  )
  // "anthropic" and "claude" are reserved in names: some hosts refuse a skill named with them
  const allowed = slug.replace(/anthropic|claude/g, '-').replace(/-{2,}/g, '-').replace(/^-+|-+$/g, '')
  if (allowed !== '' && allowed !== slug) {
    return allowed
  }
  if (slug !== '') {
    return slug
  }
  const tail = seed && /^[a-z0-9-]+$/i.test(seed) ? seed.toLowerCase() : createHash('sha256').update(text).digest('hex').slice(0, 8)
  return `skill-${tail}`.slice(0, MAX_NAME_CHARS).replace(/-+$/g, '')
}

/** ≤ 64 chars, cut after a whole hyphen-separated word when one ends past half the limit. */
function cutName(slug: string): string {
  if (slug.length <= MAX_NAME_CHARS) return slug
  const head = slug.slice(0, MAX_NAME_CHARS + 1)
  const at = head.lastIndexOf('-')
  return (at > MAX_NAME_CHARS / 2 ? head.slice(0, at) : slug.slice(0, MAX_NAME_CHARS)).replace(/-+$/g, '')
}

/**
 * The SKILL.md name a skill gets: its own name when already valid, else the first of name / title / learned id
 * that slugifies to something (CJK-only titles do not), else `skill-<id or hash>`.
 */
export function skillMdNameFor(skill: Pick<PortableSkill, 'name' | 'title' | 'learned_id' | 'skill_id'>): string {
  if (skill.name && SKILL_NAME_PATTERN.test(skill.name) && skill.name.length <= MAX_NAME_CHARS) return skill.name
  for (const candidate of [skill.name, skill.title, skill.learned_id]) {
    if (!candidate) continue
    const slug = slugifySkillName(candidate)
    if (!slug.startsWith('skill-') || slugifySkillName(candidate, 'x') === slug) return slug
  }
  return slugifySkillName(skill.title || skill.name || '', skill.skill_id)
}

/** `base`, or `base-2`, `base-3`… (still ≤ 64 chars) when `taken` already has it. Adds the result to `taken`. */
export function uniqueSkillName(base: string, taken: Set<string>): string {
  let name = base
  for (let n = 2; taken.has(name); n++) {
    const suffix = `-${n}`
    name = base.slice(0, MAX_NAME_CHARS - suffix.length).replace(/-+$/g, '') + suffix
  }
  taken.add(name)
  return name
}

const FULL_DESC_MARKER = '<!-- skillbench:full-description -->'
const FULL_DESC_HEADING = '## Full description'

/** Cuts a description to the spec's 1024 chars at a word boundary, ending with '…'. */
export function cutDescription(text: string): string {
  if (text.length <= MAX_DESCRIPTION_CHARS) {
    return text
  }
  const hard = text.slice(0, MAX_DESCRIPTION_CHARS - 1)
  const space = hard.lastIndexOf(' ')
  return (space > MAX_DESCRIPTION_CHARS * 0.8 ? hard.slice(0, space) : hard).trimEnd() + '…'
}

function fullDescriptionSection(full: string): string {
  return `\n\n${FULL_DESC_MARKER}\n${FULL_DESC_HEADING}\n\n${full}\n`
}

/** Undoes `fullDescriptionSection` when the body ends with it and it matches the cut description. */
function splitFullDescription(body: string, cut: string): { body: string; description: string } | undefined {
  const at = body.lastIndexOf(`\n\n${FULL_DESC_MARKER}\n`)
  if (at < 0) {
    return undefined
  }
  const head = `\n\n${FULL_DESC_MARKER}\n${FULL_DESC_HEADING}\n\n`
  const tail = body.slice(at)
  if (!tail.startsWith(head) || !tail.endsWith('\n')) {
    return undefined
  }
  const full = tail.slice(head.length, -1)
  if (full.length <= MAX_DESCRIPTION_CHARS || cutDescription(full) !== cut) {
    return undefined
  }
  return { body: body.slice(0, at), description: full }
}

function nativeFrom(record: SkillMdRecord): PortableSkill {
  const fm = record.frontMatter
  const name = str(fm.name)
  let description = str(fm.description) ?? ''
  let body = record.body
  const split = splitFullDescription(body, description)
  if (split) {
    body = split.body
    description = split.description
  }
  const metadata = isPlainObject(fm.metadata) ? { ...fm.metadata } : undefined
  if (metadata) {
    delete metadata[CARRIER_KEY]
  }
  const extra: Record<string, unknown> = unknownKeys(fm, SKILL_MD_KEYS) ?? {}
  // Known keys with a type we cannot map are kept verbatim.
  for (const key of ['name', 'description', 'license', 'compatibility', 'allowed-tools'] as const) {
    if (fm[key] !== undefined && typeof fm[key] !== 'string') extra[key] = fm[key]
  }
  if (fm.metadata !== undefined && !isPlainObject(fm.metadata)) extra.metadata = fm.metadata
  const skill: PortableSkill = {
    // Same convention as the store: a SKILL.md skill's title is its name.
    title: name ?? '',
    name,
    description,
    body,
    license: str(fm.license),
    compatibility: str(fm.compatibility),
    allowed_tools: str(fm['allowed-tools']),
    metadata: metadata && Object.keys(metadata).length > 0 ? metadata : undefined,
    resources: record.resources && record.resources.length > 0 ? [...record.resources].sort() : undefined,
    extra: Object.keys(extra).length > 0 ? { 'skill-md': extra } : {}
  }
  return normalizeSkill(skill)
}

/** Options of `toSkillMd`. */
export interface ToSkillMdOptions {
  /** The folder name chosen by the exporter (unique in the tree); defaults to the slug of the skill's name/title. */
  name?: string
  /**
   * Whether the resource files will be in the folder (default true). When false (the files are not copied),
   * the resource list rides in the carrier so it is not lost.
   */
  withResources?: boolean
}

function nativeTo(skill: PortableSkill, opts: ToSkillMdOptions): SkillMdRecord {
  const name = opts.name ?? skillMdNameFor(skill)
  const wanted = skill.description.trim() !== '' ? skill.description : skill.usage_conditions?.trim() || skill.title.trim() || name
  const description = cutDescription(wanted)
  const body = description === wanted ? skill.body : skill.body + fullDescriptionSection(wanted)
  const fm: Record<string, unknown> = { name, description }
  if (skill.license !== undefined) fm.license = skill.license
  if (skill.compatibility !== undefined && skill.compatibility !== '') fm.compatibility = skill.compatibility.slice(0, MAX_COMPATIBILITY_CHARS)
  if (skill.allowed_tools !== undefined) fm['allowed-tools'] = skill.allowed_tools
  if (skill.metadata !== undefined) fm.metadata = { ...skill.metadata }
  return { frontMatter: fm, body, resources: skill.resources }
}

/** SKILL.md record → neutral model (carrier `metadata.skillbench` applied). */
export function fromSkillMd(record: SkillMdRecord): PortableSkill {
  const metadata = record.frontMatter.metadata
  return applyCarrier(nativeFrom(record), isPlainObject(metadata) ? metadata[CARRIER_KEY] : undefined)
}

/**
 * Neutral model → SKILL.md record that passes the Agent Skills rules: kebab name ≤ 64, description ≤ 1024
 * (the full text goes to the end of the body), only spec keys at top level; everything else under `metadata.skillbench`.
 */
export function toSkillMd(skill: PortableSkill, opts: ToSkillMdOptions = {}): SkillMdRecord {
  const record = nativeTo(skill, opts)
  if (opts.withResources === false) delete record.resources
  const carrier = diffCarrier(skill, nativeFrom(record))
  if (carrier) {
    const metadata = isPlainObject(record.frontMatter.metadata) ? record.frontMatter.metadata : {}
    metadata[CARRIER_KEY] = carrier
    record.frontMatter.metadata = metadata
  }
  if (record.resources === undefined) {
    delete record.resources
  }
  return record
}

/** One finding of a validator. */
export interface Problem {
  level: 'error' | 'warning'
  message: string
  /** The message's code and params (error-codes.ts) when the validator has them: a client matches on the code. */
  messageCode?: MessageCode
  params?: MessageParams
}

/** Options of `validateSkillMd`. */
export interface SkillMdValidateOptions {
  /** The skill's folder name: the spec says `name` must equal it. */
  dirName?: string
}

/**
 * The Agent Skills rules: `name` 1–64 chars of lowercase letters, digits and single hyphens (no leading,
 * trailing or double hyphen) equal to the folder name; `description` 1–1024 chars; optional `license`,
 * `compatibility` (≤ 500), `allowed-tools` (space-delimited string), `metadata` (a mapping); no other top-level keys.
 */
export function validateSkillMd(record: SkillMdRecord, opts: SkillMdValidateOptions = {}): Problem[] {
  const fm = record.frontMatter
  const out: Problem[] = []
  const finding = (level: Problem['level'], c: CodedText): void => void out.push({ level, message: c.text, messageCode: c.messageCode, params: c.params })
  const error = (code: MessageCode, params: MessageParams = {}): void => finding('error', coded(code, params))
  const warn = (code: MessageCode, params: MessageParams = {}): void => finding('warning', coded(code, params))
  const name = fm.name
  if (name === undefined) {
    error('skillmd.name_missing')
  } else if (typeof name !== 'string') {
    error('skillmd.name_not_string', { value: String(JSON.stringify(name)) })
  } else {
    if (name.length === 0 || name.length > MAX_NAME_CHARS) {
      error('skillmd.name_length', { max: MAX_NAME_CHARS, n: name.length })
    }
    if (!SKILL_NAME_PATTERN.test(name)) {
      error('skillmd.name_not_kebab', { name, example: slugifySkillName(name) })
    }
    if (opts.dirName !== undefined && opts.dirName !== name) {
      error('skillmd.name_not_folder', { name, folder: opts.dirName })
    }
    if (/anthropic|claude/.test(name)) {
      warn('skillmd.name_reserved_word', { name })
    }
  }
  const description = fm.description
  if (description === undefined) {
    error('skillmd.description_missing')
  } else if (typeof description !== 'string') {
    error('skillmd.description_not_string', { value: String(JSON.stringify(description)) })
  } else {
    if (description.trim() === '') {
      error('skillmd.description_empty')
    }
    if (description.length > MAX_DESCRIPTION_CHARS) {
      error('skillmd.description_too_long', { n: description.length, max: MAX_DESCRIPTION_CHARS })
    }
    if (/<\/?[a-zA-Z][^>]*>/.test(description)) {
      warn('skillmd.description_tags')
    }
  }
  if (fm.license !== undefined && typeof fm.license !== 'string') {
    error('skillmd.license_not_string')
  }
  const compat = fm.compatibility
  if (compat !== undefined && (typeof compat !== 'string' || compat.length === 0 || compat.length > MAX_COMPATIBILITY_CHARS)) {
    error('skillmd.compatibility', { max: MAX_COMPATIBILITY_CHARS })
  }
  if (fm['allowed-tools'] !== undefined && typeof fm['allowed-tools'] !== 'string') {
    error('skillmd.allowed_tools')
  }
  const metadata = fm.metadata
  if (metadata !== undefined) {
    if (!isPlainObject(metadata)) {
      error('skillmd.metadata_not_mapping')
    } else {
      for (const [key, value] of Object.entries(metadata)) {
        // Our own bookkeeping is a nested mapping by design (issue 2); other keys follow the spec's string values.
        if (key !== CARRIER_KEY && typeof value !== 'string') {
          warn('skillmd.metadata_value', { key })
        }
      }
    }
  }
  for (const key of Object.keys(fm)) {
    if (!(SKILL_MD_KEYS as readonly string[]).includes(key)) {
      error('skillmd.unexpected_key', { key, allowed: SKILL_MD_KEYS.join(', ') })
    }
  }
  // Our bookkeeping under metadata.skillbench, read as the store reads it (store/skill-field-checks.ts): a stored
  // id the store refuses is an error with its reason, a value it reads with a default a warning saying what it read.
  if (metadata === undefined || isPlainObject(metadata)) {
    const { refusal, warnings } = skillFieldFindings(fm, 'skill-md', 'SKILL.md')
    if (refusal) finding('error', refusal)
    for (const w of warnings) finding('warning', w)
  }
  const lines = record.body.split('\n').length
  if (lines > 500) {
    warn('skillmd.body_long', { n: lines })
  }
  return out
}
