/**
 * Undoing a rejection: the proposal waits for review again, as it was before the rejection (pending, or undone when
 * it had been applied and undone), and its fingerprint leaves the rejections (rejections.ts), so the next curate
 * keeps it waiting instead of marking it rejected again. Only while the files it changes are as it expects them: a
 * rejected proposal whose skills changed since no longer applies as it was, and the next curate proposes anew what
 * still holds (`review.unreject_changed`). Like accept, reject and undo: under the library lock, after recovering an
 * interrupted transaction, every write atomic; a journal entry (action `unreject`, no file changes) says who and when.
 */
import type { Proposal } from '../../shared/types'
import { coded } from '../../shared/error-codes'
import { readContainedText } from '../store/contained'
import { withLibraryLock } from '../store/lock'
import { appendJournal, newRecordId } from './journal'
import { proposalsWithStatus, savePlan } from './plan'
import { readPendingProposal, writePendingProposal } from './pending-proposals'
import { dropRejection, readRejections } from './rejections'
import { CurationError, recoverTransactions } from './transactions'

/**
 * The library files of a proposal that are no longer as its `before` says (changed, gone, or — for a file it
 * creates — there now). A memory proposal writes a workspace's memory, outside the library: its apply checks it.
 */
export async function changedSince(root: string, proposal: Pick<Proposal, 'kind' | 'changes'>): Promise<string[]> {
  if (proposal.kind === 'memory') return []
  const changed: string[] = []
  for (const c of proposal.changes) {
    const now = await readContainedText(root, c.path).catch(() => undefined)
    if (now !== c.before) changed.push(c.path)
  }
  return changed
}

async function refuseIfChanged(root: string, proposal: Proposal): Promise<void> {
  const changed = await changedSince(root, proposal)
  if (changed.length > 0) {
    const paths = changed.length > 5 ? `${changed.slice(0, 5).join(', ')} … (+${changed.length - 5})` : changed.join(', ')
    throw new CurationError('conflict', coded('review.unreject_changed', { id: proposal.id, paths }))
  }
}

async function journalUnreject(root: string, proposal: Proposal, by: string, now: Date): Promise<void> {
  await appendJournal(root, { id: newRecordId(now), action: 'unreject', proposal_id: proposal.id, kind: proposal.kind, at: now.toISOString(), by, changes: [], ops: [] })
}

/** Undoes the rejection of a proposal of the pending plan; returns it as it waits now. */
export async function unrejectProposal(root: string, id: string, by = 'user', now: Date = new Date()): Promise<Proposal> {
  return withLibraryLock(root, async () => {
    await recoverTransactions(root)
    const { plan, journal } = await proposalsWithStatus(root)
    const proposal = plan.proposals.find((p) => p.id === id)
    if (!proposal) {
      // an earlier rejection whose proposal a recomputed plan no longer holds: a member changed since
      if ((await readRejections(root)).some((r) => r.proposal_id === id)) throw new CurationError('conflict', coded('review.unreject_gone', { id }))
      throw new CurationError('not_found', coded('review.no_proposal_plan', { id: JSON.stringify(id) }))
    }
    if (proposal.status !== 'rejected') throw new CurationError('invalid', coded('review.not_rejected', { id, status: proposal.status ?? 'pending' }))
    await refuseIfChanged(root, proposal)
    // the fingerprint leaves first: a crash before the plan is saved leaves it rejected in the plan only, which the
    // next curate (or unreject again) sets right; never the other way round (pending now, rejected again later)
    if (proposal.fingerprint) await dropRejection(root, proposal.fingerprint)
    delete proposal.rejected
    proposal.status = journal.some((r) => r.action === 'apply' && r.proposal_id === id) ? 'undone' : 'pending'
    await savePlan(root, plan)
    await journalUnreject(root, proposal, by, now)
    return proposal
  })
}

/** Undoes the rejection of an agent's proposal in the pending folder (pending-proposals.ts); returns it pending. */
export async function unrejectPendingProposal(root: string, id: string, by = 'user', now: Date = new Date()): Promise<Proposal> {
  return withLibraryLock(root, async () => {
    await recoverTransactions(root)
    const proposal = await readPendingProposal(root, id)
    if (proposal.status !== 'rejected') throw new CurationError('invalid', coded('review.not_rejected', { id, status: proposal.status ?? 'pending' }))
    await refuseIfChanged(root, proposal)
    const waiting: Proposal = { ...proposal, status: 'pending' }
    delete waiting.rejected
    await writePendingProposal(root, waiting)
    await journalUnreject(root, waiting, by, now)
    return waiting
  })
}
