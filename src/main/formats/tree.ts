/**
 * Finds and loads skills of every format under a folder. Read-only: nothing here writes.
 * Symbolic links are never followed; malformed files are reported (path + reason) and skipped.
 */
import { coded } from '../../shared/error-codes'
import fs from 'node:fs'
import path from 'node:path'
import { decodeSkillBytes } from '../store/skill-file'
import { listResources } from '../store/skill-index'
import { readFileAtMost } from '../store/read-at-most'
import { walkSkillTree } from '../store/walk'
import { fromAgiAgent, parseAgiAgent, validateAgiAgent, type AgiAgentRecord } from './agiagent'
import { fromLearnedYaml, parseLearnedYaml, validateLearnedYaml, type LearnedRecord } from './learned-yaml'
import { buildAvailableSkillsText, fromMasConfig, MAS_CONFIG_FILE, parseMasConfig, validateMasConfig, type AvailableSkill, type MasConfigRecord } from './mas-config'
import { FormatError, type FormatId, type PortableSkill } from './model'
import { isPlainObject, parseYamlSafe } from './safe-yaml'
import { fromSkillMd, parseSkillMd, validateSkillMd, type Problem, type SkillMdRecord } from './skill-md'
import type { CodedText } from '../../shared/error-codes'
import { codedFieldsOf, errorAsCoded } from '../../shared/api-error'
import { codedReason, type CodedReason } from '../../shared/coded-reason'

/** Largest skill file read (bigger ones are reported, not read). */
export const MAX_FORMAT_FILE_BYTES = 2 * 1024 * 1024

/** A skill file found under a root. */
export interface FoundSkillFile {
  format: FormatId
  /** Path relative to the root, forward slashes. */
  path: string
  abs: string
}

/** A file that could not be read as a skill: why in words (`reason`) and by code beside them (always one). */
export type FormatLoadError = { path: string } & CodedReason

/**
 * A format load error from what was thrown: its words and, beside them, its code — the error's own (the parsers,
 * validators and the size-limited read throw FormatErrors by code), else the file system's failure as
 * `format.cannot_read` (ENOENT for a file gone since the walk, EACCES, EIO…), its words kept as they were.
 */
export function formatLoadError(path: string, err: unknown): FormatLoadError {
  return { path, ...codedReason(errorAsCoded(err, (detail) => coded('format.cannot_read', { detail }))) }
}

export type AnyRecord =
  | { format: 'agiagent'; record: AgiAgentRecord }
  | { format: 'skill-md'; record: SkillMdRecord }
  | { format: 'learned-yaml'; record: LearnedRecord }
  | { format: 'mas-config'; record: MasConfigRecord }

/** One loaded skill: where it is, its record as read, the neutral model and the validator's findings. */
export type LoadedSkill = AnyRecord & {
  path: string
  abs: string
  skill: PortableSkill
  problems: Problem[]
}

/** Which format a file name says, before reading it (`learned-yaml` = any other YAML, checked by content). */
export function formatFromName(name: string): FormatId | null {
  if (name === 'SKILL.md') return 'skill-md'
  if (name.startsWith('skill_') && name.endsWith('.md')) return 'agiagent'
  if (MAS_CONFIG_FILE.test(name)) return 'mas-config'
  if (/\.ya?ml$/.test(name)) return 'learned-yaml'
  return null
}

/**
 * Lists skill files under `root` (SKILL.md, skill_*.md, *_config.yaml, other *.yaml). Skips symlinks, our temp
 * files and `legacy/`, `codes/`, `logs/`, `.git`, `node_modules`; does not look for more skills inside a SKILL.md folder.
 */
export async function findSkillFiles(root: string, only?: FormatId, onSkipped?: (rel: string, reason: CodedText) => void): Promise<FoundSkillFile[]> {
  const out: FoundSkillFile[] = []
  await walkSkillTree(root, (f) => {
    const format = formatFromName(f.name)
    if (!format || (only && format !== only && !(only === 'mas-config' && format === 'learned-yaml'))) return
    if (f.inSkillFolder && format !== 'skill-md') return
    if (f.depth === 0 && format === 'skill-md') return // a SKILL.md at the root is not a skill folder of the tree
    out.push({ format, path: f.rel, abs: f.abs })
  }, onSkipped)
  return out
}

export { listResources }

/**
 * The text of a skill file, the limit checked on what is read (the opened file, not a link's own size; a file that
 * grew since it was found is refused too). A FIFO or device never blocks; a link is read only with `followLinks`.
 */
async function readText(abs: string, rel: string, followLinks: boolean): Promise<string> {
  const read = await readFileAtMost(abs, MAX_FORMAT_FILE_BYTES, { followLinks })
  if (read.kind === 'too_large') throw new FormatError(coded('format.file_too_large', { bytes: MAX_FORMAT_FILE_BYTES }))
  if (read.kind !== 'ok') throw new FormatError(coded('format.not_regular', { path: rel }))
  const decoded = decodeSkillBytes(read.bytes)
  if (!decoded.ok) throw new FormatError(coded(decoded.messageCode, decoded.params))
  return decoded.text
}

function problemsOf(messages: CodedText[]): Problem[] {
  // a finding keeps its code and params (the app and `validate --json` read them)
  return messages.map((m) => ({ level: 'error' as const, message: m.text, messageCode: m.messageCode, params: m.params }))
}

