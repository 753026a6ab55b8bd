/**
 * Merging one skill file that both machines changed since their common commit. Pure.
 *
 * A skill file holds two kinds of fields: what a person or an agent wrote (title, conditions, body, …) and
 * counters that every use or rating moves (fetch_count, last_used_at, quality_index, updated_at). Counters are
 * facts from each machine and always merge: fetch_count adds both sides' increments, last_used_at and
 * updated_at take the later, quality_index replays every rating of both sides in time order through
 * 0.7·old + 0.3·rating. The written fields merge only when one side left them alone; when both changed them
 * the remote's version lands and the local one is returned for a review proposal (the caller builds it).
 */
import { mergeFrontMatter, mergeText, sameContent } from '../sources/three-way'
import { parseSkillText, rewriteSkillFile, type FrontMatterChange, type SkillFileParts } from '../store/skill-file'
import { skillFileAt } from '../store/walk'
import { DEFAULT_QUALITY_INDEX } from '../../shared/types'

/** The counters a skill file carries, by name. */
export const COUNTER_KEYS = ['fetch_count', 'last_used_at', 'quality_index', 'updated_at'] as const
type CounterKey = (typeof COUNTER_KEYS)[number]

export interface Counters {
  fetch_count: number
  last_used_at: string | null
  quality_index: number | null
  updated_at: string | null
}

/** One rating recorded on some machine. */
export interface Rating {
  at: string
  rating: number
}

/** Where the counters live in a file of this format. */
function counterPath(format: 'agiagent' | 'skill-md', key: CounterKey): string[] {
  return format === 'agiagent' ? [key] : ['metadata', 'skillbench', key]
}

function bookkeeping(data: Record<string, unknown>, format: 'agiagent' | 'skill-md'): Record<string, unknown> {
  if (format === 'agiagent') return data
  const md = data.metadata
  const sb = md && typeof md === 'object' && !Array.isArray(md) ? (md as Record<string, unknown>).skillbench : undefined
  return sb && typeof sb === 'object' && !Array.isArray(sb) ? (sb as Record<string, unknown>) : {}
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)
const time = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : v instanceof Date ? v.toISOString() : null)

export function countersOf(data: Record<string, unknown>, format: 'agiagent' | 'skill-md'): Counters {
  const b = bookkeeping(data, format)
  return { fetch_count: num(b.fetch_count) ?? 0, last_used_at: time(b.last_used_at), quality_index: num(b.quality_index), updated_at: time(b.updated_at) }
}

/** The front matter with the counters set aside (what the written-fields comparison looks at). */
function withoutCounters(data: Record<string, unknown>, format: 'agiagent' | 'skill-md'): Record<string, unknown> {
  if (format === 'agiagent') {
    const copy = { ...data }
    for (const k of COUNTER_KEYS) delete copy[k]
    return copy
  }
  const md = data.metadata
  if (!md || typeof md !== 'object' || Array.isArray(md)) return data
  const sb = (md as Record<string, unknown>).skillbench
  if (!sb || typeof sb !== 'object' || Array.isArray(sb)) return data
  const rest = { ...(sb as Record<string, unknown>) }
  for (const k of COUNTER_KEYS) delete rest[k]
  return { ...data, metadata: { ...(md as Record<string, unknown>), skillbench: rest } }
}

const later = (a: string | null, b: string | null): string | null => (a === null ? b : b === null ? a : a >= b ? a : b)

/** rate_skill's rule, with its rounding. */
export function applyRating(old: number, rating: number): number {
  return Math.round(Math.min(1, Math.max(0, 0.7 * old + 0.3 * rating)) * 1000) / 1000
}

/**
 * The counters after both sides: increments of fetch_count add up, times take the later, and when both sides
 * rated, every rating made since the base is replayed on the base's quality in time order.
 */
