/** Public surface of the skill formats: the neutral model, the four converters, validators, matcher and I/O. */
import { buildAvailableSkillsText, type AvailableSkill, type MasConfigRecord } from './mas-config'
import type { Problem } from './skill-md'
import { loadSkillTree, type FormatLoadError } from './tree'

export * from './model'
export { parseYamlSafe, stringifyYamlSafe, MAX_YAML_BYTES } from './safe-yaml'
export { parseAgiAgent, serializeAgiAgent, fromAgiAgent, toAgiAgent, validateAgiAgent, AGIAGENT_KEYS, type AgiAgentRecord } from './agiagent'
export {
  parseSkillMd,
  serializeSkillMd,
  fromSkillMd,
  toSkillMd,
  validateSkillMd,
  slugifySkillName,
  uniqueSkillName,
  skillMdNameFor,
  cutDescription,
  SKILL_MD_KEYS,
  SKILL_NAME_PATTERN,
  MAX_NAME_CHARS,
  MAX_DESCRIPTION_CHARS,
  type SkillMdRecord,
  type Problem,
  type ToSkillMdOptions
} from './skill-md'
export { parseLearnedYaml, serializeLearnedYaml, fromLearnedYaml, toLearnedYaml, validateLearnedYaml, renderLearnedBody, type LearnedRecord } from './learned-yaml'
export {
  parseMasConfig,
  serializeMasConfig,
  fromMasConfig,
  toMasConfig,
  validateMasConfig,
  buildAvailableSkillsText,
  masConfigFileName,
  type MasConfigRecord,
  type AvailableSkill
} from './mas-config'
export { checkPattern, findCatastrophicShape, execWithTimeout, execManyWithTimeout, RegexSandbox, RegexTimeoutError, MAX_PATTERN_CHARS, DEFAULT_MATCH_TIMEOUT_MS } from './regex-guard'
export { matchTriggers, type TriggerSkill, type TriggerMatch, type TriggerRejection, type TriggerResult } from './matcher'
export { findSkillFiles, loadSkillFile, loadSkillTree, listResources, parseAny, modelOf, validateAny, formatFromName, type LoadedSkill, type FoundSkillFile, type FormatLoadError } from './tree'
export { buildSkillIndex, syncSkillIndex, readSkillIndex, serializeSkillIndex, INDEX_FILE, type SkillIndex, type SkillIndexEntry } from './skill-index'
export { convertTree, libraryLayout, type ConvertReport, type ConvertOptions } from './convert'
export { validatePath, type ValidationReport, type FileReport } from './validate'
export { generateCommands, renderWrapper, toolName, MANIFEST_FILE, STALE_DIR, type CommandsReport, type GeneratedCommand } from './commands-gen'
export { extractScriptDoc, interpreterFor } from './script-doc'
export { editSkillText, editSkillFile, serializeInFormat, hashText, type SkillEdit } from './edit'

/** Every `*_config.yaml` under `dir` with its validation problems, plus the "available skills" text built from the valid ones. */
export async function listMasConfigs(
  dir: string,
  tools: AvailableSkill[] = []
): Promise<{ configs: { path: string; record: MasConfigRecord; problems: Problem[] }[]; errors: FormatLoadError[]; availableSkillsText: string }> {
  const { skills, errors } = await loadSkillTree(dir, 'mas-config')
  const configs = skills.flatMap((s) => (s.format === 'mas-config' ? [{ path: s.path, record: s.record, problems: s.problems }] : []))
  const valid = configs.filter((c) => !c.problems.some((p) => p.level === 'error')).map((c) => c.record)
  return { configs, errors, availableSkillsText: buildAvailableSkillsText(valid, tools) }
}
