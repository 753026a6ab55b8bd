/**
 * The decision report (`--decide`) of a task whose own skill takes its new reflection through review instead of a
 * decision (pure): `--force` on a task a skill came from (reflect-again), and a frozen skill's finished version
 * (finished-update). `--decide` promises the seed's report for every task it reflects; these say what was done in
 * the same shape: the skill enhanced (an update proposed for review), or nothing to change. Like the decider's, the
 * report is content in the task's language (the CLI prints it as it is; the app words the line by its code).
 */
import type { Proposal, Skill, TaskTrace } from '../../shared/types'
import { toolsUsed } from './decide'
import type { ReflectLanguage } from './language'
import type { DecisionReport } from './types'

export function updateDecision(args: {
  /** again: reflected again (`--force`); finished: the finished version of a skill frozen unfinished. */
  kind: 'again' | 'finished'
  skill: Pick<Skill, 'title' | 'skill_id'>
  trace: TaskTrace
  /** The update proposed (new or proposed before); null: the new reflection adds nothing, the skill stays. */
  proposal: Proposal | null
  author: string
  language: ReflectLanguage
}): DecisionReport {
  const { skill, trace, proposal } = args
  const zh = args.language === 'zh'
  const base = { name: skill.title, skill_id: skill.skill_id, similarity: 1, tools_used: toolsUsed(trace), taskDir: trace.taskDir, author: args.author }
  if (!proposal) {
    return {
      ...base,
      operation: 'none',
      reason: zh ? `重新反思：由此任务生成的技能「${skill.title}」已包含新的反思内容，保持不变` : `reflected again: "${skill.title}", the skill made from this task, already says what the new reflection says`
    }
  }
  const listed = proposal.evidence.changes
  const changes = Array.isArray(listed) && listed.every((c) => typeof c === 'string') && listed.length > 0 ? (listed as string[]) : undefined
  const reason =
    args.kind === 'finished'
      ? zh
        ? `任务已完成，而技能「${skill.title}」写于未完成时：提出用完成后的版本更新它，等待审阅（${proposal.id}）`
        : `the task has finished since "${skill.title}" was written from it unfinished: its finished version is proposed for review (${proposal.id})`
      : zh
        ? `重新反思：由此任务生成的技能「${skill.title}」接受新的反思，更新等待审阅（${proposal.id}）`
        : `reflected again: "${skill.title}", the skill made from this task, takes the new reflection, proposed for review (${proposal.id})`
  return {
    ...base,
    operation: 'enhance',
    changes: changes ?? [
      args.kind === 'finished'
        ? zh
          ? '用完成后的任务替换步骤和结果'
          : 'Steps and outcome replaced by the finished task'
        : zh
          ? '用此任务的新反思替换技能内容'
          : "The skill's text replaced by this task's new reflection"
    ],
    reason
  }
}
