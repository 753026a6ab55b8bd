/** What `skillbench list` prints: the same bytes whether the listing was made in process or by the search daemon. */
import type { LoadError, Skill } from '../../shared/types'
import { fitWidth, formatTable } from './tool-support'
import { listedSkill, parseListed, type ListedSkill, type ListedText } from '../search/search-index'

/** The `--json` shape of one listed skill (everything but the body). */
export function publicSkill(s: Skill): ListedSkill {
  return listedSkill(s)
}

/**
 * `list --json` from the skills' saved JSON texts, one skill per line: the same document as the parsed listing
 * printed whole (10,000 skills need no parse and no re-stringify).
 */
export function listJsonText(list: { skills: readonly ListedText[]; errors: LoadError[] }): Buffer {
  const errors = `"errors": ${JSON.stringify(list.errors, null, 2).replace(/\n/g, '\n  ')}\n}\n`
  if (list.skills.length === 0) return Buffer.from(`{\n  "skills": [],\n  ${errors}`)
  const head = Buffer.from('{\n  "skills": [\n    ')
  const sep = Buffer.from(',\n    ')
  const tail = Buffer.from(`\n  ],\n  ${errors}`)
  const parts = list.skills.map((s) => (typeof s.json === 'string' ? Buffer.from(s.json, 'utf8') : s.json))
  let size = head.length + tail.length + sep.length * (parts.length - 1)
  for (const p of parts) size += p.length
  // One buffer, filled in place: 10,000 parts through Buffer.concat cost more than the copying, and
  // Uint8Array#set is a bare memcpy where Buffer#copy checks its arguments in JavaScript first (~3× the time here).
  const out = Buffer.allocUnsafe(size)
  out.set(head, 0)
  let at = head.length
  parts.forEach((p, i) => {
    if (i > 0) {
      out.set(sep, at)
      at += sep.length
    }
    out.set(p, at)
    at += p.length
  })
  out.set(tail, at)
  return out
}

/** A readable table of the skills, then the files that could not be read. */
export function formatSkillTable(list: { skills: Omit<Skill, 'body'>[]; errors: LoadError[] }): string {
  const rows = list.skills.map((s) => [
    s.skill_id,
    s.quality_index.toFixed(2),
    String(s.fetch_count),
    s.last_used_at ? s.last_used_at.slice(0, 10) : '-',
    s.format === 'agiagent' ? 'agi' : 'md',
    fitWidth(s.legacy ? `[legacy] ${s.title}` : s.title, 60)
  ])
  const lines = [`${list.skills.length} skill(s), ${list.errors.length} unreadable file(s)`]
  if (rows.length) lines.push('', formatTable(['ID', 'QUALITY', 'FETCHES', 'LAST USED', 'FMT', 'TITLE'], rows))
  if (list.errors.length) {
    lines.push('', 'Not loaded:')
    for (const e of list.errors) lines.push(`  ${e.path}: ${e.reason}`)
  }
  return lines.join('\n')
}

/** stdout of a listing (`json`: the --json document). */
export function listOutput(list: { skills: readonly ListedText[]; errors: LoadError[] }, json: boolean): Buffer | string {
  return json ? listJsonText(list) : formatSkillTable({ skills: list.skills.map(parseListed), errors: list.errors }) + '\n'
}
