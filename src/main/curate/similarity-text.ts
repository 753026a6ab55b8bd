/** The text curation compares of a skill (pure). */
import type { Skill } from '../../shared/types'

/** Text compared for similarity: title, usage conditions and body (as upstream), as the parts of one document. */
export function similarityParts(s: Pick<Skill, 'title' | 'usage_conditions' | 'body'>): string[] {
  return [s.title, s.usage_conditions, s.body]
}

/** The parts as one text (joined by line breaks, as the index reads them). */
export function similarityText(s: Pick<Skill, 'title' | 'usage_conditions' | 'body'>): string {
  return similarityParts(s).join('\n')
}