/** Parses a text as the given format (YAML files are sniffed: `use_guide` = MAS config, otherwise learned). */
export function parseAny(format: FormatId, text: string): AnyRecord {
  switch (format) {
    case 'agiagent':
      return { format, record: parseAgiAgent(text) }
    case 'skill-md':
      return { format, record: parseSkillMd(text) }
    case 'mas-config':
      return { format, record: parseMasConfig(text) }
    case 'learned-yaml': {
      const data = parseYamlSafe(text, 'YAML skill')
      if (isPlainObject(data) && ('use_guide' in data || 'use_prompt' in data)) return { format: 'mas-config', record: { data } }
      return { format, record: parseLearnedYaml(text) }
    }
  }
}

/** Neutral model of any record. */
export function modelOf(any: AnyRecord): PortableSkill {
  switch (any.format) {
    case 'agiagent':
      return fromAgiAgent(any.record)
    case 'skill-md':
      return fromSkillMd(any.record)
    case 'learned-yaml':
      return fromLearnedYaml(any.record)
    case 'mas-config':
      return fromMasConfig(any.record)
  }
}

/** The validator's findings for any record; `fileName`/`dirName` give the name checks their context. */
export function validateAny(any: AnyRecord, where: { dirName?: string; fileName?: string } = {}): Problem[] {
  switch (any.format) {
    case 'agiagent':
      return validateAgiAgent(any.record, where.fileName)
    case 'skill-md':
      return validateSkillMd(any.record, { dirName: where.dirName })
    case 'learned-yaml':
      return problemsOf(validateLearnedYaml(any.record))
    case 'mas-config': {
      const m = where.fileName ? MAS_CONFIG_FILE.exec(where.fileName) : null
      return problemsOf(validateMasConfig(any.record, m?.[1]))
    }
  }
}

/** The `{SKILLNAME}.py` executor beside a `{SKILLNAME}_config.yaml` (a regular file, links not followed), or null. */
async function masExecutorBeside(configAbs: string): Promise<string | null> {
  const m = MAS_CONFIG_FILE.exec(path.basename(configAbs))
  if (!m) return null
  const name = `${m[1]}.py`
  const st = await fs.promises.lstat(path.join(path.dirname(configAbs), name)).catch(() => null)
  return st?.isFile() ? name : null
}

/**
 * Reads, parses, converts and validates one found file. Throws FormatError when it cannot be read as a skill.
 * A link is refused unless `followLinks` (a file the person named by that path).
 */
export async function loadSkillFile(found: FoundSkillFile, opts: { followLinks?: boolean } = {}): Promise<LoadedSkill> {
  const text = await readText(found.abs, found.path, opts.followLinks ?? false)
  const any = parseAny(found.format, text)
  if (any.format === 'learned-yaml' && !('trigger_pattern' in any.record.data) && !('steps' in any.record.data)) {
    throw new FormatError(coded('format.not_a_skill'))
  }
  if (any.format === 'skill-md') {
    any.record.resources = await listResources(path.dirname(found.abs))
  }
  if (any.format === 'mas-config') {
    const executor = await masExecutorBeside(found.abs)
    if (executor) any.record.executor = executor
  }
  const problems = validateAny(any, { dirName: path.basename(path.dirname(found.abs)), fileName: path.basename(found.abs) })
  return { ...any, path: found.path, abs: found.abs, skill: modelOf(any), problems }
}

/** Loads every skill under `root`; YAML files that are not skills are silently left out, other failures are reported. */
export async function loadSkillTree(root: string, only?: FormatId): Promise<{ skills: LoadedSkill[]; errors: FormatLoadError[]; skipped: FormatLoadError[] }> {
  const skills: LoadedSkill[] = []
  const errors: FormatLoadError[] = []
  const skipped: FormatLoadError[] = []
  for (const found of await findSkillFiles(root, only, (rel, why) => skipped.push({ path: rel, ...codedReason(why) }))) {
    try {
      const loaded = await loadSkillFile(found)
      if (only && loaded.format !== only) continue
      skills.push(loaded)
    } catch (err) {
      if (found.format === 'learned-yaml' && codedFieldsOf(err)?.messageCode === 'format.not_a_skill') continue
      errors.push(formatLoadError(found.path, err))
    }
  }
  return { skills, errors, skipped }
}

/**
 * The skills an import reads from `source`: a single skill file (`SKILL.md`, `skill_*.md`, `*_config.yaml`,
 * a learned `.yaml`), one skill folder (a `SKILL.md` at its top, with its resources), or every skill of a tree.
 */
export async function loadImportSource(source: string, only?: FormatId): Promise<{ skills: LoadedSkill[]; errors: FormatLoadError[]; skipped?: FormatLoadError[] }> {
  const st = await fs.promises.stat(source)
  let found: FoundSkillFile | null = null
  // the file named as the source is read through a link (as stat above follows it); found in a folder, never
  if (st.isFile()) {
    const name = path.basename(source)
    const format = formatFromName(name)
    if (!format) return { skills: [], errors: [{ path: name, ...codedReason(coded('format.not_skill_name_here')) }] }
    found = { format, path: name, abs: source }
  } else {
    const top = path.join(source, 'SKILL.md')
    const topSt = await fs.promises.lstat(top).catch(() => null)
    if (topSt?.isFile()) found = { format: 'skill-md', path: 'SKILL.md', abs: top }
  }
  if (!found) return loadSkillTree(source, only)
  if (only && found.format !== only && !(only === 'mas-config' && found.format === 'learned-yaml')) return { skills: [], errors: [] }
  try {
    const loaded = await loadSkillFile(found, { followLinks: st.isFile() })
    return { skills: only && loaded.format !== only ? [] : [loaded], errors: [] }
  } catch (err) {
    return { skills: [], errors: [formatLoadError(found.path, err)] }
  }
}

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
