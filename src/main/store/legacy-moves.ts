/**
 * Retiring a skill and bringing it back, on disk: an AGIAgent file moves to `legacy/` and back to the top; a
 * SKILL.md folder to `.skillbench/legacy/<same relative path>` (the library folder stays what agents load) and
 * back where it was. Names already taken get a free one. Runs under the library lock; the library records the move.
 */
import fs from 'node:fs'
import path from 'node:path'
import { coded } from '../../shared/error-codes'
import { activePathOf, isLegacyDir, SKILL_MD_LEGACY_DIR } from '../../shared/legacy-paths'
import type { Skill } from '../../shared/types'
import { ensureDirInside, moveContained } from './contained'
import { buildSkillFileName } from './paths'
import { StoreError } from './types'

function toPosix(p: string): string {
  return p.split(path.sep).join('/')
}

/** A free name in folder `dirAbs` (a real folder inside the library) for `base`: `base`, then `stem_<ts><ext>`, then with a counter. */
function freeName(dirAbs: string, base: string, ext: string, now: () => Date): string {
  const stem = ext ? base.slice(0, -ext.length) : base
  if (!fs.existsSync(path.join(dirAbs, base))) return base
  const ts = Math.floor(now().getTime() / 1000)
  for (let n = 1; ; n++) {
    const name = `${stem}_${ts}${n > 1 ? `_${n}` : ''}${ext}`
    if (!fs.existsSync(path.join(dirAbs, name))) return name
  }
}

/** Moves an active skill into the legacy folders; returns its skill file's new path. */
export async function moveIntoLegacy(root: string, skill: Skill, now: () => Date): Promise<string> {
  if (skill.format === 'agiagent') {
    const legacyAbs = await ensureDirInside(root, 'legacy')
    const name = freeName(legacyAbs, path.posix.basename(skill.path), '.md', now)
    const toRel = `legacy/${name}`
    await moveContained(root, skill.path, toRel)
    return toRel
  }
  const relDir = path.posix.dirname(skill.path)
  if (relDir === '.') throw new StoreError('invalid_input', coded('skill.library_is_skill'))
  // .skillbench/legacy/<same relative path>: the library folder stays what agents load
  const parent = path.posix.dirname(relDir)
  const parentAbs = await ensureDirInside(root, parent === '.' ? SKILL_MD_LEGACY_DIR : `${SKILL_MD_LEGACY_DIR}/${parent}`)
  const name = freeName(parentAbs, path.posix.basename(relDir), '', now)
  const toDir = toPosix(path.relative(root, path.join(parentAbs, name)))
  await moveContained(root, relDir, toDir)
  return `${toDir}/SKILL.md`
}

/** Moves a retired skill back among the active ones; returns its skill file's new path. */
export async function moveOutOfLegacy(root: string, skill: Skill, now: () => Date): Promise<string> {
  if (skill.format === 'agiagent') {
    const base = path.posix.basename(skill.path)
    const exists = (n: string): boolean => fs.existsSync(path.join(root, n))
    const name = exists(base) ? buildSkillFileName(skill.title, skill.skill_id, exists) : base
    await moveContained(root, skill.path, name)
    return name
  }
  const fromDir = path.posix.dirname(skill.path)
  // never the folder of retired skills itself: that would move every retired skill with it
  if (isLegacyDir(fromDir)) throw new StoreError('invalid_input', coded('skill.in_legacy_folder', { dir: fromDir }))
  // from .skillbench/legacy/ or an older version's root legacy/: back where it was
  const relDir = activePathOf(fromDir)
  const parentRel = path.posix.dirname(relDir)
  const parentAbs = await ensureDirInside(root, parentRel === '.' ? '' : parentRel)
  const name = freeName(parentAbs, path.posix.basename(relDir), '', now)
  const toDir = toPosix(path.relative(root, path.join(parentAbs, name)))
  await moveContained(root, fromDir, toDir)
  return `${toDir}/SKILL.md`
}
