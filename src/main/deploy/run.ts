/**
 * `skillbench deploy`: reads the library, plans against the target (plan.ts) and carries the plan out.
 *
 * Safety: the target folder itself must not be a symbolic link, and every path below it is walked with
 * contained.ts (no link anywhere, O_NOFOLLOW); a lock in the target (`.skillbench-deploy.lock`, present only
 * while held) keeps two deploys from interleaving. A real run keeps the bytes it replaces and writes in the
 * library's blob store, writes its intent into the target, then the files (each atomically), the manifest, and
 * last its journal record in the library — the commit point. A crash before that is rolled back by the next
 * deploy into the target, with the folders it made (made-folders.ts); `undo` puts the folder back from the blobs
 * while nothing was changed there since. A cancel (the signal: the CLI's first Ctrl-C) stops a run before its
 * first file, or between two files with the ones written taken back (cancel.ts).
 * A dry run computes the same plan and writes nothing at all.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { DeployBudget, DeployResult, DeploySkillReport, DeployTargetInfo } from '../../shared/api-deploy'
import type { FileChange, Proposal } from '../../shared/types'
import { CurationError } from '../review/transactions'
import { loadPlan } from '../review/plan'
import { activeApplies, appendJournal, newRecordId, readJournal, type DeployFileOp, type DeployRecord, type JournalRecord } from '../review/journal'
import { containedFilePath, ensureDirInside, existingDirInside, moveContained, readContained, readContainedText, unlinkContained, writeContained } from '../store/contained'
import { openLibrary, type SkillLibrary } from '../store/library'
import { withLibraryLock } from '../store/lock'
import { decodeSkillBytes, parseSkillText } from '../store/skill-file'
import { listResources } from '../store/skill-index'
import { isTempName, sweepTempFiles } from '../store/atomic'
import { StoreError } from '../store/types'
import { queueProposals } from '../sources/update'
import { getBlob, putBlob } from './blobs'
import { learnedProposal } from './drift'
import { INTENT_FILE, LOCK_FILE, MANIFEST_FILE, parseManifest, serializeManifest } from './manifest'
import { chooseSkills, libraryUsage, suggestDisabling, type UsageLookup } from './choose'
import { deployedFiles, planDeploy, WHY_TEXT, type DeployPlan, type FolderState } from './plan'
import { assignNames, chars, renderSkill, sha256, type LibrarySkill, type RenderedSkill } from './render'
import { resolveTarget, type DeployTarget } from './targets'
import { asCancelled, deployCancelled, throwIfCancelled, type DeployCheckpoint } from './cancel'
import { foldersToMake, removeMadeFolders } from './made-folders'
import { coded, codedLine, lineOf, refOf, type CodedLine, type CodedText } from '../../shared/error-codes'
import { appendRecoveryLog } from '../review/recovery-log'
import { tellRecovery } from '../review/recovery-notices'
import { reasonOf } from '../../shared/api-error'

export interface DeployOptions {
  library: string
  /** `claude`, `codex`, `agents:PATH`, … or a folder (see targets.ts). */
  to: string
  /** Only these skills (by deployed name, library name or title, or skill id); others in the target stay as they are. */
  skills?: string[]
  dryRun?: boolean
  cwd: string
  env?: NodeJS.ProcessEnv
  /** Who deployed (journal). */
  by?: string
  now?: () => Date
  /** Deploy what this profile of the library's deploy-profiles.json selects (choose.ts). */
  profile?: string
  /** Uses per skill id for the budget's suggestions (default: the library's fetch counts). */
  usage?: UsageLookup
  /**
   * Stops a real run (the CLI's first Ctrl-C): before the first file it says "cancelled"; while writing it stops
   * between two files and takes back those written (cancel.ts).
   */
  signal?: AbortSignal
  /** Tests: awaited at the points a crash test holds a real run at (cancel.ts). */
  checkpoint?: DeployCheckpoint
}

/** Share of the budget from which a deploy warns that it is crowding the agent's list. */
export const BUDGET_WARN_FRACTION = 0.8

const LOCK_OPTS = { lockDir: '', lockName: LOCK_FILE, what: 'folder' as const }

// ---- reading ------------------------------------------------------------------------------------

/** Every active skill of the library with its text and (SKILL.md folders) the files beside it. */
export async function librarySkills(library: SkillLibrary): Promise<{ skills: LibrarySkill[]; warnings: string[] }> {
  const list = await library.list()
  const warnings = list.errors.filter((e) => e.kind !== 'skipped').map((e) => `${e.path}: ${e.reason} (not deployed)`)
  const skills: LibrarySkill[] = []
  for (const skill of list.skills) {
    const text = (await library.readRaw(skill.path)).text
    const resources: LibrarySkill['resources'] = []
    if (skill.format === 'skill-md') {
      const dir = path.posix.dirname(skill.path)
      const rels = await listResources(path.join(library.root, ...dir.split('/')))
      // a skill folder nested inside this one is a skill of its own, not a file of this one
      const nested = rels.filter((r) => r.endsWith('/SKILL.md')).map((r) => r.slice(0, -'SKILL.md'.length))
      for (const rel of rels) {
        if (nested.some((n) => rel.startsWith(n))) continue
        const abs = await containedFilePath(library.root, `${dir}/${rel}`, { createDirs: false })
        const st = await fs.promises.lstat(abs).catch(() => null)
        const bytes = await readContained(library.root, `${dir}/${rel}`).catch(() => null)
        if (!st || !bytes) continue
        resources.push({ rel, bytes, mode: st.mode & 0o111 ? 0o755 : 0o644 })
      }
    }
    skills.push({ skill, text, resources })
  }
  return { skills, warnings }
}

