/**
 * The audit's reading side: finds the skills under the paths given (a skill folder, a library of them, single
 * files) and reads their files without following any link (a link is reported, never opened). Reading never
 * writes. Rules are in the pure modules beside this one.
 */
import fs from 'node:fs'
import path from 'node:path'
import { SKIPPED_DIRS } from '../store/library'
import { readFileAtMost } from '../store/read-at-most'
import { AUDIT_MAX_FILE_BYTES, auditSkill, type AuditFile } from './skill-audit'
import { AuditResultCache, auditCacheFile, signatureOf } from './result-cache'
import { sortFindings, type AuditFinding } from './types'
import { coded, type MessageCode, type MessageParams } from '../../shared/error-codes'

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
  /** Paths that could not be read, with the reason (in English, and by code when it is one of ours). */
  unreadable: { path: string; reason: string; messageCode?: MessageCode; params?: MessageParams }[]
  /** Skills answered from the result cache (their files unchanged since a past audit). */
  cached: number
}

export interface AuditOptions {
  /**
   * The user's cache folder: a folder's skills whose files did not change since the last audit of that folder are
   * answered from `<cacheDir>/audit/` without reading them. Absent: every file is read.
   */
  cacheDir?: string
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

interface UnitFile {
  rel: string
  abs: string
  stat: fs.Stats
}

/**
 * Skill folders and single-file skills under a library folder (nested collections included), each with its files
 * (relative, links as links, a nested skill's files left to it). One walk, every folder read once and every file
 * stat'ed once; synchronous, as the library's own scan is: thousands of tiny calls cost less without a promise each.
 */
function findUnits(root: string): (SkillUnit & { files: UnitFile[] })[] {
  const out: (SkillUnit & { files: UnitFile[] })[] = []
  const walk = (dir: string, depth: number, owner: (SkillUnit & { files: UnitFile[] }) | null): void => {
    let entries: fs.Dirent[]
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    entries.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))
    if (entries.some((e) => e.isFile() && e.name === 'SKILL.md')) {
      owner = { dir, files: [] }
      out.push(owner)
    }
    for (const e of entries) {
      const abs = path.join(dir, e.name)
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name) && depth < MAX_DEPTH) walk(abs, depth + 1, owner)
        continue
      }
      if (!owner && !(e.isFile() && /^skill_.*\.md$/i.test(e.name))) continue
      const stat = fs.lstatSync(abs, { throwIfNoEntry: false })
      if (!stat || !(stat.isFile() || stat.isSymbolicLink())) continue
      if (owner) owner.files.push({ rel: path.relative(owner.dir, abs).split(path.sep).join('/'), abs, stat })
      else out.push({ dir, single: abs, files: [{ rel: e.name, abs, stat }] })
    }
  }
  walk(root, 0, null)
  return out
}

async function readAuditFile(rel: string, abs: string, stat: fs.Stats): Promise<AuditFile> {
  if (stat.isSymbolicLink()) return { rel, size: 0, linkTarget: await fs.promises.readlink(abs).catch(() => '') }
  const file: AuditFile = { rel, size: stat.size, executable: (stat.mode & 0o111) !== 0 }
  if (stat.size > AUDIT_MAX_FILE_BYTES) return file
  // the limit holds for what is read (a file that grew since the walk is too large, not read past the limit);
  // one swapped for a link since is reported as a link, for a FIFO is never opened blocking (never read)
  const read = await readFileAtMost(abs, AUDIT_MAX_FILE_BYTES)
  if (read.kind === 'link') return { rel, size: 0, linkTarget: await fs.promises.readlink(abs).catch(() => '') }
  if (read.kind === 'too_large') file.size = Math.max(read.stat.size, AUDIT_MAX_FILE_BYTES + 1)
  if (read.kind === 'ok') file.bytes = read.bytes
  return file
}

/** Audits every skill under the given paths (files, skill folders, libraries). */
export async function auditPaths(paths: readonly string[], options: AuditOptions = {}): Promise<AuditResult> {
  const result: AuditResult = { findings: [], skills: 0, files: 0, unreadable: [], cached: 0 }
  for (const given of paths) {
    const abs = path.resolve(given)
    const stat = await lstatOrNull(abs)
    if (!stat) {
      result.unreadable.push({ path: given, reason: coded('audit.no_such_path').text, messageCode: 'audit.no_such_path', params: {} })
      continue
    }
    let units: (SkillUnit & { files: UnitFile[] })[]
    if (stat.isSymbolicLink()) {
      result.findings.push({ skill: path.basename(abs), file: path.basename(abs), line: 0, rule: 'link-out', severity: 'high', message: `is a symbolic link (to ${await fs.promises.readlink(abs).catch(() => '?')}): not followed`, path: abs })
      continue
    } else if (stat.isFile()) units = [{ dir: path.dirname(abs), single: abs, files: [{ rel: path.basename(abs), abs, stat }] }]
    else if (stat.isDirectory()) units = fs.existsSync(path.join(abs, 'SKILL.md')) ? findUnits(abs).slice(0, 1) : findUnits(abs)
    else {
      result.unreadable.push({ path: given, reason: coded('audit.not_file_or_folder').text, messageCode: 'audit.not_file_or_folder', params: {} })
      continue
    }
    const cache = new AuditResultCache(options.cacheDir && stat.isDirectory() ? auditCacheFile(options.cacheDir, abs) : null)
    await cache.load()
    await eachLimited(units, 16, (unit) => auditUnit(unit, cache, result))
    await cache.save()
  }
  sortFindings(result.findings)
  return result
}

/** One skill: from the cache when none of its files changed, else read and audited (and cached). */
async function auditUnit(unit: SkillUnit & { files: UnitFile[] }, cache: AuditResultCache, result: AuditResult): Promise<void> {
  try {
    const files = unit.files
    const key = unit.single ?? unit.dir
    const sig = signatureOf(files)
    let entry = cache.get(key, sig)
    if (entry) result.cached++
    else {
      const read = await Promise.all(files.map((f) => readAuditFile(f.rel, f.abs, f.stat)))
      const main = read.find((f) => f.rel === 'SKILL.md') ?? (unit.single ? read[0] : undefined)
      const fallback = unit.single && !/^SKILL\.md$/.test(path.basename(unit.single)) ? path.basename(unit.single).replace(/\.[^.]+$/, '') : path.basename(unit.dir)
      const name = main?.bytes ? skillNameOf(Buffer.from(main.bytes).toString('utf8'), fallback) : fallback
      entry = { sig, name, files: read.length, findings: auditSkill(name, read) }
      // A file changed while it was read is not cached: its stamp may already be the new one's.
      if (await unchanged(files, sig)) cache.set(key, entry)
    }
    result.skills++
    result.files += entry.files
    for (const f of entry.findings) result.findings.push({ ...f, path: path.join(unit.dir, ...f.file.split('/')) })
  } catch (err) {
    result.unreadable.push({ path: unit.single ?? unit.dir, reason: (err as Error).message })
  }
}

async function unchanged(files: readonly { rel: string; abs: string }[], sig: string): Promise<boolean> {
  const now = await Promise.all(files.map(async (f) => ({ rel: f.rel, stat: await lstatOrNull(f.abs) })))
  return now.every((f) => f.stat !== null) && signatureOf(now as { rel: string; stat: fs.Stats }[]) === sig
}

/** Runs `job` on every item, `limit` at a time (a library's files are not all opened at once). */
async function eachLimited<T>(items: readonly T[], limit: number, job: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) await job(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}
