/**
 * The first stage of `skillbench mcp`'s stdin: one JSON-RPC message per line, checked before anything else reads
 * it. A line that is not one message the server can answer gets a JSON-RPC error reply here (and the server stays
 * up) instead of the silence or the exit it met further in: a line over the size limit (the SDK's transport would
 * end the connection), text that is not JSON (-32700), a batch, `"jsonrpc"` other than "2.0" or an id that is not a
 * string or a number (-32600). A `tools/call` of a tool the server does not have is answered here too, as the server
 * answers one (a result with `isError`, by code: mcp.unknown_tool), so `__proto__` and other names an object has by inheritance never reach
 * the tool table. Good lines pass through unchanged, in order.
 */
import { PassThrough, type Readable } from 'node:stream'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { coded } from '../../shared/error-codes'
import { codedFields } from '../tools/coded-result'
import { toolAnswer } from './answer-shape'

/** The SDK's stdio read buffer limit (STDIO_DEFAULT_MAX_BUFFER_SIZE): longer lines are refused here. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024

export const PARSE_ERROR = -32700
export const INVALID_REQUEST = -32600

export type JsonRpcErrorReply =
  | { jsonrpc: '2.0'; id: string | number | null; error: { code: number; message: string } }
  | { jsonrpc: '2.0'; id: string | number; result: UnknownToolAnswer }

/** A tool answer refusing a tool the server does not have: the shape of every tool answer (answer-shape.ts). */
export type UnknownToolAnswer = CallToolResult

/** The answer to a `tools/call` of a tool not among `toolNames` (mcp.unknown_tool), here and in the SDK server alike. */
export function unknownToolAnswer(name: string, toolNames: readonly string[]): UnknownToolAnswer {
  const c = coded('mcp.unknown_tool', { name: JSON.stringify(name).slice(0, 200), tools: toolNames.join(', ') })
  return toolAnswer({ status: 'error', message: c.text, ...codedFields(c) })
}

export interface LineGuardOptions {
  /** The tools `tools/call` may name. */
  toolNames: readonly string[]
  /** Writes one reply (a whole line) to the client. */
  reply: (msg: JsonRpcErrorReply) => void
  log?: (line: string) => void
  maxLineBytes?: number
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isId = (v: unknown): v is string | number => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))

const errorReply = (id: string | number | null, code: number, message: string): JsonRpcErrorReply => ({ jsonrpc: '2.0', id, error: { code, message } })

/** The id a line over the limit began with, when it can be read from its first bytes (else null). */
export function leadingId(head: string): string | number | null {
  const m = /"id"\s*:\s*(-?\d{1,15}(?![\d.eE])|"(?:[^"\\]|\\.){0,200}")/.exec(head)
  if (!m) return null
  try {
    const v = JSON.parse(m[1]!) as unknown
    return isId(v) ? v : null
  } catch {
    return null
  }
}

/** What to do with one complete line: pass it on (null) or answer it with this error. Pure. */
export function checkLine(line: string, toolNames: readonly string[]): JsonRpcErrorReply | null {
  if (line.trim() === '') return null
  let msg: unknown
  try {
    msg = JSON.parse(line)
  } catch (err) {
    return errorReply(null, PARSE_ERROR, `Parse error: the line is not valid JSON (${(err as Error).message})`)
  }
  if (Array.isArray(msg)) return errorReply(null, INVALID_REQUEST, 'Invalid request: batches are not supported; send one JSON-RPC message per line')
  if (!isPlainObject(msg)) return errorReply(null, INVALID_REQUEST, 'Invalid request: a message is a JSON object')
  const hasId = Object.hasOwn(msg, 'id')
  if (hasId && !isId(msg.id)) return errorReply(null, INVALID_REQUEST, 'Invalid request: "id" must be a string or a number')
  const id = hasId ? (msg.id as string | number) : null
  if (msg.jsonrpc !== '2.0') return errorReply(id, INVALID_REQUEST, `Invalid request: "jsonrpc" must be "2.0" (got ${JSON.stringify(msg.jsonrpc) ?? 'nothing'})`)
  const isResponse = !Object.hasOwn(msg, 'method') && (Object.hasOwn(msg, 'result') || Object.hasOwn(msg, 'error'))
  if (!isResponse && typeof msg.method !== 'string') return errorReply(id, INVALID_REQUEST, 'Invalid request: "method" must be a string')
  if (msg.method === 'tools/call' && hasId && isPlainObject(msg.params) && typeof msg.params.name === 'string' && !toolNames.includes(msg.params.name)) {
    return { jsonrpc: '2.0', id: id!, result: unknownToolAnswer(msg.params.name, toolNames) }
  }
  return null
}

/** A stream of `input`'s good lines (see the module comment); errors are answered through `reply`. */
export function guardLines(input: Readable, opts: LineGuardOptions): Readable {
  const max = opts.maxLineBytes ?? MAX_LINE_BYTES
  const out = new PassThrough()
  let partial: Buffer = Buffer.alloc(0)
  /** Inside a line over the limit: its first bytes (for the id), the rest is dropped up to its newline. */
  let overHead: string | null = null
  let overBytes = 0

  const refuseLong = (): void => {
    const id = leadingId(overHead ?? '')
    opts.log?.(`refused a request line of ${overBytes} bytes (over ${max})`)
    opts.reply(errorReply(id, INVALID_REQUEST, `Invalid request: the message is ${overBytes} bytes, over the ${max}-byte limit of one line; nothing of it was read`))
    overHead = null
    overBytes = 0
  }
  const onLine = (line: Buffer): void => {
    const text = line.toString('utf8')
    const refused = checkLine(text.replace(/\r$/, ''), opts.toolNames)
    if (refused) opts.reply(refused)
    else out.write(Buffer.concat([line, Buffer.from('\n')]))
  }

  input.on('data', (chunk: Buffer | string) => {
    let buf = Buffer.from(chunk)
    while (buf.length > 0) {
      const nl = buf.indexOf(0x0a)
      if (overHead !== null) {
        // dropping a line that is too long, up to its end
        if (nl === -1) {
          overBytes += buf.length
          return
        }
        overBytes += nl
        refuseLong()
        buf = buf.subarray(nl + 1)
        continue
      }
      if (nl === -1) {
        partial = partial.length > 0 ? Buffer.concat([partial, buf]) : Buffer.from(buf)
        if (partial.length > max) {
          overHead = partial.subarray(0, 512).toString('utf8')
          overBytes = partial.length
          partial = Buffer.alloc(0)
        }
        return
      }
      const line = partial.length > 0 ? Buffer.concat([partial, buf.subarray(0, nl)]) : buf.subarray(0, nl)
      partial = Buffer.alloc(0)
      if (line.length > max) {
        overHead = line.subarray(0, 512).toString('utf8')
        overBytes = line.length
        refuseLong()
      } else onLine(line)
      buf = buf.subarray(nl + 1)
    }
  })
  input.once('end', () => {
    if (overHead !== null) refuseLong()
    // a last line without its newline is never read (as by the SDK's own transport): passed on as it is
    if (partial.length > 0) out.write(partial)
    out.end()
  })
  input.once('error', (err) => out.destroy(err))
  return out
}
