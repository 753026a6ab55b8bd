/**
 * `reflect --force` (the app's "Reflect again") on a task a skill of the library already came from (pure): the new
 * reflection updates that skill through review instead of writing a second skill of the same task (which the next
 * curate would propose merging, similarity 1.00). A skill made of this task alone gets the new text as a replacement;
 * a skill that holds other tasks too (merged, or enhanced by this task) gets only what it lacks, as an enhancement.
 * Nothing new: no proposal at all (the run says the skill is unchanged).
 */
import { createHash } from 'node:crypto'
import type { Proposal, Skill, SkillMeta, TaskTrace } from '../../shared/types'
import { rewriteSkillText } from '../review/changes'
import { formatTimestamp } from '../store/skill-meta'
import { enhanceProposal, offlineEnhancement } from './decide'
import type { ReflectionDraft } from './types'

/** The reason the card shows (the app words it by `evidence.again`). */
export const REFLECT_AGAIN_REASON = 'the task was reflected again: the skill made from it takes the new reflection'

/**
 * The active skill a task was reflected into: one whose first listed task is a member (made from it), else the
 * first listing a member (merged or enhanced with it). Undefined: no active skill came from the task.
 */
export function againTarget<S extends Pick<Skill, 'task_directories' | 'legacy'>>(skills: readonly S[], members: readonly string[]): S | undefined {
  const active = skills.filter((s) => !s.legacy)
  return active.find((s) => members.includes(s.task_directories[0] ?? '')) ?? active.find((s) => s.task_directories.some((d) => members.includes(d)))
}

/** Stable per result: the same new text for the same skill and task is one proposal however often it is reflected. */
export function reflectAgainId(skillId: string, taskDir: string, after: string): string {
  return `again-${createHash('sha1').update(`${skillId}\u0000${taskDir}\u0000${after}`).digest('hex').slice(0, 12)}`
}

const trimEnd = (s: string | undefined): string => (s ?? '').replace(/\s+$/, '')

/**
 * The proposal a forced reflection makes for the skill it came from, or null when the new reflection says nothing
 * the skill does not (the same text, or nothing it lacks). `description`: a SKILL.md's description for the draft
 * (as a new SKILL.md skill gets it); an AGIAgent skill takes the draft's title and usage conditions.
 */
export function reflectAgainProposal(args: {
  skill: Skill
  raw: string
  draft: ReflectionDraft
  trace: TaskTrace
  members: readonly string[]
  description?: string
  now: Date
}): Proposal | null {
  const { skill, raw, draft, trace, members } = args
  const own = skill.task_directories.every((d) => members.includes(d))
  if (!own) {
    // other tasks' lessons live in it too: only what this task adds, never a replacement that would drop them
    const enhancement = offlineEnhancement(trace, draft, { ...skill, content: skill.body, similarity_score: 1 })
    return enhancement ? enhanceProposal({ skill, raw, enhancement, taskDir: trace.taskDir, author: draft.author, now: args.now }) : null
  }
  const meta: Partial<SkillMeta> = {}
  if (skill.format === 'agiagent') {
    if (draft.title !== skill.title) meta.title = draft.title
    if (trimEnd(draft.usageConditions) !== trimEnd(skill.usage_conditions)) meta.usage_conditions = draft.usageConditions
  } else if (args.description !== undefined && args.description !== (skill.description ?? skill.usage_conditions)) {
    // a SKILL.md keeps its name (its folder); its description says what and when
    meta.usage_conditions = args.description
  }
  if (trimEnd(draft.userPreferences) !== trimEnd(skill.user_preferences)) meta.user_preferences = draft.userPreferences
  const dirs = [...new Set([...skill.task_directories, ...members])]
  if (dirs.length !== skill.task_directories.length) meta.task_directories = dirs
  const body = trimEnd(draft.body) !== trimEnd(skill.body) ? draft.body : undefined
  if (Object.keys(meta).length === 0 && body === undefined) return null
  const after = rewriteSkillText(raw, skill, { ...meta, updated_at: formatTimestamp(args.now) }, body)
  // the id by what changes, not by when: the same result proposed again is the same proposal
  const core = rewriteSkillText(raw, skill, meta, body)
  return {
    id: reflectAgainId(skill.skill_id, trace.taskDir, core),
    kind: 'enhance',
    members: [{ skill_id: skill.skill_id, title: skill.title, path: skill.path }],
    score: 1,
    reason: REFLECT_AGAIN_REASON,
    // no evidence.changes: the card's reason and the diff say what changes, in the reader's language
    evidence: { task: trace.taskDir, similarity: 1, again: true },
    changes: [{ path: skill.path, before: raw, after }],
    status: 'pending',
    author: draft.author
  }
}
