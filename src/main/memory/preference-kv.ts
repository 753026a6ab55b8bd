/**
 * Key-value preferences ("language: zh", "缩进：2 空格", "answer_style: concise", as the seed's structured
 * preferences): a new value for a key replaces the old one instead of piling up beside it. And the
 * preferences block of long-term memory (`## Preferences / 用户偏好` in long-term.md), where accepted
 * preferences are pushed, as upstream's `push_to_long_term` does. Pure.
 */
import { appendBullet, findDuplicate, normalizeEntry, oneLine, parseEntries } from './text'
import { CodedError } from '../../shared/api-error'
import { coded } from '../../shared/error-codes'

export interface KeyValue {
  key: string
  value: string
}

// A short key (an identifier, or two words, or up to 8 characters starting with a CJK one), a colon, then the value.
const KV_RE = /^([A-Za-z_][\w.-]*(?: [A-Za-z_][\w.-]*)?|\p{Script=Han}[\p{Script=Han}\w]{0,7})\s*[:：=]\s*(\S.*)$/u
// Sentences, not keys: "Always use pnpm: …", "Don't: …".
const NOT_A_KEY = /^(?:always|never|please|don't|do|use|make|remember|note)\b/i

/** The key and value of a preference written `key: value` (also `键：值`, `key = value`), else undefined. */
export function preferenceKeyValue(text: string): KeyValue | undefined {
  const m = KV_RE.exec(oneLine(text))
  if (!m) return undefined
  const key = m[1]!.trim()
  const value = m[2]!.trim()
  // "https://…", "note: see …" with a sentence for a key, or a value that is itself a sentence-long list are prose
  if (!key || !value || value.startsWith('//') || /^(?:https?|ftp|file)$/i.test(key) || NOT_A_KEY.test(key)) return undefined
  return { key, value }
}

/** The key a preference is compared by: case, width and spacing folded (`Language` = `language`). */
export function keyOf(text: string): string | undefined {
  const kv = preferenceKeyValue(text)
  return kv ? normalizeEntry(kv.key) : undefined
}

/** What putting one preference into a list of bullets did. */
export interface UpsertResult {
  text: string
  /** False when the same (or a near-duplicate) preference is there already. */
  changed: boolean
  /** The entry it replaced (a key-value preference with the same key and another value). */
  replaced?: string
  duplicateOf?: string
}

const BULLET = /^(\s*(?:[-*+]|\d+[.)])\s+)(.*)$/

/**
 * Puts a preference into the bullets of `lines[start, end)`: a key-value one replaces the bullet with the same key,
 * anything else is appended unless a near-duplicate is there. Returns the new lines (or null when nothing changes).
 */
function upsertLines(lines: string[], start: number, end: number, entry: string): { lines: string[]; replaced?: string; duplicateOf?: string } | null {
  const key = keyOf(entry)
  const bullets: { index: number; text: string }[] = []
  for (let i = start; i < end; i++) {
    const m = BULLET.exec(lines[i]!)
    if (m) bullets.push({ index: i, text: m[2]!.trim() })
  }
  if (key !== undefined) {
    const same = bullets.find((b) => keyOf(b.text) === key)
    if (same) {
      if (normalizeEntry(same.text) === normalizeEntry(entry)) return { lines, duplicateOf: same.text }
      const next = [...lines]
      next[same.index] = `${BULLET.exec(lines[same.index]!)![1]}${entry}`
      return { lines: next, replaced: same.text }
    }
  }
  // a key-value preference is only a duplicate of the same key (checked above); "language: en" is not "language: zh"
  const dup = findDuplicate(entry, bullets.map((b) => b.text).filter((b) => key === undefined || keyOf(b) === undefined))
  if (dup !== undefined) return { lines, duplicateOf: dup }
  let at = end
  while (at > start && lines[at - 1]!.trim() === '') at--
  return { lines: [...lines.slice(0, at), `- ${entry}`, ...lines.slice(at)] }
}

