/**
 * The strings of reflection's judgment (issue 36): why a task made no skill, on the Reflect screen. Spread into both
 * catalogues of messages.ts.
 */
export const reflectEn = {
  'reflect.noSkillTitle': 'No skill made ({n})',
  'reflect.noSkillLead': 'These tasks were read and judged not worth a skill. Unfinished tasks are reflected once they finish.',
  'reflect.why.greeting': 'greeting',
  'reflect.why.no-work': 'no work done',
  'reflect.why.little-work': 'too little work for a skill',
  'reflect.why.unfinished': 'unfinished: reflected once it finishes',
  'reflect.why.follow-up': 'follow-up of {of}: folded into that task',
  'reflect.why.follow-up-earlier': 'follow-up of an earlier task',
  'reflect.skippedTitle': 'Make no skill ({n})',
  'reflect.skippedLead': 'Reflecting reads these tasks too and makes no skill of them, for the reason shown.',
  'reflect.update': 'finished since its skill was written unfinished: reflecting proposes the finished version for review',
  'reflect.updateBadge': 'updates its unfinished skill',
  'reflect.nothingNewJudged': 'Nothing new to reflect: {reflected} of {n} tasks are reflected, {skipped} make no skill.',
  'next.reflectDone': 'No new tasks to reflect ({reflected} reflected, {skipped} make no skill)',
  'overview.noSkill': 'Tasks that make no skill',
  'reason.finished': '“{title}” was written while task {task} was unfinished; the task has finished since, and its steps and outcome replace the old ones.',
  'reason.again': 'Task {task} was reflected again: “{title}”, the skill made from it, takes the new reflection.',
  'reflect.openSkill': 'Open {name} in the skill editor',
  'reflect.proposalsLeft': 'Reflection left {n} proposal(s) for existing skills: nothing changes until you accept them.',
  'reflect.reviewOnCurate': 'Review proposals on Curate'
}

export const reflectZh: Record<keyof typeof reflectEn, string> = {
  'reflect.noSkillTitle': '未生成技能（{n}）',
  'reflect.noSkillLead': '这些任务已读取，但判断为不值得生成技能。未完成的任务会在完成后再反思。',
  'reflect.why.greeting': '问候',
  'reflect.why.no-work': '没有做实际工作',
  'reflect.why.little-work': '工作量太少，不值得生成技能',
  'reflect.why.unfinished': '未完成：完成后会再反思',
  'reflect.why.follow-up': '{of} 的后续请求：已并入该任务',
  'reflect.why.follow-up-earlier': '更早任务的后续请求',
  'reflect.skippedTitle': '不会生成技能（{n}）',
  'reflect.skippedLead': '反思时也会读取这些任务，但出于所示原因不会为它们生成技能。',
  'reflect.update': '技能写于任务未完成时，任务现已完成：反思会提出完成后的版本供审阅',
  'reflect.updateBadge': '更新未完成时写的技能',
  'reflect.nothingNewJudged': '没有新的可反思任务：{n} 个任务中 {reflected} 个已反思，{skipped} 个不会生成技能。',
  'next.reflectDone': '没有新的可反思任务（已反思 {reflected} 个，{skipped} 个不会生成技能）',
  'overview.noSkill': '不会生成技能的任务',
  'reason.finished': '“{title}”写于任务 {task} 未完成时；该任务现已完成，用完成后的步骤和结果替换旧内容。',
  'reason.again': '任务 {task} 已重新反思：由它生成的技能“{title}”采用新的反思结果。',
  'reflect.openSkill': '在技能编辑器中打开 {name}',
  'reflect.proposalsLeft': '反思为已有技能留下了 {n} 条提议：在你接受之前不会改动任何内容。',
  'reflect.reviewOnCurate': '到“整理”中审阅提议'
}
