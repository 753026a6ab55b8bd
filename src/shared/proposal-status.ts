/**
 * Which proposals wait for a person's decision, one rule for every place that counts or lists them (the Overview's
 * "Pending proposals" and next step, the Curate screen, `skillbench proposals`): a pending one, and an undone one,
 * which is back in the plan to be reviewed and accepted (or rejected) again.
 */
import type { Proposal } from './types'

export function waitsForReview(p: Pick<Proposal, 'status'>): boolean {
  const s = p.status ?? 'pending'
  return s === 'pending' || s === 'undone'
}
