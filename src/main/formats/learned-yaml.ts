/** Learned-skill YAML (seed 004, `.sman/skills/*.yaml`): trigger pattern, tool steps, examples. */
import { applyCarrier, CARRIER_KEY, diffCarrier, FormatError, normalizeSkill, str, unknownKeys, type LearnedStep, type PortableSkill } from './model'
import { isPlainObject, parseYamlSafe, stringifyYamlSafe } from './safe-yaml'
import { checkPattern } from './regex-guard'
import { stepFromNative, stepToNative } from './learned-steps'

/** Top-level keys of a learned skill, in the seed's order. */
export const LEARNED_KEYS = ['id', 'name', 'description', 'trigger_pattern', 'confidence', 'tags', 'steps', 'examples', 'createdAt', 'sourceFiles'] as const

/** A learned-skill YAML document as data. */
export interface LearnedRecord {
  data: Record<string, unknown>
}

/** Reads a learned-skill YAML text. Throws FormatError when it is not a YAML mapping. */
export function parseLearnedYaml(text: string): LearnedRecord {
  const data = parseYamlSafe(text, 'learned skill')
  if (!isPlainObject(data)) {
    throw new FormatError('learned skill: the YAML is not a mapping of keys to values')
  }
  return { data }
}

/** Writes a learned-skill YAML text. */
export function serializeLearnedYaml(record: LearnedRecord): string {
  return stringifyYamlSafe(record.data)
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined
}

const parseStep = stepFromNative
const writeStep = stepToNative

/** The Markdown body a learned skill reads as, when it has no body of its own: steps and examples. */
export function renderLearnedBody(skill: Pick<PortableSkill, 'title' | 'trigger_pattern' | 'steps' | 'examples'>): string {
  const lines = [`# ${skill.title}`, '']
  if (skill.trigger_pattern) {
    lines.push(`Use when the question matches \`${skill.trigger_pattern}\`.`, '')
  }
  if (skill.steps && skill.steps.length > 0) {
    lines.push('## Steps', '')
    for (const step of [...skill.steps].sort((a, b) => a.order - b.order)) {
      const params = Object.entries(step.params).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')
      lines.push(`${step.order}. \`${step.action}\`${params ? ` (${params})` : ''}${step.expectedResult ? ` → ${step.expectedResult}` : ''}`)
    }
    lines.push('')
  }
  if (skill.examples && skill.examples.length > 0) {
    lines.push('## Examples', '', ...skill.examples.map((e) => `- ${e}`), '')
  }
  return lines.join('\n')
}

function nativeFrom(record: LearnedRecord): PortableSkill {
  const d = record.data
  const extra: Record<string, unknown> = unknownKeys(d, [...LEARNED_KEYS, CARRIER_KEY]) ?? {}
  const steps = Array.isArray(d.steps) ? d.steps.map(parseStep) : undefined
  const stepsOk = steps?.every((s): s is LearnedStep => s !== undefined) ? (steps as LearnedStep[]) : undefined
  const created = typeof d.createdAt === 'number' || typeof d.createdAt === 'string' ? d.createdAt : undefined
  const skill: PortableSkill = {
    title: str(d.name) ?? '',
    description: str(d.description) ?? '',
    body: '',
    learned_id: typeof d.id === 'number' ? undefined : str(d.id),
    trigger_pattern: str(d.trigger_pattern),
    steps: stepsOk,
    examples: stringList(d.examples),
    confidence: typeof d.confidence === 'number' ? d.confidence : undefined,
    tags: stringList(d.tags),
    learned_created_at: created,
    source_files: stringList(d.sourceFiles),
    extra: {}
  }
  const typed: Record<string, unknown> = {
    id: skill.learned_id, name: str(d.name), description: str(d.description), trigger_pattern: skill.trigger_pattern, confidence: skill.confidence,
    tags: skill.tags, steps: skill.steps, examples: skill.examples, createdAt: skill.learned_created_at, sourceFiles: skill.source_files
  }
  for (const key of LEARNED_KEYS) {
    if (d[key] !== undefined && typed[key] === undefined) extra[key] = d[key]
  }
  if (Object.keys(extra).length > 0) skill.extra['learned-yaml'] = extra
  skill.body = renderLearnedBody(skill)
  return normalizeSkill(skill)
}

