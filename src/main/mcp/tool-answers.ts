/**
 * What the MCP server answers to a tool call, without the SDK: availability, proposal mode for edit/delete, the
 * tool itself, the answer as an MCP result. The SDK server's handlers and the stdio front's early query answers
 * both come from here, and both shape an answer, a tool that threw included, by answer-shape.ts (as the line guard
 * shapes its unknown tool), so they cannot differ.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { QueryResult, ToolResult } from '../../shared/types'
import { callSkillTool, createSkillTools, DISABLED_MESSAGE, type SkillToolName, type ToolStore } from '../tools/skill-tools'
import type { LibrarySearch } from '../search/library-search'
import { codedFieldsFor } from '../tools/coded-result'
import { toolAnswer } from './answer-shape'
import { recoveryCollector, type RecoveredEntry } from '../review/recovery-notices'

export { thrownAnswer, toolAnswer } from './answer-shape'

export interface ToolAnswerOptions {
  store: ToolStore
  /** The library's persistent search index, kept current (queries rank with it; without it, in memory). */
  search?: Pick<LibrarySearch, 'current'>
  /** Default: available. */
  available?: boolean
  /** Which write tools only make pending proposals (default: both edit and delete). */
  proposalOnly?: { edit: boolean; delete: boolean }
  /** The agent workspace copy_skill_files copies from. */
  workspaceRoot?: string
  now?: () => Date
  /** Diagnostics sink; never stdout in stdio mode. */
  log?: (line: string) => void
  /**
   * Asks the library's search daemon (search/daemon/); null when none answers — the query is then answered here.
   * The server runs the same query_skill, recording the use with `via: mcp`.
   */
  remoteQuery?: (query: string) => Promise<QueryResult | null>
}

/** The arguments kept as evidence in a proposal (the new text itself is in the proposal's `after`). */
function evidenceArgs(args: Record<string, unknown>): Record<string, unknown> {
  const { code_edit: codeEdit, ...rest } = args
  return { ...rest, code_edit_chars: typeof codeEdit === 'string' ? codeEdit.length : 0 }
}

/** Answers tool calls whose arguments the caller has validated; `clientName` goes into a proposal's evidence. */
export type ToolAnswerer = (name: SkillToolName, args: Record<string, unknown>, clientName?: string) => Promise<CallToolResult>

