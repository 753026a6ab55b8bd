/**
 * Pending proposals made by agents through MCP (edit_skill / delete_skill in proposal mode):
 * the change is computed but not applied; it waits in `<library>/.skillbench/pending/<id>.json`
 * (one `Proposal` per file, status 'pending') for review in the app. Accepting applies it through
 * curation's transactions and journal, so it can be undone like any curation proposal.
 */
import { randomBytes } from 'node:crypto'
import type { FileChange, LoadError, Proposal, Skill } from '../../shared/types'
import { applyProposal, CurationError, recoverTransactions, type TxHooks } from './transactions'
import { withLibraryLock } from '../store/lock'
import { readJournal, type JournalRecord } from './journal'
import { statusByJournal } from './plan'
import { applyEditsTo } from './proposal-edits'
import { listContained, readContainedText, writeContained } from '../store/contained'
import { coded } from '../../shared/error-codes'
import { CodedError, errorAsCoded } from '../../shared/api-error'
import { codedReason, loadErrorOf, type CodedReason } from '../../shared/coded-reason'

/** Library-relative folder of the pending proposals. */
export const PENDING_DIR = '.skillbench/pending'

const ID_RE = /^(edit|delete)-[0-9]{1,20}-[0-9]{8}T[0-9]{6}Z-[0-9a-f]{6}$/

/** A fresh proposal id: kind, skill id, UTC time, random suffix (sortable, filename-safe). */
export function proposalId(kind: 'edit' | 'delete', skillId: string, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')
  return `${kind}-${skillId}-${stamp}-${randomBytes(3).toString('hex')}`
}

/** True for ids made by `proposalId` (the only names read back from the pending folder). */
export function isPendingProposalId(id: string): boolean {
  return ID_RE.test(id)
}

/** What an agent asked for, kept as evidence for the reviewer. */
export interface ToolRequestEvidence {
  tool: 'edit_skill' | 'delete_skill'
  args: Record<string, unknown>
  /** sha256 of the skill file when the proposal was made (conflict check at apply time). */
  base_hash: string
  client?: string
  /** delete only: where the skill file (or SKILL.md folder) moves. */
  move?: { from: string; to: string }
}

/** The proposal for an edit: the skill file's full text before and after. */
export function editProposal(skill: Skill, before: string, after: string, evidence: ToolRequestEvidence, now?: Date): Proposal {
  return {
    id: proposalId('edit', skill.skill_id, now),
    kind: 'edit',
    members: [{ skill_id: skill.skill_id, title: skill.title, path: skill.path }],
    score: 1,
    // why, in English as before and by code beside it (the Curate screen words it in its own language)
    ...codedReason(coded('review.agent_edit', { title: skill.title, mode: String(evidence.args.edit_mode ?? 'edit') })),
    evidence: { ...evidence },
    changes: [{ path: skill.path, before, after }],
    status: 'pending',
    author: evidence.client ? `mcp:${evidence.client}` : 'mcp'
  }
}

/**
 * The proposal for a delete: the skill leaves its place and appears under legacy/ (never deleted),
 * with the changes made by curation's `legacyMoveChanges` (same collision naming as curate).
 */
export function deleteProposal(skill: Skill, changes: FileChange[], evidence: ToolRequestEvidence, now?: Date): Proposal {
  return {
    id: proposalId('delete', skill.skill_id, now),
    kind: 'delete',
    members: [{ skill_id: skill.skill_id, title: skill.title, path: skill.path }],
    score: 1,
    ...codedReason(coded('review.agent_retire', { title: skill.title })),
    evidence: { ...evidence },
    changes,
    status: 'pending',
    author: evidence.client ? `mcp:${evidence.client}` : 'mcp'
  }
}

/** Most proposals an agent may leave waiting in one library: a runaway agent cannot flood the review queue. */
export const MAX_PENDING_PROPOSALS = 500

/** How many proposals in the pending folder still wait for review (status 'pending'). */
export async function countPendingProposals(libraryRoot: string): Promise<number> {
  const { proposals } = await listPendingProposals(libraryRoot)
  return proposals.filter((p) => p.status === 'pending').length
}

/** Writes a proposal file as it is (under the library lock; no cap: for status changes and reviewers' edits). */
export async function writePendingProposal(libraryRoot: string, proposal: Proposal): Promise<string> {
  if (!isPendingProposalId(proposal.id)) {
    throw new CodedError('invalid', coded('review.bad_proposal_id', { id: proposal.id }))
  }
  const rel = `${PENDING_DIR}/${proposal.id}.json`
  await withLibraryLock(libraryRoot, () => writeContained(libraryRoot, rel, JSON.stringify(proposal, null, 2) + '\n'))
  return rel
}

/**
 * Saves a new proposal atomically (only while fewer than MAX_PENDING_PROPOSALS wait); returns its library-relative
 * path. It never replaces another proposal: when its id is taken (two proposals for one skill in the same second
 * drew the same random suffix), the proposal takes a fresh suffix, and `proposal.id` says which.
 */
export async function savePendingProposal(libraryRoot: string, proposal: Proposal): Promise<string> {
  // The count, the check for a taken id and the write under one lock: concurrent agents cannot overshoot the cap
  // together, nor take one id twice.
  return withLibraryLock(libraryRoot, async () => {
    if (proposal.status === 'pending' && (await countPendingProposals(libraryRoot)) >= MAX_PENDING_PROPOSALS) {
      throw new CodedError('conflict', coded('review.pending_full', { max: MAX_PENDING_PROPOSALS }))
    }
    for (let tries = 0; (await readContainedText(libraryRoot, `${PENDING_DIR}/${proposal.id}.json`)) !== null; tries++) {
      if (tries === 16 || !isPendingProposalId(proposal.id)) throw new CodedError('conflict', coded('review.pending_id_taken', { id: proposal.id.slice(0, 80) }))
      proposal.id = `${proposal.id.slice(0, -6)}${randomBytes(3).toString('hex')}`
    }
    return writePendingProposal(libraryRoot, proposal)
  }, { purpose: 'saving a proposal' })
}