function nativeTo(skill: PortableSkill): LearnedRecord {
  const extra = skill.extra['learned-yaml'] ?? {}
  const d: Record<string, unknown> = {}
  const put = (key: string, value: unknown): void => {
    if (value !== undefined) d[key] = value
    else if (key in extra) d[key] = extra[key]
  }
  put('id', skill.learned_id ?? skill.skill_id ?? skill.name)
  put('name', skill.title === '' ? undefined : skill.title)
  put('description', skill.description === '' ? undefined : skill.description)
  put('trigger_pattern', skill.trigger_pattern)
  put('confidence', skill.confidence ?? skill.quality_index)
  put('tags', skill.tags)
  put('steps', skill.steps?.map(writeStep))
  put('examples', skill.examples)
  put('createdAt', skill.learned_created_at ?? (skill.created_at && !Number.isNaN(Date.parse(skill.created_at)) ? Date.parse(skill.created_at) : undefined))
  put('sourceFiles', skill.source_files)
  for (const [key, value] of Object.entries(extra)) {
    if (!(LEARNED_KEYS as readonly string[]).includes(key) && key !== CARRIER_KEY) d[key] = value
  }
  return { data: d }
}

/** Learned YAML record → neutral model (carrier applied). The body is rendered from steps unless the carrier has one. */
export function fromLearnedYaml(record: LearnedRecord): PortableSkill {
  return applyCarrier(nativeFrom(record), record.data[CARRIER_KEY])
}

/** Neutral model → learned YAML record; fields it cannot hold go to the `skillbench` key. */
export function toLearnedYaml(skill: PortableSkill): LearnedRecord {
  const record = nativeTo(skill)
  const carrier = diffCarrier(skill, nativeFrom(record))
  if (carrier) record.data[CARRIER_KEY] = carrier
  return record
}

/** Problems of a learned skill, in words (empty = valid). The trigger pattern must be a safe regex. */
export function validateLearnedYaml(record: LearnedRecord): string[] {
  const d = record.data
  const problems: string[] = []
  for (const key of ['id', 'name', 'trigger_pattern'] as const) {
    if (typeof d[key] !== 'string' || (d[key] as string).trim() === '') problems.push(`${key} must be a non-empty string`)
  }
  if (d.description !== undefined && typeof d.description !== 'string') problems.push('description must be a string')
  if (typeof d.trigger_pattern === 'string') {
    const check = checkPattern(d.trigger_pattern)
    if (!check.ok) problems.push(`trigger_pattern: ${check.reason}`)
  }
  if (d.confidence !== undefined && (typeof d.confidence !== 'number' || !(d.confidence >= 0 && d.confidence <= 1))) {
    problems.push('confidence must be a number between 0 and 1')
  }
  for (const key of ['tags', 'examples', 'sourceFiles'] as const) {
    if (d[key] !== undefined && !stringList(d[key])) problems.push(`${key} must be a list of strings`)
  }
  if (d.createdAt !== undefined && typeof d.createdAt !== 'number' && (typeof d.createdAt !== 'string' || Number.isNaN(Date.parse(d.createdAt)))) {
    problems.push('createdAt must be epoch milliseconds or an ISO date')
  }
  if (d.steps !== undefined) {
    if (!Array.isArray(d.steps)) {
      problems.push('steps must be a list')
    } else {
      d.steps.forEach((step, i) => {
        if (!isPlainObject(step)) return void problems.push(`steps[${i}] must be a mapping`)
        if (typeof step.order !== 'number' || !Number.isInteger(step.order)) problems.push(`steps[${i}].order must be a whole number`)
        if (typeof step.action !== 'string' || step.action === '') problems.push(`steps[${i}].action must be a tool name`)
        if (step.params !== undefined && !isPlainObject(step.params)) problems.push(`steps[${i}].params must be a mapping`)
        else if (isPlainObject(step.params)) {
          for (const [k, v] of Object.entries(step.params)) if (typeof v !== 'string') problems.push(`steps[${i}].params.${k} should be a string`)
        }
        if (step.expectedResult !== undefined && typeof step.expectedResult !== 'string') problems.push(`steps[${i}].expectedResult must be a string`)
      })
    }
  }
  return problems
}
