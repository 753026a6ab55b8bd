/**
 * Consolidation of daily logs (`memory/logs/YYYY-MM-DD.md`) into `memory/long-term.md`: one short
 * summary per day under a heading for that day, never twice. Pure: summaries, headings, prompts.
 */
import type { ChatMessage } from '../llm/types'
import { demoteHeadings, normalizeEntry, oneLine } from './text'
import { CodedError } from '../../shared/api-error'
import { coded } from '../../shared/error-codes'
import type { MemoryLang } from './lessons'

export const LONG_TERM_HEADER = '# Long-term memory / 长期记忆'

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/

/** True for a real calendar day written YYYY-MM-DD. */
export function isDay(day: string): boolean {
  if (!DAY_RE.test(day)) {
    return false
  }
  const d = new Date(`${day}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === day
}

/** The day of a log file name `YYYY-MM-DD.md`, or undefined for anything else. */
export function dayOfLogFile(fileName: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})\.md$/.exec(fileName)
  return m && isDay(m[1]!) ? m[1] : undefined
}

/**
 * The days long-term.md already holds a summary for: any heading whose text starts with the day,
 * or upstream's `整理 YYYY-MM-DD…` headings.
 */
export function consolidatedDays(longTerm: string): Set<string> {
  const days = new Set<string>()
  for (const m of longTerm.matchAll(/^[ \t]{0,3}#{1,6}[ \t]+(?:整理[ \t]*)?(\d{4}-\d{2}-\d{2})\b/gm)) {
    days.add(m[1]!)
  }
  return days
}

/** The heading a day's summary goes under. */
export function dayHeading(day: string): string {
  return `## ${day}`
}

/** How a day's summary was made: picked from the log offline, or written by a model. */
export type SummaryMethod = { kind: 'extractive' } | { kind: 'model'; model: string }

/**
 * The line under a day's heading that says where its summary came from, in the language of the one who reads the
 * file (the app's language setting, `memory consolidate --lang`). Only a person reads it: no prompt is built from
 * long-term.md and consolidatedDays reads the headings alone, so it need not stay English. The report's `method`
 * (the CLI's --json, the app's answer) keeps the English one.
 */
export function summaryNote(day: string, how: SummaryMethod, lang: MemoryLang = 'en'): string {
  if (lang === 'zh') return how.kind === 'extractive' ? `logs/${day}.md 的摘要（抽取式，离线）` : `logs/${day}.md 的摘要（模型：${how.model}）`
  return how.kind === 'extractive' ? `Summary of logs/${day}.md (extractive, offline)` : `Summary of logs/${day}.md (LLM: ${how.model})`
}

/** Appends day sections to long-term.md (creating its header when new); pure. */
export function appendDaySections(longTerm: string | null, sections: { day: string; summary: string; method: string }[]): string {
  let text = longTerm ?? `${LONG_TERM_HEADER}\n`
  for (const s of sections) {
    if (!text.endsWith('\n')) {
      text += '\n'
    }
    text += `\n${dayHeading(s.day)}\n\n_${s.method}_\n\n${s.summary.trim()}\n`
  }
  return text
}

// Lines an extractive summary should prefer: outcomes, failures, decisions, preferences.
const SIGNAL_RE =
  /(requirement|asked|error|fail|failed|exception|fixed|decid|prefer|remember|lesson|completed|done|success|需求|要求|记住|偏好|完成|失败|错误|修复|决定|成功|教训|注意)/i
// What the user asked: the first fact a day's summary should keep.
const REQUEST_RE = /(received user requirement|^(?:\d{1,2}:\d{2}\s+)?user\s*[:：]|用户[:：])/i
// Lines that carry no information on their own.
const NOISE_RE = /^(?:[-=*_#>`\s]+|\s*\d{1,2}:\d{2}(?::\d{2})?\s*|```.*)$/

/** Tokens for informativeness, from normalised text: English words and CJK characters. */
function tokens(normalized: string): string[] {
  return normalized.match(/[a-z0-9_]{2,}|\p{Script=Han}/gu) ?? []
}

/**
 * An offline summary: the most informative lines of the day (distinct words, outcome keywords,
 * not repeating an earlier pick), in their original order, as bullets.
 */
export function extractiveSummary(log: string, maxLines = 5, maxLineChars = 200): string {
  const candidates: { index: number; text: string; score: number; toks: Set<string> }[] = []
  const seen = new Set<string>()
  log.split(/\r?\n/).forEach((raw, index) => {
    const stripped = raw.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').trim()
    if (!stripped || NOISE_RE.test(stripped) || /^#{1,6}\s/.test(stripped)) {
      return
    }
    const key = normalizeEntry(stripped)
    if (!key || seen.has(key)) {
      return
    }
    seen.add(key)
    const toks = new Set(tokens(key))
    if (toks.size < 3) {
      return
    }
    // Distinct-token count saturates so one huge pasted line does not win everything.
    const score = Math.min(toks.size, 40) + (SIGNAL_RE.test(stripped) ? 15 : 0) + (REQUEST_RE.test(stripped) ? 30 : 0)
    candidates.push({ index, text: stripped, score, toks })
  })
  const picked: typeof candidates = []
  const pool = [...candidates]
  while (picked.length < maxLines && pool.length > 0) {
    let best = 0
    let bestScore = -Infinity
    pool.forEach((c, i) => {
      // Penalise overlap with lines already picked (maximal marginal relevance).
      let overlap = 0
      for (const p of picked) {
        let shared = 0
        for (const t of c.toks) {
          if (p.toks.has(t)) {
            shared++
          }
        }
        overlap = Math.max(overlap, shared / c.toks.size)
      }
      const s = c.score * (1 - overlap)
      if (s > bestScore) {
        bestScore = s
        best = i
      }
    })
    picked.push(pool.splice(best, 1)[0]!)
  }
  picked.sort((a, b) => a.index - b.index)
  return picked.map((p) => `- ${demoteHeadings(oneLine(p.text, maxLineChars))}`).join('\n')
}

/** Keeps the head and tail of a long log within a budget (the middle is least likely to hold the outcome). */
export function clipLog(log: string, maxChars: number): string {
  if (log.length <= maxChars) {
    return log
  }
  const head = Math.floor(maxChars * 0.6)
  const tail = maxChars - head
  return `${log.slice(0, head)}\n…[${log.length - maxChars} characters omitted]…\n${log.slice(log.length - tail)}`
}

/** The chat request that asks a model for one day's summary. */
export function consolidationMessages(day: string, log: string, maxChars = 12_000): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'You consolidate an AI agent\'s daily conversation log into long-term memory. ' +
        'Write 3 to 6 short Markdown bullet points ("- ") with the facts worth remembering: ' +
        'what the user asked, what was done and its outcome, decisions, user preferences, and mistakes to avoid. ' +
        'No headings, no preamble. Write in the language of the log.'
    },
    { role: 'user', content: `Log of ${day}:\n\n${clipLog(log, maxChars)}` }
  ]
}

/** Longest summary accepted from a model. */
export const MAX_SUMMARY_CHARS = 2_000

/**
 * Checks and tidies a model's summary: no headings (they could fake a day heading), no code fences
 * around the whole answer, capped length. Throws when nothing usable is left.
 */
export function cleanModelSummary(text: string): string {
  let t = text.trim()
  const fenced = /^```[a-z]*\n([\s\S]*?)\n```$/i.exec(t)
  if (fenced) {
    t = fenced[1]!.trim()
  }
  t = demoteHeadings(t).replace(/\n{3,}/g, '\n\n').trim()
  if (t.length > MAX_SUMMARY_CHARS) {
    t = t.slice(0, MAX_SUMMARY_CHARS).replace(/\s+\S*$/, '') + ' …'
  }
  if (!/[\p{L}\p{N}]/u.test(t)) {
    throw new CodedError('invalid', coded('memory.empty_summary'))
  }
  return t
}
