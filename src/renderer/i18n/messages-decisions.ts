/**
 * Strings of curation's evidence and lasting decisions (issue 36): what watched the library before a skill is called
 * unused, retired members agents used, and rejected proposals. Spread into both catalogues of messages.ts.
 */
export const DECISIONS_EN = {
  'decide.cleanupWatched': 'Not used by any agent in the {days} days watched since it arrived on {arrived} (at least {limit} needed). Watched by {sources}. It moves to the legacy folder (restorable).',
  'decide.source.fetch_count': 'the fetch_count its agents’ query_skill keeps, since {from}',
  'decide.source.ledger': 'Skillbench’s recorded queries, since {from}',
  'decide.source.logs': '{agent} logs in {dir}, since {from}',
  'decide.usedRetiredOne': 'Agents used {list}, and it moves to the legacy folder too: check that “{title}” covers it.',
  'decide.usedRetiredMany': 'Agents used {list}, and they move to the legacy folder too: check that “{title}” covers them.',
  'decide.usedItem': '“{title}” ({n} recorded use(s), last {date})',
  'decide.usedItemNoDate': '“{title}” ({n} recorded use(s))',
  'decide.coverageNone': 'Cleanup: nothing has watched this library’s skills being used (no agent log names them, no query was recorded, no fetch_count is kept), so no skill is called unused.',
  'decide.coverageWatched': 'Cleanup: watched by {sources}.',
  'decide.coverageNotJudged': 'Not judged yet: {parts}.',
  'decide.coverageArrivalUnknown': '{n} dated only by their file (when they arrived is unknown)',
  'decide.coverageNotObserved': '{n} never watched',
  'decide.coverageTooShort': '{n} watched fewer than {days} days since they arrived',
  'decide.rejectedOn': 'Rejected {date} by {who}. It stays rejected until one of its skills changes.',
  'decide.rejectedTitle': 'Rejected proposals',
  'decide.rejectedHelp': 'A rejected proposal is not proposed again until one of its skills changes.',
  'decide.undoneHelp': 'Undone: you can review and accept it again.'
}

export const DECISIONS_ZH: Record<keyof typeof DECISIONS_EN, string> = {
  'decide.cleanupWatched': '自 {arrived} 进入技能库以来，在有记录的 {days} 天里没有任何智能体使用它（至少需要 {limit} 天）。记录来源：{sources}。它会移入归档文件夹（可恢复）。',
  'decide.source.fetch_count': '智能体的 query_skill 记录的 fetch_count（自 {from} 起）',
  'decide.source.ledger': 'Skillbench 记录的查询（自 {from} 起）',
  'decide.source.logs': '{dir} 中的 {agent} 日志（自 {from} 起）',
  'decide.usedRetiredOne': '智能体使用过{list}，它也会移入归档文件夹：请确认“{title}”涵盖了它的内容。',
  'decide.usedRetiredMany': '智能体使用过{list}，它们也会移入归档文件夹：请确认“{title}”涵盖了它们的内容。',
  'decide.usedItem': '“{title}”（{n} 次使用记录，最近一次 {date}）',
  'decide.usedItemNoDate': '“{title}”（{n} 次使用记录）',
  'decide.coverageNone': '清理：还没有任何来源记录过本技能库中技能的使用情况（没有智能体日志提到它们，没有查询记录，也没有 fetch_count），因此不会把任何技能判定为未使用。',
  'decide.coverageWatched': '清理：使用情况的记录来源为{sources}。',
  'decide.coverageNotJudged': '暂不判断：{parts}。',
  'decide.coverageArrivalUnknown': '{n} 个只有文件时间（不知道何时进入技能库）',
  'decide.coverageNotObserved': '{n} 个从未被记录',
  'decide.coverageTooShort': '{n} 个进入技能库后被记录不足 {days} 天',
  'decide.rejectedOn': '{who} 于 {date} 拒绝。在其中某个技能发生变化之前，它会一直保持拒绝。',
  'decide.rejectedTitle': '已拒绝的提议',
  'decide.rejectedHelp': '被拒绝的提议不会再次提出，除非其中某个技能发生了变化。',
  'decide.undoneHelp': '已撤销：可以重新审阅并接受。'
}
