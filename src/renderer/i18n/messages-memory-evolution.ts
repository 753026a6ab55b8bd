/** Strings of memory proposals (seed 003: lessons, preferences, tool notes), in English and 简体中文 (spread into messages.ts). */
export const MEMORY_EVOLUTION_EN = {
  'kind.memory': 'Memory',
  'reason.memory.hallucinated_tool': 'The agent called a tool that does not exist ({n} task(s)). This lesson for {file} keeps it to the registered tools.',
  'reason.memory.critic': 'A critic corrected a tool call ({n} task(s)). Its suggestion becomes a lesson in {file}.',
  'reason.memory.tool_stats': 'Tool statistics of {n} scanned task(s): the tools that fail often get a note in {file}.',
  // an older plan's preference: followed by where it goes (reason.memory.adds…, by the proposal's state)
  'reason.memory.preferenceSaid': 'The user stated a preference ({n} task(s)).',
  'reason.memory.agent': 'An agent asked to add this to {file} through MCP.',
  // after the proposal's own reason (by code): where accepting writes it
  'reason.memory.adds': 'Accepting adds it to {file}.',
  'reason.memory.addsPreference': 'Accepting adds it to {file} and to long-term memory.',
  // once accepted: where it was written; once rejected: that nothing was
  'reason.memory.added': 'Added to {file}.',
  'reason.memory.addedPreference': 'Added to {file} and to long-term memory.',
  'reason.memory.notAdded': 'Nothing was written to {file}.',
  'memory.workspaceOf': 'Memory folder: {path}',
  'memory.learnTitle': 'Learn from tasks',
  'memory.learnHelp': 'Reads this user’s finished tasks: a tool the agent invented and a critic’s suggestion become lessons, stated preferences (记住：…, from now on…) preferences, tools that often fail a note in procedural.md. Each waits for your review on the Curate screen; the preferences are listed below too, under “Preferences waiting for review”.',
  'memory.learn': 'Learn from tasks',
  'memory.learned': '{tasks} task(s) read: {proposed} proposal(s) for review ({lessons} lesson(s), {preferences} preference(s), {procedural} tool note(s)); {skipped} already in memory or proposed.',
  'memory.openCurate': 'Review on the Curate screen',
  // the Memory screen's preferences: one list of what waits, wherever it is reviewed, then what long-term memory holds
  'memory.proposedBy': 'Proposed by Learn from tasks, stated in {n} task(s) · reviewed on the Curate screen',
  'memory.reviewOnCurate': 'Review on Curate',
  'memory.longTermTitle': 'Preferences in long-term memory ({n})',
  'memory.longTermHelp': 'The preferences block of long-term.md: every preference you accepted, here or on the Curate screen (each is in preferences.md too).',
  'memory.longTermEmpty': 'None yet. A preference you accept appears here.',
  'curate.onlyOne': 'Showing the one proposal opened from the Memory screen.',
  'curate.showAll': 'Show all proposals ({n})',
  'failed.evolve': 'Learning from tasks'
}

export type MemoryEvolutionMessageKey = keyof typeof MEMORY_EVOLUTION_EN

export const MEMORY_EVOLUTION_ZH: Record<MemoryEvolutionMessageKey, string> = {
  'kind.memory': '记忆',
  'reason.memory.hallucinated_tool': '智能体调用了不存在的工具（{n} 个任务）。这条写入 {file} 的教训让它只用已注册的工具。',
  'reason.memory.critic': 'Critic 纠正了一次工具调用（{n} 个任务）。它的建议成为 {file} 中的一条教训。',
  'reason.memory.tool_stats': '{n} 个已扫描任务的工具统计：经常失败的工具在 {file} 中得到一条说明。',
  'reason.memory.preferenceSaid': '用户说明了一项偏好（{n} 个任务）。',
  'reason.memory.agent': '某个智能体通过 MCP 请求把这条内容写入 {file}。',
  'reason.memory.adds': '接受后写入 {file}。',
  'reason.memory.addsPreference': '接受后写入 {file}，并同步到长期记忆。',
  'reason.memory.added': '已写入 {file}。',
  'reason.memory.addedPreference': '已写入 {file}，并同步到长期记忆。',
  'reason.memory.notAdded': '未写入 {file}。',
  'memory.workspaceOf': '记忆文件夹：{path}',
  'memory.learnTitle': '从任务中学习',
  'memory.learnHelp': '读取该用户已完成的任务：智能体编造的工具和 Critic 的建议成为教训，用户说明的偏好（记住：…、以后都…）成为偏好，经常失败的工具在 procedural.md 中得到一条说明。每一条都在“整理”页面等待你审阅；偏好也列在下方的“待审阅的偏好”中。',
  'memory.learn': '从任务中学习',
  'memory.learned': '已读取 {tasks} 个任务：{proposed} 条提议待审阅（{lessons} 条教训、{preferences} 条偏好、{procedural} 条工具说明）；{skipped} 条已在记忆中或已提议。',
  'memory.openCurate': '在“整理”页面审阅',
  'memory.proposedBy': '由“从任务中学习”提出，在 {n} 个任务中说过 · 在“整理”页面审阅',
  'memory.reviewOnCurate': '去“整理”页面审阅',
  'memory.longTermTitle': '长期记忆中的偏好（{n}）',
  'memory.longTermHelp': 'long-term.md 的偏好部分：你接受的每一条偏好，无论在这里还是在“整理”页面接受（也都写入了 preferences.md）。',
  'memory.longTermEmpty': '暂无。你接受的偏好会显示在这里。',
  'curate.onlyOne': '只显示从“记忆”页面打开的这一条提议。',
  'curate.showAll': '显示全部提议（{n}）',
  'failed.evolve': '从任务中学习'
}
