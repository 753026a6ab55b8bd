/**
 * A person's decisions on the pending plan: accept, reject, undo, and restoring a legacy skill (a rejection is
 * undone in unreject.ts). Each takes the library's lock and first finishes any transaction a crash interrupted.
 */
import { activePathOf } from '../../shared/legacy-paths'
import fs from 'node:fs'
import path from 'node:path'
import type { FileChange, Proposal } from '../../shared/types'
import type { SkillLibrary } from '../store/library'
import { withLibraryLock } from '../store/lock'
import { buildSkillFileName } from '../store/paths'
import { lockAfterUpdate, reconcileLockRetired } from '../store/skills-lock'
import { applyProposal, CurationError, recoverTransactions, runTransaction, undoRecord, type TxHooks } from './transactions'
import { unresolvedConflicts } from './changes'
import { activeApplies, isUndoable, readJournal, type JournalRecord } from './journal'
import { loadPlan, proposalsWithStatus, savePlan, type SavedPlan } from './plan'
import { applyMemoryProposal, undoMemoryRecord } from './memory-proposals'
import { appendRejection } from './rejections'
import { applyEditsTo } from './proposal-edits'
import { appendSkillManagerLog, appliedMessage, undoneMessage } from './skill-manager-log'
import { coded } from '../../shared/error-codes'

function findProposal(plan: SavedPlan, id: string): Proposal {
  const p = plan.proposals.find((x) => x.id === id)
  if (!p) throw new CurationError('not_found', coded('review.no_proposal_plan', { id: JSON.stringify(id) }))
  return p
}

/**
 * Applies one proposal of the pending plan (all-or-nothing) and journals it. `edited`: a reviewer's texts for files it
 * changes (proposal-edits.ts), taken into the proposal under the same lock and saved with it only when it applies.
 */
export async function acceptProposal(root: string, id: string, by: string, hooks: TxHooks = {}, edited: readonly FileChange[] = []): Promise<JournalRecord> {
  return withLibraryLock(root, async () => {
    await recoverTransactions(root)
    const { plan } = await proposalsWithStatus(root)
    const proposal = findProposal(plan, id)
    if (proposal.status === 'applied') throw new CurationError('invalid', coded('review.applied_already', { id }))
    if (proposal.status === 'rejected') {
      throw new CurationError('invalid', proposal.rejected ? coded('review.rejected_stays_by', { id, date: proposal.rejected.at.slice(0, 10), by: proposal.rejected.by }) : coded('review.rejected_stays', { id }))
    }
    if (edited.length > 0) applyEditsTo(proposal, edited)
    // a memory proposal writes a workspace's memory files, outside the library (memory-proposals.ts)
    if (proposal.kind === 'memory') {
      const record = await applyMemoryProposal(root, proposal, by)
      proposal.status = 'applied'
      await savePlan(root, plan)
      return record
    }
    // a merge of two sides (update from upstream, a deployed copy's change) may keep both between markers: a person decides
    const unresolved = unresolvedConflicts(proposal.changes)
    if (unresolved.length > 0) throw new CurationError('invalid', coded('review.unresolved_marks', { id, paths: unresolved.join(', ') }))
    if (proposal.kind === 'review' && proposal.changes.every((c) => c.before === c.after)) {
      throw new CurationError('invalid', coded('review.asks_review', { id }))
    }
    const paths = proposal.changes.map((c) => c.path)
    let record: JournalRecord
    try {
      record = await applyProposal(root, proposal, { by, ...hooks })
    } catch (err) {
      await appendSkillManagerLog(root, paths, [{ level: 'ERROR', message: `Failed to apply ${proposal.kind} proposal ${id}: ${(err as Error).message}` }])
      throw err
    }
    proposal.status = 'applied'
    await savePlan(root, plan)
    if (proposal.kind === 'update') await lockAfterUpdate(root, proposal.evidence, 'accept')
    // a merge or cleanup retires members: skills.lock marks them (and unmarks them on undo)
    await reconcileLockRetired(root).catch(() => undefined)
    // after the commit: the log says what happened, it never decides whether it happened
    await appendSkillManagerLog(root, paths, [{ level: 'INFO', message: appliedMessage(record, proposal) }])
    return record
  })
}

/**
 * Marks a pending (or undone) proposal rejected; nothing else on disk changes. A curation proposal's rejection is
 * also recorded by its fingerprint (rejections.ts), durable before the plan is saved: the same members with the same
 * content, computed again by any process, stay rejected.
 */
