/**
 * File changes of proposals: exact before/after text of every file touched. Pure.
 */
import path from 'node:path'
import type { FileChange, Skill, SkillMeta } from '../../shared/types'
import { parseSkillText, rewriteSkillFile } from '../store/skill-file'
import { changesForMeta } from '../store/skill-meta'

/** The skill file's text with front-matter fields changed (formatting kept) and optionally a new body. */
export function rewriteSkillText(raw: string, skill: Pick<Skill, 'format' | 'skill_id' | 'path'>, meta: Partial<SkillMeta>, body?: string): string {
  const parsed = parseSkillText(raw)
  if (!parsed.ok) throw new Error(`${skill.path}: ${parsed.reason}`)
  return rewriteSkillFile(parsed.file, changesForMeta(skill.format, parsed.file.data, meta, skill.skill_id), body)
}

/** Why a skill cannot be moved to legacy/ as a whole (null when it can). */
export function unmovableReason(skill: Skill, allPaths: readonly string[]): string | null {
  if (skill.format === 'agiagent') return null
  const dir = path.posix.dirname(skill.path)
  if (dir === '.') return 'it is the library folder itself'
  const prefix = `${dir}/`
  if (allPaths.some((p) => p !== skill.path && p.startsWith(prefix) && p.endsWith('SKILL.md'))) return 'its folder holds other skills'
  return null
}

function taken(paths: ReadonlySet<string>, candidate: string, isDir: boolean): boolean {
  if (paths.has(candidate)) return true
  if (!isDir) return false
  const prefix = `${candidate}/`
  for (const p of paths) if (p.startsWith(prefix)) return true
  return false
}

/**
 * The two changes that move a skill to `legacy/` (old path after:null, new path before:null). A SKILL.md
 * skill moves with its whole folder (`legacy/<folder>/SKILL.md`). On a name clash a `_<unix-time>` suffix
 * is added, as upstream's delete_skill does; a SKILL.md renamed that way gets its id written into its
 * metadata so it keeps it. `reserved` collects the chosen names so one plan never reuses them.
 */
export function legacyMoveChanges(skill: Skill, raw: string, existing: ReadonlySet<string>, reserved: Set<string>, now: Date): FileChange[] {
  const ts = Math.floor(now.getTime() / 1000)
  const isTaken = (p: string, dir: boolean): boolean => taken(existing, p, dir) || taken(reserved, p, dir)
  if (skill.format === 'agiagent') {
    const base = path.posix.basename(skill.path)
    const stem = base.replace(/\.md$/, '')
    let target = `legacy/${base}`
    for (let n = 1; isTaken(target, false); n++) target = `legacy/${stem}_${ts}${n > 1 ? `_${n}` : ''}.md`
    reserved.add(target)
    return [
      { path: skill.path, before: raw, after: null },
      { path: target, before: null, after: raw }
    ]
  }
  const dir = path.posix.dirname(skill.path)
  let targetDir = `legacy/${dir}`
  for (let n = 1; isTaken(targetDir, true); n++) targetDir = `legacy/${dir}_${ts}${n > 1 ? `_${n}` : ''}`
  reserved.add(`${targetDir}/SKILL.md`)
  const after = targetDir === `legacy/${dir}` ? raw : rewriteSkillText(raw, skill, {})
  return [
    { path: skill.path, before: raw, after: null },
    { path: `${targetDir}/SKILL.md`, before: null, after }
  ]
}

/** True when a text holds a region kept twice between conflict markers (`<<<<<<<` … `=======` … `>>>>>>>`). */
export function hasConflictMarkers(text: string): boolean {
  return /^<<<<<<< .*\n[\s\S]*?^=======\n[\s\S]*?^>>>>>>> /m.test(text)
}

/** Why a proposal cannot be accepted as it is: a file it writes still holds conflict markers it did not have before. */
export function unresolvedConflicts(changes: readonly FileChange[]): string[] {
  return changes.filter((c) => c.after !== null && hasConflictMarkers(c.after) && !(c.before !== null && hasConflictMarkers(c.before))).map((c) => c.path)
}
