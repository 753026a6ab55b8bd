/** Reasons of merge and consolidate cards that say what the skills have in common, in English and 简体中文 (spread into messages.ts). */
export const JUDGE_EN = {
  'reason.mergeSame': '{n} skills are the same skill: {common} ({similarity} similar). “{title}”, {why}, stays and takes in what the others add; the others move to the legacy folder (restorable).',
  'reason.consolidateSame': '{n} skills cover the same ground: {common} ({similarity} similar on average). The steps only some of them have are combined into “{title}”; the others move to the legacy folder (restorable). Read and edit the result before accepting.',
  'reason.common.subjectWords': 'both are about {subject} and share {words}',
  'reason.common.subject': 'both are about {subject}',
  'reason.common.words': 'they share {words}',
  'reason.common.sep': ', '
}

export const JUDGE_ZH: Record<keyof typeof JUDGE_EN, string> = {
  'reason.mergeSame': '{n} 个技能是同一个技能：{common}（相似度 {similarity}）。保留{why}的“{title}”，并吸收其他技能补充的内容；其他技能移入归档文件夹（可恢复）。',
  'reason.consolidateSame': '{n} 个技能讲的是同一件事：{common}（平均相似度 {similarity}）。只有部分技能才有的步骤会合并进“{title}”；其他技能移入归档文件夹（可恢复）。接受前请先阅读并修改结果。',
  'reason.common.subjectWords': '都是关于{subject}，并共有 {words}',
  'reason.common.subject': '都是关于{subject}',
  'reason.common.words': '共有 {words}',
  'reason.common.sep': '、'
}
