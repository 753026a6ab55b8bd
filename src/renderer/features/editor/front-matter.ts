/** Pure checks of a skill file's front matter, shown beside the editor before saving. */
import { isAlias, isCollection, isNode, isScalar, Lexer, parseDocument, Parser, visit } from 'yaml'
import type { Document } from 'yaml'
import { coded, refOf, type MessageRef } from '../../../shared/error-codes'
import { readFrontMatterYaml } from '../../../shared/front-matter-yaml'
import type { TextPosition } from '../../../shared/text-position'
import type { SkillFormat } from '../../../shared/types'
import type { Lang, Translate } from '../../i18n/i18n'
import type { MessageKey } from '../../i18n/messages'
import { translateMessage } from '../../i18n/messages-errors'

export interface FrontMatterIssue {
  key: MessageKey
  vars?: Record<string, string | number>
  /** The problem by code, as the store says it (`fm.yaml`'s `{message}`, in the reader's language). */
  coded?: MessageRef
  /** Where it is in the file (1-based), for the editor to mark. */
  at?: TextPosition
}

const YAML_LIB = { parseDocument, visit, isAlias, isScalar, isCollection, Lexer, Parser }

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

/** An issue in the reader's language: its key's words, a coded problem put into them in that language too. */
export function issueText(issue: FrontMatterIssue, t: Translate, lang: Lang): string {
  return issue.coded ? t(issue.key, { message: translateMessage(issue.coded, '', lang) }) : t(issue.key, issue.vars)
}

/** Parses and validates the front matter for the skill's format. */
export function checkFrontMatter(text: string, format: SkillFormat): FrontMatterCheck {
  const split = splitFrontMatter(text)
  if (!split) return { data: null, issues: [{ key: 'fm.missing' }] }
  // the store's reading and words (shared/front-matter-yaml.ts): its YAML starts on the file's second line
  const { doc, problem } = readFrontMatterYaml(YAML_LIB, split.yaml, 2)
  if (problem) return { data: null, issues: [{ key: 'fm.yaml', coded: refOf(problem.coded), ...(problem.at ? { at: problem.at } : {}) }] }
  let data: unknown
  try {
    data = doc?.toJS() ?? null
  } catch (err) {
    return { data: null, issues: [{ key: 'fm.yaml', coded: refOf(coded('parse.yaml', { problem: refOf(coded('yaml.other', { text: String((err as Error)?.message ?? err).split('\n')[0] ?? '' })) })) }] }
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

/** Where the front matter's YAML sits in the file text (between the `---` lines), or null. */
function yamlRange(text: string): { start: number; end: number } | null {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0
  const match = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text.slice(bom))
  if (!match) return null
  const start = bom + match[0].indexOf('\n') + 1
  return { start, end: start + (match[1] ?? '').length }
}

/** Leaf paths of the front matter that bookkeeping writes touch: top-level keys and `metadata.skillbench.*`. */
function bookkeepingPaths(doc: Document): string[][] {
  const out: string[][] = []
  const data = doc.toJS() as Record<string, unknown> | null
  if (!data || typeof data !== 'object') return out
  for (const key of Object.keys(data)) {
    if (key === 'metadata') continue
    out.push([key])
  }
  const ours = (data.metadata as { skillbench?: Record<string, unknown> } | undefined)?.skillbench
  if (ours && typeof ours === 'object') for (const key of Object.keys(ours)) out.push(['metadata', 'skillbench', key])
  return out
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

/**
 * The editor's unsaved text with the front-matter fields that changed on disk since it was loaded (a rating:
 * `quality_index`, `updated_at`…) taken over, so rating while editing never conflicts with yourself. Null when
 * that cannot be done safely: a front matter does not parse, or the user edited one of those fields too. Pure.
 */
export function rebaseFrontMatter(loaded: string, onDisk: string, draft: string): string | null {
  const ranges = [yamlRange(loaded), yamlRange(onDisk), yamlRange(draft)]
  if (ranges.some((r) => r === null)) return null
  const [a, b, d] = [loaded, onDisk, draft].map((text, i) => parseDocument(text.slice(ranges[i]!.start, ranges[i]!.end)))
  if (a!.errors.length || b!.errors.length || d!.errors.length) return null
  const seen = new Set<string>()
  let changed = false
  for (const path of [...bookkeepingPaths(b!), ...bookkeepingPaths(a!)]) {
    const key = path.join('\u0000')
    if (seen.has(key)) continue
    seen.add(key)
    const before = a!.getIn(path)
    const after = b!.getIn(path)
    if (same(before, after)) continue
    if (!same(d!.getIn(path), before)) return null
    // the disk's node, with its quoting: a timestamp stays a quoted string for YAML 1.1 readers
    const node = b!.getIn(path, true)
    if (after === undefined) d!.deleteIn(path)
    else d!.setIn(path, isNode(node) ? node.clone() : node)
    changed = true
  }
  if (!changed) return draft
  const yaml = d!.toString({ lineWidth: 0 }).replace(/\n$/, '')
  return draft.slice(0, ranges[2]!.start) + yaml + draft.slice(ranges[2]!.end)
}
