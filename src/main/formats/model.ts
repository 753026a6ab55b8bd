/**
 * The neutral in-memory skill model every format converts to and from.
 *
 * Lossless by construction: each format maps the fields it can hold natively, and every other field
 * (or a native field whose value the format would change, e.g. a slugified name) rides along in that
 * format's "carrier" (`skillbench` key / `metadata.skillbench`) as a diff against what the native
 * fields alone would give back. So `fromX(toX(skill))` deep-equals `skill` for every format X.
 */
import type { CodedText, MessageCode, MessageParams } from '../../shared/error-codes'
import { createHash } from 'node:crypto'
import { stepsFromCarrier, stepToNative, type LearnedStep } from './learned-steps'

/** Every skill format Skillbench reads and writes. */
export type FormatId = 'agiagent' | 'skill-md' | 'learned-yaml' | 'mas-config'

export const FORMAT_IDS: readonly FormatId[] = ['agiagent', 'skill-md', 'learned-yaml', 'mas-config']

/** A bad file or value in one of the formats: the English message, and the same by code (`messageCode` + `params`). */
export class FormatError extends Error {
  readonly messageCode: MessageCode
  readonly params: MessageParams

  constructor(message: CodedText) {
    super(message.text)
    this.name = 'FormatError'
    this.messageCode = message.messageCode
    this.params = message.params
  }
}

export type { LearnedStep } from './learned-steps'

/** Unknown keys seen in each format, kept verbatim so a conversion never drops them. */
export interface ExtraBags {
  /** Unknown top-level front-matter keys of a `skill_*.md`. */
  agiagent?: Record<string, unknown>
  /** Unknown top-level front-matter keys of a SKILL.md (e.g. Composio's `requires`, `category`). */
  'skill-md'?: Record<string, unknown>
  /** Unknown top-level keys of a learned-skill YAML. */
  'learned-yaml'?: Record<string, unknown>
  /** Unknown keys of a MAS config: top level, inside `use_guide`, inside `use_prompt`. */
  'mas-config'?: { top?: Record<string, unknown>; use_guide?: Record<string, unknown>; use_prompt?: Record<string, unknown> }
}

/** One skill in the neutral model. Optional fields are absent (never `undefined`) when unknown. */
export interface PortableSkill {
  /** Human title (AGIAgent `title`, learned `name`). */
  title: string
  /** Machine name (SKILL.md `name`, MAS `skill_name`); absent for AGIAgent skills that never had one. */
  name?: string
  /** What the skill does and when to use it. */
  description: string
  /** The instructions: Markdown body / MAS `skill_prompt`. */
  body: string

  // AGIAgent bookkeeping (issue 2 front matter)
  skill_id?: string
  usage_conditions?: string
  quality_index?: number
  fetch_count?: number
  related_code?: string
  task_directories?: string[]
  created_at?: string
  updated_at?: string
  last_used_at?: string | null
  user_preferences?: string
  pinned?: boolean

  // Agent Skills (SKILL.md)
  license?: string
  compatibility?: string
  /** Space-delimited tool names (`allowed-tools`). */
  allowed_tools?: string
  /** SKILL.md `metadata` without our own `skillbench` key. */
  metadata?: Record<string, unknown>
  /** Files of the skill folder (`references/…`, `scripts/…`, `assets/…`), relative paths, sorted. */
  resources?: string[]

  // Learned-skill YAML (seed 004)
  learned_id?: string
  trigger_pattern?: string
  steps?: LearnedStep[]
  examples?: string[]
  confidence?: number
  tags?: string[]
  /** Learned `createdAt` as written (epoch ms in the seed, sometimes an ISO string). */
  learned_created_at?: number | string
  source_files?: string[]

  // MAS config (seed 002)
  return_format?: string
  /** `use_prompt.skill_name` when it differs from `use_guide.skill_name`. */
  prompt_skill_name?: string

