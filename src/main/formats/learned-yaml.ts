/** Learned-skill YAML (seed 004, `.sman/skills/*.yaml`): trigger pattern, tool steps, examples. */
import { coded, refOf, type CodedText } from '../../shared/error-codes'
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
    throw new FormatError(coded('format.not_mapping', { what: refOf(coded('format.what_learned')) }))
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

/**
 * Problems of a learned skill, by code (`.text` is the English; empty = valid). The trigger pattern must be a safe
 * regex. Messages two formats share use the same code (a field's type: agiagent.not_string / not_mapping,
 * masconfig.field_empty).
 */
export function validateLearnedYaml(record: LearnedRecord): CodedText[] {
  const d = record.data
  const problems: CodedText[] = []
  for (const key of ['id', 'name', 'trigger_pattern'] as const) {
    if (typeof d[key] !== 'string' || (d[key] as string).trim() === '') problems.push(coded('masconfig.field_empty', { field: key }))
  }
  if (d.description !== undefined && typeof d.description !== 'string') problems.push(coded('agiagent.not_string', { key: 'description' }))
  if (typeof d.trigger_pattern === 'string') {
    const check = checkPattern(d.trigger_pattern)
    if (!check.ok) problems.push(coded('learned.pattern', { reason: refOf(check.problem) }))
  }
  if (d.confidence !== undefined && (typeof d.confidence !== 'number' || !(d.confidence >= 0 && d.confidence <= 1))) {
    problems.push(coded('learned.confidence'))
  }
  for (const key of ['tags', 'examples', 'sourceFiles'] as const) {
    if (d[key] !== undefined && !stringList(d[key])) problems.push(coded('learned.string_list', { key }))
  }
  if (d.createdAt !== undefined && typeof d.createdAt !== 'number' && (typeof d.createdAt !== 'string' || Number.isNaN(Date.parse(d.createdAt)))) {
    problems.push(coded('learned.created_at'))
  }
  if (d.steps !== undefined) {
    if (!Array.isArray(d.steps)) {
      problems.push(coded('learned.steps_list'))
    } else {
      d.steps.forEach((step, i) => {
        if (!isPlainObject(step)) return void problems.push(coded('agiagent.not_mapping', { key: `steps[${i}]` }))
        if (typeof step.order !== 'number' || !Number.isInteger(step.order)) problems.push(coded('learned.step_order', { i }))
        if (typeof step.action !== 'string' || step.action === '') problems.push(coded('learned.step_action', { i }))
        if (step.params !== undefined && !isPlainObject(step.params)) problems.push(coded('agiagent.not_mapping', { key: `steps[${i}].params` }))
        else if (isPlainObject(step.params)) {
          for (const [k, v] of Object.entries(step.params)) if (typeof v !== 'string') problems.push(coded('learned.step_param_string', { i, key: k }))
        }
        if (step.expectedResult !== undefined && typeof step.expectedResult !== 'string') problems.push(coded('agiagent.not_string', { key: `steps[${i}].expectedResult` }))
      })
    }
  }
  return problems
}