/** A proposal file's proposal, or why it is not one (the reason listPendingProposals reports, by code beside its words). */
async function readProposalFile(libraryRoot: string, rel: string): Promise<{ proposal: Proposal } | { why: CodedReason }> {
  let text: string | null
  try {
    text = await readContainedText(libraryRoot, rel)
  } catch (err) {
    // the store's refusal (a link, not a regular file…) keeps its code; anything else is its words
    return { why: codedReason(errorAsCoded(err, (detail) => coded('review.pending_unreadable', { detail }))) }
  }
  let p: Proposal | null
  try {
    p = JSON.parse(text ?? 'null') as Proposal | null
  } catch (err) {
    return { why: codedReason(coded('review.pending_not_json', { detail: (err as Error).message })) }
  }
  if (!p) return { why: codedReason(coded('review.pending_removed')) }
  if (typeof p.id !== 'string' || !Array.isArray(p.changes)) return { why: codedReason(coded('review.pending_not_proposal')) }
  return { proposal: p }
}

/**
 * The pending proposals of a library, oldest first; unreadable files are reported, not thrown: each error's English
 * `reason` as before, its `messageCode` + `params` beside it (a screen words it by code).
 */
export async function listPendingProposals(libraryRoot: string): Promise<{ proposals: Proposal[]; errors: LoadError[] }> {
  const names = await listContained(libraryRoot, PENDING_DIR)
  const proposals: Proposal[] = []
  const errors: LoadError[] = []
  for (const name of names.sort()) {
    if (!name.endsWith('.json') || !isPendingProposalId(name.slice(0, -5))) {
      continue
    }
    const rel = `${PENDING_DIR}/${name}`
    const read = await readProposalFile(libraryRoot, rel)
    if ('why' in read) errors.push(loadErrorOf(rel, read.why))
    else proposals.push(read.proposal)
  }
  return { proposals, errors }
}

/** One pending proposal by id. */
export async function readPendingProposal(libraryRoot: string, id: string): Promise<Proposal> {
  if (!isPendingProposalId(id)) {
    throw new CurationError('not_found', coded('review.not_pending_id', { id: id.slice(0, 80) }))
  }
  const text = await readContainedText(libraryRoot, `${PENDING_DIR}/${id}.json`)
  if (text === null) throw new CurationError('not_found', coded('review.no_pending', { id }))
  const p = JSON.parse(text) as Proposal
  if (p.id !== id || !Array.isArray(p.changes)) {
    throw new CurationError('invalid', coded('review.not_a_proposal', { path: `${PENDING_DIR}/${id}.json` }))
  }
  return p
}

/**
 * A pending-folder proposal's status by the journal, as a plan proposal's (plan.ts `statusByJournal`: applied, rejected,
 * undone, pending); a file that says applied with no apply in the journal stays applied. Pure.
 */
export function pendingStatus(p: Proposal, records: readonly JournalRecord[]): Proposal['status'] {
  const status = statusByJournal(records)(p)
  return status === 'pending' && p.status === 'applied' ? 'applied' : status
}

/**
 * Applies a pending MCP proposal through curation's transaction (all-or-nothing, journaled, undoable
 * with `undoApplied(root, proposalId)`); refuses when the skill changed since it was proposed. One that was applied
 * and undone can be accepted again, as a plan proposal can. `edited`: a reviewer's texts for files it changes
 * (proposal-edits.ts), kept in the proposal's file only when it applies.
 */
export async function acceptPendingProposal(libraryRoot: string, id: string, by: string, hooks: TxHooks = {}, edited: readonly FileChange[] = []): Promise<JournalRecord> {
  return withLibraryLock(libraryRoot, async () => {
    await recoverTransactions(libraryRoot)
    const proposal = await readPendingProposal(libraryRoot, id)
    const status = pendingStatus(proposal, (await readJournal(libraryRoot)).records)
    if (status !== 'pending' && status !== 'undone') {
      throw new CurationError('invalid', proposal.status ? coded('review.proposal_is', { id, status: status ?? proposal.status }) : coded('review.proposal_not_pending', { id }))
    }
    if (edited.length > 0) applyEditsTo(proposal, edited)
    const record = await applyProposal(libraryRoot, proposal, { by, ...hooks })
    await writePendingProposal(libraryRoot, { ...proposal, status: 'applied' })
    return record
  })
}

/**
 * Marks a pending MCP proposal rejected, with when and by whom (the Curate screen's Recently rejected lists it so);
 * the library does not change; the file is kept as a record. A rejected one stays as it is; an applied one is undone
 * first (`review.applied_use_undo`), as in the plan.
 */
export async function rejectPendingProposal(libraryRoot: string, id: string, by = 'user', now: Date = new Date()): Promise<Proposal> {
  return withLibraryLock(libraryRoot, async () => {
    const proposal = await readPendingProposal(libraryRoot, id)
    const status = pendingStatus(proposal, (await readJournal(libraryRoot)).records)
    if (status === 'rejected') return { ...proposal, status }
    if (status === 'applied') throw new CurationError('invalid', coded('review.applied_use_undo', { id }))
    const rejected: Proposal = { ...proposal, status: 'rejected', rejected: { at: now.toISOString(), by } }
    await writePendingProposal(libraryRoot, rejected)
    return rejected
  })
}
