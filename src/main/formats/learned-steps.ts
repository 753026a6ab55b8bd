/**
 * A learned skill's step as written in its YAML (seed 004 `SkillStep`) ↔ the model's `LearnedStep`.
 * The model always has `params` and `expectedResult`; a step that had neither key remembers so in a private
 * `extra.__absent` list, which never leaves the model: every file and every answer gets the written form.
 */
/** One step of a learned skill (seed 004 `SkillStep`); kept beside its conversions, `model.ts` re-exports it. */
export interface LearnedStep {
  order: number
  /** The tool to call. */
  action: string
  /** Tool parameters; the seed says string values, other values are kept as they are. */
  params: Record<string, unknown>
  expectedResult: string
  /** Keys of the step we do not know, kept verbatim. */
  extra?: Record<string, unknown>
}

const STEP_KEYS: readonly string[] = ['order', 'action', 'params', 'expectedResult']
const ABSENT = '__absent'

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** A step as written → the model's step, or undefined when it is not a step (no numeric order or no action). */
export function stepFromNative(value: unknown): LearnedStep | undefined {
  if (!isMapping(value)) return undefined
  const { order, action, params, expectedResult } = value
  if (typeof order !== 'number' || !Number.isFinite(order) || typeof action !== 'string') return undefined
  if (params !== undefined && !isMapping(params)) return undefined
  if (expectedResult !== undefined && typeof expectedResult !== 'string') return undefined
  const step: LearnedStep = { order, action, params: params ? { ...params } : {}, expectedResult: expectedResult ?? '' }
  const extra: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) if (!STEP_KEYS.includes(key)) extra[key] = v
  // Absent params/expectedResult are remembered so writing back does not add them.
  const absent = [params === undefined ? 'params' : '', expectedResult === undefined ? 'expectedResult' : ''].filter(Boolean)
  if (absent.length > 0) extra[ABSENT] = absent
  if (Object.keys(extra).length > 0) step.extra = extra
  return step
}

/** The model's step → the step as written (keys the step never had are left out again). */
export function stepToNative(step: LearnedStep): Record<string, unknown> {
  const absent = new Set(Array.isArray(step.extra?.[ABSENT]) ? (step.extra[ABSENT] as string[]) : [])
  const out: Record<string, unknown> = { order: step.order, action: step.action }
  if (!absent.has('params') || Object.keys(step.params).length > 0) out.params = step.params
  if (!absent.has('expectedResult') || step.expectedResult !== '') out.expectedResult = step.expectedResult
  for (const [key, value] of Object.entries(step.extra ?? {})) {
    if (key !== ABSENT) out[key] = value
  }
  return out
}

/**
 * Steps read from a carrier: the written form; older carriers held the model's form (`extra: {__absent: …}`),
 * which is taken as it is.
 */
export function stepsFromCarrier(value: unknown): LearnedStep[] | undefined {
  if (!Array.isArray(value)) return undefined
  const out: LearnedStep[] = []
  for (const v of value) {
    const legacy = isMapping(v) && isMapping(v.extra) && Array.isArray(v.extra[ABSENT])
    const step = legacy ? (v as unknown as LearnedStep) : stepFromNative(v)
    if (!step) return undefined
    out.push(step)
  }
  return out
}
