/**
 * A reviewer's edits of a proposal before accepting it (the app's edit-then-accept, the CLI's `accept ID --from
 * FILE`): new `after` texts for files the proposal already changes. Pure.
 */
import { ApiError } from '../../shared/api-error'
import { coded } from '../../shared/error-codes'
import type { FileChange, Proposal } from '../../shared/types'
import { parseReasonParam, parseSkillText } from '../store/skill-file'

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