/**
 * The state of one skill folder of the target, read without following any link. Our temp files
 * (`.skillbench-tmp-<pid>-….tmp`) are never part of it; with `sweep` (a real run, under the target lock) those
 * whose writer is gone — a killed deploy's — are removed on the way.
 */
export async function readFolder(targetReal: string, name: string, sweep = false): Promise<FolderState> {
  const state: FolderState = { exists: false, linked: false, files: new Map(), hashes: new Map() }
  const top = path.join(targetReal, name)
  const st = await fs.promises.lstat(top).catch(() => null)
  if (!st) return state
  state.exists = true
  if (!st.isDirectory()) {
    state.linked = true // a link, or a file where a skill folder would be: never written through
    return state
  }
  const walk = async (rel: string, depth: number): Promise<void> => {
    if (depth > 12) return
    for (const e of await fs.promises.readdir(path.join(top, rel), { withFileTypes: true })) {
      if (e.isFile() && isTempName(e.name)) {
        if (sweep) await sweepTempFiles(path.join(top, rel), [e.name])
        continue
      }
      const childRel = rel ? `${rel}/${e.name}` : e.name
      if (e.isSymbolicLink() || !(e.isFile() || e.isDirectory())) {
        state.linked = true
        continue
      }
      if (e.isDirectory()) await walk(childRel, depth + 1)
      else {
        const bytes = await readContained(targetReal, `${name}/${childRel}`)
        if (bytes) {
          state.files.set(childRel, bytes)
          state.hashes.set(childRel, sha256(bytes))
        }
      }
    }
  }
  await walk('', 0)
  return state
}

/** The target folder's real path; refuses one that is itself a symbolic link (it would lead elsewhere). */
async function targetFolder(target: DeployTarget, create: boolean): Promise<string | null> {
  const st = await fs.promises.lstat(target.dir).catch(() => null)
  if (st?.isSymbolicLink()) {
    const to = await fs.promises.realpath(target.dir).catch(() => '(nowhere)')
    throw new StoreError('path_escape', coded('deploy.target_symlink', { dir: target.dir, to }))
  }
  if (st && !st.isDirectory()) throw new StoreError('invalid_input', coded('file.is_not_folder', { path: target.dir }))
  if (!st) {
    if (!create) return null
    await fs.promises.mkdir(target.dir, { recursive: true })
  }
  return fs.promises.realpath(target.dir)
}

// ---- budget ------------------------------------------------------------------------------------

function metaChars(text: string | null): number {
  if (text === null) return 0
  const parsed = parseSkillText(text)
  if (!parsed.ok) return 0
  const name = typeof parsed.file.data.name === 'string' ? parsed.file.data.name : ''
  const description = typeof parsed.file.data.description === 'string' ? parsed.file.data.description : ''
  return chars(name) + chars(description)
}

/** The metadata every skill folder of the target will carry after the plan, against the agent's budget. */
async function measureBudget(target: DeployTarget, targetReal: string | null, plan: DeployPlan, desired: ReadonlyMap<string, RenderedSkill>): Promise<DeployBudget> {
  let ours = 0
  let others = 0
  const planned = new Map(plan.skills.map((s) => [s.name, s.action]))
  const folders = targetReal ? (await fs.promises.readdir(targetReal, { withFileTypes: true }).catch(() => [])).filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name) : []
  for (const name of new Set([...folders, ...desired.keys()])) {
    const action = planned.get(name)
    if (action === 'remove' || action === 'forget') continue
    const d = desired.get(name)
    if (d && (action === 'create' || action === 'update' || action === 'unchanged' || action === 'adopt')) {
      ours += d.metaChars
      continue
    }
    if (!targetReal || !folders.includes(name)) continue
    const text = await readContainedText(targetReal, `${name}/SKILL.md`).catch(() => null)
    if (action === 'drifted') ours += metaChars(text)
    else others += metaChars(text)
  }
  const total = ours + others
  const limit = target.budget?.chars ?? null
  const percent = limit ? Math.round((total / limit) * 100) : null
  const level = limit === null ? 'none' : total > limit ? 'over' : total >= limit * BUDGET_WARN_FRACTION ? 'warn' : 'ok'
  return { chars: total, ours, others, limit, percent, level, ...(target.budget ? { source: target.budget.source } : {}) }
}

