/**
 * edit_skill / delete_skill done at once — the CLI's `edit` and `delete`, the MCP server with `--direct-edit` /
 * `--direct-delete` — journaled through the review engine exactly as an accepted proposal is: the real tool runs on
 * a recording store (proposal-recorder.ts: same checks, same edit semantics), the change it would make becomes an
 * edit or delete proposal, and that proposal is applied at once (review/transactions.ts: intent, atomic writes, a
 * journal record as the commit point). So the answer carries a `journal_id` that `skillbench undo` (and the app's
 * History) reverts byte for byte, refusing when the skill changed since.
 *
 * All of it runs under one hold of the library lock: nothing another process writes (a rating, another edit) can
 * land between the read the change is computed from and the change, and nothing is lost either way.
 */
import type { ToolResult } from '../../shared/types'
import { callSkillTool, createSkillTools, type ToolStore } from '../tools/skill-tools'
import { codedFields, codedFieldsFor } from '../tools/coded-result'
import { withLibraryLock } from '../store/lock'
import { createProposalRecorder } from './proposal-recorder'
import { deleteProposal, editProposal } from '../review/pending-proposals'
import { legacyMoveChanges } from '../review/changes'
import { applyProposal, recoverTransactions } from '../review/transactions'
import { reconcileLockRetired } from '../store/skills-lock'
import { StoreError } from '../store/types'
import { coded } from '../../shared/error-codes'

export interface DirectWriteOptions {
  /** Who made the change (the journal's `by`): a user name for the CLI, `mcp` / `mcp:<client>` for an agent. */
  by: string
  /** The writer recorded as the change's author (`cli`, `mcp:<client>`). */
  author: string
  /** The MCP client's name, kept as the change's evidence. */
  client?: string
  now?: () => Date
}

/** A direct write's answer: the tool's answer, plus `journal_id` (what `skillbench undo` takes) when a change was made. */
export type DirectWriteResult = ToolResult & { journal_id?: string }

/** The store written through; a library also re-reads the changed files and tells other processes (adoptWrites). */
export type DirectWriteStore = ToolStore & { adoptWrites?: (relPaths: readonly string[]) => Promise<void> }

function failed(err: unknown, extra: Record<string, unknown>): ToolResult {
  const message = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? ''
  return { status: 'error', message, ...extra, ...codedFieldsFor(err, message) }
}

/** Runs edit_skill or delete_skill (arguments as an agent sends them) as one journaled, undoable change. */
export async function directToolWrite(store: DirectWriteStore, name: 'edit_skill' | 'delete_skill', args: Record<string, unknown>, opts: DirectWriteOptions): Promise<DirectWriteResult> {
  const now = opts.now ?? (() => new Date())
  const root = store.root
  const skillId = typeof args.skill_id === 'string' ? args.skill_id : undefined
  // a library the lock cannot be taken in (read-only: library.read_only) answers as the store's own write did
  return withLibraryLock(
    root,
    async () => {
      // a change a crash interrupted is finished first: this change is computed from whole files
      try {
        await recoverTransactions(root)
      } catch (err) {
        return failed(err, {})
      }
      const recorder = createProposalRecorder(store, now)
      const dry = createSkillTools(recorder.store, { now })
      const result = (await callSkillTool(dry, name, args)) as ToolResult
      const write = recorder.captured[0]
      if (result.status === 'error' || !write) return result
      const evidence = { tool: name, args: {}, base_hash: write.baseHash, ...(opts.client ? { client: opts.client } : {}) }
      let proposal
      let answer: ToolResult
      if (write.kind === 'edit') {
        // nothing at all would change (not even updated_at): nothing to write or to undo
        if (write.before === write.after) return result
        proposal = editProposal(write.skill, write.before, write.after, { ...evidence, args: { edit_mode: args.edit_mode } }, now())
        answer = result
      } else {
        const all = await store.list({ includeLegacy: true })
        const changes = legacyMoveChanges(write.skill, write.text, new Set(all.skills.map((s) => s.path)), new Set(), now())
        const to = changes.find((c) => c.before === null)?.path ?? write.to
        proposal = deleteProposal(write.skill, changes, { ...evidence, move: { from: write.from, to } }, now())
        const moved = coded('tool.moved_to_legacy', { id: write.skill.skill_id, to })
        answer = { status: 'success', message: moved.text, skill_id: write.skill.skill_id, from: write.from, to, ...codedFields(moved) }
      }
      proposal.author = opts.author
      let journalId: string
      try {
        const record = await applyProposal(root, proposal, { by: opts.by })
        journalId = record.id
      } catch (err) {
        return failed(err, { skill_id: write.skill.skill_id, ...(err instanceof StoreError ? { code: err.code } : {}) })
      }
      // the store (this process's, and through the ledger every other's) reads the changed files again
      const paths = proposal.changes.map((c) => c.path)
      await store.adoptWrites?.(paths).catch(() => undefined)
      // a retired SKILL.md skill: skills.lock leaves it out (as the store's own retirement did)
      if (write.kind === 'delete') await reconcileLockRetired(root).catch(() => undefined)
      return { ...answer, journal_id: journalId }
    },
    { purpose: `${name === 'edit_skill' ? 'editing' : 'retiring'} a skill` }
  ).catch((err: unknown) => failed(err, { ...(skillId ? { skill_id: skillId } : {}), ...(err instanceof StoreError ? { code: err.code } : {}) }))
}
