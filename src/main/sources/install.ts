/**
 * `skillbench install SOURCE`: fetch a repository into the cache, find its skills, and add each one to the library
 * as a SKILL.md folder with its files and its provenance. A skill is staged inside `.skillbench/staging/` and
 * moved into place with one rename, so it is either wholly installed or not at all; a name already taken in the
 * library is reported and never overwritten.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { auditIncoming, highOf, mediumNote, riskRecord, type HeldSkill, type RiskRecord } from '../audit/gate'
import type { AuditFinding } from '../audit/types'
import { validateSkillMd } from '../formats/skill-md'
import { MAX_SKILL_FILE_BYTES, openLibrary, type SkillLibrary } from '../store/library'
import { ensureDirInside, existingDirInside, listContained, moveContained, writeContained } from '../store/contained'
import { decodeSkillBytes, parseSkillText, parseReasonParam } from '../store/skill-file'
import { reservedNameProblem } from '../store/paths'
import { SKILL_MD_NAME } from '../store/skill-meta'
import { changeSkillsLock, filesHash, SKILLS_LOCK_FILE, type LockEntry } from '../store/skills-lock'
import { gitLimits, SourceError, type GitLimits } from './git'
import { provenanceOfText, withProvenance, type SkillSource } from './provenance'
import { fetchCommit, listTree, readBlobs, type FetchedCommit } from './repo-cache'
import { cleanSubdir, findRepoSkills, LINK_MODE, type RepoSkill } from './repo-skills'
import { parseSource, type SourceSpec } from './source-spec'
import { coded, codedLine, refOf, type CodedLine, type CodedText, type MessageParam, type MessageRef } from '../../shared/error-codes'
import { codedReason } from '../../shared/coded-reason'
import { reasonOf } from '../../shared/api-error'

/** A skill not installed: the reason in English, with its code and params (error-codes.ts) for the app. */
export type SkippedSkill = { name: string; reason: string } & Partial<MessageRef>

function skipOf(name: string, reason: CodedText): SkippedSkill {
  return { name, ...codedReason(reason) }
}

export interface InstallOptions extends GitLimits {
  library: string
  source: string
  ref?: string
  /** Folder of the repository to look in (default: all of it). */
  path?: string
  /** Only these skills (by `name`); default every skill found. */
  skills?: string[]
  cwd: string
  env?: NodeJS.ProcessEnv
  signal?: AbortSignal
  /** Told what is happening (cloning, reading, writing), by code (install.*; the CLI prints `message`). */
  onProgress?: (line: CodedLine) => void
  /** Skills (by name) to install even with high audit findings, and who allowed them (kept in the provenance). */
  allowRisk?: string[]
  allowedBy?: string
}

export interface InstalledSkill {
  name: string
  /** Library-relative path of the SKILL.md. */
  path: string
  source: SkillSource
}

/** `skillbench install --json`: exactly this shape. */
export interface InstallReport {
  installed: InstalledSkill[]
  skipped: SkippedSkill[]
  /** Not written because the audit found something high (`--allow-risk NAME` takes one anyway). */
  held?: HeldSkill[]
}

/** Largest file of a skill copied into the library. */
export const MAX_RESOURCE_BYTES = 64 * 1024 * 1024
const STAGING = '.skillbench/staging'

/** A skill of the repository ready to be written: its name, files (bytes) and provenance. */
export interface Candidate {
  name: string
  repoDir: string
  skillText: string
  /** The SKILL.md as upstream has it (hashed for the lock). */
  skillMd: { bytes: Buffer; executable: boolean }
  files: { rel: string; bytes: Buffer; executable: boolean }[]
  /** `filesHash` of the upstream files (skills.lock). */
  hash: string
  /** Set when a person allowed its high audit findings. */
  risk?: RiskRecord
  /**
   * Set when the audit holds it back: reported in `held` unless the library already has it (then it is "already
   * installed", as without findings — nothing would be written either way).
   */
  held?: HeldSkill
}

/**
 * Problems of the Agent Skills rules a skill is installed with, as notes: extra top-level keys are other agents'
 * extensions (Claude Code's `disable-model-invocation`, collections' `category`…) and stay as written; a description
 * over 1024 characters is kept whole (deploy shortens it for agents, the full text going to the body).
 */
