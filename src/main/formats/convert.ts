/**
 * Export / import: converts every skill of one folder into another format and writes the files atomically
 * into another folder. Never overwrites an existing file unless asked (it is skipped with a reason);
 * SKILL.md trees get their index.json regenerated afterwards.
 */
import fs from 'node:fs'
import path from 'node:path'
import { writeFileAtomic } from '../store/atomic'
import { buildSkillFileName, derivedSkillId, isInside, isValidSkillId, reservedNameProblem } from '../store/paths'
import { StoreError } from '../store/types'
import { serializeAgiAgent, toAgiAgent } from './agiagent'
import { serializeLearnedYaml, toLearnedYaml } from './learned-yaml'
import { buildAvailableSkillsText, executorResource, masConfigFileName, masSkillName, serializeMasConfig, toMasConfig } from './mas-config'
import type { FormatId, PortableSkill } from './model'
import { serializeSkillMd, skillMdNameFor, slugifySkillName, toSkillMd, uniqueSkillName } from './skill-md'
import { indexFileFor, syncSkillIndex } from './skill-index'
import { findSkillFiles, loadImportSource, loadSkillTree, type FormatLoadError, type LoadedSkill } from './tree'
import { coded, refOf, type CodedText, type MessageCode, type MessageParams } from '../../shared/error-codes'
import { errorAsCoded } from '../../shared/api-error'
import { codedReason } from '../../shared/coded-reason'

export interface ConvertOptions {
  /** Replace files that already exist (default: skip them with a reason). */
  overwrite?: boolean
  /** `sourceDir` may be one skill: a skill file, or a folder with a SKILL.md at its top (import). */
  single?: boolean
}

export interface WrittenFile {
  from: string
  to: string
  format: FormatId
}

/** A skill (or file) not written: why in words (`reason`, what scripts read) and by code beside them. */
export interface SkippedFile {
  from: string
  to: string | null
  reason: string
  messageCode: MessageCode
  params: MessageParams
}

export interface ConvertReport {
  source: string
  target: string
  to: FormatId
  written: WrittenFile[]
  skipped: SkippedFile[]
  errors: FormatLoadError[]
  /** The target tree's catalogue (SKILL.md targets): `index.json`, or `.skillbench/index.json` where the root has none. */
  index?: { file: string; status: 'written' | 'unchanged' | 'skipped'; reason?: string; messageCode?: MessageCode; params?: MessageParams; skills: number }
  /** `available_skills_and_tools.txt` of the target folder (MAS config targets): every valid config's use_guide. */
  available?: { file: string; status: 'written' | 'unchanged'; skills: number }
}

/** The file a MAS export writes beside the configs: the agent prompt's `available_skills_and_tools` list (seed 002). */
export const AVAILABLE_SKILLS_FILE = 'available_skills_and_tools.txt'

/** Rewrites the target's available-skills list from every valid config in it (like index.json, it is derived). */
async function syncAvailableSkills(target: string): Promise<NonNullable<ConvertReport['available']>> {
  const { skills } = await loadSkillTree(target, 'mas-config')
  const valid = skills.flatMap((s) => (s.format === 'mas-config' && !s.problems.some((p) => p.level === 'error') ? [s.record] : []))
  const text = buildAvailableSkillsText(valid)
  const abs = path.join(target, AVAILABLE_SKILLS_FILE)
  const old = await fs.promises.readFile(abs, 'utf8').catch(() => null)
  if (old !== text) await writeInside(target, AVAILABLE_SKILLS_FILE, text, true)
  return { file: AVAILABLE_SKILLS_FILE, status: old === text ? 'unchanged' : 'written', skills: valid.length }
}

/** One file to write: target path relative to the output folder, its text, and resource files to copy. */
interface PlannedFile {
  rel: string
  text: string
  copies: { fromAbs: string; rel: string }[]
}

function learnedFileName(skill: PortableSkill): string {
  const base = skill.learned_id ?? skill.name ?? skill.title
  const slug = base.normalize('NFKD').replace(/[^\w.-]+/g, '_').replace(/^[._]+|[._]+$/g, '').slice(0, 64)
  return slug || slugifySkillName(skill.title, skill.skill_id)
}

/** The MAS skill name (and file stem): Python-style, so `deploy-flow` exports as `deploy_flow_config.yaml` + `deploy_flow.py`. */
function masName(skill: PortableSkill): string {
  const name = skill.name ?? ''
  return masSkillName(/^[\w-]{1,64}$/.test(name) ? name : slugifySkillName(skill.name || skill.title, skill.skill_id))
}

