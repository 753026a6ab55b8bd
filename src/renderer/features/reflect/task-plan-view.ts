/** What the Reflect list shows of each task's plan (pure): what becomes a skill, what makes none and why. */
import type { TaskSummary } from '../../../shared/api'
import { taskTime } from '../../../shared/task-time'

/** Tasks a run would reflect (a new skill or the finished version of a frozen one), newest first. */
export function freshTasks(tasks: readonly TaskSummary[]): TaskSummary[] {
  return tasks.filter((x) => (x.plan ? x.plan.state === 'new' || x.plan.state === 'update' : !x.reflected)).sort((a, b) => taskTime(b) - taskTime(a))
}

/** Tasks a run reads and makes no skill of, newest first. */
export function skippedTasks(tasks: readonly TaskSummary[]): TaskSummary[] {
  return tasks.filter((x) => x.plan?.state === 'no-skill').sort((a, b) => taskTime(b) - taskTime(a))
}

/** How many tasks are reflected (a skill lists them, or an update waits for review). */
export function reflectedCount(tasks: readonly TaskSummary[]): number {
  return tasks.filter((x) => (x.plan ? x.plan.state === 'reflected' : x.reflected)).length
}