  extra: ExtraBags
}

/** Every field name of the model, in a stable order (the carrier diff walks these). */
export const MODEL_FIELDS = [
  'title', 'name', 'description', 'body',
  'skill_id', 'usage_conditions', 'quality_index', 'fetch_count', 'related_code', 'task_directories',
  'created_at', 'updated_at', 'last_used_at', 'user_preferences', 'pinned',
  'license', 'compatibility', 'allowed_tools', 'metadata', 'resources',
  'learned_id', 'trigger_pattern', 'steps', 'examples', 'confidence', 'tags', 'learned_created_at', 'source_files',
  'return_format', 'prompt_skill_name',
  'extra'
] as const satisfies readonly (keyof PortableSkill)[]

export type ModelField = (typeof MODEL_FIELDS)[number]

/** The carrier a format stores for the fields it cannot hold natively: overrides plus fields to drop. */
export type Carrier = Record<string, unknown> & { unset?: string[]; was?: Record<string, string> }

/** Name of the carrier key in every format (`skillbench:` / `metadata.skillbench`). */
export const CARRIER_KEY = 'skillbench'

/** Structural equality for JSON-like data (key order ignored). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) {
    return true
  }
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') {
    return Number.isNaN(a) && Number.isNaN(b)
  }
  if (Array.isArray(a) !== Array.isArray(b)) {
    return false
  }
  if (Array.isArray(a)) {
    const bb = b as unknown[]
    return a.length === bb.length && a.every((v, i) => deepEqual(v, bb[i]))
  }
  const ao = a as Record<string, unknown>
  const bo = b as Record<string, unknown>
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined)
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined)
  return ak.length === bk.length && ak.every((k) => Object.prototype.hasOwnProperty.call(bo, k) && deepEqual(ao[k], bo[k]))
}

/** Drops `undefined` fields and empty extra bags so two equal skills compare equal. */
export function normalizeSkill(skill: PortableSkill): PortableSkill {
  const out: Record<string, unknown> = {}
  for (const field of MODEL_FIELDS) {
    const value = skill[field]
    if (value !== undefined) {
      out[field] = value
    }
  }
  const extra: Record<string, unknown> = {}
  for (const [key, bag] of Object.entries(skill.extra ?? {})) {
    if (bag !== undefined && !(isRecord(bag) && Object.keys(bag).length === 0)) {
      extra[key] = bag
    }
  }
  out.extra = extra
  return out as unknown as PortableSkill
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** Short fingerprint of a value (canonical JSON, sorted keys): what a native field held when the carrier was written. */
export function fingerprint(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 16)
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (isRecord(value)) {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort()
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'undefined'
}

/**
 * What the native fields of a format cannot express: the carrier that restores `want` from `got`.
 * `was` fingerprints the native value each override replaces, so an edit made to the file afterwards
 * (a rating, a renamed title) wins over the stale override instead of being silently undone.
 */
export function diffCarrier(want: PortableSkill, got: PortableSkill): Carrier | undefined {
  const carrier: Carrier = {}
  const unset: string[] = []
  const was: Record<string, string> = {}
  const w = normalizeSkill(want) as unknown as Record<string, unknown>
  const g = normalizeSkill(got) as unknown as Record<string, unknown>
  for (const field of MODEL_FIELDS) {
    if (deepEqual(w[field], g[field])) {
      continue
    }
    if (w[field] === undefined) {
      unset.push(field)
    } else {
      // Steps ride in their written form, so the model's private bookkeeping never shows in a file.
      carrier[field] = field === 'steps' ? (w[field] as LearnedStep[]).map(stepToNative) : w[field]
    }
    if (g[field] !== undefined) {
      was[field] = fingerprint(g[field])
    }
  }
  if (unset.length > 0) {
    carrier.unset = unset
  }
  if (Object.keys(was).length > 0) {
    carrier.was = was
  }
  return Object.keys(carrier).length > 0 ? carrier : undefined
}

const isStr = (v: unknown): boolean => typeof v === 'string'
const isNum = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v)
const isStrList = (v: unknown): boolean => Array.isArray(v) && v.every(isStr)
const isStep = (v: unknown): boolean =>
  isRecord(v) && isNum(v.order) && isStr(v.action) && isRecord(v.params) && isStr(v.expectedResult) && (v.extra === undefined || isRecord(v.extra))

