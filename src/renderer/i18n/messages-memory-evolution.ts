/** Strings of memory proposals (seed 003: lessons, preferences, tool notes), in English and 简体中文 (spread into messages.ts). */
export const MEMORY_EVOLUTION_EN = {
  'kind.memory': 'Memory',
  'reason.memory.hallucinated_tool': 'The agent called a tool that does not exist ({n} task(s)). This lesson for {file} keeps it to the registered tools.',
  'reason.memory.critic': 'A critic corrected a tool call ({n} task(s)). Its suggestion becomes a lesson in {file}.',
  'reason.memory.tool_stats': 'Tool statistics of {n} scanned task(s): the tools that fail often get a note in {file}.',
  'reason.memory.preference': 'The user stated a preference ({n} task(s)). Accepting adds it to {file} and to long-term memory.',
  'reason.memory.agent': 'An agent asked to add this to {file} through MCP.',
  'memory.workspaceOf': 'Memory folder: {path}'
}

export type MemoryEvolutionMessageKey = keyof typeof MEMORY_EVOLUTION_EN

export const MEMORY_EVOLUTION_ZH: Record<MemoryEvolutionMessageKey, string> = {
  'kind.memory': '记忆',
  'reason.memory.hallucinated_tool': '智能体调用了不存在的工具（{n} 个任务）。这条写入 {file} 的教训让它只用已注册的工具。',
  'reason.memory.critic': 'Critic 纠正了一次工具调用（{n} 个任务）。它的建议成为 {file} 中的一条教训。',
  'reason.memory.tool_stats': '{n} 个已扫描任务的工具统计：经常失败的工具在 {file} 中得到一条说明。',
  'reason.memory.preference': '用户说明了一项偏好（{n} 个任务）。接受后写入 {file}，并同步到长期记忆。',
  'reason.memory.agent': '某个智能体通过 MCP 请求把这条内容写入 {file}。',
  'memory.workspaceOf': '记忆文件夹：{path}'
}
