/**
 * File changes of proposals: exact before/after text of every file touched. Pure.
 */
import { SKILL_MD_LEGACY_DIR } from '../../shared/legacy-paths'
import path from 'node:path'
import type { FileChange, Skill, SkillMeta } from '../../shared/types'
import { parseReasonParam, parseSkillText, rewriteSkillFile } from '../store/skill-file'
import { CodedError } from '../../shared/api-error'
import { coded } from '../../shared/error-codes'
import { changesForMeta } from '../store/skill-meta'

/** The skill file's text with front-matter fields changed (formatting kept) and optionally a new body. */
export function rewriteSkillText(raw: string, skill: Pick<Skill, 'format' | 'skill_id' | 'path'>, meta: Partial<SkillMeta>, body?: string): string {
  const parsed = parseSkillText(raw)
  if (!parsed.ok) throw new CodedError('invalid', coded('file.problem', { path: skill.path, reason: parseReasonParam(parsed) }))
  return rewriteSkillFile(parsed.file, changesForMeta(skill.format, parsed.file.data, meta, skill.skill_id), body)
}

interface SkillMdIndex {
  paths: Set<string>
  /** Folder → how many paths ending in SKILL.md lie under it (at any depth). */
  under: Map<string, number>
}

/** Built once per path list (proposals ask for every skill of the library). */
const skillMdIndexes = new WeakMap<readonly string[], SkillMdIndex>()

function skillMdIndex(allPaths: readonly string[]): SkillMdIndex {
  let index = skillMdIndexes.get(allPaths)
  if (index) return index
  index = { paths: new Set(allPaths), under: new Map() }
  for (const p of index.paths) {
    if (!p.endsWith('SKILL.md')) continue
    for (let i = p.indexOf('/'); i >= 0; i = p.indexOf('/', i + 1)) index.under.set(p.slice(0, i), (index.under.get(p.slice(0, i)) ?? 0) + 1)
  }
  skillMdIndexes.set(allPaths, index)
  return index
}

/** Why a skill cannot be moved to legacy/ as a whole (null when it can). `allPaths`: every skill's path (counted once per list). */
export function unmovableReason(skill: Skill, allPaths: readonly string[]): string | null {
  if (skill.format === 'agiagent') return null
  const dir = path.posix.dirname(skill.path)
  if (dir === '.') return 'it is the library folder itself'
  // Any SKILL.md under the skill's folder other than its own is a skill inside it.
  const index = skillMdIndex(allPaths)
  if ((index.under.get(dir) ?? 0) - (index.paths.has(skill.path) ? 1 : 0) > 0) return 'its folder holds other skills'
  return null
}

/** Every folder some path of the set lies in (at any depth); kept per set while its size stays (the sets here only grow). */
const foldersCache = new WeakMap<ReadonlySet<string>, { size: number; folders: Set<string> }>()

function foldersOf(paths: ReadonlySet<string>): Set<string> {
  const hit = foldersCache.get(paths)
  if (hit && hit.size === paths.size) return hit.folders
  const folders = new Set<string>()
  for (const p of paths) for (let i = p.indexOf('/'); i >= 0; i = p.indexOf('/', i + 1)) folders.add(p.slice(0, i))
  foldersCache.set(paths, { size: paths.size, folders })
  return folders
}

function taken(paths: ReadonlySet<string>, candidate: string, isDir: boolean): boolean {
  return paths.has(candidate) || (isDir && foldersOf(paths).has(candidate))
}

/**
 * The two changes that move a skill to `legacy/` (old path after:null, new path before:null). A SKILL.md
 * skill moves with its whole folder (`.skillbench/legacy/<folder>/SKILL.md`). On a name clash a `_<unix-time>` suffix
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
  // a SKILL.md folder retires under .skillbench/ (the library folder stays what agents load)
  const first = `${SKILL_MD_LEGACY_DIR}/${dir}`
  let targetDir = first
  for (let n = 1; isTaken(targetDir, true); n++) targetDir = `${first}_${ts}${n > 1 ? `_${n}` : ''}`
  reserved.add(`${targetDir}/SKILL.md`)
  const after = targetDir === first ? raw : rewriteSkillText(raw, skill, {})
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
