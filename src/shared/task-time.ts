import type { TaskTrace } from './types'

/** When a task happened: its own start time when it says (folder name, session timestamps), else its files' mtime. */
export function taskTime(task: Pick<TaskTrace, 'startedAt' | 'mtime'>): number {
  return task.startedAt ?? task.mtime
}
