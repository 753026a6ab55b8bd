/**
 * The review proposal a sync conflict becomes: the remote's version is live, and the local change is offered
 * on top of it with the same three-way view as `update` (kind `update`, evidence.sync = true, the remote's own
 * change in evidence.upstream, the local file as it was in evidence.local). Pure.
 */
import { isLegacyPath, legacyDirFor } from '../../shared/legacy-paths'
import { createHash } from 'node:crypto'
import type { FileChange, Proposal } from '../../shared/types'
import { derivedSkillId } from '../store/paths'
import { skillIdOf, skillTitleOf, type Resolution } from './merge-plan'
import { coded } from '../../shared/error-codes'
import { codedReason } from '../../shared/coded-reason'

export interface ConflictContext {
  /** "origin/main". */
  remote: string
  base: string | null
  /** The local commit and the remote's. */
  ours: string
  theirs: string
  /** Who made each side's change to this path (git authors, newest first). */
  localAuthors: readonly string[]
  remoteAuthors: readonly string[]
  /** Text now at `legacy/<path>` (`.skillbench/legacy/<path>` for a SKILL.md) after the merge (a local retirement's copy), when there is one. */
  legacyText: string | null
}

export type ConflictCase = 'edited' | 'removed_remote' | 'removed_local'

/** The proposal for one conflict, or null when the local side is not text (it stays in git history). */
export function conflictProposal(r: Extract<Resolution, { kind: 'conflict' }>, ctx: ConflictContext): Proposal | null {
  const live = r.landed ?? r.remote
  let changes: FileChange[]
  let which: ConflictCase
  if (r.local !== null && live !== null) {
    which = 'edited'
    changes = [{ path: r.path, before: live, after: r.proposal ?? r.local }]
  } else if (r.local !== null) {
    which = 'removed_remote'
    changes = [{ path: r.path, before: null, after: r.local }]
  } else if (live !== null && r.base !== null) {
    which = 'removed_local'
    changes = [{ path: r.path, before: live, after: null }]
    if (!isLegacyPath(r.path)) changes.push({ path: `${legacyDirFor(r.path.endsWith('SKILL.md') ? 'skill-md' : 'agiagent')}/${r.path}`, before: ctx.legacyText, after: live })
  } else return null
  if (changes.every((c) => c.before === c.after)) return null
  const text = r.local ?? live ?? ''
  // a SKILL.md that never stored its id has the one the store derives from its folder (the same the listing shows)
  const folder = r.path.endsWith('/SKILL.md') ? r.path.slice(0, -'/SKILL.md'.length) : null
  const skillId = skillIdOf(text) ?? skillIdOf(live ?? '') ?? (folder ? derivedSkillId(folder) : '')
  const title = skillTitleOf(text) ?? skillTitleOf(live ?? '') ?? r.path
  const key = [r.path, ctx.ours, ctx.theirs].join('\n')
  const localAuthor = ctx.localAuthors[0] ?? 'you'
  const remoteAuthor = ctx.remoteAuthors[0] ?? 'someone'
  // why, in English as before (`reason`) and by code beside it (the Curate screen words it in its own language)
  const who = { title, remote: ctx.remote, local_author: localAuthor, remote_author: remoteAuthor }
  const why =
    which === 'edited'
      ? r.markers > 0
        ? coded('sync.reason_edited_conflicts', { ...who, n: r.markers })
        : coded('sync.reason_edited', who)
      : coded(which === 'removed_remote' ? 'sync.reason_removed_remote' : 'sync.reason_removed_local', who)
  return {
    id: `sync-${createHash('sha256').update(key).digest('hex').slice(0, 12)}`,
    kind: 'update',
    members: [{ skill_id: skillId, title, path: r.path }],
    score: 1,
    ...codedReason(why),
    evidence: {
      sync: true,
      case: which,
      remote: ctx.remote,
      from: ctx.base ?? '',
      to: ctx.theirs,
      local_commit: ctx.ours,
      local_author: localAuthor,
      remote_author: remoteAuthor,
      local_edit: true,
      conflicts: r.markers,
      upstream: { before: r.base, after: r.remote },
      local: r.local
    },
    changes,
    status: 'pending',
    author: localAuthor
  }
}
