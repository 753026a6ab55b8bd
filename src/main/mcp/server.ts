/**
 * The Model Context Protocol server over the skill tools: any MCP client (Claude Code, Codex,
 * Cursor…) can query, rate, edit, retire skills and back up their files, and read the skills as
 * `skill://<skill_id>` resources. Same schemas and semantics as the CLI (SKILL_TOOL_SCHEMAS and
 * the tools module); edit/delete can be limited to pending proposals reviewed in the app.
 *
 * In stdio mode stdout is the protocol: everything else goes to the `log` sink (stderr).
 */
import type { Readable, Writable } from 'node:stream'
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { McpError, ErrorCode, type CallToolResult, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { QueryResult, ToolResult } from '../../shared/types'
import { legacyMoveChanges } from '../curate/changes'
import { isValidSkillId } from '../store/paths'
import {
  callSkillTool,
  createSkillTools,
  DISABLED_MESSAGE,
  SKILL_TOOL_SCHEMAS,
  type SkillToolName,
  type ToolStore
} from '../tools/index'
import type { Availability } from './availability'
import { zodObjectFromJsonSchema } from './json-schema-to-zod'
import { deleteProposal, editProposal, savePendingProposal, type ToolRequestEvidence } from './pending-proposals'
import { skillToolsPrompt } from './prompt-snippet'
import { createProposalRecorder } from './proposal-recorder'
import type { LibrarySearch } from '../search/library-search'

export const SERVER_NAME = 'skillbench'
export const SERVER_VERSION = '0.1.0'

export interface SkillMcpServerOptions {
  store: ToolStore
  /** The library's persistent search index, kept current (queries rank with it; without it, in memory). */
  search?: Pick<LibrarySearch, 'current'>
  /** Default: available (a plain library with nothing saying otherwise). */
  availability?: Availability
  /** Which write tools only make pending proposals (default: both edit and delete). */
  proposalOnly?: { edit: boolean; delete: boolean }
  /** The agent workspace copy_skill_files copies from. */
  workspaceRoot?: string
  now?: () => Date
  /** Diagnostics sink; never stdout in stdio mode. */
  log?: (line: string) => void
}

/** A tool answer as an MCP result: the JSON answer as text, isError when the tool refused. */
function toolAnswer(result: QueryResult | ToolResult): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(result, null, 2) }],
    structuredContent: result as unknown as Record<string, unknown>,
    isError: result.status === 'error'
  }
}

/** The arguments kept as evidence in a proposal (the new text itself is in the proposal's `after`). */
function evidenceArgs(args: Record<string, unknown>): Record<string, unknown> {
  const { code_edit: codeEdit, ...rest } = args
  return { ...rest, code_edit_chars: typeof codeEdit === 'string' ? codeEdit.length : 0 }
}