/**
 * Most skills the budget's sentence names to disable. Beyond it the sentence names these, says how many more, and
 * suggests a profile (only what this agent needs) instead of a disable command of that length; `--json` keeps
 * the whole list (`budget.suggest`).
 */
export const SUGGEST_NAMED = 10

/** The budget in one sentence for the CLI and warnings. */
export function budgetMessage(target: DeployTargetInfo, b: DeployBudget): string {
  if (b.limit === null) return `${target.label}: ${b.chars} characters of skill names and descriptions (no documented limit for this agent)`
  const head = `${target.label}: ${b.chars} of about ${b.limit} characters of skill metadata (${b.percent}%)`
  if (b.level === 'over' && b.suggest && b.suggest.length > 0) {
    const named = b.suggest.slice(0, SUGGEST_NAMED)
    const list = named.map((s) => `${s.name} (${s.uses} use${s.uses === 1 ? '' : 's'}, ${s.chars} chars)`).join(', ')
    const over = `${head} — over the budget: the agent will shorten descriptions or leave skills out of its list.`
    if (named.length === b.suggest.length) return `${over} Least used first, disabling ${list} gets it under: skillbench disable ${named.map((s) => s.name).join(' ')} --to ${target.spec}`
    const more = b.suggest.length - named.length
    return `${over} Getting under it takes disabling ${b.suggest.length} skills, least used first: ${list} and ${more} more (--json lists them all). Rather than disabling that many, deploy only what this agent needs with a profile: skillbench profile set NAME --to ${target.spec} --skill tag:TAG|collection:NAME|SKILL…, then skillbench deploy --profile NAME`
  }
  if (b.level === 'over') return `${head} — over the budget: the agent will shorten descriptions or leave skills out of its list; deploy fewer skills (--skill) or shorten descriptions`
  if (b.level === 'warn') return `${head} — close to the budget: more skills will crowd the agent's list`
  return head
}

// ---- deploy ------------------------------------------------------------------------------------

function counts(skills: readonly DeploySkillReport[]): DeployResult['counts'] {
  const c = { written: 0, updated: 0, removed: 0, unchanged: 0, drifted: 0, left: 0 }
  for (const s of skills) {
    if (s.action === 'create') c.written++
    else if (s.action === 'update') c.updated++
    else if (s.action === 'remove') c.removed++
    else if (s.action === 'unchanged' || s.action === 'adopt' || s.action === 'forget') c.unchanged++
    else if (s.action === 'drifted') c.drifted++
    else c.left++
  }
  return c
}

/** Deploys (or with `dryRun`, only plans) the library's active skills into one target. */
export async function deploy(opts: DeployOptions): Promise<DeployResult> {
  try {
    return await deployOnce(opts)
  } catch (err) {
    throw asCancelled(err, opts.signal)
  }
}