/** Puts an accepted preference into preferences.md (created with its header when new). */
export function upsertPreference(current: string | null, header: string, preference: string): UpsertResult {
  const entry = oneLine(preference)
  if (!entry) throw new CodedError('bad_request', coded('memory.preference_empty'))
  if (current === null || current.trim() === '') {
    return { text: appendBullet(null, header, entry), changed: true }
  }
  const lines = current.replace(/\r?\n$/, '').split(/\r?\n/)
  const r = upsertLines(lines, 0, lines.length, entry)
  if (!r || r.duplicateOf !== undefined) return { text: current, changed: false, duplicateOf: r?.duplicateOf }
  return { text: r.lines.join('\n') + '\n', changed: true, ...(r.replaced !== undefined ? { replaced: r.replaced } : {}) }
}

/** The heading of long-term memory's preferences block. */
export const LONG_TERM_PREFERENCES_HEADING = '## Preferences / 用户偏好'

/** The preferences long-term.md's preferences block holds, in its order (none when it has no block). Pure. */
export function longTermPreferenceEntries(longTerm: string | null): string[] {
  const lines = (longTerm ?? '').split(/\r?\n/)
  const start = lines.findIndex((l) => l.trim() === LONG_TERM_PREFERENCES_HEADING)
  if (start === -1) return []
  const next = lines.findIndex((l, i) => i > start && /^#{1,2}\s/.test(l))
  return parseEntries(lines.slice(start + 1, next === -1 ? undefined : next).join('\n'))
}

/**
 * Puts an accepted preference into long-term.md's preferences block (the block is added at the end when missing;
 * `fileHeader` starts a new file). The day sections of consolidation are left as they are.
 */
export function upsertLongTermPreference(current: string | null, fileHeader: string, preference: string): UpsertResult {
  const entry = oneLine(preference)
  if (!entry) throw new CodedError('bad_request', coded('memory.preference_empty'))
  const base = current ?? `${fileHeader}\n`
  const lines = base.replace(/\r?\n$/, '').split(/\r?\n/)
  const start = lines.findIndex((l) => l.trim() === LONG_TERM_PREFERENCES_HEADING)
  if (start === -1) {
    const text = `${base}${base.endsWith('\n') ? '' : '\n'}\n${LONG_TERM_PREFERENCES_HEADING}\n\n- ${entry}\n`
    return { text, changed: true }
  }
  let end = lines.length
  for (let i = start + 1; i < lines.length; i++) {
    if (/^#{1,2}\s/.test(lines[i]!)) {
      end = i
      break
    }
  }
  const r = upsertLines(lines, start + 1, end, entry)
  if (!r || r.duplicateOf !== undefined) return { text: base, changed: current === null, duplicateOf: r?.duplicateOf }
  // a blank line between the block's last bullet and the next heading
  const out = r.lines
  const nextHeading = out.findIndex((l, i) => i > start && /^#{1,2}\s/.test(l))
  if (nextHeading > 0 && out[nextHeading - 1]!.trim() !== '') out.splice(nextHeading, 0, '')
  return { text: out.join('\n') + '\n', changed: true, ...(r.replaced !== undefined ? { replaced: r.replaced } : {}) }
}

/**
 * Undoes an upsert entry by entry: the bullet `added` is removed (its last occurrence), or put back to `replaced`
 * when it had replaced one. A bullet no longer there is left alone (someone edited it since). Pure.
 */
export function revertBullet(current: string, added: string, replaced?: string): { text: string; reverted: boolean } {
  const lines = current.split('\n')
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = BULLET.exec(lines[i]!)
    if (!m || m[2]!.trim() !== added) continue
    if (replaced !== undefined) lines[i] = `${m[1]}${replaced}`
    else lines.splice(i, 1)
    return { text: lines.join('\n'), reverted: true }
  }
  return { text: current, reverted: false }
}

/**
 * The entry of `existing` that `preference` repeats: for a key-value preference the same key with the same value
 * ("indent: 2 spaces" is not "indent: 4 spaces", however alike the texts), otherwise a near-duplicate text.
 */
export function duplicatePreference(preference: string, existing: readonly string[]): string | undefined {
  const kv = preferenceKeyValue(preference)
  if (kv) {
    const key = normalizeEntry(kv.key)
    const value = normalizeEntry(kv.value)
    return existing.find((e) => {
      const other = preferenceKeyValue(e)
      return other !== undefined && normalizeEntry(other.key) === key && normalizeEntry(other.value) === value
    })
  }
  return findDuplicate(preference, existing.filter((e) => preferenceKeyValue(e) === undefined))
}
