/**
 * The skills of a commit's tree: every `SKILL.md` below a folder, nested and dot-folders included (as the store
 * reads a library: `node_modules`, `.git`, `legacy`, … skipped), each with the files of its folder (not those of a
 * skill nested inside it). Symbolic links are resolved inside the repository; one that leads out of it, to a
 * folder or nowhere makes its skill refused with the reason. Pure.
 */
import { coded, type CodedText } from '../../shared/error-codes'
import { CodedError } from '../../shared/api-error'
import path from 'node:path'
import { SKIPPED_DIRS } from '../store/library'
import { RESERVED_SKILL_NAMES } from '../store/paths'
import type { TreeEntry } from './repo-cache'

export const LINK_MODE = '120000'
export const SUBMODULE_MODE = '160000'
const MAX_LINK_HOPS = 8

export interface RepoSkillFile {
  /** Path inside the skill folder. */
  rel: string
  /** The blob whose bytes the file gets (a link's target blob for a resolved link). */
  oid: string
  size: number
  executable: boolean
}

export interface RepoSkill {
  /** The skill folder in the repository ('' when SKILL.md is at the repository root). */
  dir: string
  skillMd: RepoSkillFile
  /** Every other file of the folder. */
  files: RepoSkillFile[]
  /** Why it cannot be installed (links out of the repository…), by code; empty when it can. */
  problems: CodedText[]
  /** Things left out, said to the person (submodules). */
  notes: CodedText[]
}

/** The `--path` folder as a clean repository path ('' = root); throws on `..` and absolute paths. */
export function cleanSubdir(subdir: string | undefined): string {
  const s = (subdir ?? '').replace(/\\/g, '/').replace(/^\.?\/+/, '').replace(/\/+$/, '')
  if (s === '' || s === '.') return ''
  if (s.startsWith('/') || s.split('/').some((seg) => seg === '..' || seg === '')) throw new CodedError('invalid', coded('install.bad_subdir', { path: JSON.stringify(subdir) }))
  return s
}

function isUnder(p: string, dir: string): boolean {
  return dir === '' || p.startsWith(`${dir}/`)
}

/** Where a link at `linkPath` pointing to `target` leads, from the repository root; null when it leaves it. */
export function linkDestination(linkPath: string, target: string): string | null {
  if (target === '' || target.startsWith('/') || /^[A-Za-z]:[\\/]/.test(target) || target.includes('\0')) return null
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(linkPath), target.replace(/\\/g, '/')))
  if (joined === '..' || joined.startsWith('../') || joined === '.') return null
  return joined.replace(/\/+$/, '')
}

/**
 * The skills under `subdir`. `linkTargets` maps a link entry's blob id to its target text (read beforehand);
 * links whose target is unknown are refused.
 */
export function findRepoSkills(entries: readonly TreeEntry[], subdir: string, linkTargets: ReadonlyMap<string, string>): RepoSkill[] {
  const byPath = new Map(entries.map((e) => [e.path, e]))
  const insideOf = (dir: string): string[] => (subdir === '' ? dir : dir.slice(subdir.length + 1)).split('/').filter((seg) => seg !== '')
  const allDirs = entries.filter((e) => path.posix.basename(e.path) === 'SKILL.md' && isUnder(e.path, subdir)).map((e) => path.posix.dirname(e.path).replace(/^\.$/, ''))
  // A skill below node_modules or .git is not one; below a folder a library keeps for its bookkeeping it is
  // named to the person (with the way to take it anyway), never passed over without a word.
  const skillDirs = allDirs.filter((dir) => !insideOf(dir).some((seg) => SKIPPED_DIRS.has(seg) && !RESERVED_SKILL_NAMES.has(seg))).sort()
  const reservedAt = (dir: string): string | undefined => insideOf(dir).find((seg) => RESERVED_SKILL_NAMES.has(seg))
  const isDirPrefix = (p: string): boolean => entries.some((e) => e.path.startsWith(`${p}/`))
  const resolve = (start: TreeEntry): { entry: TreeEntry } | { problem: CodedText } => {
    let cur = start
    for (let hops = 0; cur.mode === LINK_MODE; hops++) {
      const target = linkTargets.get(cur.oid)
      if (target === undefined || hops >= MAX_LINK_HOPS) return { problem: coded('install.link_unfollowed', { link: start.path }) }
      const dest = linkDestination(cur.path, target)
      if (dest === null) return { problem: coded('install.link_outside', { link: start.path, target: target.slice(0, 120) }) }
      const next = byPath.get(dest)
      if (!next) return { problem: coded(isDirPrefix(dest) ? 'install.link_to_folder' : 'install.link_nowhere', { link: start.path, dest }) }
      cur = next
    }
    if (cur.mode === SUBMODULE_MODE) return { problem: coded('install.link_submodule', { link: start.path }) }
    return { entry: cur }
  }
  return skillDirs.map((dir) => {
    const nested = skillDirs.filter((d) => d !== dir && isUnder(d, dir))
    const skill: RepoSkill = { dir, skillMd: { rel: 'SKILL.md', oid: '', size: 0, executable: false }, files: [], problems: [], notes: [] }
    const reserved = reservedAt(dir)
    if (reserved) skill.problems.push(coded('install.reserved_folder', { folder: reserved, dir }))
    for (const e of entries) {
      if (!isUnder(e.path, dir) || nested.some((d) => isUnder(e.path, d))) continue
      const rel = dir === '' ? e.path : e.path.slice(dir.length + 1)
      if (rel.split('/')[0] === '.git') continue
      if (e.mode === SUBMODULE_MODE) {
        skill.notes.push(coded('install.submodule_left_out', { rel }))
        continue
      }
      const resolved = resolve(e)
      if ('problem' in resolved) {
        skill.problems.push(resolved.problem)
        continue
      }
      const file: RepoSkillFile = { rel, oid: resolved.entry.oid, size: resolved.entry.size, executable: resolved.entry.mode === '100755' }
      if (rel === 'SKILL.md') skill.skillMd = file
      else skill.files.push(file)
    }
    return skill
  })
}