async function deployOnce(opts: DeployOptions): Promise<DeployResult> {
  const env = opts.env ?? process.env
  const now = opts.now ?? (() => new Date())
  let target: DeployTarget
  try {
    target = resolveTarget(opts.to, env, opts.cwd)
  } catch (err) {
    throw new StoreError('invalid_input', coded('deploy.bad_target', { reason: reasonOf(err) }))
  }
  const library = await openLibrary(opts.library)
  const { skills, warnings } = await librarySkills(library)
  const targetReal = await targetFolder(target, !opts.dryRun)
  const work = async (): Promise<DeployResult> => {
    if (!opts.dryRun) throwIfCancelled(opts.signal)
    if (targetReal && !opts.dryRun) {
      const recovered = await recoverDeploy(targetReal, { library: library.root })
      if (recovered.note) warnings.push(recovered.note)
    }
    else if (targetReal && (await readContainedText(targetReal, INTENT_FILE).catch(() => null)) !== null) warnings.push('an interrupted deploy into this folder will be rolled back by the next real run')
    const manifest = parseManifest(targetReal ? await readContainedText(targetReal, MANIFEST_FILE) : null)
    const previous = new Map<string, string>()
    for (const [name, e] of Object.entries(manifest.skills)) if (e.library === library.root) previous.set(e.skill_id, name)
    const names = assignNames(skills, previous)
    const { chosen, scope, disabled, leftOut } = await chooseSkills({ root: library.root, skills, names, wanted: opts.skills, profile: opts.profile, target, env, cwd: opts.cwd })
    const desired = new Map<string, RenderedSkill>()
    for (const s of chosen) {
      const name = names.get(s.skill.skill_id)!
      try {
        desired.set(name, renderSkill(s, name))
      } catch (err) {
        warnings.push(`${s.skill.path}: ${(err as Error).message} (not deployed)`)
      }
    }
    // a killed deploy's temp files are swept as the folders are read (a real run, under the target lock)
    if (targetReal && !opts.dryRun) await sweepTempFiles(targetReal)
    const folders = new Map<string, FolderState>()
    for (const name of new Set([...desired.keys(), ...Object.keys(manifest.skills)])) {
      folders.set(name, targetReal ? await readFolder(targetReal, name, !opts.dryRun) : { exists: false, linked: false, files: new Map(), hashes: new Map() })
    }
    const blobs = new Map<string, Buffer | null>()
    for (const e of Object.values(manifest.skills)) {
      if (e.library !== library.root) continue
      for (const hash of Object.values(e.files)) if (!blobs.has(hash)) blobs.set(hash, await getBlob(library.root, hash))
    }
    const stamp = now().toISOString()
    const plan = planDeploy({ library: library.root, desired, scope, manifest, folders, blob: (h) => blobs.get(h) ?? null, now: stamp })
    if (targetReal && !opts.dryRun) await opts.checkpoint?.({ step: 'planned' })
    const byId = new Map(skills.map((s) => [s.skill.skill_id, s]))
    const info: DeployTargetInfo = { spec: target.spec, agent: target.agent, label: target.label, dir: targetReal ?? target.dir, exists: targetReal !== null, budget: target.budget?.chars ?? null }
    const proposals: Proposal[] = []
    const reports: DeploySkillReport[] = plan.skills.map((p) => {
      const report: DeploySkillReport = { name: p.name, action: p.action, ...(p.skill_id ? { skill_id: p.skill_id } : {}), ...(p.title ? { title: p.title } : {}), files: p.files, ...(p.why ? { why: p.why, reason: WHY_TEXT[p.why] } : {}) }
      const source = p.skill_id ? byId.get(p.skill_id) : undefined
      const d = desired.get(p.name)
      const m = manifest.skills[p.name]
      if (p.learn && source && d && m) {
        const learned = learnedProposal({
          skill: source.skill,
          libraryText: source.text,
          libraryFiles: new Map(source.resources.map((r) => [r.rel, r.bytes])),
          deployed: deployedFiles(m, (h) => blobs.get(h) ?? null),
          current: folders.get(p.name)!.files,
          rendered: new Map([...d.files].map(([rel, f]) => [rel, f.bytes])),
          name: p.name,
          target: { spec: target.spec, label: target.label, dir: info.dir }
        })
        if (learned.proposal) {
          proposals.push(learned.proposal)
          report.proposal = learned.proposal.id
        }
        if (learned.notes.length > 0) {
          report.notes = learned.notes.map((n) => n.text)
          report.note_refs = learned.notes.map(refOf)
        }
      }
      return report
    })
    const queued = await queuedIds(library.root)
    for (const r of reports) if (r.proposal) r.proposalQueued = queued.has(r.proposal)
    const budget = await measureBudget(target, targetReal, plan, desired)
    const suggest = await suggestDisabling(budget, desired, opts.usage ?? libraryUsage(skills))
    if (suggest.length > 0) budget.suggest = suggest
    if (budget.level === 'warn' || budget.level === 'over') warnings.push(budgetMessage(info, budget))
    const result: DeployResult = {
      target: info,
      dryRun: opts.dryRun === true,
      skills: reports,
      counts: counts(reports),
      budget,
      journal_id: null,
      proposals: proposals.map((p) => ({ id: p.id, name: String(p.evidence.name), queued: queued.has(p.id) })),
      warnings,
      ...(disabled.length > 0 ? { disabled } : {}),
      ...(opts.profile !== undefined ? { profile: opts.profile, left_out: leftOut } : {})
    }
    if (opts.dryRun || !targetReal) return result
    throwIfCancelled(opts.signal)
    const manifestText = serializeManifest(plan.manifest)
    const manifestBefore = await readContainedText(targetReal, MANIFEST_FILE)
    // A library this user cannot write (shared, mounted, `chmod -R a-w`) is only read: the target is deployed all
    // the same, and the notice says what is not kept (undo, rollback, changes offered back).
    let readOnly = false
    const sayReadOnly = (): void => {
      if (!readOnly) warnings.push(coded('deploy.library_read_only', { library: library.root }).text)
      readOnly = true
    }
    if (plan.ops.length > 0 || manifestText !== manifestBefore) {
      // adopted copies are claimed without a write: keep their bytes too, so they stay provably ours
      const adopted = plan.skills.filter((s) => s.action === 'adopt').flatMap((s) => [...(desired.get(s.name)?.files.values() ?? [])].map((f) => f.bytes))
      const record = await carryOut(library.root, targetReal, target.spec, plan, manifestBefore, manifestText, opts.by ?? 'user', stamp, adopted, { signal: opts.signal, checkpoint: opts.checkpoint })
      if (record) result.journal_id = record.id
      else {
        sayReadOnly()
        // nothing kept to take a run back from: a Ctrl-C is heeded before the first write, not between writes
        throwIfCancelled(opts.signal)
        await placeUnkept(targetReal, plan, manifestText)
      }
    }
    if (!readOnly && proposals.some((p) => !queued.has(p.id))) {
      await queueProposals(library.root, proposals.filter((p) => !queued.has(p.id))).catch((err: unknown) => {
        if (!isReadOnly(err)) throw err
        sayReadOnly()
      })
    }
    if (readOnly) {
      // not offered back: nothing for `skillbench proposals` to show
      result.proposals = result.proposals.filter((p) => p.queued)
      for (const r of reports) {
        if (r.proposal && !queued.has(r.proposal)) {
          delete r.proposal
          delete r.proposalQueued
        }
      }
    }
    return result
  }
  if (opts.dryRun || !targetReal) return work()
  return withLibraryLock(targetReal, work, { ...LOCK_OPTS, purpose: `skillbench deploy ${target.spec}`.slice(0, 80) })
}