const TOLERATED: ReadonlySet<string> = new Set(['skillmd.unexpected_key', 'skillmd.description_too_long'])

/** Why a skill's SKILL.md cannot go into the library as it is (null when it can), its name, and notes. Pure. */
export function checkSkillMd(bytes: Buffer, fallbackName: string): { name: string; problem: CodedText | null; text: string; notes: MessageParam[] } {
  const decoded = decodeSkillBytes(bytes)
  if (!decoded.ok) return { name: fallbackName, problem: coded('install.skillmd_problem', { reason: coded('parse.not_utf8') }), text: '', notes: [] }
  const parsed = parseSkillText(decoded.text)
  if (!parsed.ok) return { name: fallbackName, problem: coded('install.does_not_parse', { reason: parseReasonParam(parsed) }), text: decoded.text, notes: [] }
  const fm = parsed.file.data
  const name = typeof fm.name === 'string' && fm.name !== '' ? fm.name : fallbackName
  const found = validateSkillMd({ frontMatter: fm, body: parsed.file.body }, { dirName: name }).filter((p) => p.level === 'error')
  const errors: MessageParam[] = found.map((p) => (p.messageCode ? { messageCode: p.messageCode, params: p.params ?? {} } : p.message))
  const fatal = found.filter((p) => !TOLERATED.has(p.messageCode ?? ''))
  const one = fatal.length === 1 && fatal[0]!.messageCode ? { messageCode: fatal[0]!.messageCode, params: fatal[0]!.params ?? {} } : null
  if (fatal.length > 0) return { name, problem: coded('install.fails_validation', { problems: one ?? fatal.map((p) => p.message).join('; ') }), text: decoded.text, notes: [] }
  if (!SKILL_MD_NAME.test(name)) return { name, problem: coded('install.bad_folder_name', { name }), text: decoded.text, notes: [] }
  const reserved = reservedNameProblem(name)
  if (reserved) return { name, problem: reserved, text: decoded.text, notes: [] }
  return { name, problem: null, text: decoded.text, notes: errors }
}

/** Installs the skills of a source into the library (see the module comment). */
export async function installFromSource(opts: InstallOptions): Promise<InstallReport> {
  const spec = parseSource(opts.source, opts.cwd)
  const subdir = cleanSubdir(opts.path) // a bad --path throws its CodedError ('invalid', install.bad_subdir)
  const limits = gitLimits(opts, opts.env)
  const fetchOpts = { ...limits, env: opts.env, signal: opts.signal }
  opts.onProgress?.(opts.ref ? codedLine('install.fetching_at', { source: spec.display, ref: opts.ref }) : codedLine('install.fetching', { source: spec.display }))
  const fetched = await fetchCommit(spec, opts.ref, fetchOpts)
  const prepared = await prepareInstall(spec, fetched, subdir, opts.skills, { ...fetchOpts, maxRepoBytes: limits.maxRepoBytes, onProgress: opts.onProgress })
  const report: InstallReport = { installed: [], skipped: prepared.skipped, held: [] }
  gateRisky(prepared.candidates, opts)
  if (prepared.candidates.length === 0) return report
  // Everything held and no library yet: nothing can be there already, and no folder is made for nothing.
  if (prepared.candidates.every((c) => c.held) && !fs.existsSync(opts.library)) {
    report.held = prepared.candidates.map((c) => c.held!)
    return report
  }
  await writeInstalls(opts.library, [prepared], report, { onProgress: opts.onProgress, purpose: `installing skills from ${spec.display}` })
  return report
}

/** The skills of one fetched commit ready to be written, and those left out with the reason. */
export interface PreparedInstall {
  spec: SourceSpec
  fetched: FetchedCommit
  candidates: Candidate[]
  skipped: SkippedSkill[]
}

