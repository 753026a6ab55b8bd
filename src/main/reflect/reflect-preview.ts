/**
 * What `reflect` would do with each task of a list, without doing it (pure): the Reflect screen, the task lists and
 * the Overview count from this, so their numbers agree with a run. A task is `new` (a skill will be made of it and
 * its follow-ups), `reflected` (a skill lists it), `update` (its only skill was written while it was unfinished and it
 * has finished since: the run proposes the finished version for review) or `no-skill` with the reason.
 */
import type { NoSkillWhy, TaskPlan } from '../../shared/api'
import type { Skill, TaskTrace } from '../../shared/types'
import { judgeTasks } from './task-judgment'

export type { TaskPlan }

/**
 * The outcome line the offline rules wrote for a task without a completion marker, before issue 36 stopped writing
 * skills of unfinished tasks ("**结果：** 未完成：…", "**Outcome:** Not finished: …").
 */
const UNFINISHED_OUTCOME = /^\*\*(?:结果|Outcome)(?:：|:)\*\*\s*(?:未完成|Not finished)/m

/** An active skill frozen from an unfinished task: reflection replaces it (through review) once the task finishes. */
export function writtenUnfinished(skill: Pick<Skill, 'body' | 'legacy'>): boolean {
  return !skill.legacy && UNFINISHED_OUTCOME.test(skill.body ?? '')
}

/** The task folders the skills list, split into those a finished version may replace and the rest. */
export function reflectedSets(skills: readonly Pick<Skill, 'skill_id' | 'task_directories' | 'body' | 'legacy'>[]): {
  reflected: Set<string>
  /** Task folder → the frozen skill's id (only when no other skill lists the task). */
  frozen: Map<string, string>
} {
  const reflected = new Set<string>()
  const frozen = new Map<string, string>()
  for (const s of skills) {
    if (writtenUnfinished(s)) {
      for (const d of s.task_directories) if (!frozen.has(d)) frozen.set(d, s.skill_id)
    } else {
      for (const d of s.task_directories) reflected.add(d)
    }
  }
  for (const d of reflected) frozen.delete(d)
  return { reflected, frozen }
}

/** A key that tells two tasks apart across users and session files. */
export function taskKey(t: Pick<TaskTrace, 'user' | 'path' | 'taskDir'>): string {
  return `${t.user}\u0000${t.path}\u0000${t.taskDir}`
}

/**
 * The plan of every task. `state(t)` says whether a skill lists the task already ('reflected'), only a skill frozen
 * while it was unfinished ('frozen'), or none. Mirrors `runReflection` without `--force`: a unit with a reflected
 * member is reflected as a whole; a frozen one whose task has now finished is an update.
 */
export function previewReflection(traces: readonly TaskTrace[], state: (t: TaskTrace) => 'reflected' | 'frozen' | undefined): Map<string, TaskPlan> {
  const out = new Map<string, TaskPlan>()
  const judged = judgeTasks(traces)
  const byDir = new Map<string, TaskTrace[]>()
  for (const t of traces) {
    const list = byDir.get(t.taskDir) ?? []
    list.push(t)
    byDir.set(t.taskDir, list)
  }
  // a unit's members share the head's session file (or are the head itself)
  const memberTrace = (head: TaskTrace, dir: string): TaskTrace => byDir.get(dir)?.find((t) => t.path === head.path && t.user === head.user) ?? head
  for (const unit of judged.units) {
    const members = unit.members.map((m) => memberTrace(unit.trace, m))
    const states = members.map(state)
    const plan: TaskPlan = states.includes('reflected') ? { state: 'reflected' } : states.includes('frozen') ? { state: 'update' } : { state: 'new' }
    for (const m of members) out.set(taskKey(m), plan)
  }
  for (const n of judged.none) {
    const s = state(n.trace)
    const plan: TaskPlan = s === 'reflected' || s === 'frozen' ? { state: 'reflected' } : { state: 'no-skill', why: n.why, ...(n.of ? { of: n.of } : {}) }
    out.set(taskKey(n.trace), plan)
  }
  return out
}

/** Counts of a list's plans, as the Overview shows them. */
export function countPlans(plans: Iterable<TaskPlan>): { tasks: number; reflected: number; fresh: number; update: number; noSkill: number; why: Partial<Record<NoSkillWhy, number>> } {
  const out = { tasks: 0, reflected: 0, fresh: 0, update: 0, noSkill: 0, why: {} as Partial<Record<NoSkillWhy, number>> }
  for (const p of plans) {
    out.tasks++
    if (p.state === 'reflected') out.reflected++
    else if (p.state === 'new') out.fresh++
    else if (p.state === 'update') out.update++
    else {
      out.noSkill++
      if (p.why) out.why[p.why] = (out.why[p.why] ?? 0) + 1
    }
  }
  return out
}