/** Builds the MCP server (not yet connected). */
export function createSkillMcpServer(opts: SkillMcpServerOptions): McpServer {
  const available = opts.availability?.available ?? true
  const proposalOnly = opts.proposalOnly ?? { edit: true, delete: true }
  const now = opts.now ?? (() => new Date())
  const log = opts.log ?? (() => undefined)
  const search = opts.search
  const tools = createSkillTools(opts.store, { now, workspaceRoot: opts.workspaceRoot, via: 'mcp', ...(search ? { search: () => search.current() } : {}) })
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    { instructions: skillToolsPrompt('en'), capabilities: { logging: {} } }
  )
  const clientName = (): string | undefined => server.server.getClientVersion()?.name

  /** edit_skill / delete_skill in proposal mode: run the real tool on a recording store, save what it would write. */
  const propose = async (name: 'edit_skill' | 'delete_skill', args: Record<string, unknown>): Promise<QueryResult | ToolResult> => {
    const recorder = createProposalRecorder(opts.store, now)
    const dry = createSkillTools(recorder.store, { now, workspaceRoot: opts.workspaceRoot })
    const result = await callSkillTool(dry, name, args)
    const write = recorder.captured[0]
    if (result.status === 'error' || !write) {
      return result
    }
    const evidence: ToolRequestEvidence = { tool: name, args: evidenceArgs(args), base_hash: write.baseHash, client: clientName() }
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
      return { status: 'error', message: (err as Error).message, skill_id: write.skill.skill_id }
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

  for (const schema of SKILL_TOOL_SCHEMAS) {
    const name = schema.function.name as SkillToolName
    server.registerTool(
      name,
      {
        description: schema.function.description,
        inputSchema: zodObjectFromJsonSchema(schema.function.parameters),
        annotations: {
          readOnlyHint: false,
          destructiveHint: name === 'edit_skill' || name === 'delete_skill',
          idempotentHint: name === 'delete_skill',
          openWorldHint: false
        }
      },
      async (args: Record<string, unknown>) => {
        if (!available) {
          log(`${name}: refused (long-term memory is disabled)`)
          return toolAnswer({ status: 'error', message: DISABLED_MESSAGE })
        }
        const proposalMode = (name === 'edit_skill' && proposalOnly.edit) || (name === 'delete_skill' && proposalOnly.delete)
        const result = proposalMode ? await propose(name, args) : await callSkillTool(tools, name, args)
        log(`${name}: ${result.status}${result.status === 'error' ? ` — ${result.message}` : ''}`)
        return toolAnswer(result)
      }
    )
  }

  server.registerResource(
    'skill',
    new ResourceTemplate('skill://{skill_id}', {
      list: async () => {
        if (!available) {
          return { resources: [] }
        }
        const { skills } = await opts.store.list()
        return {
          resources: skills
            .filter((s) => !s.legacy)
            .map((s) => ({
              uri: `skill://${s.skill_id}`,
              name: s.title || s.skill_id,
              description: s.usage_conditions || undefined,
              mimeType: 'text/markdown'
            }))
        }
      }
    }),
    { description: 'A skill file (front matter + Markdown), read-only; reading does not count as a use.', mimeType: 'text/markdown' },
    async (uri, variables) => {
      if (!available) {
        throw new McpError(ErrorCode.InvalidRequest, DISABLED_MESSAGE)
      }
      const id = String(Array.isArray(variables.skill_id) ? variables.skill_id[0] : variables.skill_id)
      if (!isValidSkillId(id)) {
        throw new McpError(ErrorCode.InvalidParams, `invalid skill id in ${uri.href}: an id is 1–20 digits`)
      }
      let text: string
      try {
        const skill = await opts.store.get(id)
        text = (await opts.store.readRaw(skill.path)).text
      } catch (err) {
        throw new McpError(ErrorCode.InvalidParams, (err as Error).message.split('\n')[0] ?? 'cannot read the skill')
      }
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] }
    }
  )

  server.registerPrompt(
    'skill-tools-guide',
    {
      description: 'How an agent should use the skill tools (query first, cite skill ids in plan.md, rate after use).',
      argsSchema: { lang: z.enum(['en', 'zh']).optional().describe('en (default) or zh') }
    },
    ({ lang }) => ({ messages: [{ role: 'user', content: { type: 'text', text: skillToolsPrompt(lang ?? 'en') } }] })
  )

  return server
}

/** Serves over stdio until the client disconnects; resolves when the connection closes. */
export async function serveStdio(
  opts: SkillMcpServerOptions & { stdin?: Readable; stdout?: Writable; signal?: AbortSignal }
): Promise<void> {
  const server = createSkillMcpServer(opts)
  const transport = new StdioServerTransport(opts.stdin, opts.stdout)
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve()
  })
  await server.connect(transport)
  // Requests received but not yet answered: a client that sends its last request and closes
  // stdin (a script, a pipe) still gets every answer before we close.
  const pending = new Set<string | number>()
  let ending = false
  const closeIfDone = (): void => {
    if (ending && pending.size === 0) {
      void server.close()
    }
  }
  const onMessage = transport.onmessage
  transport.onmessage = (msg: JSONRPCMessage) => {
    if ('method' in msg && 'id' in msg) {
      pending.add(msg.id)
    }
    onMessage?.(msg)
  }
  const send = transport.send.bind(transport)
  transport.send = async (msg: JSONRPCMessage) => {
    try {
      await send(msg)
    } finally {
      if (!('method' in msg) && 'id' in msg && msg.id !== undefined && pending.delete(msg.id)) {
        closeIfDone()
      }
    }
  }
  const stdin = opts.stdin ?? process.stdin
  const onEnd = (): void => {
    ending = true
    closeIfDone()
  }
  stdin.once('end', onEnd)
  opts.signal?.addEventListener('abort', () => void server.close(), { once: true })
  try {
    await closed
  } finally {
    stdin.off('end', onEnd)
  }
}
