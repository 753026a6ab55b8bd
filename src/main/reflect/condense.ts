import type { ToolCall } from '../../shared/types'
import { clip, oneLine } from './text-utils'

/** Parameters that name what a call acted on, most telling first. */
const TARGET_PARAMS = [
  'target_file',
  'file_path',
  'path',
  'relative_workspace_path',
  'command',
  'cmd',
  'query',
  'search_term',
  'pattern',
  'url',
  'skill_id',
  'task_description',
  'agent_id',
  'message'
]

/** Consecutive calls of one tool by one agent, merged. */
export interface Step {
  agent: string
  name: string
  /** Distinct targets in first-seen order (files, commands, queries). */
  targets: string[]
  count: number
  /** How many of the merged calls are known to have failed (session adapters set ToolCall.ok). */
  failures: number
}

/** The value a call acted on (file, command, query…), shortened to one line. */
export function primaryTarget(call: ToolCall, max = 120): string | undefined {
  for (const key of TARGET_PARAMS) {
    const value = call.params[key]
    if (typeof value === 'string' && value.trim()) {
      return clip(oneLine(value), max)
    }
  }
  const first = Object.values(call.params).find((v) => typeof v === 'string' && v.trim() && v.length < 200)
  return first ? clip(oneLine(first), max) : undefined
}

/** Collapses runs of the same tool by the same agent into one step (three edits in a row → one step ×3). */
export function condenseToolCalls(calls: readonly ToolCall[]): Step[] {
  const steps: Step[] = []
  for (const call of calls) {
    const target = primaryTarget(call)
    const last = steps[steps.length - 1]
    if (last && last.name === call.name && last.agent === call.agent) {
      last.count++
      if (target && !last.targets.includes(target)) {
        last.targets.push(target)
      }
      if (call.ok === false) {
        last.failures++
      }
      continue
    }
    steps.push({ agent: call.agent, name: call.name, targets: target ? [target] : [], count: 1, failures: call.ok === false ? 1 : 0 })
  }
  return steps
}

/** `edit_file ×3: a.py, b.py` — one line for the model's input. */
export function formatStepLine(step: Step, maxTargets = 4): string {
  const times = step.count > 1 ? ` ×${step.count}` : ''
  const agent = step.agent && step.agent !== 'manager' ? `[${step.agent}] ` : ''
  const shown = step.targets.slice(0, maxTargets).join(' | ')
  const more = step.targets.length > maxTargets ? ` (+${step.targets.length - maxTargets} more)` : ''
  const failed = step.failures ? ` — ${step.failures} failed` : ''
  return `${agent}${step.name}${times}${shown ? `: ${shown}${more}` : ''}${failed}`
}
