/** Strings of sharing a library with a team through git (sync), in English and 简体中文 (spread into messages.ts). */
export const SYNC_EN = {
  'job.sync': 'Syncing',
  'sync.title': 'Team sync',
  'sync.button': 'Sync',
  'sync.running': 'Syncing with {remote}',
  'sync.notShared': 'This library is not shared with a team. To share it, run: skillbench sync --init URL --library {path}',
  'sync.remote': 'Shared through {remote}',
  'sync.ahead': '{n} to send',
  'sync.behind': '{n} to receive',
  'sync.local': '{n} local change(s)',
  'sync.conflicts': '{n} change(s) both sides made wait for review below',
  'sync.upToDate': 'Up to date as of the last sync',
  'sync.inProgress': 'git is in the middle of {what}: finish or abort it before syncing.',
  'sync.done': 'Synced: {committed} commit(s) made, {pulled} received, {pushed} sent.',
  'sync.doneConflicts': '{n} skill(s) were changed on both sides: the remote version is live, yours waits for review below.',
  'sync.failed': 'Sync failed',
  'sync.lastFetch': 'remote as of {time}',
  'reason.sync': '“{title}” was changed on both sides. {remoteAuthor}’s version ({remote}) is live now; this brings {localAuthor}’s change back on top of it.',
  'reason.syncRemovedRemote': '{remoteAuthor} retired “{title}” ({remote}) while {localAuthor} changed it here. This brings it back with {localAuthor}’s change.',
  'reason.syncRemovedLocal': '{localAuthor} retired “{title}” here while {remoteAuthor} changed it ({remote}). {remoteAuthor}’s version is live; this retires it again.',
  'sync.whose': 'Change by {author}'
}

export type SyncMessageKey = keyof typeof SYNC_EN

export const SYNC_ZH: Record<SyncMessageKey, string> = {
  'job.sync': '正在同步',
  'sync.title': '团队同步',
  'sync.button': '同步',
  'sync.running': '正在与 {remote} 同步',
  'sync.notShared': '此技能库尚未与团队共享。要共享，请运行：skillbench sync --init URL --library {path}',
  'sync.remote': '通过 {remote} 共享',
  'sync.ahead': '待发送 {n} 个',
  'sync.behind': '待接收 {n} 个',
  'sync.local': '本地修改 {n} 处',
  'sync.conflicts': '双方都修改过的 {n} 处等待下方审阅',
  'sync.upToDate': '截至上次同步已是最新',
  'sync.inProgress': 'git 正在进行{what}：请先完成或中止它，再同步。',
  'sync.done': '已同步：提交 {committed} 个，接收 {pulled} 个，发送 {pushed} 个。',
  'sync.doneConflicts': '有 {n} 个技能被双方同时修改：远端版本已生效，你的修改在下方等待审阅。',
  'sync.failed': '同步失败',
  'sync.lastFetch': '远端数据截至 {time}',
  'reason.sync': '“{title}”被双方同时修改。{remoteAuthor} 的版本（{remote}）现已生效；此提议把 {localAuthor} 的修改重新加在它之上。',
  'reason.syncRemovedRemote': '{remoteAuthor} 已停用“{title}”（{remote}），而 {localAuthor} 在本机修改了它。此提议带着 {localAuthor} 的修改将其恢复。',
  'reason.syncRemovedLocal': '{localAuthor} 在本机停用了“{title}”，而 {remoteAuthor} 修改了它（{remote}）。{remoteAuthor} 的版本现已生效；此提议再次停用它。',
  'sync.whose': '修改者：{author}'
}