/** Ids of the proposals already in the library's plan (any status: a rejected one is not offered again). */
async function queuedIds(root: string): Promise<Set<string>> {
  const plan = await loadPlan(root).catch(() => null)
  return new Set((plan?.proposals ?? []).map((p) => p.id))
}

// ---- carrying out, recovery, undo --------------------------------------------------------------

interface Intent {
  id: string
  library: string
  ops: DeployFileOp[]
  manifest: DeployRecord['manifest']
  /** Folders (target-relative) the ops make, absent before: a rollback removes them when empty (made-folders.ts). */
  dirs?: string[]
}

/** What a real run may be stopped by and held at (DeployOptions). */
interface RunControl {
  signal?: AbortSignal
  checkpoint?: DeployCheckpoint
}

/** Removes empty folders left by removed files, from the file's folder up to (not including) the target. */
async function pruneEmptyDirs(targetReal: string, rel: string): Promise<void> {
  let dir = path.posix.dirname(rel)
  while (dir !== '.' && dir !== '') {
    const abs = await existingDirInside(targetReal, dir)
    if (!abs) break
    try {
      await fs.promises.rmdir(abs) // only succeeds when empty: nothing of anyone's is removed
    } catch {
      break
    }
    dir = path.posix.dirname(dir)
  }
}

async function currentHash(targetReal: string, rel: string): Promise<string | null> {
  const bytes = await readContained(targetReal, rel).catch((err: unknown) => {
    if (err instanceof StoreError && err.code === 'path_escape') throw err
    return null
  })
  return bytes ? sha256(bytes) : null
}

/** Puts file `rel` in the state `hash` (null = absent) from the blob store. */
async function putFile(libraryRoot: string, targetReal: string, rel: string, hash: string | null, mode: number | undefined): Promise<void> {
  if (hash === null) {
    await unlinkContained(targetReal, rel)
    await pruneEmptyDirs(targetReal, rel)
    return
  }
  const bytes = await getBlob(libraryRoot, hash)
  if (!bytes) throw new CurationError('conflict', coded('deploy.bytes_gone', { path: rel, hash: hash.slice(0, 12) }))
  await writeContained(targetReal, rel, bytes, { mode: mode ?? 0o644 })
}

/**
 * Applies ops + manifest as one recoverable change and journals it; returns the journal record. Stopped by
 * `run.signal` between two files (before the manifest at the latest), it takes back what it wrote and throws
 * "cancelled" saying so.
 */
async function applyOps(libraryRoot: string, targetReal: string, spec: string, ops: DeployFileOp[], manifest: DeployRecord['manifest'], record: Omit<JournalRecord, 'id' | 'at' | 'deploy' | 'ops'>, at: string, run: RunControl = {}): Promise<JournalRecord> {
  const id = newRecordId()
  const dirs = await foldersToMake(targetReal, ops)
  const intent: Intent = { id, library: libraryRoot, ops, manifest, ...(dirs.length > 0 ? { dirs } : {}) }
  const intentText = JSON.stringify(intent) + '\n'
  // The library keeps the intent's bytes before the target sees them: recovery acts only on an intent the
  // library vouches for, so a file forged into the agent's folder can never make a deploy remove anything.
  await withLibraryLock(libraryRoot, () => putBlob(libraryRoot, Buffer.from(intentText, 'utf8')), { purpose: 'keeping a deploy intent' })
  await writeContained(targetReal, INTENT_FILE, intentText)
  for (const [i, op] of ops.entries()) {
    if (run.signal?.aborted) await cancelApply(targetReal, intent, i)
    if (run.checkpoint && op.after !== null) {
      await ensureDirInside(targetReal, path.posix.dirname(op.rel))
      await run.checkpoint({ step: 'file', n: i + 1, rel: op.rel })
    }
    await putFile(libraryRoot, targetReal, op.rel, op.after, op.mode)
  }
  if (run.signal?.aborted) await cancelApply(targetReal, intent, ops.length)
  await putFile(libraryRoot, targetReal, MANIFEST_FILE, manifest.after, 0o644)
  const deployRecord: DeployRecord = { target: targetReal, spec, ops, manifest }
  const full: JournalRecord = { ...record, id, at, ops: [], deploy: deployRecord }
  await withLibraryLock(libraryRoot, () => appendJournal(libraryRoot, full), { purpose: 'journaling a deploy' })
  await unlinkContained(targetReal, INTENT_FILE)
  return full
}

