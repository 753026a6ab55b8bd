/**
 * One review queue per library, from two places proposals wait:
 * - `.skillbench/plan.json`: curation's plan (merge / consolidate / cleanup) plus reflection's `enhance`
 *   proposals (added by `savePendingProposal` of reflect/decide-io);
 * - `.skillbench/pending/<id>.json`: edit / delete proposals agents made through MCP in proposal mode.
 * The workbench lists them together and routes accept / reject / unreject to the back end that owns each one.
 * Both apply through curation's transactions and journal, so undo works the same for all.
 */
import { ApiError } from '../../shared/api'
import { coded } from '../../shared/error-codes'
import { waitsForReview } from '../../shared/proposal-status'
import type { CurationPlan, FileChange, Proposal } from '../../shared/types'
import { CurationError } from '../review/transactions'
import { withLibraryLock } from '../store/lock'
import { activeApplies, readJournal, type JournalRecord } from '../review/journal'
import { CURATION_KINDS, loadPlan, proposalsWithStatus, savePlan } from '../review/plan'
import { acceptPendingProposal, isPendingProposalId, listPendingProposals, readPendingProposal, rejectPendingProposal, writePendingProposal } from '../review/pending-proposals'
import { parseSkillText, parseReasonParam } from '../store/skill-file'
import { unrejectPendingProposal, unrejectProposal } from '../review/unreject'

/** Kinds only curation computes: recomputing the plan replaces these, and keeps every other kind. */

/** Where a proposal waits. */
export type ProposalHome = 'plan' | 'pending'

/** A pending-folder proposal's status from the journal (applied / undone), else its file's status. Pure. */
export function pendingStatus(p: Proposal, records: readonly JournalRecord[]): Proposal['status'] {
  const active = new Set(activeApplies(records).map((r) => r.proposal_id))
  if (active.has(p.id)) return 'applied'
  if (records.some((r) => r.action === 'apply' && r.proposal_id === p.id)) return 'undone'
  return p.status === 'rejected' ? 'rejected' : p.status === 'applied' ? 'applied' : 'pending'
}

/** Plan proposals, then the agents' pending proposals (oldest first), one list. Pure. */
export function mergeQueues(plan: CurationPlan, pending: readonly Proposal[]): CurationPlan {
  const seen = new Set(plan.proposals.map((p) => p.id))
  return { ...plan, proposals: [...plan.proposals, ...pending.filter((p) => !seen.has(p.id))] }
}

/** The library's whole review queue with statuses up to date; unreadable pending files become load errors. */
export async function readReviewQueue(root: string): Promise<{ plan: CurationPlan; computedAt: string | null }> {
  let plan: CurationPlan = { skills_loaded: 0, proposals: [], errors: [] }
  let computedAt: string | null = null
  try {
    const saved = (await proposalsWithStatus(root)).plan
    plan = { skills_loaded: saved.skills_loaded, proposals: saved.proposals, errors: saved.errors, ...(saved.protected ? { protected: saved.protected } : {}), ...(saved.cleanup ? { cleanup: saved.cleanup } : {}) }
    // a plan holding only reflection's proposals was never computed by curation
    computedAt = saved.proposals.every((p) => !CURATION_KINDS.includes(p.kind)) && saved.skills_loaded === 0 ? null : saved.created_at
  } catch (err) {
    if (!(err instanceof CurationError && err.code === 'not_found')) throw err
  }
  const { proposals, errors } = await listPendingProposals(root)
  const { records } = await readJournal(root)
  const pending = proposals.map((p) => ({ ...p, status: pendingStatus(p, records) }))
  const merged = mergeQueues(plan, pending)
  return { plan: { ...merged, errors: [...merged.errors, ...errors] }, computedAt }
}

/** Which back end holds a proposal id: the plan when it lists it, else the pending folder, else not_found. */
export async function proposalHome(root: string, id: string): Promise<ProposalHome> {
  const plan = await loadPlan(root).catch(() => undefined)
  if (plan?.proposals.some((p) => p.id === id)) return 'plan'
  if (isPendingProposalId(id)) {
    await readPendingProposal(root, id)
    return 'pending'
  }
  throw new ApiError('not_found', coded('review.no_proposal_queue', { id }))
}

/**
 * Edit-then-accept: replaces the `after` text of files the proposal already touches (same `before`;
 * skill files must still parse). Mutates and returns the proposal. Pure.
 */
export function applyEditsTo(proposal: Proposal, edited: readonly FileChange[]): Proposal {
  for (const change of edited) {
    const target = proposal.changes.find((c) => c.path === change.path)
    if (!target) {
      throw new ApiError('bad_request', coded('review.not_changed_by', { path: change.path }))
    }
    if (target.before !== change.before) {
      throw new ApiError('bad_request', coded('review.before_differs', { path: change.path }))
    }
    if (change.after !== null && /(^|\/)(skill_[^/]*|SKILL)\.md$/.test(change.path)) {
      const parsed = parseSkillText(change.after)
      if (!parsed.ok) {
        throw new ApiError('bad_request', coded('review.edit_invalid', { path: change.path, reason: parseReasonParam(parsed) }))
      }
    }
    if (change.after === null && target.after !== null) {
      throw new ApiError('bad_request', coded('review.edit_keeps', { path: change.path }))
    }
    target.after = change.after
  }
  proposal.author = proposal.author ? `${proposal.author} + user edit` : 'user edit'
  return proposal
}

/** Saves the user's edits into the proposal where it waits (before accepting it). */
export async function saveEdits(root: string, id: string, edited: readonly FileChange[]): Promise<void> {
  const home = await proposalHome(root, id)
  await withLibraryLock(root, async () => {
    if (home === 'plan') {
      const plan = await loadPlan(root)
      const proposal = plan.proposals.find((p) => p.id === id)
      if (!proposal) throw new ApiError('not_found', coded('review.no_proposal', { id }))
      applyEditsTo(proposal, edited)
      await savePlan(root, plan)
      return
    }
    const proposal = applyEditsTo(await readPendingProposal(root, id), edited)
    // written directly: the agents' queue cap must not stop a reviewer from editing a proposal already queued
    await writePendingProposal(root, proposal)
  })
}

/** Accepts a proposal through its own back end; returns the journal record. */
export async function acceptQueued(
  root: string,
  id: string,
  by: string,
  acceptFromPlan: (root: string, id: string, by: string) => Promise<JournalRecord>
): Promise<JournalRecord> {
  return (await proposalHome(root, id)) === 'plan' ? acceptFromPlan(root, id, by) : acceptPendingProposal(root, id, by)
}

/** Rejects a proposal through its own back end. */
export async function rejectQueued(root: string, id: string, rejectFromPlan: (root: string, id: string) => Promise<Proposal>): Promise<Proposal> {
  return (await proposalHome(root, id)) === 'plan' ? rejectFromPlan(root, id) : rejectPendingProposal(root, id)
}

/** Undoes a rejection through the proposal's own back end (review/unreject.ts). */
export async function unrejectQueued(root: string, id: string, by: string): Promise<Proposal> {
  return (await proposalHome(root, id)) === 'plan' ? unrejectProposal(root, id, by) : unrejectPendingProposal(root, id, by)
}

/** Re-exported for the queue's callers; the curation module itself keeps these across a recompute. */
export { proposalsToKeep } from '../review/plan'

/** How many proposals wait for review in the whole queue (pending, and undone: back in the plan). */
export async function countWaiting(root: string): Promise<number> {
  const { plan } = await readReviewQueue(root)
  return plan.proposals.filter(waitsForReview).length
}
