/**
 * The system-prompt sections an agent injects from its memory files. Pure.
 * An absent or empty file gives no section (as upstream: nothing is injected until the file exists).
 */
import { demoteHeadings, parseEntries } from './text'

export interface MemoryTexts {
  lessons: string | null
  preferences: string | null
  procedural: string | null
}

export interface PromptSection {
  key: 'lessons' | 'preferences' | 'procedural'
  heading: string
  entries: string[]
  /** Entries left out to stay within the budget (the oldest go first). */
  omitted: number
}

export const SECTION_HEADINGS = {
  lessons: '## 行为约束 / Lessons',
  preferences: '## 用户偏好 / Preferences',
  procedural: '## 程序记忆 / Procedural memory'
} as const

/** Default character budget per section: memory must not crowd out the task. */
export const DEFAULT_SECTION_BUDGET = 4_000

/** Keeps the newest entries (the end of the file) that fit the budget. */
function newestWithin(entries: string[], budget: number): { kept: string[]; omitted: number } {
  const kept: string[] = []
  let used = 0
  for (let i = entries.length - 1; i >= 0; i--) {
    const cost = entries[i]!.length + 3
    if (used + cost > budget) {
      break
    }
    kept.unshift(entries[i]!)
    used += cost
  }
  return { kept, omitted: entries.length - kept.length }
}

/** The non-empty sections, in injection order: lessons, preferences, procedural memory. */
export function buildPromptSections(texts: MemoryTexts, budgetChars = DEFAULT_SECTION_BUDGET): PromptSection[] {
  const sections: PromptSection[] = []
  for (const key of ['lessons', 'preferences', 'procedural'] as const) {
    const entries = parseEntries(texts[key] ?? '').map((e) => demoteHeadings(e))
    if (entries.length === 0) {
      continue
    }
    const { kept, omitted } = newestWithin(entries, budgetChars)
    sections.push({ key, heading: SECTION_HEADINGS[key], entries: kept, omitted })
  }
  return sections
}

/** The sections as the Markdown text appended to a system prompt ('' when memory is empty). */
export function renderPromptSections(sections: PromptSection[]): string {
  return sections
    .map((s) => {
      const intro = s.key === 'preferences' ? 'The user prefers:\n' : ''
      return `${s.heading}\n\n${intro}${s.entries.map((e) => `- ${e}`).join('\n')}\n`
    })
    .join('\n')
}