/** The type each model field must have; a carrier value of another type (a hand-edited or hostile file) is ignored. */
const FIELD_TYPES: Record<ModelField, (v: unknown) => boolean> = {
  title: isStr, name: isStr, description: isStr, body: isStr,
  skill_id: isStr, usage_conditions: isStr, quality_index: isNum, fetch_count: isNum, related_code: isStr,
  task_directories: isStrList, created_at: isStr, updated_at: isStr, last_used_at: (v) => v === null || isStr(v),
  user_preferences: isStr, pinned: (v) => typeof v === 'boolean',
  license: isStr, compatibility: isStr, allowed_tools: isStr, metadata: isRecord, resources: isStrList,
  learned_id: isStr, trigger_pattern: isStr, steps: (v) => Array.isArray(v) && v.every(isStep), examples: isStrList,
  confidence: isNum, tags: isStrList, learned_created_at: (v) => isNum(v) || isStr(v), source_files: isStrList,
  return_format: isStr, prompt_skill_name: isStr,
  extra: (v) => isRecord(v) && Object.values(v).every(isRecord)
}

/** Fields every skill has: a carrier can change them, never remove them. */
const REQUIRED: ReadonlySet<string> = new Set(['title', 'description', 'body', 'extra'])

/** True when the file's native value is still the one the carrier was written against. */
function nativeUnchanged(base: Record<string, unknown>, was: Record<string, unknown>, field: string): boolean {
  const stamp = was[field]
  return stamp === undefined ? base[field] === undefined : base[field] !== undefined && fingerprint(base[field]) === stamp
}

/**
 * Applies a carrier read from a file onto the skill its native fields gave. Unknown carrier keys are ignored;
 * an override whose native field was edited since (fingerprint differs) is dropped so the edit wins.
 */
export function applyCarrier(base: PortableSkill, carrier: unknown): PortableSkill {
  if (!isRecord(carrier)) {
    return normalizeSkill(base)
  }
  const native = normalizeSkill(base) as unknown as Record<string, unknown>
  const was = isRecord(carrier.was) ? carrier.was : {}
  const out = { ...native }
  for (const field of MODEL_FIELDS) {
    const value = field === 'steps' ? stepsFromCarrier(carrier[field]) : carrier[field]
    if (Object.prototype.hasOwnProperty.call(carrier, field) && FIELD_TYPES[field](value) && nativeUnchanged(native, was, field)) {
      out[field] = value
    }
  }
  const unset = carrier.unset
  if (Array.isArray(unset)) {
    for (const field of unset) {
      if (typeof field === 'string' && (MODEL_FIELDS as readonly string[]).includes(field) && !REQUIRED.has(field) && nativeUnchanged(native, was, field)) {
        delete out[field]
      }
    }
  }
  if (!isRecord(out.extra)) {
    out.extra = {}
  }
  return normalizeSkill(out as unknown as PortableSkill)
}

/** A new skill with only the required fields. */
export function emptySkill(title: string, body = '', description = ''): PortableSkill {
  return { title, description, body, extra: {} }
}

/** Picks the keys of `record` that are not in `known` (the format's unknown keys), or undefined when none. */
export function unknownKeys(record: Record<string, unknown>, known: readonly string[]): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(record)) {
    if (!known.includes(key)) {
      out[key] = value
    }
  }
  return Object.keys(out).length > 0 ? out : undefined
}

/** Copies `value` only when it is a string. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}
