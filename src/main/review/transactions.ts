/**
 * Applying proposals all-or-nothing, and undoing them.
 *
 * A transaction first writes its intent (every op with exact before/after text) to
 * `.skillbench/tx/<id>.json`, then performs the ops (atomic temp+rename writes, no-clobber renames),
 * then appends its journal record — the commit point — and removes the intent file. Whoever opens the
 * library next (`recoverTransactions`) rolls back any intent without a journal record, so after a crash
 * the library is exactly as before or exactly as after, never a mix. Nothing is ever deleted: removals
 * are moves to `legacy/` (a SKILL.md skill moves with its folder, to `.skillbench/legacy/`).
 */
import fs from 'node:fs'
import path from 'node:path'
import { AGIAGENT_LEGACY_DIR, isLegacyPath, SKILL_MD_LEGACY_DIR } from '../../shared/legacy-paths'
import type { FileChange, Proposal, ProposalKind } from '../../shared/types'
import { hashBytes } from '../store/library'
import { checkRelPath } from '../store/paths'
import { unlinkFile, writeFileAtomic } from '../store/atomic'
import { appendContained, containedFilePath, listContained, moveContained, readContainedText, unlinkContained, writeContained } from '../store/contained'
import { LEDGER_REL, ledgerLine } from '../store/ledger'
import { formatTimestamp } from '../store/skill-meta'
import { withLibraryLock } from '../store/lock'
import { applyUsageDrift, formatOfPath, usageDrift, type UsageDrift } from '../store/usage-drift'
import { appendJournal, JOURNAL_REL, newRecordId, readJournal, TX_DIR, type JournalRecord, type TxOp } from './journal'
import { appendRecoveryLog } from './recovery-log'
import { tellRecovery } from './recovery-notices'
import { reasonOf } from '../../shared/api-error'
import { coded, codedLine, codedList, refOf, type CodedLine, type CodedText, type MessageCode, type MessageParams } from '../../shared/error-codes'

/** A change that cannot be applied as asked; nothing was changed. */
export class CurationError extends Error {
  readonly messageCode: MessageCode
  readonly params: MessageParams

  /** A coded message only (shared/error-codes.ts): its code and params cross every transport beside the English. */
  constructor(
    readonly code: 'conflict' | 'invalid' | 'not_found' | 'locked',
    message: CodedText
  ) {
    super(message.text)
    this.name = 'CurationError'
    this.messageCode = message.messageCode
    this.params = message.params
  }
}

export interface TxHooks {
  /** Called once the intent is on disk, before the first op. */
  onStart?: () => void | Promise<void>
  /** Called after each op is done (tests use it to slow down or crash at chosen points). */
  afterOp?: (index: number, op: TxOp) => void | Promise<void>
}

const SKILL_MD = /(^|\/)SKILL\.md$/

function dirOf(rel: string): string {
  return path.posix.dirname(rel)
}

/**
 * Turns a proposal's file changes into ops. A removal (after:null) must be matched by a creation under
 * `legacy/` — the same file, or for SKILL.md the same folder — or it is refused as a deletion.
 */
export function opsFromChanges(changes: readonly FileChange[]): TxOp[] {
  const seen = new Set<string>()
  for (const c of changes) {
    const p = checkRelPath(c.path)
    // retired SKILL.md folders (.skillbench/legacy/) are the library's; the rest of .skillbench is bookkeeping
    if ((p === '.skillbench' || p.startsWith('.skillbench/')) && !p.startsWith(SKILL_MD_LEGACY_DIR + '/')) throw new CurationError('invalid', coded('review.bookkeeping_path', { path: p }))
    if (seen.has(p)) throw new CurationError('invalid', coded('review.path_twice', { path: p }))
    seen.add(p)
    if (c.before === null && c.after === null) throw new CurationError('invalid', coded('review.change_empty', { path: p }))
  }
  const creations = changes.filter((c) => c.before === null)
  const paired = new Set<FileChange>()
  const writes: TxOp[] = []
  const moves: TxOp[] = []
  for (const c of changes) {
    if (c.before !== null && c.after !== null) {
      if (c.before !== c.after) writes.push({ op: 'write', path: c.path, before: c.before, after: c.after })
      continue
    }
    if (c.after !== null) continue
    const before = c.before as string
    let match: FileChange | undefined
    if (SKILL_MD.test(c.path) && dirOf(c.path) !== '.') {
      // The folder moves to <legacy>/<folder> or <legacy>/<folder>_<suffix> (name clash); <legacy> is
      // .skillbench/legacy (plans made by older versions said legacy/, still accepted).
      const dir = dirOf(c.path)
      match = creations.find((k) => {
        if (paired.has(k) || !SKILL_MD.test(k.path)) return false
        const to = dirOf(k.path)
        return [AGIAGENT_LEGACY_DIR, SKILL_MD_LEGACY_DIR].some((l) => to === `${l}/${dir}` || (to.startsWith(`${l}/${dir}_`) && !to.slice(`${l}/${dir}_`.length).includes('/')))
      })
      if (match) {
        moves.push({ op: 'move', from: dir, to: dirOf(match.path), file: 'SKILL.md', text: before })
        if (match.after !== before) moves.push({ op: 'write', path: match.path, before, after: match.after })
      }
    } else {
      match = creations.find((k) => !paired.has(k) && isLegacyPath(k.path) && k.after === before)
      if (match) moves.push({ op: 'move', from: c.path, to: match.path, file: '', text: before })
    }
    if (!match) throw new CurationError('invalid', coded('review.removal_is_move', { path: c.path }))
    paired.add(match)
  }
  for (const k of creations) if (!paired.has(k)) writes.push({ op: 'write', path: k.path, before: null, after: k.after })
  return [...writes, ...moves]
}

