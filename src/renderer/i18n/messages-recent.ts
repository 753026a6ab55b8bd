/**
 * The Overview's recent activity: a sentence of its own for each kind of change the journal records, applied and
 * undone, in English and 简体中文 (spread into messages.ts; a deploy applied is `recent.deployed`).
 */
export const RECENT_EN = {
  'recent.applied.merge': 'Skills merged by {who}',
  'recent.applied.consolidate': 'Skills consolidated into one by {who}',
  'recent.applied.cleanup': 'Skills cleaned up by {who}',
  'recent.applied.enhance': 'A skill enhanced by {who}',
  'recent.applied.edit': 'A skill edited by {who}',
  'recent.applied.delete': 'A skill deleted by {who}',
  'recent.applied.update': 'A skill updated from its source by {who}',
  'recent.applied.learned': 'A skill the agent learned, accepted by {who}',
  'recent.applied.review': 'A reviewed skill changed by {who}',
  'recent.applied.memory': 'Agent memory updated by {who}',
  'recent.undone.merge': 'Undone: merging skills',
  'recent.undone.consolidate': 'Undone: consolidating skills into one',
  'recent.undone.cleanup': 'Undone: cleaning up skills',
  'recent.undone.enhance': 'Undone: enhancing a skill',
  'recent.undone.edit': 'Undone: editing a skill',
  'recent.undone.delete': 'Undone: deleting a skill (it is back)',
  'recent.undone.update': 'Undone: updating a skill from its source',
  'recent.undone.learned': 'Undone: accepting a skill the agent learned',
  'recent.undone.review': 'Undone: changing a reviewed skill',
  'recent.undone.memory': 'Undone: updating the agent memory',
  'recent.undone.deploy': 'Undone: deploying skills to an agent'
}

export type RecentMessageKey = keyof typeof RECENT_EN

export const RECENT_ZH: Record<RecentMessageKey, string> = {
  'recent.applied.merge': '{who}合并了技能',
  'recent.applied.consolidate': '{who}将技能归并为一个',
  'recent.applied.cleanup': '{who}清理了技能',
  'recent.applied.enhance': '{who}增强了一个技能',
  'recent.applied.edit': '{who}编辑了一个技能',
  'recent.applied.delete': '{who}删除了一个技能',
  'recent.applied.update': '{who}从来源更新了一个技能',
  'recent.applied.learned': '{who}采纳了智能体习得的技能',
  'recent.applied.review': '{who}修改了一个复查中的技能',
  'recent.applied.memory': '{who}更新了智能体记忆',
  'recent.undone.merge': '已撤销：合并技能',
  'recent.undone.consolidate': '已撤销：将技能归并为一个',
  'recent.undone.cleanup': '已撤销：清理技能',
  'recent.undone.enhance': '已撤销：增强技能',
  'recent.undone.edit': '已撤销：编辑技能',
  'recent.undone.delete': '已撤销：删除技能（技能已恢复）',
  'recent.undone.update': '已撤销：从来源更新技能',
  'recent.undone.learned': '已撤销：采纳智能体习得的技能',
  'recent.undone.review': '已撤销：修改复查中的技能',
  'recent.undone.memory': '已撤销：更新智能体记忆',
  'recent.undone.deploy': '已撤销：将技能部署到智能体'
}
