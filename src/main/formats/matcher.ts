/** `use_skill` (seed 004): which learned skills' trigger patterns match a question. */
import { checkPattern, DEFAULT_MATCH_TIMEOUT_MS, execManyWithTimeout, RegexTimeoutError } from './regex-guard'

/** What the matcher needs of a learned skill. */
export interface TriggerSkill {
  id: string
  name: string
  trigger_pattern: string
  description?: string
  confidence?: number
  /** Where the skill came from (shown in reports). */
  path?: string
}

export interface TriggerMatch {
  id: string
  name: string
  description: string
  confidence: number | null
  path: string | null
  /** The text the pattern matched. */
  matched: string
}

export interface TriggerRejection {
  id: string
  name: string
  path: string | null
  pattern: string
  reason: string
}

export interface TriggerResult {
  matches: TriggerMatch[]
  rejected: TriggerRejection[]
}

/**
 * Tests every skill's trigger pattern (case-insensitive) against the question. Unsafe or invalid patterns
 * and matches that run out of time are reported in `rejected`, never thrown. Matches are sorted by
 * confidence (highest first), then by name.
 */
export function matchTriggers(question: string, skills: TriggerSkill[], opts: { timeoutMs?: number } = {}): TriggerResult {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_MATCH_TIMEOUT_MS
  const matches: TriggerMatch[] = []
  const rejected: TriggerRejection[] = []
  const runnable: { skill: TriggerSkill; regex: RegExp }[] = []
  for (const skill of skills) {
    const check = checkPattern(skill.trigger_pattern)
    if (check.ok) runnable.push({ skill, regex: check.regex })
    else rejected.push({ id: skill.id, name: skill.name, path: skill.path ?? null, pattern: skill.trigger_pattern, reason: check.reason })
  }
  const results = execManyWithTimeout(runnable.map((r) => r.regex), question, timeoutMs)
  runnable.forEach(({ skill }, i) => {
    const matched = results[i]
    if (matched instanceof RegexTimeoutError) {
      rejected.push({ id: skill.id, name: skill.name, path: skill.path ?? null, pattern: skill.trigger_pattern, reason: matched.message })
    } else if (typeof matched === 'string') {
      matches.push({
        id: skill.id,
        name: skill.name,
        description: skill.description ?? '',
        confidence: typeof skill.confidence === 'number' ? skill.confidence : null,
        path: skill.path ?? null,
        matched
      })
    }
  })
  matches.sort((a, b) => (b.confidence ?? -1) - (a.confidence ?? -1) || a.name.localeCompare(b.name))
  return { matches, rejected }
}
