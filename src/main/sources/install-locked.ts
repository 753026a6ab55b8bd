/**
 * `skillbench install --locked --library DIR`: installs exactly what the library's `skills.lock` says — each skill
 * fetched at its locked commit (never the ref's newer one), its upstream files hashed and compared with the lock —
 * on this machine or another. Every entry is fetched and checked before anything is written: one hash that
 * differs stops the whole install with the skill named and nothing written. The audit gate holds as for any
 * install: a skill with a high finding is installed only when its lock entry records the allowance (made by
 * `install --allow-risk` or an accepted high-risk update where the lock was written) and that record covers every
 * high finding; the record goes into the skill's provenance as it was. An entry marked retired is left out. A skill
 * already at its locked commit whose files were changed here since (`locked-drift.ts`) is left as it is and reported
 * in `mismatched` and `changed`, with the files and the audit's new findings in them.
 */
import fs from 'node:fs'
import path from 'node:path'
import { coded, codedLine, codedList, refOf, type CodedLine, type CodedText } from '../../shared/error-codes'
import { codedReason } from '../../shared/coded-reason'
import { reasonOf } from '../../shared/api-error'
import { auditIncoming, highOf, mediumNote } from '../audit/gate'
import type { AuditFinding } from '../audit/types'
import { parseSkillsLock, SKILLS_LOCK_FILE, type LockEntry, type LockRisk } from '../store/skills-lock'
import { gitLimits, SourceError, type GitLimits } from './git'
import { heldOf, prepareInstall, writeInstalls, type Candidate, type InstallReport, type PreparedInstall, type SkippedSkill } from './install'
import { driftOf, driftReason, newFindings, readInstalledSkill, type ChangedSkill, type SkillFiles } from './locked-drift'
import { fetchCommit } from './repo-cache'
import { cleanSubdir } from './repo-skills'
import { parseSource } from './source-spec'

export interface LockedInstallOptions extends GitLimits {
  library: string
  cwd: string
  env?: NodeJS.ProcessEnv
  signal?: AbortSignal
  /** Told what is happening, by code (install.*; the CLI prints `message`). */
  onProgress?: (line: CodedLine) => void
}

/**
 * `install --locked --json`: the install report, and the skills that are not as the lock says (exit 1). A skill at
 * its locked commit whose files were changed here since is in `mismatched` (its reason by code,
 * install.locked_changed_here) and in `changed`, with the files and the audit's new findings in them; it is left as
 * it is.
 */
export interface LockedInstallReport extends InstallReport {
  mismatched: SkippedSkill[]
  changed: ChangedSkill[]
}

/** Whether a skip of prepareInstall is about the folder `dir` ('' = the repository root): by its code and `where`, not its words. */
function skippedAt(s: SkippedSkill, dir: string): boolean {
  if (s.messageCode !== 'install.skipped_in') return false
  const where = s.params?.where
  return dir ? where === dir : typeof where === 'object' && where !== null && 'messageCode' in where && where.messageCode === 'install.root_folder'
}

/** A skill that is not as the lock says: its reason in English and by code (the message of LockMismatchError lists them). */
function failedOf(name: string, reason: CodedText): SkippedSkill {
  return { name, ...codedReason(reason) }
}

/** Thrown when a fetched skill's files differ from the lock: nothing was written. */
export class LockMismatchError extends SourceError {
  constructor(readonly mismatched: SkippedSkill[]) {
    // each skill by code (its reason nested), joined as before: "name: reason; name: reason"
    const skills = mismatched.length > 0 ? refOf(codedList(mismatched.map((m) => coded('install.locked_entry', { name: m.name, reason: m.messageCode ? { messageCode: m.messageCode, params: m.params ?? {} } : m.reason })))) : ''
    super('invalid', coded('source.lock_mismatch', { file: SKILLS_LOCK_FILE, skills }))
    this.name = 'LockMismatchError'
  }
}

async function readLockFile(library: string): Promise<Record<string, LockEntry>> {
  const file = path.join(path.resolve(library), SKILLS_LOCK_FILE)
  const st = await fs.promises.lstat(file).catch(() => null)
  if (!st) throw new SourceError('not_found', coded('source.no_lock', { file: SKILLS_LOCK_FILE, dir: path.resolve(library) }))
  if (!st.isFile()) throw new SourceError('invalid', coded('source.lock_not_file', { file }))
  return parseSkillsLock(await fs.promises.readFile(file, 'utf8')).skills
}