/** Finds, checks and reads the skills of a fetched commit under `subdir` (only `skills` when given); writes nothing. */
export async function prepareInstall(
  spec: SourceSpec,
  fetched: FetchedCommit,
  subdir: string,
  skills: readonly string[] | undefined,
  fetchOpts: GitLimits & { maxRepoBytes: number; env?: NodeJS.ProcessEnv; signal?: AbortSignal; onProgress?: (line: CodedLine) => void }
): Promise<PreparedInstall> {
  const found = await skillsOfCommit(spec, fetched, subdir, fetchOpts)
  const skipped: PreparedInstall['skipped'] = []
  fetchOpts.onProgress?.(codedLine('install.found', { n: found.length, commit: fetched.commit.slice(0, 12) }))

  const blobs = await readBlobs(fetched.repoDir, found.map((s) => s.skillMd.oid), fetchOpts)
  const wanted = skills && skills.length > 0 ? new Set(skills) : null
  const candidates: Candidate[] = []
  const seenNames = new Map<string, string>()
  for (const skill of found) {
    const fallback = path.posix.basename(skill.dir) || path.posix.basename(spec.display).replace(/\.git$/, '')
    const bytes = blobs.get(skill.skillMd.oid)
    const checked = bytes
      ? skill.skillMd.size > MAX_SKILL_FILE_BYTES
        ? { name: fallback, problem: coded('install.skillmd_too_large', { bytes: MAX_SKILL_FILE_BYTES }), text: '', notes: [] }
        : checkSkillMd(bytes, fallback)
      : // an unread SKILL.md is most often a link the tree walk refused: its reason is the one to give
        { name: fallback, problem: skill.problems.find((p) => p.params.link === `${skill.dir ? `${skill.dir}/` : ''}SKILL.md`) ?? coded('install.skillmd_unread'), text: '', notes: [] }
    if (wanted && !wanted.has(checked.name) && !wanted.has(fallback)) continue
    const where = skill.dir || coded('install.root_folder')
    const skipIn = (reason: MessageParam): void => void skipped.push(skipOf(checked.name, coded('install.skipped_in', { where, reason })))
    if (checked.problem) {
      skipIn(refOf(checked.problem))
      continue
    }
    if (skill.problems.length > 0) {
      skipIn(skill.problems.length === 1 ? refOf(skill.problems[0]!) : skill.problems.map((p) => p.text).join('; '))
      continue
    }
    const first = seenNames.get(checked.name)
    if (first !== undefined) {
      skipIn(coded('install.same_name', { first: first || coded('install.its_root') }))
      continue
    }
    seenNames.set(checked.name, skill.dir)
    for (const note of [...checked.notes, ...skill.notes.map(refOf)]) fetchOpts.onProgress?.(codedLine('install.note_as_written', { name: checked.name, note }))
    const tooBig = skill.files.find((f) => f.size > MAX_RESOURCE_BYTES)
    if (tooBig) {
      skipIn(coded('install.too_large', { path: tooBig.rel, mb: MAX_RESOURCE_BYTES / (1024 * 1024) }))
      continue
    }
    candidates.push({ name: checked.name, repoDir: skill.dir, skillText: checked.text, skillMd: { bytes: bytes!, executable: skill.skillMd.executable }, files: [], hash: '' })
  }
  for (const name of wanted ?? []) {
    if (!seenNames.has(name) && !skipped.some((s) => s.name === name)) skipped.push(skipOf(name, coded('install.no_such_skill', { name, folder: subdir || coded('install.repo_root'), repo: spec.display })))
  }
  if (candidates.length === 0) return { spec, fetched, candidates, skipped }

  // Resource bytes only for the skills that will be written, with a budget for all of them together.
  const total = found.filter((s) => candidates.some((c) => c.repoDir === s.dir)).reduce((n, s) => n + s.files.reduce((m, f) => m + f.size, 0), 0)
  if (total > fetchOpts.maxRepoBytes) throw new SourceError('too_big', coded('source.skills_too_big', { mb: Math.round(total / (1024 * 1024)), max: Math.round(fetchOpts.maxRepoBytes / (1024 * 1024)) }))
  const resources = await readBlobs(fetched.repoDir, found.flatMap((s) => s.files.map((f) => f.oid)), fetchOpts)
  for (const c of candidates) {
    const skill = found.find((s) => s.dir === c.repoDir)!
    c.files = skill.files.map((f) => ({ rel: f.rel, bytes: resources.get(f.oid) ?? Buffer.alloc(0), executable: f.executable }))
    c.hash = filesHash([{ rel: 'SKILL.md', ...c.skillMd }, ...c.files])
  }
  return { spec, fetched, candidates, skipped }
}

