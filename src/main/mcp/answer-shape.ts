/**
 * The shape of every tool answer the MCP server gives, and the stdio front and the line guard give in its place: the
 * JSON answer as text and as structured content, isError when the tool refused, with `message_code` and `params`
 * when its message has a code. Small on purpose (no tool code, no SDK code at run time): the line guard and the stdio
 * front load it before the tools are.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { QueryResult, ToolResult } from '../../shared/types'
import { codedFieldsFor, withMessageCode } from '../tools/coded-result'

/** A tool answer as an MCP result: the JSON answer as text, isError when the tool refused (with its message_code). */
export function toolAnswer(answer: QueryResult | ToolResult): CallToolResult {
  const result = withMessageCode(answer)
  return {
    content: [{ type: 'text', text: JSON.stringify(result, null, 2) }],
    structuredContent: result as unknown as Record<string, unknown>,
    isError: result.status === 'error'
  }
}

/** The answer to a tool call that threw: its message, with the error's code and params (or those its words are). */
export function thrownAnswer(err: unknown): CallToolResult {
  const message = err instanceof Error ? err.message : String(err)
  return toolAnswer({ status: 'error', message, ...codedFieldsFor(err, message) })
}
