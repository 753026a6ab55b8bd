/** The skill store's public surface: open a library, parse/serialize skill files, guard ids and paths. */
export { openLibrary, hashBytes, SKIPPED_DIRS, MAX_SKILL_FILE_BYTES, type SkillLibrary, type LibraryOptions } from './library'
export { StoreError, type StoreErrorCode, type SkillStore, type NewSkillInput, type SkillPatch, type UpdateOptions } from './types'
export {
  parseSkillText,
  parseSkillBytes,
  decodeSkillBytes,
  serializeSkillFile,
  rewriteSkillFile,
  patchFrontMatterYaml,
  stringifyFrontMatter,
  assembleSkillText,
  parseFrontMatterYaml,
  type SkillFileParts,
  type ParseResult,
  type FrontMatterChange
} from './skill-file'
export {
  SKILL_ID_PATTERN,
  isValidSkillId,
  assertSkillId,
  checkRelPath,
  resolveInside,
  isInside,
  titleStem,
  buildSkillFileName,
  derivedSkillId
} from './paths'
export { writeFileAtomic, withPathLock, sweepTempFiles, isTempName, moveNoClobber } from './atomic'
export { skillFromParts, changesForMeta, formatTimestamp, AGIAGENT_KEYS } from './skill-meta'
