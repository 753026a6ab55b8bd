/**
 * A task list as the screens show it: each task with the skills that list it and what a reflect run would do with it
 * now (`plan`), so the Reflect screen, the Workspaces list and the Overview count the same way a run decides.
 */
import type { TaskSummary } from '../../shared/api'
import type { Skill, TaskTrace } from '../../shared/types'
import { countPlans, previewReflection, taskKey, writtenUnfinished } from '../reflect/reflect-preview'

/** A skill that lists a task, as the list shows it, and whether it was frozen while the task was unfinished. */
export interface ListingSkill {
  row: TaskSummary['skills'][number]
  frozen: boolean
}

/** The row of a skill of `library` for the task list. */
export function listingSkill(skill: Skill, library: string): ListingSkill {
  return { row: { skill_id: skill.skill_id, title: skill.title, library, legacy: skill.legacy }, frozen: writtenUnfinished(skill) }
}

/**
 * Every trace with its skills and plan. `skillsOf` gives the skills listing a trace (any order); `pending` says whether
 * an enhancement or finished version of it waits for review (a run skips those as "pending review").
 */
export function summariseTasks(traces: readonly TaskTrace[], skillsOf: (t: TaskTrace) => readonly ListingSkill[], pending: (t: TaskTrace) => boolean = () => false): TaskSummary[] {
  const plans = previewReflection(traces, (t) => {
    if (pending(t)) return 'reflected'
    const skills = skillsOf(t)
    if (skills.length === 0) return undefined
    return skills.every((s) => s.frozen) ? 'frozen' : 'reflected'
  })
  return traces.map((t) => {
    const skills = skillsOf(t).map((s) => s.row)
    const plan = plans.get(taskKey(t))
    return { ...t, reflected: skills.length > 0, skills, ...(plan ? { plan } : {}) }
  })
}

/** The Overview's task counts from a summarised list. */
export function taskCounts(tasks: readonly TaskSummary[]): { tasks: number; reflectedTasks: number; newTasks: number; noSkillTasks: number; noSkillWhy: ReturnType<typeof countPlans>['why'] } {
  // a task without a plan (none today) counts by its skills alone
  const c = countPlans(tasks.map((t) => t.plan ?? { state: t.reflected ? 'reflected' : 'new' }))
  return { tasks: c.tasks, reflectedTasks: c.reflected, newTasks: c.fresh + c.update, noSkillTasks: c.noSkill, noSkillWhy: c.why }
}
