/**
 * `install --locked` on a skill already in the library at its locked commit: is it still what the lock pins? Its
 * folder is compared file by file with the upstream files of that commit (the ones `skills.lock`'s hash is made
 * of): SKILL.md by what it says (our bookkeeping under `metadata.skillbench` — provenance, id, counters — set
 * aside, as `update` tells a local edit), every other file by its bytes and executable bit. A skill changed here
 * is reported with the files, never overwritten; the changed files are run through the audit and the findings
 * upstream did not have are named (a line added to a script). `driftOf` and `newFindings` are pure.
 */
import path from 'node:path'
import fs from 'node:fs'
import { auditIncoming } from '../audit/gate'
import type { AuditFinding } from '../audit/types'
import { readContained } from '../store/contained'
import { decodeSkillBytes, parseSkillText } from '../store/skill-file'
import { listResources } from '../store/skill-index'
import { sameContent } from './three-way'
import { coded, codedList, refOf, type CodedText } from '../../shared/error-codes'

/** How a file of the skill differs from the locked commit's. */
export type DriftChange = 'changed' | 'added' | 'removed' | 'mode'

export interface DriftFile {
  /** Path inside the skill's folder (`SKILL.md`, `scripts/merge.sh`). */
  file: string
  change: DriftChange
}

/** `install --locked --json` → `changed[]`: a skill changed here since it was installed, left as it is. */
export interface ChangedSkill {
  name: string
  /** Library-relative path of its SKILL.md. */
  path: string
  /** The locked commit it was installed from. */
  commit: string
  files: DriftFile[]
  /** Audit findings in the changed files that the locked files do not have. */
  findings: AuditFinding[]
}

/** A skill's files: SKILL.md's text and the others by path. */
export interface SkillFiles {
  skillText: string
  files: ReadonlyMap<string, { bytes: Uint8Array; executable: boolean }>
}

/** True when two SKILL.md texts say the same once our bookkeeping is set aside (unparsable: byte-equal). */
function sameSkillMd(here: string, upstream: string): boolean {
  const a = parseSkillText(here)
  const b = parseSkillText(upstream)
  if (!a.ok || !b.ok) return here === upstream
  return a.file.body === b.file.body && sameContent(a.file.data, b.file.data)
}

/** The files of `here` that differ from `upstream`, sorted by path. `modes`: compare executable bits (not on Windows). Pure. */
export function driftOf(here: SkillFiles, upstream: SkillFiles, modes = process.platform !== 'win32'): DriftFile[] {
  const out: DriftFile[] = []
  if (!sameSkillMd(here.skillText, upstream.skillText)) out.push({ file: 'SKILL.md', change: 'changed' })
  for (const rel of [...new Set([...here.files.keys(), ...upstream.files.keys()])].sort()) {
    const h = here.files.get(rel)
    const u = upstream.files.get(rel)
    if (!u) out.push({ file: rel, change: 'added' })
    else if (!h) out.push({ file: rel, change: 'removed' })
    else if (!Buffer.from(h.bytes).equals(Buffer.from(u.bytes))) out.push({ file: rel, change: 'changed' })
    else if (modes && h.executable !== u.executable) out.push({ file: rel, change: 'mode' })
  }
  return out.sort((a, b) => (a.file === 'SKILL.md' ? -1 : b.file === 'SKILL.md' ? 1 : a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
}

/** Findings of `here`'s changed or added files that upstream's files do not have (same file, rule, message and line text). Pure. */
export function newFindings(name: string, here: SkillFiles, upstream: SkillFiles, drift: readonly DriftFile[]): AuditFinding[] {
  const touched = new Set(drift.filter((d) => d.change !== 'removed').map((d) => d.file))
  if (touched.size === 0) return []
  const audit = (s: SkillFiles): AuditFinding[] => auditIncoming(name, s.skillText, [...s.files].map(([rel, f]) => ({ rel, bytes: f.bytes, executable: f.executable })))
  const key = (f: AuditFinding): string => `${f.file}\u0000${f.rule}\u0000${f.message}\u0000${f.excerpt ?? ''}`
  const had = new Set(audit(upstream).map(key))
  return audit(here).filter((f) => touched.has(f.file) && !had.has(key(f)))
}

/** The files of an installed skill's folder (`skillPath`: its SKILL.md, library-relative). Links are not followed (left out). */
export async function readInstalledSkill(root: string, skillPath: string): Promise<SkillFiles> {
  const dir = path.posix.dirname(skillPath)
  const md = (await readContained(root, skillPath)) ?? Buffer.alloc(0)
  const decoded = decodeSkillBytes(md)
  const files = new Map<string, { bytes: Uint8Array; executable: boolean }>()
  for (const rel of await listResources(path.join(root, ...dir.split('/')))) {
    const abs = path.join(root, ...dir.split('/'), ...rel.split('/'))
    const bytes = await readContained(root, `${dir}/${rel}`).catch(() => null)
    const st = await fs.promises.lstat(abs).catch(() => null)
    if (bytes && st) files.set(rel, { bytes, executable: (st.mode & 0o111) !== 0 })
  }
  return { skillText: decoded.ok ? decoded.text : md.toString('latin1'), files }
}

/** "changed here since install": the files and how each differs, by code (each language words it). */
export function driftReason(commit: string, drift: readonly DriftFile[], findings: readonly AuditFinding[]): CodedText {
  const files = refOf(codedList(drift.map((d) => coded(`install.drift_${d.change}`, { file: d.file }))))
  const reason = coded('install.locked_changed_here', { commit: commit.slice(0, 12), files })
  if (findings.length === 0) return reason
  const rules = [...new Set(findings.map((f) => `${f.file}${f.line > 0 ? `:${f.line}` : ''} ${f.rule}`))].join(', ')
  return coded('install.locked_changed_risky', { reason: refOf(reason), n: findings.length, rules })
}
