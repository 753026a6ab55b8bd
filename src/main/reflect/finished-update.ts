/**
 * The finished version of a skill frozen from an unfinished task (pure). Before issue 36 the offline rules wrote a
 * skill for a task without a completion marker ("结果：未完成"); once that task finishes, reflection proposes this
 * replacement for review instead of skipping the task as "already reflected". Accepting it goes through the review
 * engine (before-hash checked, undo restores the old text); nothing is deleted.
 */
import { createHash } from 'node:crypto'
import type { Proposal, Skill } from '../../shared/types'
import { rewriteSkillText } from '../review/changes'
import { formatTimestamp } from '../store/skill-meta'
import type { ReflectionDraft } from './types'

/** Stable id: the same frozen skill and task give one proposal however often reflection runs. */
export function finishedUpdateId(skillId: string, taskDir: string): string {
  return `finished-${createHash('sha1').update(`${skillId}\u0000${taskDir}`).digest('hex').slice(0, 12)}`
}

/** The reason the card shows (the app translates it). */
export const FINISHED_UPDATE_REASON = 'the task has finished since this skill was written from it unfinished: its steps and outcome are replaced by the finished task'

export function finishedUpdateProposal(args: { skill: Skill; raw: string; draft: ReflectionDraft; members: readonly string[]; taskDir: string; now: Date }): Proposal {
  const { skill, raw, draft, members, taskDir } = args
  const dirs = [...new Set([...skill.task_directories, ...members])]
  // a SKILL.md keeps its name (its folder); an AGIAgent skill takes the title of what was asked
  const meta = {
    ...(skill.format === 'agiagent' ? { title: draft.title } : {}),
    usage_conditions: draft.usageConditions,
    task_directories: dirs,
    updated_at: formatTimestamp(args.now)
  }
  const after = rewriteSkillText(raw, skill, meta, draft.body)
  return {
    id: finishedUpdateId(skill.skill_id, taskDir),
    kind: 'enhance',
    members: [{ skill_id: skill.skill_id, title: skill.title, path: skill.path }],
    score: 1,
    reason: FINISHED_UPDATE_REASON,
    // no evidence.changes: the card's reason and the diff say what changes, in the reader's language
    evidence: { task: taskDir, similarity: 1, finished: true },
    changes: [{ path: skill.path, before: raw, after }],
    status: 'pending',
    author: draft.author
  }
}