export interface WriteInstallOptions {
  onProgress?: (line: CodedLine) => void
  purpose: string
  /**
   * `install --locked`: a skill already in the library from the same repository folder at the same commit counts
   * as installed; at another commit it goes to `mismatched`. Skills are recorded in the lock as they are.
   */
  mismatched?: SkippedSkill[]
  /**
   * `install --locked`: asked about a skill already in the library at the locked commit (`skillPath`: its SKILL.md);
   * true when it was reported otherwise (changed here since install), so it is not "already installed".
   */
  inPlace?: (c: Candidate, skillPath: string, root: string) => Promise<boolean>
}

/** Writes prepared skills into the library and records them in `skills.lock`, all under the library lock. */
export async function writeInstalls(libraryDir: string, prepared: readonly PreparedInstall[], report: InstallReport, opts: WriteInstallOptions): Promise<void> {
  const library = await openOrCreate(libraryDir)
  opts.onProgress?.(codedLine('install.writing', { dir: library.root }))
  await library.locked(async () => {
    await sweepStaging(library.root)
    const current = await library.list()
    const written: string[] = []
    const locked = new Map<string, LockEntry>()
    for (const { spec, fetched, candidates } of prepared) {
      for (const c of candidates) {
        const source: SkillSource = { repo: spec.display, ref: fetched.ref, commit: fetched.commit, path: c.repoDir, ...(c.risk ? { risk: c.risk } : {}) }
        // the allowance goes into the lock too, so `install --locked` elsewhere takes the skill with the same record
        const entry: LockEntry = { source: source.repo, ref: source.ref, commit: source.commit, path: source.path, hash: c.hash, ...(c.risk ? { risk: c.risk } : {}) }
        const clash = await collision(library, current.skills, c.name, spec.display, c.repoDir)
        if (clash) {
          if (opts.mismatched && clash.commit !== undefined) {
            if (clash.commit === fetched.commit) {
              if (!(opts.inPlace && clash.path && (await opts.inPlace(c, clash.path, library.root)))) report.skipped.push(skipOf(c.name, coded('install.locked_already', { commit: fetched.commit.slice(0, 12) })))
            }
            else opts.mismatched.push(skipOf(c.name, coded('install.locked_mismatch', { here: clash.commit.slice(0, 12), file: SKILLS_LOCK_FILE, locked: fetched.commit.slice(0, 12) })))
          } else (opts.mismatched ?? report.skipped).push(skipOf(c.name, clash.reason))
          continue
        }
        if (c.held) {
          ;(report.held ??= []).push(c.held)
          continue
        }
        try {
          const rel = await writeSkillFolder(library.root, c, source)
          written.push(rel)
          report.installed.push({ name: c.name, path: rel, source })
          locked.set(c.name, entry)
        } catch (err) {
          // staged copies are removed: nothing of this skill is left in the library
          ;(opts.mismatched ?? report.skipped).push(skipOf(c.name, coded('install.not_installed', { reason: reasonOf(err) })))
        }
      }
    }
    await library.adoptWrites(written)
    if (locked.size > 0) await changeSkillsLock(library.root, locked)
  }, opts.purpose.slice(0, 80))
}

/**
 * The audit's gate: a candidate with a high finding is marked `held` (reported, not written) unless `--allow-risk`
 * names it, in which case its findings and who allowed them go into its provenance.
 */
function gateRisky(candidates: Candidate[], opts: InstallOptions): void {
  const allow = new Set(opts.allowRisk ?? [])
  for (const c of candidates) {
    const findings = auditIncoming(c.name, c.skillText, c.files)
    if (highOf(findings).length === 0) {
      // not held back, and said: a warning-like line lowered to medium may still be a step
      const medium = mediumNote(c.name, findings)
      if (medium) opts.onProgress?.(codedLine('install.note_medium', medium))
      continue
    }
    if (allow.has(c.name)) {
      c.risk = riskRecord(findings, opts.allowedBy ?? 'unknown')
      opts.onProgress?.(codedLine('install.note_risk_allowed', { name: c.name, n: highOf(findings).length, by: c.risk.allowed_by }))
    } else c.held = heldOf(c.name, findings, coded('install.held_allow_risk', { name: c.name }))
  }
}