/** Most SKILL.md text a deploy's journal record carries for the History (beyond it: paths only). */
const JOURNAL_TEXT_BYTES = 2 * 1024 * 1024

function textOrEmpty(b: Buffer | null): string | null {
  if (!b) return null
  const d = decodeSkillBytes(b)
  return d.ok ? d.text : ''
}

/** Takes back the `done` first ops of an intent being applied (under the target lock) and throws "cancelled" saying so. */
async function cancelApply(targetReal: string, intent: Intent, done: number): Promise<never> {
  const problems = await rollBack(targetReal, intent)
  if (problems.length > 0) throw new CurationError('conflict', coded('deploy.rollback_failed', { dir: targetReal, problems: problems.join('; ') }))
  await unlinkContained(targetReal, INTENT_FILE)
  throw deployCancelled(coded('deploy.cancelled_taken_back', { done, total: intent.ops.length, dir: targetReal }))
}

/** Whether a failure is the library's lock refusing a user who may not write there (store/lock.ts). */
function isReadOnly(err: unknown): boolean {
  return err instanceof StoreError && err.code === 'read_only'
}

/**
 * A read-only library's deploy (carryOut could not keep anything there): the plan's files and the manifest are
 * written straight into the target, under the target's lock, each checked against the state it was planned on.
 * No intent, no blobs, no journal record: it cannot be undone, and a crash midway is not rolled back (the next
 * deploy finds the copies already placed in sync, and leaves alone what it cannot prove its own).
 */
async function placeUnkept(targetReal: string, plan: DeployPlan, manifestText: string): Promise<void> {
  for (const op of plan.ops) {
    if ((await currentHash(targetReal, op.rel)) !== op.before) throw new CurationError('conflict', coded('deploy.changed_while', { path: op.rel }))
    if (op.after) await writeContained(targetReal, op.rel, op.after.bytes, { mode: op.after.mode })
    else {
      await unlinkContained(targetReal, op.rel)
      await pruneEmptyDirs(targetReal, op.rel)
    }
  }
  await writeContained(targetReal, MANIFEST_FILE, manifestText, { mode: 0o644 })
}

/** Keeps the bytes in the library and carries the plan out; null when the library is read-only (nothing done). */
async function carryOut(libraryRoot: string, targetReal: string, spec: string, plan: DeployPlan, manifestBefore: string | null, manifestAfter: string, by: string, at: string, adopted: readonly Buffer[], run: RunControl): Promise<JournalRecord | null> {
  // Every byte replaced or written goes to the blob store first: undo and recovery rebuild from it.
  const ops: DeployFileOp[] = []
  const changes: FileChange[] = []
  const manifest = await withLibraryLock(
    libraryRoot,
    async () => {
      for (const op of plan.ops) {
        throwIfCancelled(run.signal) // nothing is written in the target yet
        let before: Buffer | null = null
        if (op.before !== null) {
          before = await readContained(targetReal, op.rel)
          if (!before || sha256(before) !== op.before) throw new CurationError('conflict', coded('deploy.changed_while', { path: op.rel }))
          await putBlob(libraryRoot, before)
        }
        if (op.after) await putBlob(libraryRoot, op.after.bytes)
        ops.push({ rel: op.rel, before: op.before, after: op.after?.hash ?? null, ...(op.after && op.after.mode !== 0o644 ? { mode: op.after.mode } : {}) })
        if (op.rel.endsWith('/SKILL.md')) changes.push({ path: path.join(targetReal, op.rel), before: textOrEmpty(before), after: op.after ? textOrEmpty(op.after.bytes) : null })
      }
      for (const bytes of adopted) await putBlob(libraryRoot, bytes)
      const before = manifestBefore === null ? null : await putBlob(libraryRoot, Buffer.from(manifestBefore, 'utf8'))
      const after = await putBlob(libraryRoot, Buffer.from(manifestAfter, 'utf8'))
      return { before, after }
    },
    { purpose: 'keeping deployed files for undo' }
  ).catch((err: unknown) => {
    if (isReadOnly(err)) return null
    throw err
  })
  if (!manifest) return null
  const size = changes.reduce((n, c) => n + (c.before?.length ?? 0) + (c.after?.length ?? 0), 0)
  const shown = size <= JOURNAL_TEXT_BYTES ? changes : changes.map((c) => ({ path: c.path, before: c.before === null ? null : '', after: c.after === null ? null : '' }))
  throwIfCancelled(run.signal)
  return applyOps(libraryRoot, targetReal, spec, ops, manifest, { action: 'apply', proposal_id: `deploy-${spec}`.slice(0, 200), kind: 'deploy', by, author: 'skillbench deploy', changes: shown }, at, run)
}

export type RecoveryState = 'none' | 'committed' | 'rolled-back' | 'set-aside'

export interface Recovery {
  state: RecoveryState
  /** For `set-aside`: why the intent was not acted on and where it was put. */
  note?: string
}

/** Where an intent that this tool cannot vouch for is put: beside the target's own files, never acted on. */
export function setAsideName(at: Date): string {
  return `.skillbench-deploy.tx.rejected-${at.toISOString().replace(/[:.]/g, '-')}.json`
}