/** Installs every skill of the lock at its commit, verified (see the module comment). */
export async function installLocked(opts: LockedInstallOptions): Promise<LockedInstallReport> {
  const entries = await readLockFile(opts.library)
  const names = Object.keys(entries).sort()
  const report: LockedInstallReport = { installed: [], skipped: [], mismatched: [], held: [], changed: [] }
  if (names.length === 0) return report
  const limits = gitLimits(opts, opts.env)
  const fetchOpts = { ...limits, env: opts.env, signal: opts.signal, onProgress: opts.onProgress }
  const prepared: PreparedInstall[] = []
  const failed: SkippedSkill[] = []
  for (const name of names) {
    const e = entries[name]!
    if (e.retired) {
      const why = coded('install.locked_retired', { source: e.source, path: e.path || '.' })
      report.skipped.push({ name, ...codedReason(why) })
      continue
    }
    const at = refOf(e.path ? coded('install.at_commit_path', { source: e.source, commit: e.commit.slice(0, 12), path: e.path }) : coded('install.at_commit', { source: e.source, commit: e.commit.slice(0, 12) }))
    try {
      const spec = parseSource(e.source, opts.cwd)
      opts.onProgress?.(codedLine('install.fetching_locked', { name, at }))
      // by commit, never by ref: a ref that moved on since the lock was written is not followed
      const fetched = await fetchCommit(spec, e.commit, fetchOpts)
      if (fetched.commit !== e.commit) throw new SourceError('not_found', coded('source.wrong_commit', { source: e.source, got: fetched.commit, wanted: e.commit }))
      const one = await prepareInstall(spec, { ...fetched, ref: e.ref }, cleanSubdir(e.path), undefined, fetchOpts)
      const c = one.candidates.find((x) => x.repoDir === e.path)
      if (!c) {
        const skip = one.skipped.find((s) => skippedAt(s, e.path))
        const why = skip ? (skip.messageCode ? { messageCode: skip.messageCode, params: skip.params ?? {} } : skip.reason) : refOf(coded('install.locked_no_skill'))
        failed.push(failedOf(name, coded('install.locked_at', { at, reason: why })))
        continue
      }
      if (c.name !== name) {
        failed.push(failedOf(name, coded('install.locked_other_name', { at, found: c.name, name })))
        continue
      }
      if (c.hash !== e.hash) {
        failed.push(failedOf(name, coded('install.locked_hash', { at, got: c.hash, wanted: e.hash })))
        continue
      }
      const findings = auditIncoming(c.name, c.skillText, c.files)
      if (highOf(findings).length > 0) {
        const uncovered = notCoveredBy(e.risk, findings)
        if (uncovered.length > 0) {
          // held unless the library has it at this commit already (writeInstalls looks first)
          const hint = e.risk
            ? coded('install.held_lock_uncovered', { file: SKILLS_LOCK_FILE, findings: uncovered.map((f) => `${f.file}${f.line ? `:${f.line}` : ''} ${f.rule}`).join(', '), source: e.source, name })
            : coded('install.held_lock_none', { file: SKILLS_LOCK_FILE, source: e.source, name })
          c.held = heldOf(name, findings, hint)
        } else {
          c.risk = e.risk
          opts.onProgress?.(codedLine('install.note_risk_allowed_lock', { name, n: highOf(findings).length, by: e.risk!.allowed_by, file: SKILLS_LOCK_FILE }))
        }
      } else {
        const medium = mediumNote(name, findings)
        if (medium) opts.onProgress?.(codedLine('install.note_medium', medium))
      }
      prepared.push({ ...one, candidates: [c], skipped: [] })
    } catch (err) {
      failed.push(failedOf(name, coded('install.locked_at', { at, reason: reasonOf(err) })))
    }
  }
  if (failed.length > 0) throw new LockMismatchError(failed)
  const inPlace = async (c: Candidate, skillPath: string, root: string): Promise<boolean> => {
    const commit = entries[c.name]!.commit
    const upstream: SkillFiles = { skillText: c.skillText, files: new Map(c.files.map((f) => [f.rel, { bytes: f.bytes, executable: f.executable }])) }
    const here = await readInstalledSkill(root, skillPath)
    const drift = driftOf(here, upstream)
    if (drift.length === 0) return false
    const findings = newFindings(c.name, here, upstream, drift)
    const why = driftReason(commit, drift, findings)
    report.mismatched.push(failedOf(c.name, why))
    report.changed.push({ name: c.name, path: skillPath, commit, files: drift, findings })
    opts.onProgress?.(codedLine('install.locked_entry', { name: c.name, reason: refOf(why) }))
    return true
  }
  await writeInstalls(opts.library, prepared, report, { onProgress: opts.onProgress, purpose: `installing ${SKILLS_LOCK_FILE}`, mismatched: report.mismatched, inPlace })
  return report
}

/** The high findings an allowance does not cover (same file and rule; lines may differ between rule versions). Pure. */
export function notCoveredBy(risk: LockRisk | undefined, findings: readonly AuditFinding[]): AuditFinding[] {
  const allowed = new Set((risk?.findings ?? []).map((f) => `${f.file}\u0000${f.rule}`))
  return highOf(findings).filter((f) => !allowed.has(`${f.file}\u0000${f.rule}`))
}
