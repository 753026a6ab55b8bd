/**
 * Explicit user preferences found in task logs and sessions: "记住：…", "以后都…", "从现在起…", "remember: …",
 * "Remember that …", "from now on …", and in a user's own message a sentence opening with "Always …" / "Never …".
 * They wait for review until a reviewer accepts them into `memory/preferences.md` (and long-term memory).
 * Pure: the caller reads and writes the files.
 */
import { createHash } from 'node:crypto'
import { duplicatePreference, upsertPreference } from './preference-kv'
import { normalizeEntry, oneLine, parseEntries } from './text'
import { CodedError } from '../../shared/api-error'
import { coded } from '../../shared/error-codes'

export const PREFERENCES_HEADER = '# Preferences / 用户偏好'

/** A preference found in a log, waiting for review. */
export interface PendingPreference {
  /** Stable id: the first 12 hex of sha256(normalised text). */
  id: string
  text: string
  /** Where it was found (a file path or a task folder name). */
  source: string
  found_at: string
}

/** `memory/.pending-preferences.json`. */
export interface PendingPreferencesFile {
  version: 1
  items: PendingPreference[]
}

// 记住：… / 记住:… (also 请记住 …), 以后都…, 从现在起…, remember: …, Remember that …, from now on …; the preference
// runs to the end of the line. As the seed says, what follows the marker is the preference ("以后都用中文回答" → "用中文回答").
const PATTERNS: RegExp[] = [
  /记住\s*[：:]\s*(.+)$/u,
  /以后(?:都|一律|请都?|也都)\s*[，,：:]?\s*(.+)$/u,
  /(?:从现在(?:开始|起)|从今以后|今后)(?:都|一律)?\s*[，,：:]?\s*(.+)$/u,
  /\bremember\s*:\s*(.+)$/iu,
  /\bremember\s+that\s+(.+)$/iu,
  /\bfrom now on\s*[,:，]?\s*(.+)$/iu
]

/**
 * "Always …" / "Never …" opening a sentence: a standing instruction when the user says it (only looked for in
 * the user's own messages, where an agent's "always" is not mixed in). The whole sentence is the preference.
 */
const IMPERATIVE = /^(?:please\s+|and\s+)?(?:always|never)\b\s+\S.*$/iu

/** Longest preference kept; anything longer is almost surely not a one-line preference. */
const MAX_PREFERENCE_CHARS = 300

