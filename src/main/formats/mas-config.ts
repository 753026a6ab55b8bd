/** MAS skill configs (seed 002): `{SKILLNAME}_config.yaml` with `use_guide` and `use_prompt`. */
import { applyCarrier, CARRIER_KEY, diffCarrier, FormatError, normalizeSkill, str, unknownKeys, type PortableSkill } from './model'
import { isPlainObject, parseYamlSafe, stringifyYamlSafe } from './safe-yaml'
import { coded, refOf, type CodedText } from '../../shared/error-codes'

const GUIDE_KEYS = ['skill_name', 'description'] as const
const PROMPT_KEYS = ['skill_name', 'skill_prompt', 'return_format'] as const
/** File names of MAS configs: `<skill>_config.yaml` (or `.yml`). */
export const MAS_CONFIG_FILE = /^(.+)_config\.ya?ml$/

/** A MAS skill config document as data. */
export interface MasConfigRecord {
  data: Record<string, unknown>
  /**
   * The executor `{SKILLNAME}.py` beside the config (file name), when there is one. Read by the tree loader;
   * in the neutral model it is the resource `scripts/{SKILLNAME}.py`, so a SKILL.md folder carries it.
   */
  executor?: string
}

/** Options of `toMasConfig`. */
export interface ToMasConfigOptions {
  /** The `skill_name` the exporter chose (the file is `<skillName>_config.yaml`); defaults to the skill's name. */
  skillName?: string
  /**
   * Whether the exporter writes the `{SKILLNAME}.py` executor beside the config (default false). Only then is
   * the resource `scripts/{SKILLNAME}.py` native; otherwise the resource list rides in the carrier.
   */
  withExecutor?: boolean
}

/** A MAS skill name from any skill name: Python-style `deploy_flow` for `deploy-flow` (the executor is a module). */
export function masSkillName(name: string): string {
  return name.replace(/-/g, '_')
}

/** The seed's advice for return_format: results code must read go between `<SKILLNAME></SKILLNAME>`. */
export function returnTagAdvice(skillName: string): string {
  return `Wrap the results that code reads in <${skillName}></${skillName}>.\n`
}

/** The resource path a MAS executor has in the neutral model. */
export function executorResource(fileName: string): string {
  return `scripts/${fileName}`
}

/** Reads a `{SKILLNAME}_config.yaml` text. Throws FormatError when it is not a YAML mapping. */
export function parseMasConfig(text: string): MasConfigRecord {
  const data = parseYamlSafe(text, 'skill config')
  if (!isPlainObject(data)) {
    throw new FormatError(coded('format.not_mapping', { what: refOf(coded('format.what_config')) }))
  }
  return { data }
}

/** Writes a `{SKILLNAME}_config.yaml` text. */
export function serializeMasConfig(record: MasConfigRecord): string {
  return stringifyYamlSafe(record.data)
}

/** The file name a skill's config gets: `<name>_config.yaml`. */
export function masConfigFileName(skillName: string): string {
  return `${skillName}_config.yaml`
}

function nativeFrom(record: MasConfigRecord): PortableSkill {
  const d = record.data
  const guide = isPlainObject(d.use_guide) ? d.use_guide : undefined
  const prompt = isPlainObject(d.use_prompt) ? d.use_prompt : undefined
  const name = str(guide?.skill_name) ?? str(prompt?.skill_name)
  const promptName = str(prompt?.skill_name)
  const top: Record<string, unknown> = unknownKeys(d, ['use_guide', 'use_prompt', CARRIER_KEY]) ?? {}
  if (d.use_guide !== undefined && !guide) top.use_guide = d.use_guide
  if (d.use_prompt !== undefined && !prompt) top.use_prompt = d.use_prompt
  const guideExtra: Record<string, unknown> = guide ? unknownKeys(guide, GUIDE_KEYS) ?? {} : {}
  const promptExtra: Record<string, unknown> = prompt ? unknownKeys(prompt, PROMPT_KEYS) ?? {} : {}
  // Known keys with an unexpected type (e.g. `description:` left empty = null) are kept verbatim.
  for (const key of GUIDE_KEYS) if (guide && guide[key] !== undefined && typeof guide[key] !== 'string') guideExtra[key] = guide[key]
  for (const key of PROMPT_KEYS) if (prompt && prompt[key] !== undefined && typeof prompt[key] !== 'string') promptExtra[key] = prompt[key]
  const bag: NonNullable<PortableSkill['extra']['mas-config']> = {}
  if (Object.keys(top).length > 0) bag.top = top
  if (Object.keys(guideExtra).length > 0) bag.use_guide = guideExtra
  if (Object.keys(promptExtra).length > 0) bag.use_prompt = promptExtra
  const skill: PortableSkill = {
    title: name ?? '',
    name,
    description: str(guide?.description) ?? '',
    body: str(prompt?.skill_prompt) ?? '',
    return_format: str(prompt?.return_format),
    prompt_skill_name: promptName !== undefined && promptName !== name ? promptName : undefined,
    resources: record.executor ? [executorResource(record.executor)] : undefined,
    extra: Object.keys(bag).length > 0 ? { 'mas-config': bag } : {}
  }
  return normalizeSkill(skill)
}