async function setAside(targetReal: string, why: CodedText, library: string | undefined): Promise<Recovery> {
  const name = setAsideName(new Date())
  await moveContained(targetReal, INTENT_FILE, name)
  const line = codedLine('deploy.recover_set_aside', { path: path.join(targetReal, INTENT_FILE), why: refOf(why), name })
  // kept by the library that deployed now, never by the one the intent names: nothing vouches for that one (the
  // caller is told by the note, among the deploy's warnings)
  if (library) await logDeployRecovery(library, [], [line], false)
  return { state: 'set-aside', note: line.message }
}

/**
 * Keeps what a deploy's recovery did in a library's recovery log (review/recovery-log.ts: the app's banner) and
 * tells the command or tool call it ran in (review/recovery-notices.ts; not with `tell: false`, for what the caller
 * gets otherwise: a failure as its error, a set-aside as a warning); a log that cannot be written is said too.
 */
async function logDeployRecovery(library: string, rolledBack: string[], lines: CodedLine[], tell = true): Promise<void> {
  const told = tell ? [...lines] : []
  await appendRecoveryLog(library, { rolled_back: rolledBack, lines }).catch((err: unknown) => {
    told.push(codedLine('review.recover_not_logged', { reason: reasonOf(err) }))
  })
  tellRecovery(told)
}

export interface RecoverDeployOptions {
  /** The library deploying (or undoing) now, a real path: it keeps an intent set aside in its recovery log. */
  library?: string
}

/**
 * Rolls back a deploy into this target that a crash interrupted before its journal record (call under the
 * target lock). Only an intent this tool wrote is acted on: its bytes must be kept in the library it names,
 * every path in it must stay inside the target, and every file state it would restore must be bytes the
 * library kept. Anything else is reported and set aside. What it did (rolled back, could not, set aside) goes to
 * a library's recovery log, as a transaction's recovery does: the intent's library for a rollback (vouched for by
 * its copy of the intent), `opts.library` for an intent set aside.
 */
export async function recoverDeploy(targetReal: string, opts: RecoverDeployOptions = {}): Promise<Recovery> {
  const text = await readContainedText(targetReal, INTENT_FILE)
  if (text === null) return { state: 'none' }
  const checked = checkIntent(text)
  if ('code' in checked) return setAside(targetReal, intentProblem(checked), opts.library)
  const intent = checked
  if (!(await getBlob(intent.library, sha256(Buffer.from(text, 'utf8'))).catch(() => null))) {
    return setAside(targetReal, coded('deploy.intent_not_vouched', { library: intent.library }), opts.library)
  }
  const { records } = await readJournal(intent.library).catch(() => ({ records: [] as JournalRecord[] }))
  if (records.some((r) => r.id === intent.id)) {
    await unlinkContained(targetReal, INTENT_FILE)
    return { state: 'committed' }
  }
  const problems = await rollBack(targetReal, intent)
  if (problems.length > 0) {
    const failed = coded('deploy.rollback_failed', { dir: targetReal, problems: problems.join('; ') })
    await logDeployRecovery(intent.library, [], [lineOf(failed)], false)
    throw new CurationError('conflict', failed)
  }
  await unlinkContained(targetReal, INTENT_FILE)
  await logDeployRecovery(intent.library, [intent.id], [codedLine('deploy.recover_rolled_back', { id: intent.id, dir: targetReal })])
  return { state: 'rolled-back' }
}

/**
 * Puts back every file of an intent that is as it left it, its manifest, and removes the folders it made (empty
 * ones only: made-folders.ts); returns the files it could not (changed since). Under the target lock.
 */
async function rollBack(targetReal: string, intent: Intent): Promise<string[]> {
  const problems: string[] = []
  for (const op of [...intent.ops].reverse()) {
    const now = await currentHash(targetReal, op.rel)
    if (now === op.before) continue
    if (now !== op.after) {
      problems.push(`${op.rel} matches neither its old nor its new content`)
      continue
    }
    await putFile(intent.library, targetReal, op.rel, op.before, undefined)
  }
  const manifestNow = await currentHash(targetReal, MANIFEST_FILE)
  if (manifestNow !== intent.manifest.before && manifestNow === intent.manifest.after) await putFile(intent.library, targetReal, MANIFEST_FILE, intent.manifest.before, 0o644)
  // a folder made for a file never written would stay empty, and look like someone else's to the next deploy
  await removeMadeFolders(targetReal, intent.dirs ?? [])
  return problems
}

const HASH = /^[0-9a-f]{64}$/

/** A relative path a deploy may touch: inside the target, below a skill folder, no dot-dot, no absolute path. */
function safeOpPath(rel: unknown): rel is string {
  if (typeof rel !== 'string' || rel.length === 0 || rel.length > 4096 || rel.includes('\\') || rel.includes('\0') || rel.startsWith('/')) return false
  const parts = rel.split('/')
  return parts.length >= 2 && parts.every((p) => p !== '' && p !== '.' && p !== '..')
}

