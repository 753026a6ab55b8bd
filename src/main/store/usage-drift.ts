/**
 * Usage counters change under everyone's feet: a fold writes fetch_count / last_used_at into skill files while a
 * person edits one in the app or a curation proposal waits for review. A change prepared against the old text
 * must not then fail as "changed on disk" — nor drop the uses. These pure helpers tell when two texts of a skill
 * differ only in those counters, and carry that difference over to another text of it.
 */
import { parseSkillText, rewriteSkillFile, type SkillFileParts } from './skill-file'
import { changesForMeta, skillbenchMetadata } from './skill-meta'

/** What a fold (or anything counting uses) added between two texts of one skill. */
export interface UsageDrift {
  /** fetch_count of the newer text minus the older one. */
  fetchDelta: number
  /** last_used_at of the newer text. */
  lastUsedAt: string | null
  /** SKILL.md: the id the newer text stored (a fold stores it on its first write), when the older had none. */
  storedId?: string
}

type Format = 'agiagent' | 'skill-md'

function counters(file: SkillFileParts, format: Format): { fetch: number; last: string | null } {
  const holder = format === 'agiagent' ? file.data : skillbenchMetadata(file.data)
  const n = Number(holder.fetch_count ?? 0)
  const last = holder.last_used_at
  return { fetch: Number.isFinite(n) ? Math.trunc(n) : 0, last: typeof last === 'string' && last !== '' ? last : null }
}

/** The front matter without the two counters (and, when asked, SKILL.md's stored id), as a comparable string. */
function withoutCounters(file: SkillFileParts, format: Format, dropId: boolean): string {
  const data = structuredClone(file.data)
  const holder = format === 'agiagent' ? data : (skillbenchMetadata(data) as Record<string, unknown>)
  delete holder.fetch_count
  delete holder.last_used_at
  if (dropId) delete holder.skill_id
  if (format === 'skill-md' && Object.keys(holder).length === 0) {
    const md = data.metadata as Record<string, unknown> | undefined
    if (md) delete md.skillbench
    if (md && Object.keys(md).length === 0) delete data.metadata
  }
  return JSON.stringify(data)
}

/** The format a skill file path names. */
export function formatOfPath(rel: string): Format {
  return /(^|\/)SKILL\.md$/.test(rel) ? 'skill-md' : 'agiagent'
}

/**
 * The drift from `older` to `newer` when they differ only in fetch_count / last_used_at (body, every other key and
 * the file's layout equal); null when anything else differs or either does not parse. Pure.
 */
export function usageDrift(older: string, newer: string, format: Format): UsageDrift | null {
  if (older === newer) return { fetchDelta: 0, lastUsedAt: null }
  const a = parseSkillText(older)
  const b = parseSkillText(newer)
  if (!a.ok || !b.ok) return null
  const fa = a.file
  const fb = b.file
  if (fa.body !== fb.body || fa.bom !== fb.bom || fa.eol !== fb.eol || fa.gap !== fb.gap) return null
  const idA = format === 'skill-md' ? skillbenchMetadata(fa.data).skill_id : undefined
  const idB = format === 'skill-md' ? skillbenchMetadata(fb.data).skill_id : undefined
  const idStored = format === 'skill-md' && idA === undefined && typeof idB === 'string'
  if (withoutCounters(fa, format, idStored) !== withoutCounters(fb, format, idStored)) return null
  const ca = counters(fa, format)
  const cb = counters(fb, format)
  return { fetchDelta: cb.fetch - ca.fetch, lastUsedAt: cb.last, ...(idStored ? { storedId: idB as string } : {}) }
}

/** `text` with a drift applied: fetch_count + delta, last_used_at the later of the two; null when it does not parse. Pure. */
export function applyUsageDrift(text: string, drift: UsageDrift, format: Format): string | null {
  if (drift.fetchDelta === 0 && drift.lastUsedAt === null && drift.storedId === undefined) return text
  const parsed = parseSkillText(text)
  if (!parsed.ok) return null
  const c = counters(parsed.file, format)
  const last = drift.lastUsedAt !== null && (c.last === null || drift.lastUsedAt > c.last) ? drift.lastUsedAt : c.last
  const holder = format === 'agiagent' ? parsed.file.data : skillbenchMetadata(parsed.file.data)
  const stored = typeof holder.skill_id === 'string' ? holder.skill_id : drift.storedId
  if (format === 'skill-md' && stored === undefined) return null // never write an empty id
  // The id first, as a fold stores it, then the counters.
  const meta = { ...(format === 'skill-md' && stored !== undefined && holder.skill_id === undefined ? { skill_id: stored } : {}), fetch_count: Math.max(0, c.fetch + drift.fetchDelta), last_used_at: last }
  try {
    return rewriteSkillFile(parsed.file, changesForMeta(format, parsed.file.data, meta, stored ?? String(holder.skill_id ?? '')))
  } catch {
    return null
  }
}