export function createToolAnswerer(opts: ToolAnswerOptions): ToolAnswerer {
  const available = opts.available ?? true
  const proposalOnly = opts.proposalOnly ?? { edit: true, delete: true }
  const now = opts.now ?? (() => new Date())
  const log = opts.log ?? (() => undefined)
  const search = opts.search
  // uses reach the skill files within seconds, one fold per burst of queries (agents query often)
  const tools = createSkillTools(opts.store, { now, workspaceRoot: opts.workspaceRoot, via: 'mcp', foldUses: 'soon', ...(search ? { search: () => search.current() } : {}) })

  /** edit_skill / delete_skill in proposal mode: run the real tool on a recording store, save what it would write. */
  const propose = async (name: 'edit_skill' | 'delete_skill', args: Record<string, unknown>, clientName: string | undefined): Promise<QueryResult | ToolResult> => {
    // Loaded here: the proposal modules are not needed by a server that only answers queries.
    const [{ createProposalRecorder }, { deleteProposal, editProposal, savePendingProposal }, { legacyMoveChanges }, { recoverFirst }] = await Promise.all([
      import('./proposal-recorder'),
      import('../review/pending-proposals'),
      import('../review/changes'),
      import('../review/recover-first')
    ])
    // No store write happens here to finish a change a crash interrupted, yet the proposal's before text must not
    // be its half (accepting would then always conflict): finished first, as a direct write would.
    try {
      await recoverFirst(opts.store.root)
    } catch (err) {
      return { status: 'error', message: (err as Error).message, ...codedFieldsFor(err, (err as Error).message) }
    }
    const recorder = createProposalRecorder(opts.store, now)
    const dry = createSkillTools(recorder.store, { now, workspaceRoot: opts.workspaceRoot })
    const result = await callSkillTool(dry, name, args)
    const write = recorder.captured[0]
    if (result.status === 'error' || !write) {
      return result
    }
    const evidence = { tool: name, args: evidenceArgs(args), base_hash: write.baseHash, client: clientName }
    let proposal
    if (write.kind === 'edit') {
      if (write.noop || write.before === write.after) {
        return { status: 'success', message: `The edit leaves skill ${write.skill.skill_id} unchanged: no proposal was made`, skill_id: write.skill.skill_id, pending: false }
      }
      proposal = editProposal(write.skill, write.before, write.after, evidence, now())
    } else {
      const all = await opts.store.list({ includeLegacy: true })
      const existing = new Set(all.skills.map((s) => s.path))
      const changes = legacyMoveChanges(write.skill, write.text, existing, new Set(), now())
      const to = changes.find((c) => c.before === null)?.path ?? write.to
      proposal = deleteProposal(write.skill, changes, { ...evidence, move: { from: write.from, to } }, now())
    }
    let rel: string
    try {
      rel = await savePendingProposal(opts.store.root, proposal)
    } catch (err) {
      return { status: 'error', message: (err as Error).message, skill_id: write.skill.skill_id, ...codedFieldsFor(err, (err as Error).message) }
    }
    const what = write.kind === 'edit' ? `Edit of skill ${write.skill.skill_id} (${String(args.edit_mode)})` : `Retiring skill ${write.skill.skill_id} to legacy/`
    return {
      status: 'success',
      message: `${what} proposed: it waits for review in Skillbench, and the skill stays as it is until a person accepts it.`,
      skill_id: write.skill.skill_id,
      pending: true,
      proposal_id: proposal.id,
      proposal_path: rel
    }
  }

  /** edit_skill / delete_skill at once (--direct-edit / --direct-delete): journaled, the answer carries its journal_id for undo. */
  const writeDirect = async (name: 'edit_skill' | 'delete_skill', args: Record<string, unknown>, clientName: string | undefined): Promise<QueryResult | ToolResult> => {
    const { directToolWrite } = await import('./direct-writes')
    const who = clientName ? `mcp:${clientName}` : 'mcp'
    return directToolWrite(opts.store, name, args, { by: who, author: who, client: clientName, now })
  }

  return async (name, args, clientName) => {
    // what recovery did inside this call (a change a crash interrupted, finished before the tool wrote): in its answer
    const heard = recoveryCollector((line) => log(`${name}: ${line.message}`))
    return heard.run(() => answerCall(name, args, clientName)).then((r) => (heard.entries.length > 0 ? withRecoveredAnswer(r, heard.entries) : r))
  }

  async function answerCall(name: SkillToolName, args: Record<string, unknown>, clientName: string | undefined): Promise<CallToolResult> {
    if (!available) {
      log(`${name}: refused (long-term memory is disabled)`)
      return toolAnswer({ status: 'error', message: DISABLED_MESSAGE })
    }
    if (name === 'query_skill' && opts.remoteQuery) {
      const remote = await opts.remoteQuery(typeof args.query === 'string' ? args.query : '')
      if (remote) {
        log(`query_skill: ${remote.status} (search daemon)${remote.status === 'error' ? ` — ${remote.message}` : ''}`)
        return toolAnswer(remote)
      }
    }
    const proposalMode = (name === 'edit_skill' && proposalOnly.edit) || (name === 'delete_skill' && proposalOnly.delete)
    const direct = !proposalMode && (name === 'edit_skill' || name === 'delete_skill')
    const result = proposalMode ? await propose(name, args, clientName) : direct ? await writeDirect(name, args, clientName) : await callSkillTool(tools, name, args)
    log(`${name}: ${result.status}${result.status === 'error' ? ` — ${result.message}` : ''}`)
    return toolAnswer(result)
  }
}

/** A call's answer with what recovery did during it added as `recovered` (text and structured content alike; no other key changes). */
function withRecoveredAnswer(answer: CallToolResult, recovered: readonly RecoveredEntry[]): CallToolResult {
  const structured = answer.structuredContent
  if (!structured || 'recovered' in structured) return answer
  const result = { ...structured, recovered: [...recovered] }
  return { ...answer, content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], structuredContent: result }
}
