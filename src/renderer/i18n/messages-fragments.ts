/** Words the core sends as names (who made a proposal, an agent's skills folder), in English and 简体中文. */
export const FRAGMENTS_EN = {
  'author.editedByYou': '{who}, edited by you',
  'author.deploy': 'Skillbench deploy',
  'author.deployed': 'the deployed copy ({target})',
  'deploy.label.claude': 'Claude Code (personal)',
  'deploy.label.codex': 'Codex',
  'deploy.label.gemini': 'Gemini CLI (user)',
  'deploy.label.opencode': 'OpenCode (global)',
  'deploy.label.agents': 'Agents folder ({path})'
}

export type FragmentMessageKey = keyof typeof FRAGMENTS_EN

export const FRAGMENTS_ZH: Record<FragmentMessageKey, string> = {
  'author.editedByYou': '{who}，经你修改',
  'author.deploy': 'Skillbench 部署',
  'author.deployed': '已部署的副本（{target}）',
  'deploy.label.claude': 'Claude Code（个人）',
  'deploy.label.codex': 'Codex',
  'deploy.label.gemini': 'Gemini CLI（用户级）',
  'deploy.label.opencode': 'OpenCode（全局）',
  'deploy.label.agents': 'Agents 文件夹（{path}）'
}
