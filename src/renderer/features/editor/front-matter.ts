/** Pure checks of a skill file's front matter, shown beside the editor before saving. */
import { parse } from 'yaml'
import type { SkillFormat } from '../../../shared/types'
import type { MessageKey } from '../../i18n/messages'

export interface FrontMatterIssue {
  key: MessageKey
  vars?: Record<string, string | number>
}

export interface FrontMatterCheck {
  data: Record<string, unknown> | null
  issues: FrontMatterIssue[]
}

/** Splits `---\n<yaml>\n---` off the top; null when the file has no front matter block. */
export function splitFrontMatter(text: string): { yaml: string; body: string } | null {
  const normalized = text.replace(/^\uFEFF/, '')
  const match = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(normalized)
  if (!match) return null
  return { yaml: match[1] ?? '', body: normalized.slice(match[0].length) }
}

/** Parses and validates the front matter for the skill's format. */
export function checkFrontMatter(text: string, format: SkillFormat): FrontMatterCheck {
  const split = splitFrontMatter(text)
  if (!split) return { data: null, issues: [{ key: 'fm.missing' }] }
  let data: unknown
  try {
    data = parse(split.yaml)
  } catch (err) {
    return { data: null, issues: [{ key: 'fm.yaml', vars: { message: (err as Error).message.split('\n')[0] ?? '' } }] }
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return { data: null, issues: [{ key: 'fm.notMapping' }] }
  const record = data as Record<string, unknown>
  const issues: FrontMatterIssue[] = []
  const requireString = (field: string): void => {
    if (typeof record[field] !== 'string' || (record[field] as string).trim() === '') issues.push({ key: 'fm.needString', vars: { field } })
  }
  if (format === 'agiagent') {
    requireString('skill_id')
    requireString('title')
    const q = record.quality_index
    if (typeof q !== 'number' || q < 0 || q > 1) issues.push({ key: 'fm.quality', vars: { field: 'quality_index' } })
    const f = record.fetch_count
    if (f !== undefined && (typeof f !== 'number' || !Number.isInteger(f) || f < 0)) issues.push({ key: 'fm.count', vars: { field: 'fetch_count' } })
    const dirs = record.task_directories
    if (dirs !== undefined && dirs !== null && !(Array.isArray(dirs) && dirs.every((d) => typeof d === 'string'))) issues.push({ key: 'fm.list', vars: { field: 'task_directories' } })
  } else {
    requireString('name')
    requireString('description')
  }
  return { data: record, issues }
}
