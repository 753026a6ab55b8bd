/** Which badge a task row shows, and the list filter (pure). */
import type { TaskSummary } from '../../../shared/api'
import type { SkippedTask } from '../../../shared/types'
import { taskTime } from '../../../shared/task-time'

export type TaskBadge = 'completed' | 'interrupted' | 'incomplete' | 'reflected' | 'skipped'

export type TaskRow = { kind: 'task'; task: TaskSummary; badge: TaskBadge; key: string } | { kind: 'skipped'; skipped: SkippedTask; badge: 'skipped'; key: string }

/**
 * Task rows newest first, then skipped folders; filtered by badge and text. A skipped folder matches its path, its
 * reason's English and `shownReason` (the reason as the screen words it, in the UI language: what the user reads).
 */
export function taskRows(
  tasks: readonly TaskSummary[],
  skipped: readonly SkippedTask[],
  filter: { status: TaskBadge | 'all'; text: string },
  shownReason: (s: SkippedTask) => string = (s) => s.reason
): TaskRow[] {
  const text = filter.text.trim().toLowerCase()
  const rows: TaskRow[] = [...tasks]
    .sort((a, b) => taskTime(b) - taskTime(a) || a.taskDir.localeCompare(b.taskDir))
    .map((task) => ({ kind: 'task' as const, task, badge: task.reflected ? ('reflected' as const) : task.status, key: taskKey(task) }))
  for (const s of skipped) rows.push({ kind: 'skipped', skipped: s, badge: 'skipped', key: `skipped:${s.path}` })
  return rows.filter((row) => {
    if (filter.status !== 'all' && row.badge !== filter.status) return false
    if (!text) return true
    if (row.kind === 'skipped') return [row.skipped.path, row.skipped.reason, shownReason(row.skipped)].some((x) => x.toLowerCase().includes(text))
    const t = row.task
    return t.taskDir.toLowerCase().includes(text) || t.user.toLowerCase().includes(text) || t.requirements.some((r) => r.toLowerCase().includes(text))
  })
}

/** Badge colour per status. */
export const BADGE_TONE: Record<TaskBadge, 'ok' | 'warn' | 'bad' | 'info' | 'muted'> = {
  completed: 'ok',
  interrupted: 'warn',
  incomplete: 'bad',
  reflected: 'info',
  skipped: 'muted'
}

/** What a task row leads with: the request, in one line (the folder or session id when there is none). */
export function taskHeadline(task: Pick<TaskSummary, 'requirements' | 'taskDir'>): string {
  const first = task.requirements.find((r) => r.trim())
  return first ? first.replace(/\s+/g, ' ').trim() : task.taskDir
}

/** A task's identity in lists: its folder (AGIAgent), or its session file plus its name (one file holds several tasks). */
export function taskKey(task: Pick<TaskSummary, 'path' | 'taskDir' | 'source'>): string {
  return task.source && task.source !== 'agiagent' ? `${task.path}#${task.taskDir}` : task.path
}