/**
 * Where the source's MAS executor (`{SKILLNAME}.py`) is, if it has one: beside a MAS config, or the
 * `scripts/{SKILLNAME}.py` of a SKILL.md folder. Null when the skill has none.
 */
function executorSource(loaded: LoadedSkill, fileName: string): string | null {
  const dir = path.dirname(loaded.abs)
  if (loaded.format === 'mas-config') return loaded.record.executor === fileName ? path.join(dir, fileName) : null
  if (loaded.format === 'skill-md') return loaded.skill.resources?.includes(executorResource(fileName)) ? path.join(dir, executorResource(fileName)) : null
  return null
}

/** Plans the file(s) for each skill, with names unique in the batch (kebab suffix / `_<id>` like upstream). */
function plan(skills: LoadedSkill[], to: FormatId, existing: Map<string, string>): { skill: LoadedSkill; file: PlannedFile }[] {
  const taken = new Set<string>()
  const out: { skill: LoadedSkill; file: PlannedFile }[] = []
  for (const loaded of skills) {
    let model = loaded.skill
    let file: PlannedFile
    switch (to) {
      case 'skill-md': {
        const name = uniqueSkillName(skillMdNameFor(model), taken)
        // A skill of that name already in the target tree (maybe in a category folder) is the same skill: same place.
        const dir = existing.get(name) ?? name
        // A MAS executor travels as the folder's scripts/{SKILLNAME}.py.
        const executor = loaded.format === 'mas-config' ? loaded.record.executor : undefined
        const record = toSkillMd(model, { name, withResources: loaded.format === 'skill-md' || executor !== undefined })
        const copies = loaded.format === 'skill-md' ? (model.resources ?? []).map((rel) => ({ fromAbs: path.join(path.dirname(loaded.abs), rel), rel: `${dir}/${rel}` })) : []
        if (executor) copies.push({ fromAbs: path.join(path.dirname(loaded.abs), executor), rel: `${dir}/${executorResource(executor)}` })
        file = { rel: `${dir}/SKILL.md`, text: serializeSkillMd(record), copies }
        break
      }
      case 'agiagent': {
        // AGIAgent needs a digit id: a skill without one gets the stable id the store would give it.
        if (!model.skill_id || !isValidSkillId(model.skill_id)) model = { ...model, skill_id: derivedSkillId(loaded.path) }
        const name = buildSkillFileName(model.title || model.name || 'untitled', model.skill_id!, (n) => taken.has(n))
        taken.add(name)
        file = { rel: name, text: serializeAgiAgent(toAgiAgent(model)), copies: [] }
        break
      }
      case 'learned-yaml': {
        const name = uniqueFile(learnedFileName(model), '.yaml', taken)
        file = { rel: name, text: serializeLearnedYaml(toLearnedYaml(model)), copies: [] }
        break
      }
      case 'mas-config': {
        const base = masName(model)
        let name = base
        for (let n = 2; taken.has(masConfigFileName(name)); n++) name = `${base}_${n}`
        taken.add(masConfigFileName(name))
        const from = executorSource(loaded, `${name}.py`)
        const record = toMasConfig(model, { skillName: name, withExecutor: from !== null })
        // The executor keeps the config's name: `{SKILLNAME}.py` beside `{SKILLNAME}_config.yaml`.
        file = { rel: masConfigFileName(name), text: serializeMasConfig(record), copies: from ? [{ fromAbs: from, rel: `${name}.py` }] : [] }
        break
      }
    }
    out.push({ skill: loaded, file })
  }
  return out
}

function uniqueFile(stem: string, ext: string, taken: Set<string>): string {
  let name = stem + ext
  for (let n = 2; taken.has(name); n++) name = `${stem}_${n}${ext}`
  taken.add(name)
  return name
}

async function exists(abs: string): Promise<boolean> {
  try {
    await fs.promises.lstat(abs)
    return true
  } catch {
    return false
  }
}

/** Writes one file inside `outRoot` (real path); refuses anything that would land outside it. */
async function writeInside(outRoot: string, rel: string, data: string | Uint8Array, overwrite: boolean): Promise<void> {
  const abs = path.resolve(outRoot, rel)
  if (!isInside(outRoot, abs)) throw new StoreError('path_escape', coded('convert.outside', { root: outRoot, path: rel }))
  await fs.promises.mkdir(path.dirname(abs), { recursive: true })
  const realDir = await fs.promises.realpath(path.dirname(abs))
  if (!isInside(outRoot, realDir)) throw new StoreError('path_escape', coded('convert.link_outside', { root: outRoot, path: rel }))
  await writeFileAtomic(abs, data, { mustNotExist: !overwrite })
}

