/**
 * What a run says when the update it would propose for a skill is in the library's plan already (pure): that it was
 * proposed before, and what became of it since: still waiting for review, accepted, rejected, or accepted and undone
 * (the plan's status by the journal), so a person knows whether to review it, look at the skill, or unreject it.
 */
import type { ProposalStatus } from '../review/plan'
import { coded, refOf, type CodedText, type MessageRef } from '../../shared/error-codes'

/** The status as the words of its own code (a param of the line: worded in the reader's language). */
export function proposedStatus(status: ProposalStatus): MessageRef {
  switch (status) {
    case 'pending':
      return refOf(coded('reflect.proposed_pending'))
    case 'applied':
      return refOf(coded('reflect.proposed_accepted'))
    case 'rejected':
      return refOf(coded('reflect.proposed_rejected'))
    case 'undone':
      return refOf(coded('reflect.proposed_undone'))
  }
}

/**
 * The line for an update proposed before: `finished`, a frozen skill's finished version (reflect.finished_update_before);
 * `again`, the skill a task was reflected into, reflected again (reflect.again_proposed_before).
 */
export function proposedBefore(kind: 'finished' | 'again', args: { title: string; id: string; status: ProposalStatus }): CodedText {
  const params = { title: args.title, id: args.id, status: proposedStatus(args.status) }
  return kind === 'finished' ? coded('reflect.finished_update_before', params) : coded('reflect.again_proposed_before', params)
}
