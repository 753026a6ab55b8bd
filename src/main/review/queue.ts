/**
 * One review queue per library, from two places proposals wait:
 * - `.skillbench/plan.json`: curation's plan (merge / consolidate / cleanup) plus every other producer's proposals
 *   (reflection's `enhance`, `update`, sync conflicts, deploy drift's `learned`, memory);
 * - `.skillbench/pending/<id>.json`: edit / delete proposals agents made through MCP in proposal mode.
 * The app's workbench and the CLI (`proposals`, `accept`, `reject`, `unreject`) list them together and route each
 * decision to the back end that owns the proposal. Both apply through curation's transactions and journal, so undo
 * works the same for all.
 */
import { ApiError } from '../../shared/api-error'
import { coded } from '../../shared/error-codes'
import { waitsForReview } from '../../shared/proposal-status'
import type { CurationPlan, FileChange, Proposal } from '../../shared/types'
import { CurationError } from './transactions'
import { withLibraryLock } from '../store/lock'
import { readJournal, type JournalRecord } from './journal'
import { CURATION_KINDS, loadPlan, proposalsWithStatus, savePlan } from './plan'
import { acceptPendingProposal, isPendingProposalId, listPendingProposals, pendingStatus, readPendingProposal, rejectPendingProposal, writePendingProposal } from './pending-proposals'
import { unrejectPendingProposal, unrejectProposal } from './unreject'
import { acceptProposal, rejectProposal } from './decisions'
import { applyEditsTo } from './proposal-edits'
import { unresolvedConflicts } from './changes'

export { pendingStatus } from './pending-proposals'
export { applyEditsTo } from './proposal-edits'

/** Where a proposal waits. */
export type ProposalHome = 'plan' | 'pending'

/** Plan proposals, then the agents' pending proposals (oldest first), one list. Pure. */
export function mergeQueues(plan: CurationPlan, pending: readonly Proposal[]): CurationPlan {
  const seen = new Set(plan.proposals.map((p) => p.id))
  return { ...plan, proposals: [...plan.proposals, ...pending.filter((p) => !seen.has(p.id))] }
}

/** The whole queue, and when its plan was saved (`createdAt`, null when the library has no plan file). */
export interface ReviewQueue {
  plan: CurationPlan
  /** When curation computed the plan (null: never, e.g. a plan of reflection's proposals only). */
  computedAt: string | null
  /** The plan file's `created_at` (null: no plan file; only agents' pending proposals, if any). */
  createdAt: string | null
}

/** The library's whole review queue with statuses up to date; unreadable pending files become load errors. */
export async function readQueue(root: string): Promise<ReviewQueue> {
  let plan: CurationPlan = { skills_loaded: 0, proposals: [], errors: [] }
  let computedAt: string | null = null
  let createdAt: string | null = null
  try {
    const saved = (await proposalsWithStatus(root)).plan
    plan = { skills_loaded: saved.skills_loaded, proposals: saved.proposals, errors: saved.errors, ...(saved.protected ? { protected: saved.protected } : {}), ...(saved.cleanup ? { cleanup: saved.cleanup } : {}) }
    // a plan holding only reflection's proposals was never computed by curation
    computedAt = saved.proposals.every((p) => !CURATION_KINDS.includes(p.kind)) && saved.skills_loaded === 0 ? null : saved.created_at
    createdAt = saved.created_at
  } catch (err) {
    if (!(err instanceof CurationError && err.code === 'not_found')) throw err
  }
  const { proposals, errors } = await listPendingProposals(root)
  const { records } = await readJournal(root)
  const pending = proposals.map((p) => ({ ...p, status: pendingStatus(p, records) }))
  const merged = mergeQueues(plan, pending)
  return { plan: { ...merged, errors: [...merged.errors, ...errors] }, computedAt, createdAt }
}

/** The library's whole review queue (the app's shape: the plan and when curation computed it). */
export async function readReviewQueue(root: string): Promise<{ plan: CurationPlan; computedAt: string | null }> {
  const { plan, computedAt } = await readQueue(root)
  return { plan, computedAt }
}

