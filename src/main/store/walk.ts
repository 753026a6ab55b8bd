/**
 * Finding the skill files of a library: both layouts (`skill_*.md` at the top and in `legacy/`, SKILL.md folders
 * at any depth, dot-folders included, retired ones in `.skillbench/legacy/` or an older root `legacy/`), every entry passed over reported with a reason, our temp files collected
 * for sweeping. Never follows a link. Shared by the store's listing and the persistent search index.
 */
import fs from 'node:fs'
import path from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { LoadError, Skill } from '../../shared/types'
import { isLegacyDir, SKILL_MD_LEGACY_DIR } from '../../shared/legacy-paths'
import { isTempName } from './atomic'
import { isAgiagentSkillName } from './paths'
import { coded, type CodedText } from '../../shared/error-codes'
import { failed } from './skill-file'
import { loadErrorOf } from '../../shared/coded-reason'

/** Folders never searched for SKILL.md skills. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['node_modules', '.git', '.hg', '.svn', '.skillbench', 'legacy', 'codes', 'logs'])
const MAX_DEPTH = 12
/** A SKILL.md placed straight in one of the library's bookkeeping folders is not a skill of the library. */
const BOOKKEEPING_SKILL = coded('load.bookkeeping_skill')
/** Why `walkSkillTree` passes over a link (its words predate the code: scripts read them). */
const LINK_NOT_FOLLOWED = coded('load.link_not_followed')
const FIFO = coded('load.fifo')
const SOCKET = coded('load.socket')
const DEVICE = coded('load.device')

/** Why an entry that is neither a file, a folder nor a link is passed over (it is never opened: a FIFO would block). */
function specialReason(e: fs.Dirent): CodedText {
  return e.isFIFO() ? FIFO : e.isSocket() ? SOCKET : DEVICE
}

/** A skill file found in a library. */
export interface Candidate {
  abs: string
  /** Library-relative path, forward slashes. */
  rel: string
  format: Skill['format']
  legacy: boolean
}

export interface LibraryWalk {
  /** Sorted by `rel`. */
  candidates: Candidate[]
  /** Our temp files (absolute), for the sweep at open. */
  temps: string[]
  /** Entries passed over on purpose, with why (`kind: 'skipped'`); unreadable folders too. */
  skipped: LoadError[]
  /** Every folder listed, library-relative ('' is the root): what a watcher of the library must watch. */
  dirs: string[]
}

/** Longest stretch of synchronous listing before the walk yields to the event loop (the app stays responsive). */
const SLICE_MS = 8

/**
 * Walks a library folder (`root`: its real path). Throws when the root itself cannot be read. The root is listed on
 * the thread pool (started at the call, so the caller can work meanwhile); the folders below synchronously (a
 * round trip per folder costs more than the listing), in slices with yields between.
 */
export async function walkLibrary(root: string): Promise<LibraryWalk> {
  const candidates: Candidate[] = []
  const temps: string[] = []
  const skipped: LoadError[] = []
  const dirs: string[] = []
  const skip = (rel: string, reason: CodedText): void => void skipped.push(loadErrorOf(rel, failed(reason), 'skipped'))
  let sliceStart = performance.now()
  // Paths are built by concatenation (path.join/relative per entry cost more than the lstat itself at 10k files).
  const visit = async (absDir: string, relDir: string, depth: number, legacy: boolean, top: boolean): Promise<void> => {
    if (performance.now() - sliceStart > SLICE_MS) {
      await nextTurn()
      sliceStart = performance.now()
    }
    let entries: fs.Dirent[]
    try {
      // The root is listed on the thread pool: the caller can do other work meanwhile (load a saved index).
      entries = top && relDir === '' && !legacy ? await fs.promises.readdir(absDir, { withFileTypes: true }) : fs.readdirSync(absDir, { withFileTypes: true })
    } catch (err) {
      if (top && relDir === '') throw err
      skipped.push(loadErrorOf(relDir || '.', failed(coded('load.cannot_read_folder', { detail: (err as Error).message }))))
      return
    }
    dirs.push(relDir)
    const subdirs: string[] = []
    for (const e of entries) {
      const name = e.name
      if (isTempName(name)) {
        temps.push(absDir + path.sep + name)
        continue
      }
      const rel = relDir ? `${relDir}/${name}` : name
      const agiagentHere = top && isAgiagentSkillName(name)
      if (e.isSymbolicLink()) {
        skip(rel, coded('load.symlink'))
        continue
      }
      if (e.isFile()) {
        if (name === 'SKILL.md' && legacy && isLegacyDir(relDir)) skip(rel, BOOKKEEPING_SKILL)
        else if (agiagentHere || name === 'SKILL.md') candidates.push({ abs: absDir + path.sep + name, rel, format: agiagentHere ? 'agiagent' : 'skill-md', legacy })
      } else if (e.isDirectory()) {
        if (agiagentHere) skip(rel, coded('load.folder_like_skill'))
        subdirs.push(name)
      } else if (!SKIPPED_DIRS.has(relDir.split('/')[0] ?? '')) {
        skip(rel, specialReason(e))
      }
    }
    if (depth >= MAX_DEPTH) return
    for (const name of subdirs) {
      const abs = absDir + path.sep + name
      const rel = relDir ? `${relDir}/${name}` : name
      if (depth === 0 && !legacy && name === 'legacy') await visit(abs, rel, 0, true, true)
      else if (depth === 0 && !legacy && name === '.skillbench') {
        // retired SKILL.md folders (.skillbench/legacy/); .skillbench itself is watched for that folder appearing
        dirs.push(rel)
        const retired = abs + path.sep + 'legacy'
        if (fs.lstatSync(retired, { throwIfNoEntry: false })?.isDirectory()) await visit(retired, SKILL_MD_LEGACY_DIR, 0, true, false)
      }
      else if (!SKIPPED_DIRS.has(name)) await visit(abs, rel, depth + 1, legacy, false)
      else if (depth === 0 && !legacy && (name === 'codes' || name === 'logs') && fs.existsSync(abs + path.sep + 'SKILL.md')) skip(`${rel}/SKILL.md`, BOOKKEEPING_SKILL)
    }
  }
  await visit(root, '', 0, false, true)
  candidates.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))
  return { candidates, temps, skipped, dirs }
}