/** A skill the audit holds back: how to take it anyway, in English as `hint` and by code beside it. */
export function heldOf(name: string, findings: AuditFinding[], hint: CodedText): HeldSkill {
  return { name, findings, hint: hint.text, ...refOf(hint) }
}

/** The skills of a fetched commit under `subdir`; throws when the folder or any SKILL.md is missing. */
export async function skillsOfCommit(spec: SourceSpec, fetched: FetchedCommit, subdir: string, fetchOpts: GitLimits & { env?: NodeJS.ProcessEnv; signal?: AbortSignal }): Promise<RepoSkill[]> {
  const entries = await listTree(fetched.repoDir, fetched.commit, subdir, fetchOpts)
  // the repository, ref and commit as values (not an English "X at ref (commit)"): each language places them itself
  const at = { repo: spec.display, ref: fetched.ref, commit: fetched.commit.slice(0, 12) }
  if (subdir && entries.length === 0) throw new SourceError('not_found', coded('source.no_subdir', { folder: subdir, ...at }))
  const links = entries.filter((e) => e.mode === LINK_MODE)
  const linkBlobs = await readBlobs(fetched.repoDir, links.map((e) => e.oid), fetchOpts)
  const linkTargets = new Map([...linkBlobs].map(([oid, b]) => [oid, b.toString('utf8')]))
  const found = findRepoSkills(entries, subdir, linkTargets)
  if (found.length === 0) throw new SourceError('no_skills', coded('install.no_skills', { folder: subdir || coded('install.repo_root'), ...at }))
  return found
}

async function openOrCreate(dir: string): Promise<SkillLibrary> {
  await fs.promises.mkdir(dir, { recursive: true })
  return openLibrary(dir)
}

/** Why `name` cannot be installed into this library (null when it can); `commit` when it is this very skill, installed. */
async function collision(library: SkillLibrary, skills: readonly { name?: string; path: string; format: string }[], name: string, repo: string, repoPath: string): Promise<{ reason: CodedText; commit?: string; path?: string } | null> {
  const same = skills.find((s) => s.format === 'skill-md' && (s.name === name || path.posix.dirname(s.path) === name))
  if (same) {
    const text = await library.readRaw(same.path).then((r) => r.text, () => '')
    const prov = provenanceOfText(text)
    if (prov && prov.repo === repo && prov.path === repoPath) return { commit: prov.commit, path: same.path, reason: coded('install.already_installed', { repo, commit: prov.commit.slice(0, 12), path: same.path }) }
    return { reason: coded('install.name_taken', { name, path: same.path }) }
  }
  const there = await fs.promises.lstat(path.join(library.root, name)).then(() => true, () => false)
  if (there) return { reason: coded('install.folder_taken', { name }) }
  return null
}

/** Stages the skill's folder under .skillbench/staging and moves it into place in one rename; returns the SKILL.md path. */
async function writeSkillFolder(root: string, c: Candidate, source: SkillSource): Promise<string> {
  const stage = `${STAGING}/${process.pid}-${randomBytes(6).toString('hex')}`
  try {
    await writeContained(root, `${stage}/${c.name}/SKILL.md`, withProvenance(c.skillText, source))
    for (const f of c.files) await writeContained(root, `${stage}/${c.name}/${f.rel}`, f.bytes, { mode: f.executable ? 0o755 : 0o644 })
    await moveContained(root, `${stage}/${c.name}`, c.name)
  } finally {
    const dir = await existingDirInside(root, stage).catch(() => null)
    if (dir) await fs.promises.rm(dir, { recursive: true, force: true })
  }
  return `${c.name}/SKILL.md`
}

/** Removes staging folders of installs whose process is gone (a crash mid-install leaves nothing in the library itself). */
async function sweepStaging(root: string): Promise<void> {
  await ensureDirInside(root, STAGING)
  for (const name of await listContained(root, STAGING)) {
    const pid = Number(/^(\d+)-/.exec(name)?.[1])
    if (pid === process.pid || (pid && processAlive(pid))) continue
    const dir = await existingDirInside(root, `${STAGING}/${name}`).catch(() => null)
    if (dir) await fs.promises.rm(dir, { recursive: true, force: true })
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}
