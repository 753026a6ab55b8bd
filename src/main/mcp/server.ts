/**
 * The Model Context Protocol server over the skill tools: any MCP client (Claude Code, Codex,
 * Cursor…) can query, rate, edit, retire skills and back up their files, and read the skills as
 * `skill://<skill_id>` resources. Same schemas and semantics as the CLI (SKILL_TOOL_SCHEMAS and
 * the tools module); edit/delete can be limited to pending proposals reviewed in the app.
 *
 * In stdio mode stdout is the protocol: everything else goes to the `log` sink (stderr).
 */
import type { Readable, Writable } from 'node:stream'
import { McpServer, ResourceTemplate, type RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { CallToolRequestSchema, McpError, ErrorCode, type CallToolResult, type JSONRPCMessage, type ToolAnnotations } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { isValidSkillId } from '../store/paths'
import { DISABLED_MESSAGE, type SkillToolName } from '../tools/skill-tools'
import { SKILL_TOOL_SCHEMAS, type FunctionToolSchema } from '../tools/schemas'
import type { Availability } from './availability'
import { SERVER_NAME, SERVER_VERSION, serverInstructions } from './handshake'
import { zodObjectFromJsonSchema } from './json-schema-to-zod'
import { createMemoryToolAnswerer, MEMORY_TOOL_SCHEMAS, type MemoryToolName } from './memory-tools'
import { skillToolsPrompt } from './prompt-snippet'
import { createToolAnswerer, thrownAnswer, toolAnswer, type ToolAnswerOptions } from './tool-answers'
import { invalidArguments } from './argument-problems'
import type { CodedText } from '../../shared/error-codes'
import { unknownToolAnswer } from './line-guard'
import { codedFields } from '../tools/coded-result'

export { SERVER_NAME, SERVER_VERSION }

export interface SkillMcpServerOptions extends Omit<ToolAnswerOptions, 'available'> {
  /** Default: available (a plain library with nothing saying otherwise). */
  availability?: Availability
  /** The workspace holding `memory/` for add_lesson / record_preference (they say how to set it when absent). */
  memoryWorkspace?: string
}

/** Builds the MCP server (not yet connected). */
export function createSkillMcpServer(opts: SkillMcpServerOptions): McpServer {
  const available = opts.availability?.available ?? true
  const answer = createToolAnswerer({ ...opts, available })
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION }, { instructions: serverInstructions(), capabilities: { logging: {} } })
  const clientName = (): string | undefined => server.server.getClientVersion()?.name

  // add_lesson / record_preference: under the edit switch (proposals by default), seed 003
  const memoryAnswer = createMemoryToolAnswerer({
    libraryRoot: opts.store.root,
    memoryWorkspace: opts.memoryWorkspace,
    available,
    proposalOnly: opts.proposalOnly?.edit ?? true,
    log: opts.log,
    now: opts.now
  })
  // every tool: its schema, what it may do, and who answers it — the skill tools, then the memory tools
  const tools: { schema: FunctionToolSchema; annotations: ToolAnnotations; answer: (args: Record<string, unknown>) => Promise<CallToolResult> }[] = [
    ...SKILL_TOOL_SCHEMAS.map((schema) => {
      const name = schema.function.name as SkillToolName
      return {
        schema,
        annotations: { readOnlyHint: false, destructiveHint: name === 'edit_skill' || name === 'delete_skill', idempotentHint: name === 'delete_skill', openWorldHint: false },
        answer: (args: Record<string, unknown>) => answer(name, args, clientName())
      }
    }),
    ...MEMORY_TOOL_SCHEMAS.map((schema) => ({
      schema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      answer: (args: Record<string, unknown>) => memoryAnswer(schema.function.name as MemoryToolName, args, clientName())
    }))
  ]
  const byName = new Map<string, { input: z.ZodObject; tool: (typeof tools)[number]; registered: RegisteredTool }>()
  for (const tool of tools) {
    const name = tool.schema.function.name
    const input = zodObjectFromJsonSchema(tool.schema.function.parameters)
    // registered for tools/list (the SDK advertises `input` as JSON Schema, and leaves out a tool whose `enabled` is
    // false). Calls never reach this callback: only the SDK's tools/call handler calls it, and ours below replaces
    // that handler; it throws so that a call routed here by mistake fails loudly instead of skipping our checks.
    const registered = server.registerTool(name, { description: tool.schema.function.description, inputSchema: input, annotations: tool.annotations }, () => {
      throw new Error(`tools/call of ${name} reached the SDK's handler: createSkillMcpServer answers tools/call itself`)
    })
    byName.set(name, { input, tool, registered })
  }
  // tools/call in place of the SDK's handler (McpServer sets it at the first registerTool; setting ours replaces it,
  // tools/list stays the SDK's). The SDK's parses the arguments with the same zod schema, but a failure becomes its
  // English "MCP error -32602: Input validation error: …" without a code; here arguments that do not fit, and an
  // unknown tool, get our answer shape like every other refusal: message, message_code, params. A tool disabled
  // through the SDK (RegisteredTool.disable(): tools/list leaves it out) is unknown here too, as the SDK's handler
  // refuses it; the tools are ours and keep their names and schemas (RegisteredTool.update is not used).
  const enabledNames = (): string[] => [...byName].filter(([, e]) => e.registered.enabled).map(([name]) => name)
  server.server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params
    const entry = byName.get(name)
    if (!entry || !entry.registered.enabled) return unknownToolAnswer(name, enabledNames())
    const parsed = await entry.input.safeParseAsync(args ?? {})
    if (!parsed.success) {
      const refused = invalidArguments(name, entry.tool.schema.function.parameters, args ?? {}, parsed.error.issues)
      opts.log?.(`${name}: refused — ${refused.text}`)
      return refusal(refused)
    }
    try {
      return await entry.tool.answer(parsed.data as Record<string, unknown>)
    } catch (err) {
      return thrownAnswer(err)
    }
  })

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
      const raw = String(Array.isArray(variables.skill_id) ? variables.skill_id[0] : variables.skill_id)
      let key: string
      try {
        key = decodeURIComponent(raw)
      } catch {
        throw new McpError(ErrorCode.InvalidParams, `invalid skill reference in ${uri.href}: not valid percent-encoding`)
      }
      // skill://<skill_id>, or skill://<name> (a SKILL.md folder's name, or a title), as agents name skills.
      const id = isValidSkillId(key) ? key : await skillIdByName(opts.store, key)
      if (!id) {
        throw new McpError(ErrorCode.InvalidParams, `no skill named "${key}" in ${uri.href}: use a skill's name or its numeric id (resources/list shows them)`)
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

/** A refusal as a tool answer: the English message, its code and params (in the JSON text and the structured content). */
function refusal(c: CodedText): CallToolResult {
  return toolAnswer({ status: 'error', message: c.text, ...codedFields(c) })
}

/**
 * The active skill a name stands for: a SKILL.md `name` (or its folder's name), else an exact title
 * (case-insensitive); null when none or when two skills share it (ambiguous).
 */
async function skillIdByName(store: SkillMcpServerOptions['store'], key: string): Promise<string | null> {
  const wanted = key.trim().toLowerCase()
  if (wanted === '') return null
  const { skills } = await store.list()
  const active = skills.filter((s) => !s.legacy)
  const folder = (p: string): string => p.split('/').slice(-2, -1)[0] ?? ''
  for (const pick of [(s: (typeof active)[number]) => s.name?.toLowerCase() === wanted || (s.path.endsWith('/SKILL.md') && folder(s.path).toLowerCase() === wanted), (s: (typeof active)[number]) => s.title.trim().toLowerCase() === wanted]) {
    const found = active.filter(pick)
    if (found.length === 1) return found[0]!.skill_id
    if (found.length > 1) return null
  }
  return null
}

/** Serves over stdio until the client disconnects; resolves when the connection closes. */
export async function serveStdio(
  opts: SkillMcpServerOptions & {
    stdin?: Readable
    stdout?: Writable
    signal?: AbortSignal
    /** Requests the stdio front already answered (stdio-front.ts): the SDK's answers to them are not sent. */
    answered?: Set<string | number>
    /** Called once the server listens and counts what it must answer (the stdio front then passes its messages on). */
    onListening?: () => void
  }
): Promise<void> {
  const server = createSkillMcpServer(opts)
  const log = opts.log ?? (() => undefined)
  const transport = new StdioServerTransport(opts.stdin, opts.stdout)
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve()
  })
  // Requests received but not yet answered: a client that sends its last request and closes
  // stdin (a script, a pipe) still gets every answer before we close.
  const pending = new Set<string | number>()
  let ending = false
  const closeIfDone = (): void => {
    if (ending && pending.size === 0) {
      void server.close()
    }
  }
  // Listening before the transport starts: a handed-over stream may end as soon as it is read.
  const stdin = opts.stdin ?? process.stdin
  const onEnd = (): void => {
    ending = true
    closeIfDone()
  }
  stdin.once('end', onEnd)
  await server.connect(transport)
  const onMessage = transport.onmessage
  transport.onmessage = (msg: JSONRPCMessage) => {
    if ('method' in msg && 'id' in msg) {
      pending.add(msg.id)
    }
    onMessage?.(msg)
  }
  const send = transport.send.bind(transport)
  const answered = opts.answered ?? new Set()
  transport.send = async (msg: JSONRPCMessage) => {
    try {
      if (!('method' in msg) && 'id' in msg && msg.id !== undefined && answered.delete(msg.id)) {
        if ('error' in msg) log(`the SDK refused a request answered early (${msg.error.message})`)
        return
      }
      await send(msg)
    } finally {
      if (!('method' in msg) && 'id' in msg && msg.id !== undefined && pending.delete(msg.id)) {
        closeIfDone()
      }
    }
  }
  opts.signal?.addEventListener('abort', () => void server.close(), { once: true })
  opts.onListening?.()
  try {
    await closed
  } finally {
    stdin.off('end', onEnd)
  }
}