function nativeTo(skill: PortableSkill, opts: ToMasConfigOptions = {}): MasConfigRecord {
  const bag = skill.extra['mas-config'] ?? {}
  const bagGuide = bag.use_guide ?? {}
  const bagPrompt = bag.use_prompt ?? {}
  const pick = (typed: unknown, key: string, from: Record<string, unknown>, fallback: unknown): unknown =>
    typed !== undefined ? typed : key in from ? from[key] : fallback
  const guide: Record<string, unknown> = {
    skill_name: pick(opts.skillName ?? skill.name, 'skill_name', bagGuide, skill.title),
    description: pick(skill.description !== '' ? skill.description : undefined, 'description', bagGuide, '')
  }
  for (const [key, value] of Object.entries(bagGuide)) if (!(GUIDE_KEYS as readonly string[]).includes(key)) guide[key] = value
  const advice = typeof guide.skill_name === 'string' && guide.skill_name !== '' ? returnTagAdvice(guide.skill_name) : ''
  const prompt: Record<string, unknown> = {
    skill_name: pick(skill.prompt_skill_name ?? opts.skillName ?? skill.name, 'skill_name', bagPrompt, guide.skill_name),
    skill_prompt: pick(skill.body !== '' ? skill.body : undefined, 'skill_prompt', bagPrompt, ''),
    // No return format of its own: the seed's advice (a carrier `unset` brings the absence back on import).
    return_format: pick(skill.return_format !== '' ? skill.return_format : undefined, 'return_format', bagPrompt, advice)
  }
  for (const [key, value] of Object.entries(bagPrompt)) if (!(PROMPT_KEYS as readonly string[]).includes(key)) prompt[key] = value
  const data: Record<string, unknown> = { use_guide: guide, use_prompt: prompt }
  for (const [key, value] of Object.entries(bag.top ?? {})) if (key !== CARRIER_KEY) data[key] = value
  const executor = typeof guide.skill_name === 'string' ? `${guide.skill_name}.py` : undefined
  return opts.withExecutor && executor && skill.resources?.includes(executorResource(executor)) ? { data, executor } : { data }
}

/** MAS config record → neutral model (carrier applied). */
export function fromMasConfig(record: MasConfigRecord): PortableSkill {
  return applyCarrier(nativeFrom(record), record.data[CARRIER_KEY])
}

/** Neutral model → MAS config record; fields it cannot hold go to the `skillbench` key. */
export function toMasConfig(skill: PortableSkill, opts: ToMasConfigOptions = {}): MasConfigRecord {
  const record = nativeTo(skill, opts)
  const carrier = diffCarrier(skill, nativeFrom(record))
  if (carrier) record.data[CARRIER_KEY] = carrier
  return record
}

/** Problems of a MAS config, by code with their English (empty = valid). `fileSkill` is the `<name>` of `<name>_config.yaml`. */
export function validateMasConfig(record: MasConfigRecord, fileSkill?: string): CodedText[] {
  const d = record.data
  const problems: CodedText[] = []
  const guide = d.use_guide
  const prompt = d.use_prompt
  if (!isPlainObject(guide)) {
    problems.push(coded('masconfig.guide_missing'))
  } else {
    if (typeof guide.skill_name !== 'string' || guide.skill_name.trim() === '') problems.push(coded('masconfig.field_empty', { field: 'use_guide.skill_name' }))
    if (typeof guide.description !== 'string' || guide.description.trim() === '') problems.push(coded('masconfig.field_empty', { field: 'use_guide.description' }))
  }
  if (!isPlainObject(prompt)) {
    problems.push(coded('masconfig.prompt_missing'))
  } else {
    if (typeof prompt.skill_name !== 'string' || prompt.skill_name.trim() === '') problems.push(coded('masconfig.field_empty', { field: 'use_prompt.skill_name' }))
    if (typeof prompt.skill_prompt !== 'string' || prompt.skill_prompt.trim() === '') problems.push(coded('masconfig.field_empty', { field: 'use_prompt.skill_prompt' }))
    if (prompt.return_format !== undefined && prompt.return_format !== null && typeof prompt.return_format !== 'string') problems.push(coded('masconfig.return_format'))
  }
  if (isPlainObject(guide) && isPlainObject(prompt) && typeof guide.skill_name === 'string' && typeof prompt.skill_name === 'string' && guide.skill_name !== prompt.skill_name) {
    problems.push(coded('masconfig.names_differ', { guide: guide.skill_name, prompt: prompt.skill_name }))
  }
  if (fileSkill !== undefined && isPlainObject(guide) && typeof guide.skill_name === 'string' && guide.skill_name !== fileSkill) {
    problems.push(coded('masconfig.file_name', { name: guide.skill_name, file: fileSkill }))
  }
  return problems
}

/** One entry of the "available skills and tools" list. */
export interface AvailableSkill {
  skill_name: string
  description: string
}

/**
 * Assembles the `available_skills_and_tools` text of an agent prompt from the configs' `use_guide`s
 * (seed 002): one `- name: description` line per skill, sorted by name, duplicates dropped, plus tools if given.
 */
export function buildAvailableSkillsText(configs: MasConfigRecord[], tools: AvailableSkill[] = []): string {
  const seen = new Map<string, string>()
  for (const config of configs) {
    const guide = config.data.use_guide
    if (isPlainObject(guide) && typeof guide.skill_name === 'string' && guide.skill_name.trim() !== '' && !seen.has(guide.skill_name)) {
      seen.set(guide.skill_name, typeof guide.description === 'string' ? guide.description.trim().replace(/\s*\n\s*/g, ' ') : '')
    }
  }
  const line = (name: string, description: string): string => `- ${name}: ${description || '(no description)'}`
  const lines = ['Available skills:']
  const skills = [...seen.entries()].sort(([a], [b]) => a.localeCompare(b))
  lines.push(...(skills.length > 0 ? skills.map(([n, d]) => line(n, d)) : ['- (none)']))
  if (tools.length > 0) {
    lines.push('', 'Available tools:', ...[...tools].sort((a, b) => a.skill_name.localeCompare(b.skill_name)).map((t) => line(t.skill_name, t.description)))
  }
  return lines.join('\n') + '\n'
}