export async function rejectProposal(root: string, id: string, by = 'user', now: Date = new Date()): Promise<Proposal> {
  return withLibraryLock(root, async () => {
    const { plan } = await proposalsWithStatus(root)
    const proposal = findProposal(plan, id)
    if (proposal.status === 'applied') throw new CurationError('invalid', coded('review.applied_use_undo', { id }))
    if (proposal.status === 'rejected') return proposal
    const at = now.toISOString()
    if (proposal.fingerprint) {
      await appendRejection(root, { fingerprint: proposal.fingerprint, proposal_id: proposal.id, kind: proposal.kind, members: proposal.members, at, by })
    }
    proposal.status = 'rejected'
    proposal.rejected = { at, by }
    await savePlan(root, plan)
    return proposal
  })
}

/** Undoes an applied proposal (by proposal id or journal record id), if its files are unchanged since. */
export async function undoApplied(root: string, id: string, by: string, hooks: TxHooks = {}): Promise<JournalRecord> {
  return withLibraryLock(root, async () => {
    await recoverTransactions(root)
    const { records } = await readJournal(root)
    const record = activeApplies(records).find((r) => r.id === id || r.proposal_id === id)
    if (!record) {
      const known = records.some((r) => (isUndoable(r) || r.action === 'undo') && (r.id === id || r.proposal_id === id))
      throw new CurationError('not_found', known ? coded('review.undone_already', { id }) : coded('review.nothing_applied', { id: JSON.stringify(id) }))
    }
    const undo = record.kind === 'memory' ? await undoMemoryRecord(root, record, by) : await undoRecord(root, record, by, hooks)
    const plan = await loadPlan(root).catch(() => null)
    const p = plan?.proposals.find((x) => x.id === record.proposal_id)
    if (plan && p) {
      p.status = 'undone'
      await savePlan(root, plan)
      if (p.kind === 'update') await lockAfterUpdate(root, p.evidence, 'undo')
    }
    if (record.kind !== 'memory') {
      await reconcileLockRetired(root).catch(() => undefined)
      await appendSkillManagerLog(root, undo.changes.map((c) => c.path), [{ level: 'INFO', message: undoneMessage(undo, p) }])
    }
    return undo
  })
}

/** Where a legacy skill goes back to: its old name, or a free one when that is taken again (same names as the store picks). */
function restoreTarget(root: string, skill: { path: string; title: string; skill_id: string; format: string }, now: Date): { from: string; to: string; file: string } {
  const taken = (rel: string): boolean => fs.existsSync(path.join(root, ...rel.split('/')))
  if (skill.format !== 'skill-md') {
    const base = path.posix.basename(skill.path)
    return { from: skill.path, to: taken(base) ? buildSkillFileName(skill.title, skill.skill_id, taken) : base, file: '' }
  }
  const fromDir = path.posix.dirname(skill.path)
  // from .skillbench/legacy/ or an older version's root legacy/: back where it was
  const relDir = activePathOf(fromDir)
  let to = relDir
  const ts = Math.floor(now.getTime() / 1000)
  for (let n = 1; taken(to); n++) to = `${relDir}_${ts}${n > 1 ? `_${n}` : ''}`
  return { from: fromDir, to, file: 'SKILL.md' }
}

/**
 * Brings a legacy skill back as one journaled transaction (the same machinery as accept): a crash leaves
 * the skill either still in legacy/ with no record, or restored with its journal record.
 */
export async function restoreSkill(opened: { library: SkillLibrary; root: string }, skillId: string, by: string, hooks: TxHooks = {}): Promise<JournalRecord> {
  const { library, root } = opened
  return withLibraryLock(root, async () => {
    await recoverTransactions(root)
    const before = await library.get(skillId, { includeLegacy: true })
    if (!before.legacy) throw new CurationError('invalid', coded('skill.not_in_legacy', { id: skillId }))
    const active = (await library.list()).skills.find((s) => s.skill_id === before.skill_id)
    if (active) throw new CurationError('invalid', coded('skill.active_exists', { id: before.skill_id, path: active.path }))
    const text = (await library.readRaw(before.path)).text
    const move = restoreTarget(root, before, new Date())
    const restoredPath = move.file ? `${move.to}/${move.file}` : move.to
    const record = await runTransaction(
      root,
      {
        action: 'restore',
        proposal_id: `restore-${skillId}`,
        kind: 'restore',
        by,
        changes: [
          { path: before.path, before: text, after: null },
          { path: restoredPath, before: null, after: text }
        ],
        ops: [{ op: 'move', from: move.from, to: move.to, file: move.file, text }]
      },
      hooks
    )
    await reconcileLockRetired(root).catch(() => undefined) // back in the library: skills.lock installs it again
    return record
  })
}
