/**
 * A SkillStore stand-in that computes writes instead of doing them. The real tools run on it
 * unchanged (same validation, same edit semantics), and every write they would make is captured
 * as a before/after text for a pending proposal. Reads go to the real store.
 */
import path from 'node:path'
import type { Skill } from '../../shared/types'
import { parseSkillText, rewriteSkillFile, parseReasonParam } from '../store/skill-file'
import { changesForMeta, formatTimestamp } from '../store/skill-meta'
import { StoreError, type SkillStore } from '../store/types'
import { coded, type CodedText } from '../../shared/error-codes'

/** A write the tools would have made. */
export type CapturedWrite =
  | { kind: 'edit'; skill: Skill; before: string; after: string; baseHash: string; /** Nothing but updated_at would change. */ noop: boolean }
  | { kind: 'delete'; skill: Skill; text: string; baseHash: string; from: string; to: string }

/** A store whose update/moveToLegacy only record; `captured` lists what they would have done. */
export function createProposalRecorder(store: SkillStore, now: () => Date = () => new Date()): { store: SkillStore; captured: CapturedWrite[] } {
  const captured: CapturedWrite[] = []
  const refuse = (what: CodedText) => async (): Promise<never> => {
    throw new StoreError('invalid_input', coded('mcp.not_in_proposal_mode', { what }))
  }
  const recorder: SkillStore = {
    root: store.root,
    list: (opts) => store.list(opts),
    get: (id, opts) => store.get(id, opts),
    skillAt: (rel) => store.skillAt(rel),
    readRaw: (rel) => store.readRaw(rel),
    resolveInside: (rel) => store.resolveInside(rel),
    create: refuse(coded('mcp.what_create')),
    restore: refuse(coded('mcp.what_restore')),
    writeRaw: refuse(coded('mcp.what_write')),

    recordUse: (ids, opts) => store.recordUse(ids, opts),

    update(skillId, patch, opts = {}) {
      return this.updateWith(skillId, () => patch, opts)
    },

    async updateWith(skillId, make, opts = {}) {
      // as the store: a retired skill is edited only when the caller allows it (the edit tool does not)
      const skill = await store.get(skillId, { includeLegacy: opts.activeOnly !== true })
      const { text, hash } = await store.readRaw(skill.path)
      const patch = make(skill)
      if (patch === null) return skill
      if (opts.baseHash !== undefined && opts.baseHash !== hash) {
        throw new StoreError('conflict', coded('skill.changed_since_read', { path: skill.path }))
      }
      const parsed = parseSkillText(text)
      if (!parsed.ok) {
        throw new StoreError('malformed', coded('file.problem', { path: skill.path, reason: parseReasonParam(parsed) }))
      }
      const meta = { ...(patch.meta ?? {}) }
      const noop = (patch.body === undefined || patch.body === parsed.file.body) && Object.keys(meta).length === 0
      if (opts.touchUpdatedAt !== false) {
        meta.updated_at = formatTimestamp(now())
      }
      const after = rewriteSkillFile(parsed.file, changesForMeta(skill.format, parsed.file.data, meta, skill.skill_id), patch.body)
      captured.push({ kind: 'edit', skill, before: text, after, baseHash: hash, noop })
      return { ...skill, ...meta, body: patch.body ?? skill.body }
    },

    async moveToLegacy(skillId) {
      const skill = await store.get(skillId)
      const { text, hash } = await store.readRaw(skill.path)
      // Where it would go now; the applier moves it with the store (which re-checks collisions).
      const to =
        skill.format === 'agiagent'
          ? `legacy/${path.posix.basename(skill.path)}`
          : `legacy/${skill.path}`
      const from = skill.path
      captured.push({ kind: 'delete', skill, text, baseHash: hash, from, to })
      return { from, to }
    }
  }
  return { store: recorder, captured }
}
