/**
 * A matched learned skill's steps as a plan an agent can follow (seed 004 `use_skill`): steps in order, each
 * `{{result.x}}`-style placeholder named with the parameter it fills and the step whose result provides it.
 */
import type { LearnedStep } from './model'
import { stepToNative } from './learned-steps'

/** One placeholder of a step's parameters. */
export interface PlanPlaceholder {
  /** As written: `{{result.file}}`. */
  placeholder: string
  /** Its name: `result.file`. */
  name: string
  /** The parameter it appears in (dotted for nested values). */
  param: string
  /** The step whose result fills it: the step just before (null for the first step: the caller supplies it). */
  from_step: number | null
}

/** One step of the plan: the step as written plus its placeholders and a sentence an agent can act on. */
export interface PlanStep {
  order: number
  action: string
  params: Record<string, unknown>
  expectedResult?: string
  placeholders: PlanPlaceholder[]
  instruction: string
}

const PLACEHOLDER = /\{\{\s*([\w.-]+)\s*\}\}/g

function placeholdersIn(value: unknown, param: string, out: { placeholder: string; name: string; param: string }[]): void {
  if (typeof value === 'string') {
    for (const m of value.matchAll(PLACEHOLDER)) out.push({ placeholder: m[0], name: m[1]!, param })
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => placeholdersIn(v, `${param}.${i}`, out))
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) placeholdersIn(v, `${param}.${k}`, out)
  }
}

/** The steps sorted by `order` (stable for equal orders), with placeholders and instructions. */
export function buildStepPlan(steps: readonly LearnedStep[]): PlanStep[] {
  const sorted = steps.map((s, i) => ({ s, i })).sort((a, b) => a.s.order - b.s.order || a.i - b.i).map((x) => x.s)
  return sorted.map((step, i) => {
    const native = stepToNative(step)
    const params = (native.params as Record<string, unknown> | undefined) ?? {}
    const found: { placeholder: string; name: string; param: string }[] = []
    for (const [k, v] of Object.entries(params)) placeholdersIn(v, k, found)
    const from = i > 0 ? sorted[i - 1]!.order : null
    const placeholders = found.map((p) => ({ ...p, from_step: from }))
    const args = Object.entries(params).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')
    const fills = placeholders.map((p) => `${p.placeholder} is ${p.from_step === null ? 'supplied by the caller' : `the ${p.name.replace(/^result\./, '')} from step ${p.from_step}'s result`}`)
    const expected = typeof native.expectedResult === 'string' && native.expectedResult !== '' ? ` Expect: ${native.expectedResult}.` : ''
    const instruction = `Call ${step.action}${args ? ` with ${args}` : ''}.${fills.length > 0 ? ` ${fills.join('; ')}.` : ''}${expected}`
    const out: PlanStep = { order: step.order, action: step.action, params, placeholders, instruction }
    if (typeof native.expectedResult === 'string') out.expectedResult = native.expectedResult
    return out
  })
}
