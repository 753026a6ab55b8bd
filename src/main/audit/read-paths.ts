/**
 * The audit's reading side: finds the skills under the paths given (a skill folder, a library of them, single
 * files) and reads their files without following any link (a link is reported, never opened). Reading never
 * writes. Rules are in the pure modules beside this one.
 */
import fs from 'node:fs'
import path from 'node:path'
import { SKIPPED_DIRS } from '../store/library'
import { AUDIT_MAX_FILE_BYTES, auditSkill, type AuditFile } from './skill-audit'
import { sortFindings, type AuditFinding } from './types'

const MAX_DEPTH = 12

/** A finding with the file's path on disk (the `skillbench audit` answer adds it to the exact shape). */
export interface AuditFindingAt extends AuditFinding {
  path: string
}

export interface AuditResult {
  findings: AuditFindingAt[]
  /** Skills (folders and single files) looked at, and their files read. */
  skills: number
  files: number
  /** Paths that could not be read, with the reason. */
  unreadable: { path: string; reason: string }[]
}

interface SkillUnit {
  /** Folder of the skill (its files are everything below, nested skills excepted) or a single file. */
  dir: string
  single?: string
}

/** The skill's name: `name:` of the front matter when present, else the folder (or file) name. */
export function skillNameOf(text: string, fallback: string): string {
  const fm = /^(?:\ufeff)?---\r?\n([\s\S]*?)\r?\n---/.exec(text.slice(0, 8192))
  const m = fm ? /^name:\s*["']?([^"'\n#]+?)["']?\s*$/m.exec(fm[1]!) : null
  return m ? m[1]!.trim() : fallback
}

async function lstatOrNull(p: string): Promise<fs.Stats | null> {
  return fs.promises.lstat(p).catch(() => null)
}

/** Skill folders and single-file skills under a library folder (nested collections included). */
async function findUnits(root: string): Promise<SkillUnit[]> {
  const out: SkillUnit[] = []
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await fs.promises.readdir(dir, { withFileTypes: true }).catch(() => [])
    if (entries.some((e) => e.isFile() && e.name === 'SKILL.md')) {
      out.push({ dir })
    } else {
      for (const e of entries) if (e.isFile() && /^skill_.*\.md$/i.test(e.name)) out.push({ dir, single: path.join(dir, e.name) })
    }
    if (depth >= MAX_DEPTH) return
    for (const e of entries) if (e.isDirectory() && !SKIPPED_DIRS.has(e.name)) await walk(path.join(dir, e.name), depth + 1)
  }
  await walk(root, 0)
  return out
}

/** The files of a skill folder, relative, links as links, nested skill folders left to their own skill. */
async function filesOf(dir: string): Promise<{ rel: string; abs: string; stat: fs.Stats }[]> {
  const out: { rel: string; abs: string; stat: fs.Stats }[] = []
  const walk = async (sub: string, depth: number): Promise<void> => {
    const abs = sub ? path.join(dir, sub) : dir
    const entries = await fs.promises.readdir(abs, { withFileTypes: true }).catch(() => [])
    if (sub && entries.some((e) => e.isFile() && e.name === 'SKILL.md')) return // a nested skill
    for (const e of entries) {
      const rel = sub ? `${sub}/${e.name}` : e.name
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name) && depth < MAX_DEPTH) await walk(rel, depth + 1)
        continue
      }
      const stat = await lstatOrNull(path.join(dir, rel))
      if (stat && (stat.isFile() || stat.isSymbolicLink())) out.push({ rel, abs: path.join(dir, rel), stat })
    }
  }
  await walk('', 0)
  return out
}

async function readAuditFile(rel: string, abs: string, stat: fs.Stats): Promise<AuditFile> {
  if (stat.isSymbolicLink()) return { rel, size: 0, linkTarget: await fs.promises.readlink(abs).catch(() => '') }
  const file: AuditFile = { rel, size: stat.size, executable: (stat.mode & 0o111) !== 0 }
  if (stat.size <= AUDIT_MAX_FILE_BYTES) file.bytes = await fs.promises.readFile(abs, { flag: fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) })
  return file
}

/** Audits every skill under the given paths (files, skill folders, libraries). */
export async function auditPaths(paths: readonly string[]): Promise<AuditResult> {
  const result: AuditResult = { findings: [], skills: 0, files: 0, unreadable: [] }
  for (const given of paths) {
    const abs = path.resolve(given)
    const stat = await lstatOrNull(abs)
    if (!stat) {
      result.unreadable.push({ path: given, reason: 'no such file or folder' })
      continue
    }
    let units: SkillUnit[]
    if (stat.isSymbolicLink()) {
      result.findings.push({ skill: path.basename(abs), file: path.basename(abs), line: 0, rule: 'link-out', severity: 'high', message: `is a symbolic link (to ${await fs.promises.readlink(abs).catch(() => '?')}): not followed`, path: abs })
      continue
    } else if (stat.isFile()) units = [{ dir: path.dirname(abs), single: abs }]
    else if (stat.isDirectory()) units = fs.existsSync(path.join(abs, 'SKILL.md')) ? [{ dir: abs }] : await findUnits(abs)
    else {
      result.unreadable.push({ path: given, reason: 'not a file or folder' })
      continue
    }
    for (const unit of units) {
      try {
        const files = unit.single
          ? [{ rel: path.basename(unit.single), abs: unit.single, stat: (await lstatOrNull(unit.single))! }]
          : await filesOf(unit.dir)
        const read = await Promise.all(files.map((f) => readAuditFile(f.rel, f.abs, f.stat)))
        const main = read.find((f) => f.rel === 'SKILL.md') ?? (unit.single ? read[0] : undefined)
        const fallback = unit.single && !/^SKILL\.md$/.test(path.basename(unit.single)) ? path.basename(unit.single).replace(/\.[^.]+$/, '') : path.basename(unit.dir)
        const name = main?.bytes ? skillNameOf(Buffer.from(main.bytes).toString('utf8'), fallback) : fallback
        result.skills++
        result.files += read.length
        for (const f of auditSkill(name, read)) result.findings.push({ ...f, path: path.join(unit.dir, ...f.file.split('/')) })
      } catch (err) {
        result.unreadable.push({ path: unit.single ?? unit.dir, reason: (err as Error).message })
      }
    }
  }
  sortFindings(result.findings)
  return result
}
