/** `use_skill` (seed 004): which learned skills' trigger patterns match a question. */
import { tokenize } from '../text/tokenize'
import { checkPattern, DEFAULT_MATCH_TIMEOUT_MS, execManyWithTimeout, RegexTimeoutError } from './regex-guard'
import type { MessageCode, MessageParams } from '../../shared/error-codes'

/** What the matcher needs of a learned skill. */
export interface TriggerSkill {
  id: string
  name: string
  trigger_pattern: string
  description?: string
  confidence?: number
  /** Where the skill came from (shown in reports). */
  path?: string
  /** Questions the skill answers (seed 004 `examples`): the fallback when no pattern matches. */
  examples?: string[]
}

export interface TriggerMatch {
  id: string
  name: string
  description: string
  confidence: number | null
  path: string | null
  /** The text the pattern matched, or the example the question resembles. */
  matched: string
  /** How it matched: its trigger pattern, or (when no pattern matched) one of its examples. */
  via: 'pattern' | 'example'
  /** For `via: 'example'`: how alike the question and the example are (Dice coefficient of their terms, 0–1). */
  similarity?: number
}

/** A pattern not run, or cut off: why in words (`reason`, what `use` prints) and by code beside them (regex.*). */
export interface TriggerRejection {
  id: string
  name: string
  path: string | null
  pattern: string
  reason: string
  messageCode: MessageCode
  params: MessageParams
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
    else rejected.push({ id: skill.id, name: skill.name, path: skill.path ?? null, pattern: skill.trigger_pattern, reason: check.reason, messageCode: check.problem.messageCode, params: check.problem.params })
  }
  const results = execManyWithTimeout(runnable.map((r) => r.regex), question, timeoutMs)
  runnable.forEach(({ skill }, i) => {
    const matched = results[i]
    if (matched instanceof RegexTimeoutError) {
      rejected.push({ id: skill.id, name: skill.name, path: skill.path ?? null, pattern: skill.trigger_pattern, reason: matched.message, messageCode: matched.messageCode, params: matched.params })
    } else if (typeof matched === 'string') {
      matches.push({
        id: skill.id,
        name: skill.name,
        description: skill.description ?? '',
        confidence: typeof skill.confidence === 'number' ? skill.confidence : null,
        path: skill.path ?? null,
        matched,
        via: 'pattern'
      })
    }
  })
  matches.sort((a, b) => (b.confidence ?? -1) - (a.confidence ?? -1) || a.name.localeCompare(b.name))
  if (matches.length === 0) matches.push(...matchExamples(question, skills))
  return { matches, rejected }
}

/** Least similarity between a question and an example for the example to stand for the question. */
export const EXAMPLE_MIN_SIMILARITY = 0.4

/**
 * The terms a question is compared by: words (stemmed) and CJK character pairs. Single CJK characters are left
 * out: 怎么做用户登录 and 如何实现用户登录 share 用户 户登 登录, not just 用 户 登 录 that any text has.
 */
function questionTerms(text: string): Set<string> {
  return new Set(tokenize(text).filter((t) => t.length > 1 || t.charCodeAt(0) < 0x80))
}

/**
 * The fallback when no trigger pattern matches: skills one of whose `examples` says nearly what the question
 * says (Dice coefficient of their terms ≥ EXAMPLE_MIN_SIMILARITY). Sorted by similarity, then confidence.
 */
export function matchExamples(question: string, skills: TriggerSkill[], minSimilarity = EXAMPLE_MIN_SIMILARITY): TriggerMatch[] {
  const q = questionTerms(question)
  if (q.size === 0) return []
  const out: TriggerMatch[] = []
  for (const skill of skills) {
    let best: { example: string; score: number } | null = null
    for (const example of skill.examples ?? []) {
      const e = questionTerms(example)
      let shared = 0
      for (const t of e) if (q.has(t)) shared++
      const score = (2 * shared) / (q.size + e.size)
      if (score >= minSimilarity && (!best || score > best.score)) best = { example, score }
    }
    if (best) {
      out.push({
        id: skill.id,
        name: skill.name,
        description: skill.description ?? '',
        confidence: typeof skill.confidence === 'number' ? skill.confidence : null,
        path: skill.path ?? null,
        matched: best.example,
        via: 'example',
        similarity: Math.round(best.score * 100) / 100
      })
    }
  }
  return out.sort((a, b) => b.similarity! - a.similarity! || (b.confidence ?? -1) - (a.confidence ?? -1) || a.name.localeCompare(b.name))
}
