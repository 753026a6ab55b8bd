/** What `skillbench list` prints: the same bytes whether the listing was made in process or by the search daemon. */
import type { LoadError, LoadWarning, Skill } from '../../shared/types'
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
  const warnings = listWarnings(list.skills.filter(mayWarn).map(parseListed))
  const errors =
    `"errors": ${JSON.stringify(list.errors, null, 2).replace(/\n/g, '\n  ')},\n` +
    `  "warnings": ${JSON.stringify(warnings, null, 2).replace(/\n/g, '\n  ')}\n}\n`
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

/** A value of a listed skill's file read with a default, with the file's path (`list --json`'s `warnings`). */
export type ListWarning = { path: string } & LoadWarning

/**
 * Every value read with a default, file by file (the skills' `load_warnings`): what `skillbench validate` names as
 * warnings, so a listing shows the same problems.
 */
export function listWarnings(skills: readonly Pick<Skill, 'path' | 'load_warnings'>[]): ListWarning[] {
  return skills.flatMap((s) => (s.load_warnings ?? []).map((w) => ({ path: s.path, ...w })))
}

/** Whether a listed skill's JSON may hold load warnings (only those are parsed: 10,000 clean skills are not). */
function mayWarn(s: ListedText): boolean {
  return s.json.includes('"load_warnings"')
}

/** A readable table of the skills, then the files that could not be read, then the values read with defaults. */
export function formatSkillTable(list: { skills: Omit<Skill, 'body'>[]; errors: LoadError[] }): string {
  const rows = list.skills.map((s) => [
    s.skill_id,
    s.quality_index.toFixed(2),
    String(s.fetch_count),
    s.last_used_at ? s.last_used_at.slice(0, 10) : '-',
    s.format === 'agiagent' ? 'agi' : 'md',
    fitWidth(s.legacy ? `[legacy] ${s.title}` : s.title, 60)
  ])
  const warnings = listWarnings(list.skills)
  const warned = new Set(warnings.map((w) => w.path)).size
  const lines = [`${list.skills.length} skill(s), ${list.errors.length} unreadable file(s)${warned ? `, ${warned} read with defaults` : ''}`]
  if (rows.length) lines.push('', formatTable(['ID', 'QUALITY', 'FETCHES', 'LAST USED', 'FMT', 'TITLE'], rows))
  if (list.errors.length) {
    lines.push('', 'Not loaded:')
    for (const e of list.errors) lines.push(`  ${e.path}: ${e.reason}`)
  }
  if (warnings.length) {
    lines.push('', 'Read with defaults (fix the file; `skillbench validate` names the same):')
    for (const w of warnings) lines.push(`  ${w.path}: ${w.reason}`)
  }
  return lines.join('\n')
}

/** stdout of a listing (`json`: the --json document). */
export function listOutput(list: { skills: readonly ListedText[]; errors: LoadError[] }, json: boolean): Buffer | string {
  return json ? listJsonText(list) : formatSkillTable({ skills: list.skills.map(parseListed), errors: list.errors }) + '\n'
}