async function readText(abs: string): Promise<string | null> {
  try {
    const st = await fs.promises.lstat(abs)
    if (!st.isFile()) return '\u0000not-a-file'
    return (await fs.promises.readFile(abs)).toString('utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return null
    throw err
  }
}

async function exists(abs: string): Promise<boolean> {
  try {
    await fs.promises.lstat(abs)
    return true
  } catch {
    return false
  }
}

function same(current: string | null, expected: string | null): boolean {
  if (current === null || expected === null) return current === expected
  return current.length === expected.length && hashBytes(current) === hashBytes(expected)
}

/** Performs one op after checking the disk is in its "before" state. */
async function doOp(root: string, op: TxOp): Promise<void> {
  if (op.op === 'write') {
    // Every folder on the way a real folder inside the library (made when missing), the file never a link.
    const abs = await containedFilePath(root, op.path)
    const current = await readText(abs)
    if (!same(current, op.before)) {
      throw new CurationError('conflict', coded(op.before === null ? 'path.exists' : current === null ? 'path.gone' : 'review.changed_since_proposal', { path: op.path }))
    }
    if (op.after === null) await unlinkFile(abs)
    else await writeFileAtomic(abs, op.after, op.before === null ? { mustNotExist: true } : { mustExist: true })
    return
  }
  const from = await containedFilePath(root, op.from, { createDirs: false, folderOk: true })
  const to = await containedFilePath(root, op.to, { folderOk: true })
  if (!(await exists(from))) throw new CurationError('conflict', coded('path.gone', { path: op.from }))
  if (!same(await readText(op.file ? path.join(from, op.file) : from), op.text)) {
    throw new CurationError('conflict', coded('review.changed_since_proposal', { path: op.file ? `${op.from}/${op.file}` : op.from }))
  }
  if (await exists(to)) throw new CurationError('conflict', coded('path.exists', { path: op.to }))
  await moveContained(root, op.from, op.to)
}

/** Reverts one op if (and only if) its effect is on disk; returns the problem when the disk matches neither state. */
async function undoOp(root: string, op: TxOp): Promise<CodedText | null> {
  if (op.op === 'write') {
    const abs = await containedFilePath(root, op.path)
    const current = await readText(abs)
    if (same(current, op.before)) return null
    if (!same(current, op.after)) return coded('review.undo_neither', { path: op.path })
    if (op.before === null) await unlinkFile(abs)
    else await writeFileAtomic(abs, op.before)
    return null
  }
  const from = await containedFilePath(root, op.from, { folderOk: true })
  const to = await containedFilePath(root, op.to, { folderOk: true })
  const fromThere = await exists(from)
  const toThere = await exists(to)
  if (fromThere && !toThere) return null
  if (!fromThere && toThere) {
    await moveContained(root, op.to, op.from)
    return null
  }
  return coded('review.undo_move_unclear', { from: op.from, to: op.to })
}

async function rollback(root: string, ops: readonly TxOp[]): Promise<CodedText[]> {
  const problems: CodedText[] = []
  for (let i = ops.length - 1; i >= 0; i--) {
    const p = await undoOp(root, ops[i] as TxOp)
    if (p) problems.push(p)
  }
  return problems
}

// ---- transactions -------------------------------------------------------------------------------

interface TxFile {
  id: string
  record: JournalRecord
}

/** Runs ops as one transaction and journals it; on any failure everything done is rolled back and the error rethrown. */
export async function runTransaction(root: string, record: Omit<JournalRecord, 'id' | 'at'>, hooks: TxHooks = {}): Promise<JournalRecord> {
  // Under the library lock (re-entered when the caller holds it): no other process writes in between.
  return withLibraryLock(root, () => runTransactionLocked(root, record, hooks), { purpose: `applying ${record.kind} ${record.proposal_id}`.slice(0, 80) })
}

const SKILL_FILE = /(^|\/)(skill_[^/]*\.md|SKILL\.md)$/

/**
 * Carries usage counters that a fold wrote into a skill since the change was prepared over to the change (only
 * when nothing but fetch_count / last_used_at differs): the change applies, and no counted use is lost. Returns
 * the ops and changes as they will really be applied (and journaled).
 */
export async function rebaseOnUsage(root: string, ops: readonly TxOp[], changes: readonly FileChange[]): Promise<{ ops: TxOp[]; changes: FileChange[] }> {
  const out: TxOp[] = []
  // Skill files moved by this transaction whose text was rebased: the path they move to → old text, new text, drift.
  const moved = new Map<string, { original: string; current: string; drift: UsageDrift }>()
  const rewritten = new Map<string, { before: string | null; after: string | null }>()
  for (const op of ops) {
    if (op.op === 'write' && op.before !== null && SKILL_FILE.test(op.path)) {
      const format = formatOfPath(op.path)
      const prior = moved.get(op.path)
      let current: string | null
      let drift: UsageDrift | null
      if (prior && op.before === prior.original) {
        current = prior.current
        drift = prior.drift
      } else {
        current = await readText(await containedFilePath(root, op.path, { createDirs: false }))
        drift = current !== null && current !== op.before ? usageDrift(op.before, current, format) : null
      }
      if (current !== null && drift) {
        const after = op.after === null ? null : applyUsageDrift(op.after, drift, format)
        if (op.after === null || after !== null) {
          out.push({ ...op, before: current, after })
          rewritten.set(op.path, { before: current, after })
          continue
        }
      }
    } else if (op.op === 'move') {
      const fileRel = op.file ? `${op.from}/${op.file}` : op.from
      if (SKILL_FILE.test(fileRel)) {
        const current = await readText(await containedFilePath(root, fileRel, { createDirs: false }))
        const drift = current !== null && current !== op.text ? usageDrift(op.text, current, formatOfPath(fileRel)) : null
        if (current !== null && drift) {
          const dest = op.file ? `${op.to}/${op.file}` : op.to
          moved.set(dest, { original: op.text, current, drift })
          rewritten.set(fileRel, { before: current, after: null })
          if (!rewritten.has(dest)) rewritten.set(dest, { before: null, after: current })
          out.push({ ...op, text: current })
          continue
        }
      }
    }
    out.push(op)
  }
  const newChanges = changes.map((c) => {
    const r = rewritten.get(c.path)
    if (!r) return c
    return { ...c, before: c.before === null ? null : (r.before ?? c.before), after: c.after === null ? null : (r.after ?? c.after) }
  })
  return { ops: out, changes: newChanges }
}

async function runTransactionLocked(root: string, recordIn: Omit<JournalRecord, 'id' | 'at'>, hooks: TxHooks): Promise<JournalRecord> {
  const id = newRecordId()
  const rebased = await rebaseOnUsage(root, recordIn.ops, recordIn.changes)
  const record = { ...recordIn, ops: rebased.ops, changes: rebased.changes }
  const full: JournalRecord = { ...record, id, at: new Date().toISOString() }
  // The commit point must be writable inside the library before anything changes (a linked journal is refused here).
  await containedFilePath(root, JOURNAL_REL)
  const intent = `${TX_DIR}/${id}.json`
  await writeContained(root, intent, JSON.stringify({ id, record: full } satisfies TxFile), { mustNotExist: true })
  let done = 0
  try {
    await hooks.onStart?.()
    for (const op of full.ops) {
      await doOp(root, op)
      done++
      await hooks.afterOp?.(done - 1, op)
    }
  } catch (err) {
    const problems = await rollback(root, full.ops.slice(0, done))
    await announceWrites(root, full.ops.slice(0, done))
    if (problems.length === 0) await unlinkContained(root, intent).catch(() => undefined)
    if (problems.length > 0) throw new CurationError('conflict', coded('review.rollback_failed', { reason: reasonOf(err), problems: refOf(codedList(problems)) }))
    throw err
  }
  await appendJournal(root, full)
  await unlinkContained(root, intent)
  await announceWrites(root, full.ops)
  return full
}

/** The library paths of skill files the ops wrote, created or moved (both ends of a move). */
export function writtenPaths(ops: readonly TxOp[]): string[] {
  const paths = ops.flatMap((op) => (op.op === 'write' ? [op.path] : op.file ? [`${op.from}/${op.file}`, `${op.to}/${op.file}`] : [op.from, op.to]))
  return [...new Set(paths)]
}

/**
 * Announces the transaction's files in the library's ledger (call under the lock), as the store announces its own
 * writes: a process that follows the ledger (an MCP server, the search daemon, the app) reads them again at its next
 * query. Without it, another process saw a transaction's change (a restore, an accepted merge, an undo) only at its
 * next full stat check, up to a second later. Best effort: a ledger that cannot be appended to leaves that check to find the change.
 */
async function announceWrites(root: string, ops: readonly TxOp[]): Promise<void> {
  const paths = writtenPaths(ops)
  if (paths.length === 0) return
  await appendContained(root, LEDGER_REL, ledgerLine({ t: 'write', paths, at: formatTimestamp(new Date()) })).catch(() => undefined)
}

export interface RecoveryReport {
  rolledBack: string[]
  committed: string[]
  /** What could not be recovered, in English (the CLI prints these). */
  problems: string[]
  /** The same problems by code, in the same order (review.recover_*: a UI words them in its language). */
  problemLines: CodedLine[]
}

/** A transaction intent as written by runTransaction, or null when it is torn or not one. */
function parseIntent(text: string | null): TxFile | null {
  try {
    const tx = JSON.parse(text ?? '') as TxFile
    return tx && typeof tx.id === 'string' && Array.isArray(tx.record?.ops) ? tx : null
  } catch {
    return null
  }
}

/** Finishes what a crash interrupted: intents with a journal record are done; the others are rolled back. */
export async function recoverTransactions(root: string): Promise<RecoveryReport> {
  const report: RecoveryReport = { rolledBack: [], committed: [], problems: [], problemLines: [] }
  const problem = (line: CodedLine): void => {
    report.problems.push(line.message)
    report.problemLines.push(line)
  }
  // Cheap look first (no lock) — most opens find nothing to recover.
  const pending = (await listContained(root, TX_DIR).catch(() => [] as string[])).filter((n) => n.endsWith('.json'))
  if (pending.length === 0) return report
  return withLibraryLock(root, async () => {
    const names = (await listContained(root, TX_DIR)).filter((n) => n.endsWith('.json'))
    if (names.length === 0) return report
    const journaled = new Set((await readJournal(root)).records.map((r) => r.id))
    const rolledBackLines: CodedLine[] = []
    for (const name of names.sort()) {
      const rel = `${TX_DIR}/${name}`
      const tx = parseIntent(await readContainedText(root, rel).catch(() => null))
      if (!tx) {
        // An intent torn while being written was never acted on (ops start only after it is complete).
        await moveContained(root, rel, `${rel}.unreadable`).catch(() => undefined)
        problem(codedLine('review.recover_unreadable', { name }))
        continue
      }
      if (journaled.has(tx.id)) {
        await unlinkContained(root, rel)
        report.committed.push(tx.id)
        continue
      }
      const problems = await rollback(root, tx.record.ops)
      if (problems.length === 0) {
        await unlinkContained(root, rel)
        report.rolledBack.push(tx.id)
        rolledBackLines.push(codedLine('review.recover_rolled_back', { id: tx.id, proposal: tx.record.proposal_id }))
      } else {
        await moveContained(root, rel, `${rel}.conflict`).catch(() => undefined)
        problem(codedLine('review.recover_failed', { id: tx.id, problems: refOf(codedList(problems)) }))
      }
    }
    // kept on disk for the app, whoever recovered (recovery-log.ts); a recovery that only finished committed changes is not news
    if (rolledBackLines.length > 0 || report.problemLines.length > 0) {
      await appendRecoveryLog(root, { rolled_back: report.rolledBack, lines: [...rolledBackLines, ...report.problemLines] }).catch((err: unknown) => {
        problem(codedLine('review.recover_not_logged', { reason: reasonOf(err) }))
      })
      // and said at once to the command or tool call this recovery ran in (recovery-notices.ts)
      tellRecovery([...rolledBackLines, ...report.problemLines])
    }
    return report
  }, { purpose: 'recovering an interrupted change' })
}

/**
 * The transactions a crash interrupted and no write has finished yet, by id (torn intents by file name), oldest
 * first. Only reads: a listing reports them; the next write's recoverTransactions finishes them.
 */
export async function interruptedTransactions(root: string): Promise<string[]> {
  const names = (await listContained(root, TX_DIR).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).sort()
  const ids: string[] = []
  for (const name of names) {
    const tx = parseIntent(await readContainedText(root, `${TX_DIR}/${name}`).catch(() => null))
    ids.push(tx ? tx.id : name)
  }
  return ids
}

export interface ApplyOptions extends TxHooks {
  /** Who accepted it. */
  by: string
}

/** Applies a proposal's changes as one transaction (call inside withLibraryLock after recoverTransactions). */
export async function applyProposal(root: string, proposal: Proposal, opts: ApplyOptions): Promise<JournalRecord> {
  const ops = opsFromChanges(proposal.changes)
  if (ops.length === 0) throw new CurationError('invalid', coded('review.changes_nothing', { id: proposal.id }))
  return runTransaction(
    root,
    { action: 'apply', proposal_id: proposal.id, kind: proposal.kind, by: opts.by, author: proposal.author ?? 'offline', changes: proposal.changes, ops },
    opts
  )
}

function inverse(op: TxOp): TxOp {
  return op.op === 'write' ? { op: 'write', path: op.path, before: op.after, after: op.before } : { ...op, from: op.to, to: op.from }
}

/** Why the disk is no longer in the state an applied record left (empty when undo can proceed). */
export async function undoConflicts(root: string, record: JournalRecord): Promise<string[]> {
  // Walk the ops backwards from the final state: each op's "after" must still be there.
  const conflicts: string[] = []
  const writtenLater = new Set<string>()
  for (let i = record.ops.length - 1; i >= 0; i--) {
    const op = record.ops[i] as TxOp
    if (op.op === 'write') {
      writtenLater.add(op.path)
      const current = await readText(await containedFilePath(root, op.path, { createDirs: false }))
      if (!same(current, op.after) && !onlyUsageMoved(op.path, op.after, current)) conflicts.push(current === null ? `${op.path} was removed or moved since` : `${op.path} was changed since`)
      continue
    }
    const to = await containedFilePath(root, op.to, { createDirs: false, folderOk: true })
    const toThere = await exists(to)
    const fromThere = await exists(await containedFilePath(root, op.from, { createDirs: false, folderOk: true }))
    const moved = op.file ? `${op.to}/${op.file}` : op.to
    if (!toThere) conflicts.push(`${op.to} is no longer there (restored or moved since)`)
    else if (!writtenLater.has(moved)) {
      const current = await readText(op.file ? path.join(to, op.file) : to)
      if (!same(current, op.text) && !onlyUsageMoved(moved, op.text, current)) conflicts.push(`${moved} was changed since`)
    }
    if (fromThere) conflicts.push(`${op.from} exists again`)
  }
  return conflicts
}

/** True when a skill file differs from the expected text only by uses counted since (undo carries them over). */
function onlyUsageMoved(rel: string, expected: string | null, current: string | null): boolean {
  return expected !== null && current !== null && SKILL_FILE.test(rel) && usageDrift(expected, current, formatOfPath(rel)) !== null
}

/** Reverts an applied record as a new transaction, or explains why it cannot. */
export async function undoRecord(root: string, record: JournalRecord, by: string, hooks: TxHooks = {}): Promise<JournalRecord> {
  return withLibraryLock(root, () => undoRecordLocked(root, record, by, hooks))
}

async function undoRecordLocked(root: string, record: JournalRecord, by: string, hooks: TxHooks): Promise<JournalRecord> {
  // A deploy changed an agent's folder, not the library: only the deploy module can undo it (its ops are empty here).
  if (record.kind === 'deploy') throw new CurationError('invalid', coded('review.is_deploy', { id: record.proposal_id, record: record.id }))
  const conflicts = await undoConflicts(root, record)
  if (conflicts.length > 0) {
    throw new CurationError('conflict', coded('review.cannot_undo', { id: record.proposal_id, conflicts: conflicts.join('; ') }))
  }
  const ops = [...record.ops].reverse().map(inverse)
  const changes = record.changes.map((c) => ({ path: c.path, before: c.after, after: c.before }))
  return runTransaction(root, { action: 'undo', proposal_id: record.proposal_id, kind: record.kind as ProposalKind, by, author: by, changes, ops, undoes: record.id }, hooks)
}