/** One proposal of the queue by id, its status up to date, or not_found. */
export async function findQueued(root: string, id: string): Promise<Proposal> {
  const found = (await readQueue(root)).plan.proposals.find((p) => p.id === id)
  if (!found) throw new ApiError('not_found', coded('review.no_proposal_queue', { id }))
  return found
}

/**
 * Which back end holds a proposal id: the plan when it lists it, else the pending folder, else not_found (said as
 * "no pending plan: run curate first" when the library has no plan and the id is no agent's proposal).
 */
export async function proposalHome(root: string, id: string): Promise<ProposalHome> {
  const plan = await loadPlan(root).catch((err: unknown) => (err instanceof CurationError && err.code === 'not_found' ? null : undefined))
  if (plan?.proposals.some((p) => p.id === id)) return 'plan'
  if (plan === null && !isPendingProposalId(id)) throw new CurationError('not_found', coded('review.no_plan'))
  if (isPendingProposalId(id)) {
    await readPendingProposal(root, id)
    return 'pending'
  }
  throw new ApiError('not_found', coded('review.no_proposal_queue', { id }))
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

/**
 * Accepts a proposal through its own back end; returns the journal record. `edited`: a reviewer's texts for files it
 * changes, taken in under the accept's own lock (all or nothing: saved with the proposal only when it applies).
 */
export async function acceptQueued(root: string, id: string, by: string, edited: readonly FileChange[] = []): Promise<JournalRecord> {
  return (await proposalHome(root, id)) === 'plan' ? acceptProposal(root, id, by, {}, edited) : acceptPendingProposal(root, id, by, {}, edited)
}

/**
 * Accepts a proposal with one of its files' result replaced by a reviewer's text (a conflict resolved by hand):
 * `file` names which when the proposal changes more than one. Refused, nothing changed, while the text still holds
 * conflict markers; otherwise an accept like any other (journaled, undoable).
 */
export async function acceptResolved(root: string, id: string, by: string, resolved: { text: string; from: string; file?: string }): Promise<JournalRecord> {
  const proposal = await findQueued(root, id)
  const paths = proposal.changes.map((c) => c.path)
  if (resolved.file === undefined && paths.length !== 1) {
    throw new CurationError('invalid', coded('review.resolve_which_file', { id, n: paths.length, paths: paths.join(', ') }))
  }
  const target = proposal.changes.find((c) => c.path === (resolved.file ?? paths[0]))
  if (!target) throw new ApiError('bad_request', coded('review.not_changed_by', { path: resolved.file ?? '' }))
  if (unresolvedConflicts([{ ...target, after: resolved.text }]).length > 0) {
    throw new CurationError('invalid', coded('review.resolved_still_marked', { from: resolved.from, path: target.path }))
  }
  return acceptQueued(root, id, by, [{ path: target.path, before: target.before, after: resolved.text }])
}

/** Rejects a proposal through its own back end. */
export async function rejectQueued(root: string, id: string, by = 'user'): Promise<Proposal> {
  return (await proposalHome(root, id)) === 'plan' ? rejectProposal(root, id, by) : rejectPendingProposal(root, id, by)
}

/** Undoes a rejection through the proposal's own back end (review/unreject.ts). */
export async function unrejectQueued(root: string, id: string, by: string): Promise<Proposal> {
  return (await proposalHome(root, id)) === 'plan' ? unrejectProposal(root, id, by) : unrejectPendingProposal(root, id, by)
}

/** Re-exported for the queue's callers; the curation module itself keeps these across a recompute. */
export { proposalsToKeep } from './plan'

/** How many proposals wait for review in the whole queue (pending, and undone: back in the plan). */
export async function countWaiting(root: string): Promise<number> {
  const { plan } = await readReviewQueue(root)
  return plan.proposals.filter(waitsForReview).length
}
