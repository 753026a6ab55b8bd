/**
 * Lessons (`memory/lessons.md`): behaviour rules learned from curated failures, injected into the
 * system prompt under `## 行为约束 / Lessons`. Pure: the caller reads and writes the file.
 */
import { appendBullet, findDuplicate, oneLine, parseEntries } from './text'
import { CodedError } from '../../shared/api-error'
import { coded } from '../../shared/error-codes'

export type MemoryLang = 'en' | 'zh'

/** A failure a reviewer chose to learn from. */
export type CuratedFailure =
  /** The model called a tool that does not exist. */
  | { kind: 'hallucinated_tool'; tool: string; validTools: readonly string[] }
  /** A critic's correction of a tool call. */
  | { kind: 'critic'; suggestion: string }
  /** A rule written by the reviewer. */
  | { kind: 'rule'; text: string }

export const LESSONS_HEADER = '# Lessons / 行为约束'

/** Tool names are identifiers; anything else (a prompt injected as a "tool name") is cut down. */
function cleanToolName(name: string): string {
  return oneLine(name, 80).replace(/[`\n]/g, '')
}

/** The one-line rule a failure teaches, in English or Chinese. */
export function lessonFromFailure(failure: CuratedFailure, lang: MemoryLang = 'en'): string {
  switch (failure.kind) {
    case 'hallucinated_tool': {
      const tools = [...new Set(failure.validTools.map(cleanToolName).filter(Boolean))].sort()
      const bad = cleanToolName(failure.tool)
      if (tools.length === 0) {
        throw new CodedError('bad_request', coded('memory.hallucinated_needs_tools'))
      }
      return lang === 'zh'
        ? `仅使用以下已注册工具：${tools.join('、')}；不要编造不存在的工具名（例如曾误用「${bad}」）。`
        : `Only use the registered tools: ${tools.join(', ')}. Do not invent tool names (e.g. "${bad}" was called but does not exist).`
    }
    case 'critic': {
      const text = oneLine(failure.suggestion)
      if (!text) {
        throw new CodedError('bad_request', coded('memory.critic_empty'))
      }
      return lang === 'zh' ? `Critic 建议：${text}` : `Critic suggestion: ${text}`
    }
    case 'rule': {
      const text = oneLine(failure.text)
      if (!text) {
        throw new CodedError('bad_request', coded('memory.lesson_empty'))
      }
      return text
    }
  }
}

/** What adding an entry to a memory file did. */
export interface AddEntryResult {
  /** The file's new text (equal to the old one when nothing was added). */
  text: string
  added: boolean
  entry: string
  /** The existing entry it duplicates, when not added. */
  duplicateOf?: string
}

/**
 * Adds a lesson unless the file already holds the same or a near-duplicate rule.
 * Hallucinated-tool lessons for the same tool set count as duplicates whatever tool was invented:
 * one rule per tool set is enough.
 */
export function addLesson(current: string | null, lesson: string, threshold?: number): AddEntryResult {
  const entry = oneLine(lesson)
  if (!entry) {
    throw new CodedError('bad_request', coded('memory.lesson_empty'))
  }
  const existing = parseEntries(current ?? '')
  // A tool rule is compared by its tool set only (the text differs just by the invented name).
  const duplicateOf =
    toolSetOf(entry) === undefined
      ? findDuplicate(entry, existing, threshold)
      : (sameToolRule(entry, existing) ?? findDuplicate(entry, existing.filter((e) => toolSetOf(e) === undefined), threshold))
  if (duplicateOf !== undefined) {
    return { text: current ?? '', added: false, entry, duplicateOf }
  }
  return { text: appendBullet(current, LESSONS_HEADER, entry), added: true, entry }
}

/** The tool list of a hallucinated-tool rule (both languages), for the same-tool-set test. */
function toolSetOf(entry: string): string | undefined {
  const m = /^Only use the registered tools: (.*?)\. Do not invent/.exec(entry) ?? /^仅使用以下已注册工具：(.*?)；/.exec(entry)
  return m ? m[1]!.split(/, |、/).sort().join(',') : undefined
}

function sameToolRule(entry: string, existing: string[]): string | undefined {
  const set = toolSetOf(entry)
  return set === undefined ? undefined : existing.find((e) => toolSetOf(e) === set)
}