export function mergeCounters(base: Counters, ours: Counters, theirs: Counters, ratings: { ours: readonly Rating[]; theirs: readonly Rating[] }): Counters {
  const fetch = Math.max(0, ours.fetch_count + theirs.fetch_count - base.fetch_count)
  let quality: number | null
  if (ours.quality_index === base.quality_index) quality = theirs.quality_index
  else if (theirs.quality_index === base.quality_index || theirs.quality_index === ours.quality_index) quality = ours.quality_index
  else if (ratings.ours.length > 0 && ratings.theirs.length > 0) {
    const all = [...ratings.ours, ...ratings.theirs].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.rating - b.rating))
    // A file without a quality yet (every new SKILL.md skill) was rated from the default, as rate_skill reads it.
    quality = all.reduce((q, r) => applyRating(q, r.rating), base.quality_index ?? DEFAULT_QUALITY_INDEX)
  } else quality = theirs.quality_index // set by hand on both sides: the remote's value, like every written field
  return { fetch_count: fetch, last_used_at: later(ours.last_used_at, theirs.last_used_at), quality_index: quality, updated_at: later(ours.updated_at, theirs.updated_at) }
}

export type SkillMergeResult =
  /** Merged cleanly: the text to keep. */
  | { kind: 'merged'; text: string }
  /**
   * Both sides changed the written fields: `text` (the remote's version with the merged counters) lands;
   * `proposal` is that text with the local edits merged in three ways (conflict markers where both changed one
   * region; it is a proposal's after-text, never a live file).
   */
  | { kind: 'conflict'; text: string; proposal: string; markers: number }
  /** Not a skill file we can read on every side: the caller treats it as an opaque file. */
  | { kind: 'opaque' }

function parse(text: string): SkillFileParts | null {
  const r = parseSkillText(text)
  return r.ok ? r.file : null
}

function withCounters(file: SkillFileParts, format: 'agiagent' | 'skill-md', want: Counters, have: Counters, body?: string): string {
  const changes: FrontMatterChange[] = []
  for (const k of COUNTER_KEYS) if (want[k] !== have[k] && want[k] !== null) changes.push({ path: counterPath(format, k), value: want[k] })
  return rewriteSkillFile(file, changes, body)
}

/**
 * Merges a skill file both sides changed. `labels` name the two sides inside conflict markers of the proposal.
 */
export function mergeSkillFile(
  relPath: string,
  texts: { base: string; ours: string; theirs: string },
  ratings: { ours: readonly Rating[]; theirs: readonly Rating[] },
  labels: { ours: string; theirs: string }
): SkillMergeResult {
  const where = skillFileAt(relPath)
  if (!where) return { kind: 'opaque' }
  const { format } = where
  const b = parse(texts.base)
  const o = parse(texts.ours)
  const t = parse(texts.theirs)
  if (!b || !o || !t) return { kind: 'opaque' }
  const counters = mergeCounters(countersOf(b.data, format), countersOf(o.data, format), countersOf(t.data, format), ratings)
  const [cb, co, ct] = [withoutCounters(b.data, format), withoutCounters(o.data, format), withoutCounters(t.data, format)]
  const oursChanged = !(sameContent(co, cb) && o.body === b.body)
  const theirsChanged = !(sameContent(ct, cb) && t.body === b.body)
  const sameEdit = sameContent(co, ct) && o.body === t.body
  if (!oursChanged || sameEdit) return { kind: 'merged', text: withCounters(t, format, counters, countersOf(t.data, format)) }
  if (!theirsChanged) return { kind: 'merged', text: withCounters(o, format, counters, countersOf(o.data, format)) }
  const text = withCounters(t, format, counters, countersOf(t.data, format))
  const landed = parse(text) ?? t
  // The local edits brought onto what landed, as `update` does (the live file is "ours" of that merge).
  const skip = COUNTER_KEYS.map((k) => counterPath(format, k).join('.'))
  const fm = mergeFrontMatter(b.data, landed.data, o.data, skip)
  const body = mergeText(b.body, landed.body, o.body, { ours: labels.theirs, theirs: labels.ours })
  const proposal = rewriteSkillFile(landed, fm.changes, body.text)
  return { kind: 'conflict', text, proposal, markers: body.conflicts + fm.conflicts.length }
}
