/** What the search index keeps of a skill: the text it is found by, and what a listing shows. Pure. */
import type { SkillSummary } from '../../shared/api'
import type { Skill } from '../../shared/types'

/** A skill as a listing shows it: everything but the body, and the body's length. */
export type ListedSkill = Omit<Skill, 'body'> & { body_chars: number }

export function listedSkill(skill: Skill): ListedSkill {
  const { body, ...rest } = skill
  return { ...rest, body_chars: body.length }
}

/** How much of a skill's body a list row shows. */
export const PREVIEW_CHARS = 200

/** The start of a skill's body as one line (what a list row shows under the title). */
export function skillPreview(body: string): string {
  // Only the start is shown: collapse a prefix (longer only when its whitespace shrank it below a row), the same
  // characters as collapsing the whole body, since they lie before the prefix's end.
  for (let length = PREVIEW_CHARS + 56; length < body.length; length *= 4) {
    const start = body.slice(0, length).replace(/\s+/g, ' ').trimStart()
    if (start.length > PREVIEW_CHARS) return start.slice(0, PREVIEW_CHARS)
  }
  return body.replace(/\s+/g, ' ').trim().slice(0, PREVIEW_CHARS)
}

/** A list row's summary from a listed skill and its preview: what `toSummary` makes of the whole skill. */
export function summaryOf(listed: ListedSkill, preview: string): SkillSummary {
  const { body_chars, ...rest } = listed
  return { ...rest, preview, bodyChars: body_chars }
}

/** Text a skill is found by: title + usage conditions + body (as upstream). */
export function indexedText(skill: Pick<Skill, 'title' | 'usage_conditions' | 'body'>): string {
  return `${skill.title} ${skill.usage_conditions} ${skill.body}`
}