/** Strips quotes and trailing sentence punctuation around a captured preference ("代码注释用中文。" → "代码注释用中文"). */
export function cleanPreference(raw: string): string {
  return oneLine(raw, MAX_PREFERENCE_CHARS)
    .replace(/^["'“‘「『]+|["'”’」』]+$/gu, '')
    .replace(/[。.!！;；,，\s]+$/u, '')
    .trim()
}

/**
 * Every explicit preference stated in a text, in order, without duplicates. `userMessage`: the text is what the
 * user wrote (a requirement, a session's user turn), so sentences opening with "Always" / "Never" count too.
 */
export function extractPreferences(text: string, opts: { userMessage?: boolean } = {}): string[] {
  const found: string[] = []
  const seen = new Set<string>()
  const add = (raw: string): void => {
    const pref = cleanPreference(raw)
    const key = normalizeEntry(pref)
    if (key && !seen.has(key)) {
      seen.add(key)
      found.push(pref)
    }
  }
  for (const line of text.split(/\r?\n/)) {
    // a preference ends with its sentence: "记住：缩进 2 空格。以后都用中文回答。" states two
    for (const sentence of line.split(/(?<=[。！？；])|(?<=[.!?;])\s+/u)) {
      const m = PATTERNS.map((p) => p.exec(sentence)).find((x) => x !== null)
      if (m) {
        add(m[1]!)
        continue
      }
      const s = sentence.trim().replace(/^[-*>]\s+/, '')
      if (opts.userMessage && IMPERATIVE.test(s) && s.length <= MAX_PREFERENCE_CHARS) {
        add(s.replace(/^(?:please|and)\s+/iu, '').replace(/^./u, (c) => c.toUpperCase()))
      }
    }
  }
  return found
}

/** The id a preference text gets in the pending queue. */
export function preferenceId(text: string): string {
  return createHash('sha256').update(normalizeEntry(text)).digest('hex').slice(0, 12)
}

/** Parses the pending file; a missing, empty or malformed file is an error the caller reports (never overwritten blindly). */
export function parsePendingFile(text: string | null): PendingPreferencesFile {
  if (text === null || text.trim() === '') {
    return { version: 1, items: [] }
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (err) {
    throw new CodedError('malformed', coded('memory.pending_not_json', { detail: (err as Error).message }), { cause: err })
  }
  if (!data || typeof data !== 'object' || !Array.isArray((data as { items?: unknown }).items)) {
    throw new CodedError('malformed', coded('memory.pending_malformed'))
  }
  const items: PendingPreference[] = []
  for (const raw of (data as { items: unknown[] }).items) {
    const it = raw as Partial<PendingPreference> | null
    if (it && typeof it.id === 'string' && typeof it.text === 'string') {
      items.push({ id: it.id, text: it.text, source: String(it.source ?? ''), found_at: String(it.found_at ?? '') })
    }
  }
  return { version: 1, items }
}

/** Serialises the pending file (stable, human-readable). */
export function serializePendingFile(file: PendingPreferencesFile): string {
  return JSON.stringify(file, null, 2) + '\n'
}

export interface QueueResult {
  file: PendingPreferencesFile
  queued: PendingPreference[]
  /** Found but skipped: already accepted in preferences.md or already pending. */
  skipped: { text: string; reason: 'already_accepted' | 'already_pending' }[]
}

/** Adds found preferences to the pending queue, skipping those already accepted or pending (near-duplicates included). */
export function queuePreferences(
  pending: PendingPreferencesFile,
  preferencesMd: string | null,
  found: { text: string; source: string }[],
  now: Date = new Date()
): QueueResult {
  const accepted = parseEntries(preferencesMd ?? '')
  const items = [...pending.items]
  const queued: PendingPreference[] = []
  const skipped: QueueResult['skipped'] = []
  for (const { text, source } of found) {
    const pref = cleanPreference(text)
    if (!pref) {
      continue
    }
    if (duplicatePreference(pref, accepted) !== undefined) {
      skipped.push({ text: pref, reason: 'already_accepted' })
      continue
    }
    if (duplicatePreference(pref, items.map((i) => i.text)) !== undefined) {
      skipped.push({ text: pref, reason: 'already_pending' })
      continue
    }
    const item: PendingPreference = { id: preferenceId(pref), text: pref, source, found_at: now.toISOString() }
    items.push(item)
    queued.push(item)
  }
  return { file: { version: 1, items }, queued, skipped }
}

export interface AcceptResult {
  pending: PendingPreferencesFile
  preferencesMd: string
  accepted: PendingPreference
  /** False when preferences.md already held a near-duplicate (the item still leaves the queue). */
  added: boolean
  /** A key-value preference's earlier value it replaced ("language: en" by "language: zh"). */
  replaced?: string
}

/** Moves one pending preference (by id or unique id prefix) into preferences.md. */
export function acceptPreference(
  pending: PendingPreferencesFile,
  preferencesMd: string | null,
  id: string
): AcceptResult {
  const item = findPending(pending, id)
  const up = upsertPreference(preferencesMd, PREFERENCES_HEADER, item.text)
  return {
    pending: { version: 1, items: pending.items.filter((i) => i !== item) },
    preferencesMd: up.text,
    accepted: item,
    added: up.changed,
    ...(up.replaced !== undefined ? { replaced: up.replaced } : {})
  }
}

/** Drops one pending preference without recording it. */
export function rejectPreference(
  pending: PendingPreferencesFile,
  id: string
): { pending: PendingPreferencesFile; rejected: PendingPreference } {
  const item = findPending(pending, id)
  return { pending: { version: 1, items: pending.items.filter((i) => i !== item) }, rejected: item }
}

function findPending(pending: PendingPreferencesFile, id: string): PendingPreference {
  const wanted = id.trim().toLowerCase()
  if (!/^[0-9a-f]{4,64}$/.test(wanted)) {
    throw new CodedError('bad_request', coded('memory.bad_pending_id', { id: oneLine(id, 40) }))
  }
  const matches = pending.items.filter((i) => i.id.startsWith(wanted))
  if (matches.length === 0) {
    throw new CodedError('not_found', coded('memory.no_pending', { id: wanted }))
  }
  if (matches.length > 1) {
    throw new CodedError('bad_request', coded('memory.ambiguous_id', { id: wanted, ids: matches.map((m) => m.id).join(', ') }))
  }
  return matches[0]!
}
