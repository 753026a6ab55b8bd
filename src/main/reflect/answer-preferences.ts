/**
 * The "User preferences" section of a model's reflection (English or Chinese, as a heading, a bold label or a
 * `User preferences:` line) → one line for the skill's `user_preferences`. Placeholders ("none", "无",
 * "not stated") count as nothing.
 */
import { clip, oneLine } from './text-utils'

/** Longest `user_preferences` taken from an answer. */
export const ANSWER_PREFERENCES_CHARS = 500

const LABEL = /^[ \t>#*_-]*(?:\d+[.)、]\s*)?(?:\*\*|__)?\s*(?:user(?:'s)?\s+preferences?|preferences\s+of\s+the\s+user|用户偏好(?:情况)?|用户的偏好)\s*(?:\*\*|__)?\s*(?:[:：]\s*(?:\*\*|__)?\s*(.*))?$/i
const HEADING = /^\s*(?:#{1,6}\s|\*\*[^*]+\*\*\s*[:：]?\s*$|\d+[.)、]\s*\*\*|[A-Z_]{4,}\s*[:：])/
const NOTHING = /^(?:none|n\/a|no(?:ne)?\s+(?:stated|expressed|mentioned|given)|not\s+(?:stated|mentioned|specified)|nothing|无|暂无|没有|未提及|未说明|未表达|无明确偏好)[.。!！]?$/i

/** The answer's user preferences as one line ('' when it has none). */
export function preferencesFromAnswer(text: string): string {
  const lines = String(text ?? '').replace(/\r\n?/g, '\n').split('\n')
  const items: string[] = []
  for (let i = 0; i < lines.length; i++) {
    const m = LABEL.exec(lines[i]!)
    if (!m) continue
    if (m[1] && m[1].trim()) items.push(m[1])
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j]!
      if (line.trim() === '') {
        if (items.length > 0) break
        continue
      }
      if (HEADING.test(line) || /^\s*```/.test(line)) break
      items.push(line)
    }
    break
  }
  const cleaned = items
    .map((l) => l.replace(/^[ \t>*+-]*(?:\d+[.)、]\s*)?/, '').replace(/\*\*|__|`/g, '').trim())
    .filter((l) => l !== '' && !NOTHING.test(l))
  return clip(oneLine(cleaned.join('; ')), ANSWER_PREFERENCES_CHARS)
}

/** The log's own statements first (they are the user's words), then what the model noticed, without repeats. */
export function joinPreferences(fromLog: readonly string[], fromAnswer: string): string {
  const out = [...fromLog]
  for (const p of fromAnswer.split('; ')) if (p.trim() && !out.some((o) => o.includes(p) || p.includes(o))) out.push(p)
  return out.join('; ')
}