function skippedFile(from: string, to: string | null, why: CodedText): SkippedFile {
  return { from, to, ...codedReason(why) }
}

/** Why a write failed: the error's own words, by its code when it carried one (the store's), else as they are. */
function writeFailure(err: unknown): CodedText {
  return errorAsCoded(err, (reason) => coded('convert.failed', { reason }))
}

/** An entry the tree walk passed over (a link): its words, by the code the walk gave. */
function walkSkipped(s: FormatLoadError): SkippedFile {
  return skippedFile(s.path, '', { text: s.reason, messageCode: s.messageCode, params: s.params })
}

const EXISTS = coded('convert.exists')

/**
 * Converts every skill found under `sourceDir` (all formats, or only `from`) to `to` and writes them under
 * `targetDir`. Existing files are skipped with a reason unless `overwrite`. SKILL.md targets get index.json.
 */
export async function convertTree(sourceDir: string, targetDir: string, to: FormatId, opts: ConvertOptions & { from?: FormatId } = {}): Promise<ConvertReport> {
  const source = await fs.promises.realpath(sourceDir)
  await fs.promises.mkdir(targetDir, { recursive: true })
  const target = await fs.promises.realpath(targetDir)
  const loaded = opts.single ? await loadImportSource(source, opts.from) : await loadSkillTree(source, opts.from)
  const { skills, errors } = loaded
  const report: ConvertReport = { source, target, to, written: [], skipped: (loaded.skipped ?? []).map(walkSkipped), errors }
  const existing = new Map<string, string>()
  if (to === 'skill-md') {
    for (const found of await findSkillFiles(target, 'skill-md')) {
      const dir = path.posix.dirname(found.path)
      existing.set(path.posix.basename(dir), dir)
    }
  }
  for (const { skill, file } of plan(skills, to, existing)) {
    const abs = path.join(target, file.rel)
    const folder = file.rel.split('/')[0]!
    const reserved = to === 'skill-md' && file.rel.includes('/') ? reservedNameProblem(folder) : null
    if (reserved) {
      report.skipped.push(skippedFile(skill.path, file.rel, coded('convert.not_imported', { reason: refOf(reserved) })))
      continue
    }
    if (abs === skill.abs) {
      report.skipped.push(skippedFile(skill.path, file.rel, coded('convert.same_file')))
      continue
    }
    if (!opts.overwrite && (await exists(abs))) {
      report.skipped.push(skippedFile(skill.path, file.rel, EXISTS))
      continue
    }
    try {
      await writeInside(target, file.rel, file.text, Boolean(opts.overwrite))
    } catch (err) {
      report.skipped.push(skippedFile(skill.path, file.rel, writeFailure(err)))
      continue
    }
    // The skill's file is written: it is reported so even when one of its resources fails (that one is skipped).
    report.written.push({ from: skill.path, to: file.rel, format: to })
    for (const copy of file.copies) {
      const from = path.relative(source, copy.fromAbs).split(path.sep).join('/')
      try {
        const st = await fs.promises.lstat(copy.fromAbs)
        if (!st.isFile()) continue
        if (!opts.overwrite && (await exists(path.join(target, copy.rel)))) {
          report.skipped.push(skippedFile(from, copy.rel, EXISTS))
          continue
        }
        await writeInside(target, copy.rel, await fs.promises.readFile(copy.fromAbs), Boolean(opts.overwrite))
      } catch (err) {
        report.skipped.push(skippedFile(from, copy.rel, writeFailure(err)))
      }
    }
  }
  if (to === 'skill-md') {
    const file = indexFileFor(target)
    const synced = await syncSkillIndex(target, file)
    report.index = { file, status: synced.status, reason: synced.reason, ...(synced.reasonRef ?? {}), skills: synced.index.skills.length }
  }
  if (to === 'mas-config') report.available = await syncAvailableSkills(target)
  return report
}

/** Which layout a library folder uses for new skills: AGIAgent when it only holds `skill_*.md` files, SKILL.md otherwise. */
export async function libraryLayout(libraryDir: string): Promise<'agiagent' | 'skill-md'> {
  let names: string[]
  try {
    names = await fs.promises.readdir(libraryDir)
  } catch {
    return 'skill-md'
  }
  const agi = names.some((n) => n.startsWith('skill_') && n.endsWith('.md'))
  const hasSkillMd = (await loadSkillTree(libraryDir, 'skill-md')).skills.length > 0
  return agi && !hasSkillMd ? 'agiagent' : 'skill-md'
}