/** A folder an intent says it makes: inside the target, no dot-dot, no absolute path. */
function safeDirPath(rel: unknown): rel is string {
  if (typeof rel !== 'string' || rel.length === 0 || rel.length > 4096 || rel.includes('\\') || rel.includes('\0') || rel.startsWith('/')) return false
  return rel.split('/').every((p) => p !== '' && p !== '.' && p !== '..')
}

function hashOrNull(v: unknown): v is string | null {
  return v === null || (typeof v === 'string' && HASH.test(v))
}

/** Why an intent is refused (checkIntent), by code. */
type IntentProblem = { code: 'deploy.intent_not_json' | 'deploy.intent_bad_shape' } | { code: 'deploy.intent_path_outside'; path: string }

function intentProblem(p: IntentProblem): CodedText {
  return p.code === 'deploy.intent_path_outside' ? coded(p.code, { path: p.path }) : coded(p.code)
}

/** The intent's shape checked field by field (a problem says why it is refused). Pure. */
export function checkIntent(text: string): Intent | IntentProblem {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    return { code: 'deploy.intent_not_json' } // our intents are written atomically: a torn one cannot exist
  }
  const d = data as Partial<Intent> | null
  const badShape: IntentProblem = { code: 'deploy.intent_bad_shape' }
  if (!d || typeof d !== 'object' || typeof d.id !== 'string' || typeof d.library !== 'string' || !path.isAbsolute(d.library) || !Array.isArray(d.ops)) return badShape
  if (!d.manifest || typeof d.manifest !== 'object' || !hashOrNull(d.manifest.before) || !hashOrNull(d.manifest.after)) return badShape
  for (const op of d.ops as unknown[]) {
    const o = op as Partial<DeployFileOp> | null
    if (!o || typeof o !== 'object' || !hashOrNull(o.before) || !hashOrNull(o.after)) return badShape
    if (!safeOpPath(o.rel)) return { code: 'deploy.intent_path_outside', path: JSON.stringify(String(o.rel)).slice(0, 120) }
  }
  if (d.dirs !== undefined) {
    if (!Array.isArray(d.dirs)) return badShape
    for (const dir of d.dirs as unknown[]) if (!safeDirPath(dir)) return { code: 'deploy.intent_path_outside', path: JSON.stringify(String(dir)).slice(0, 120) }
  }
  return d as Intent
}

/** The deploy record an id names (journal id or proposal id), if it is a deploy that was not undone. */
export async function findDeployRecord(libraryRoot: string, id: string): Promise<JournalRecord | null> {
  const { records } = await readJournal(libraryRoot)
  const record = records.find((r) => r.id === id) ?? activeApplies(records).find((r) => r.proposal_id === id)
  return record && record.kind === 'deploy' && record.deploy ? record : null
}

/** Undoes a deploy: every file it wrote or removed goes back, if nothing was changed there since. */
export async function undoDeploy(libraryRoot: string, id: string, by: string): Promise<JournalRecord> {
  const { records } = await readJournal(libraryRoot)
  const record = records.find((r) => r.id === id && r.kind === 'deploy')
  if (!record?.deploy) throw new CurationError('not_found', coded('deploy.no_deploy', { id: JSON.stringify(id) }))
  if (!activeApplies(records).some((r) => r.id === record.id)) throw new CurationError('not_found', coded('review.undone_already', { id: record.id }))
  const d = record.deploy
  const targetReal = d.target
  const st = await fs.promises.lstat(targetReal).catch(() => null)
  if (!st || st.isSymbolicLink() || !st.isDirectory()) throw new CurationError('conflict', coded('deploy.target_gone', { dir: targetReal }))
  return withLibraryLock(
    targetReal,
    async () => {
      await recoverDeploy(targetReal, { library: libraryRoot })
      const conflicts: string[] = []
      if ((await currentHash(targetReal, MANIFEST_FILE)) !== d.manifest.after) conflicts.push('the target was deployed to again since (undo that deploy first)')
      for (const op of d.ops) if ((await currentHash(targetReal, op.rel)) !== op.after) conflicts.push(`${op.rel} was changed there since`)
      if (conflicts.length > 0) throw new CurationError('conflict', coded('deploy.cannot_undo', { conflicts: conflicts.join('; ') }))
      const inverse: DeployFileOp[] = [...d.ops].reverse().map((op) => ({ rel: op.rel, before: op.after, after: op.before }))
      const changes = record.changes.map((c) => ({ path: c.path, before: c.after, after: c.before }))
      // (undoing the first deploy removes the manifest it made, with the files: nothing of ours is left there)
      return applyOps(libraryRoot, targetReal, d.spec, inverse, { before: d.manifest.after, after: d.manifest.before }, { action: 'undo', proposal_id: record.proposal_id, kind: 'deploy', by, author: by, changes, undoes: record.id }, new Date().toISOString())
    },
    { ...LOCK_OPTS, purpose: 'undoing a deploy' }
  )
}

