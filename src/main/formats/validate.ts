/** `skillbench validate PATH`: checks any file or folder of skills, every format, and reports path + problem per file. */
import fs from 'node:fs'
import path from 'node:path'
import { FormatError, type FormatId } from './model'
import type { Problem } from './skill-md'
import { buildSkillIndex, indexFileFor, readSkillIndex, serializeSkillIndex } from './skill-index'
import { formatFromName, formatLoadError, loadSkillFile, loadSkillTree } from './tree'
import { coded, type CodedText } from '../../shared/error-codes'

/** A finding with its English and its code (the app and `validate --json` read the code). */
function problem(level: Problem['level'], c: CodedText): Problem {
  return { level, message: c.text, messageCode: c.messageCode, params: c.params }
}

export interface FileReport {
  path: string
  format: FormatId | null
  ok: boolean
  problems: Problem[]
}

export interface ValidationReport {
  root: string
  files: FileReport[]
  errors: number
  warnings: number
}

function summarize(root: string, files: FileReport[]): ValidationReport {
  let errors = 0
  let warnings = 0
  for (const f of files) {
    for (const p of f.problems) {
      if (p.level === 'error') errors++
      else warnings++
    }
  }
  return { root, files, errors, warnings }
}

/** Validates one skill file or every skill under a folder (and, for SKILL.md trees, that index.json is in sync). */
export async function validatePath(target: string): Promise<ValidationReport> {
  const st = await fs.promises.lstat(target).catch(() => null)
  if (!st) throw new FormatError(coded('format.no_such_target', { path: target }))
  if (st.isSymbolicLink()) throw new FormatError(coded('format.symlink_target', { path: target }))
  if (st.isFile()) {
    const format = formatFromName(path.basename(target))
    if (!format) throw new FormatError(coded('format.not_skill_name_any', { name: path.basename(target) }))
    try {
      const loaded = await loadSkillFile({ format, path: path.basename(target), abs: path.resolve(target) })
      return summarize(path.dirname(path.resolve(target)), [{ path: loaded.path, format: loaded.format, ok: !loaded.problems.some((p) => p.level === 'error'), problems: loaded.problems }])
    } catch (err) {
      const e = formatLoadError(path.basename(target), err)
      return summarize(path.dirname(path.resolve(target)), [{ path: e.path, format, ok: false, problems: [{ level: 'error', message: e.reason, messageCode: e.messageCode, params: e.params }] }])
    }
  }
  const root = await fs.promises.realpath(target)
  const { skills, errors } = await loadSkillTree(root)
  const files: FileReport[] = skills.map((s) => ({ path: s.path, format: s.format, ok: !s.problems.some((p) => p.level === 'error'), problems: s.problems }))
  // Two skill files with one skill_id make every change by that id ambiguous (the store refuses them).
  const byId = new Map<string, string[]>()
  for (const s of skills) {
    if ((s.format !== 'agiagent' && s.format !== 'skill-md') || !s.skill.skill_id) continue
    byId.set(s.skill.skill_id, [...(byId.get(s.skill.skill_id) ?? []), s.path])
  }
  for (const [id, paths] of byId) {
    if (paths.length < 2) continue
    for (const f of files) {
      if (!paths.includes(f.path)) continue
      f.ok = false
      f.problems = [...f.problems, problem('error', coded('validate.duplicate_id', { id, paths: paths.filter((p) => p !== f.path).join(', ') }))]
    }
  }
  // In a SKILL.md library (~/.claude/skills, Codex, Agent Skills) an AGIAgent file is never loaded by the agents.
  if (skills.some((s) => s.format === 'skill-md')) {
    for (const f of files) {
      // at the top, where reflection used to write them (a folder of another format below is a collection, not this)
      if (f.format !== 'agiagent' || f.path.includes('/')) continue
      f.ok = false
      f.problems = [
        ...f.problems,
        problem('error', coded('validate.agiagent_in_skillmd'))
      ]
    }
  }
  for (const e of errors) files.push({ path: e.path, format: formatFromName(path.basename(e.path)), ok: false, problems: [{ level: 'error', message: e.reason, ...(e.messageCode ? { messageCode: e.messageCode, params: e.params } : {}) }] })
  const indexRel = indexFileFor(root)
  const current = await readSkillIndex(root, indexRel)
  if (current) {
    const fresh = await buildSkillIndex(root)
    const inSync = serializeSkillIndex(current as never) === serializeSkillIndex(fresh)
    files.push({ path: indexRel, format: null, ok: true, problems: inSync ? [] : [problem('warning', coded('validate.index_stale', { file: indexRel }))] })
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return summarize(root, files)
}
