/** Agent skill tools: the five tools, their schemas, and the disabled variant. */
export {
  createSkillTools,
  createDisabledSkillTools,
  callSkillTool,
  formatQueryMessage,
  indexedText,
  DISABLED_MESSAGE,
  EDIT_MODES,
  SKILL_TOOL_NAMES,
  type SkillTools,
  type SkillToolsOptions,
  type QueryOptions,
  type EditMode,
  type SkillToolName,
  type ToolStore
} from './skill-tools'
export { SKILL_TOOL_SCHEMAS, memoryToolsDictionary, type FunctionToolSchema, type MemoryToolsEntry } from './schemas'
export { copySkillFiles, codesFolderFor, COPYABLE_EXTENSIONS, DEFAULT_COPY_LIMITS, type CopyLimits } from './copy-files'
