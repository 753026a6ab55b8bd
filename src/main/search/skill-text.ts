/** What the search index keeps of a skill: the text it is found by, and what a listing shows. Pure. */
import type { Skill } from '../../shared/types'

/** A skill as a listing shows it: everything but the body, and the body's length. */
export type ListedSkill = Omit<Skill, 'body'> & { body_chars: number }

export function listedSkill(skill: Skill): ListedSkill {
  const { body, ...rest } = skill
  return { ...rest, body_chars: body.length }
}

/** Text a skill is found by: title + usage conditions + body (as upstream). */
export function indexedText(skill: Pick<Skill, 'title' | 'usage_conditions' | 'body'>): string {
  return `${skill.title} ${skill.usage_conditions} ${skill.body}`
}