/** The kind of skill file a library-relative path names (null: not a skill file). */
export function skillFileAt(rel: string): { format: Skill['format']; legacy: boolean } | null {
  const parts = rel.split('/')
  const name = parts[parts.length - 1]!
  if (parts[0] === '.skillbench') {
    // only retired SKILL.md folders live there as skills (.skillbench/legacy/<folder>/SKILL.md)
    return name === 'SKILL.md' && parts[1] === 'legacy' && parts.length >= 4 ? { format: 'skill-md', legacy: true } : null
  }
  if (name === 'SKILL.md' && parts.length >= 2) return { format: 'skill-md', legacy: parts[0] === 'legacy' }
  if (isAgiagentSkillName(name) && (parts.length === 1 || (parts.length === 2 && parts[0] === 'legacy'))) {
    return { format: 'agiagent', legacy: parts.length === 2 }
  }
  return null
}

/** A regular file met by `walkSkillTree`. */
export interface TreeFile {
  name: string
  abs: string
  /** Relative to the tree root, forward slashes. */
  rel: string
  /** 0: directly in the root. */
  depth: number
  /** Its folder holds a SKILL.md (a skill folder: nothing below it is searched). */
  inSkillFolder: boolean
}

/**
 * Visits the regular files of a skill tree in name order: links and special files (FIFOs, sockets, devices: never
 * opened) told to `onSkipped` by code, our temp files skipped, `SKIPPED_DIRS` not
 * entered, nothing below a skill folder (one with a SKILL.md, the root's own excepted), at most 12 levels;
 * unreadable folders passed over. Shared by the `index.json` catalogue and the format importer.
 */
export async function walkSkillTree(root: string, onFile: (file: TreeFile) => void, onSkipped?: (rel: string, reason: CodedText) => void): Promise<void> {
  async function walk(dir: string, rel: string, depth: number): Promise<void> {
    if (depth > MAX_DEPTH) return
    let entries: fs.Dirent[]
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true })
    } catch {
      return
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    const inSkillFolder = depth > 0 && entries.some((e) => e.isFile() && e.name === 'SKILL.md')
    for (const entry of entries) {
      if (isTempName(entry.name)) continue
      const abs = path.join(dir, entry.name)
      const childRel = rel ? `${rel}/${entry.name}` : entry.name
      if (entry.isSymbolicLink()) {
        onSkipped?.(childRel, LINK_NOT_FOLLOWED)
        continue
      }
      if (entry.isDirectory()) {
        if (!inSkillFolder && !SKIPPED_DIRS.has(entry.name)) await walk(abs, childRel, depth + 1)
      } else if (entry.isFile()) {
        onFile({ name: entry.name, abs, rel: childRel, depth, inSkillFolder })
      } else {
        onSkipped?.(childRel, specialReason(entry))
      }
    }
  }
  await walk(root, '', 0)
}
