/**
 * Memory tools over MCP (seed 003): an agent adds a lesson (`add_lesson`) or records the user's preference
 * (`record_preference`). Under the same review switch as `edit_skill`: in proposal mode the write becomes a `memory`
 * proposal in the library's review queue; otherwise it lands at once, atomically, under the memory lock. Both
 * deduplicate (an entry memory already holds, or a proposal holds, is not written twice).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { addMemoryEntries, type MemoryTarget } from '../memory/memory-entries'
import { oneLine } from '../memory/text'
import { proposeMemory } from '../review/memory-proposals'
import type { FunctionToolSchema } from '../tools/schemas'
import { codedFields, codedFieldsFor } from '../tools/coded-result'
import { coded, refOf, type CodedText, type MessageCode, type MessageParams } from '../../shared/error-codes'

import type { MemoryToolName } from './memory-tool-names'

export type { MemoryToolName }

/** The tools' JSON schemas (OpenAI function shape, like SKILL_TOOL_SCHEMAS). */
export const MEMORY_TOOL_SCHEMAS: readonly FunctionToolSchema[] = [
  {
    type: 'function',
    function: {
      name: 'add_lesson',
      description:
        'Add a lesson (a behaviour rule learned from a mistake, e.g. "Only use the registered tools: cat, ls. Do not invent tool names.") to memory/lessons.md, which is injected into the system prompt of later sessions as "## 行为约束 / Lessons". One rule per call, one line. Depending on the settings it waits for review or lands at once.',
      parameters: {
        type: 'object',
        properties: { lesson: { type: 'string', description: 'The rule, one line (at most 500 characters).' } },
        required: ['lesson'],
        additionalProperties: false
      }
    }
  },
  {
    type: 'function',
    function: {
      name: 'record_preference',
      description:
        'Record a preference the user stated ("记住：…", "from now on …"), e.g. "answer briefly" or a key-value one "language: zh" (a new value replaces the old one of that key), in memory/preferences.md and long-term memory. Depending on the settings it waits for review or lands at once.',
      parameters: {
        type: 'object',
        properties: { preference: { type: 'string', description: 'The preference, one line (at most 300 characters).' } },
        required: ['preference'],
        additionalProperties: false
      }
    }
  }
]

export interface MemoryToolOptions {
  /** The library whose review queue holds the proposals. */
  libraryRoot: string
  /** The workspace holding `memory/`; undefined when the server was not told one. */
  memoryWorkspace?: string
  available: boolean
  /** The edit switch: true = proposals. */
  proposalOnly: boolean
  log?: (line: string) => void
  now?: () => Date
}

interface MemoryToolResult {
  status: 'success' | 'error'
  message: string
  /** `message` by code (tool.memory_*, like the skill tools' answers), so an agent matches the code, not the words. */
  message_code?: MessageCode
  params?: MessageParams
  pending?: boolean
  proposal_id?: string
  added?: boolean
  file?: string
}

function answer(result: MemoryToolResult): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], structuredContent: result as unknown as Record<string, unknown>, isError: result.status === 'error' }
}

/** An answer's English `message` with its code and params beside it. */
function told(status: MemoryToolResult['status'], c: CodedText): MemoryToolResult {
  return { status, message: c.text, ...codedFields(c) }
}

const LIMITS: Record<MemoryTarget, number> = { lessons: 500, preferences: 300, procedural: 300 }

/**
 * Answers add_lesson / record_preference calls. They hear no recovery (no `recovered`, unlike the skill tools'
 * answers, tool-answers.ts) because none can run in them: recovery is recoverTransactions or recoverDeploy, called
 * by a store write (LibraryOptions.recover), accept / undo / restore, curate, sync and deploy; these calls reach none
 * of them. They write the memory folder (memory lock) and the plan (withLibraryLock, no store), which no transaction
 * touches (its ops refuse bookkeeping paths: review.bookkeeping_path), so an interrupted change need not be finished
 * first. Pinned by test/review/tools-recover-first. Should one ever reach a store write, run the call in
 * recoveryCollector as createToolAnswerer does.
 */
export function createMemoryToolAnswerer(opts: MemoryToolOptions): (name: MemoryToolName, args: Record<string, unknown>, clientName?: string) => Promise<CallToolResult> {
  const log = opts.log ?? (() => undefined)
  return async (name, args, clientName) => {
    if (!opts.available) return answer(told('error', coded('tool.disabled')))
    const target: MemoryTarget = name === 'add_lesson' ? 'lessons' : 'preferences'
    const raw = name === 'add_lesson' ? args.lesson : args.preference
    const file = `memory/${target}.md`
    const param = name === 'add_lesson' ? 'lesson' : 'preference'
    if (typeof raw !== 'string' || raw.trim() === '') return answer(told('error', coded('tool.memory_needs', { tool: name, param })))
    if (raw.length > LIMITS[target]) return answer(told('error', coded('tool.memory_too_long', { param, n: raw.length, max: LIMITS[target] })))
    if (!opts.memoryWorkspace) return answer(told('error', coded('tool.memory_no_folder')))
    const entry = oneLine(raw)
    try {
      if (opts.proposalOnly) {
        const r = await proposeMemory(opts.libraryRoot, [{ workspace: opts.memoryWorkspace, target, entries: [entry], source: 'agent', reason: clientName ? coded('memory.reason_agent_client', { client: clientName, tool: name }) : coded('memory.reason_agent', { tool: name }), author: clientName ? `mcp:${clientName}` : 'mcp' }], opts.now?.())
        const p = r.proposed[0]
        if (p) {
          log(`${name}: proposed ${p.id}`)
          return answer({ ...told('success', coded('tool.memory_proposed', { file })), pending: true, proposal_id: p.id, file })
        }
        const s = r.skipped[0]
        const why =
          s?.reason === 'in_memory'
            ? coded('tool.memory_in_file', { file })
            : s?.reason === 'rejected'
              ? coded('tool.memory_rejected_before')
              : s?.proposal_id
                ? coded('tool.memory_in_proposal', { id: s.proposal_id })
                : coded('tool.memory_in_a_proposal')
        log(`${name}: not proposed (${why.text})`)
        return answer({ ...told('success', coded('tool.memory_not_proposed', { reason: refOf(why) })), pending: false, added: false, file })
      }
      const step = await addMemoryEntries(opts.memoryWorkspace, target, [entry])
      const added = step.written.length > 0
      log(`${name}: ${added ? 'added' : 'already there'}`)
      return answer({ ...told('success', added ? coded('tool.memory_added', { file }) : coded('tool.memory_already_there', { file })), added, pending: false, file })
    } catch (err) {
      log(`${name}: error — ${(err as Error).message}`)
      const message = (err as Error).message.split('\n')[0] ?? 'the memory write failed'
      return answer({ status: 'error', message, ...codedFieldsFor(err, message) })
    }
  }
}
