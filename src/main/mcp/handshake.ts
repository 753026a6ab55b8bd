/**
 * The server's side of the MCP handshake, without the SDK: what `initialize` answers. The stdio front answers it
 * from here before the SDK has loaded (~200 ms of zod and SDK modules); test/mcp/mcp-front.test.ts checks that the
 * answer is the one the SDK's server gives, for every protocol version it supports and for an unknown one.
 */
import { skillToolsPrompt } from './prompt-snippet'

export const SERVER_NAME = 'skillbench'
export const SERVER_VERSION = '0.1.0'

/** The protocol versions of the MCP SDK in use (its SUPPORTED_PROTOCOL_VERSIONS), newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07']

/** What the server registers: tools, resources and prompts (the SDK advertises each as listChanged) and logging. */
export const SERVER_CAPABILITIES = {
  logging: {},
  tools: { listChanged: true },
  resources: { listChanged: true },
  prompts: { listChanged: true }
} as const

/** The instructions sent with the handshake. */
export function serverInstructions(): string {
  return skillToolsPrompt('en')
}

/** The `initialize` result for a requested protocol version (the newest one when it is not supported). */
export function initializeResult(requestedVersion: unknown): Record<string, unknown> {
  const protocolVersion = typeof requestedVersion === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requestedVersion) ? requestedVersion : SUPPORTED_PROTOCOL_VERSIONS[0]
  return { protocolVersion, capabilities: SERVER_CAPABILITIES, serverInfo: { name: SERVER_NAME, version: SERVER_VERSION }, instructions: serverInstructions() }
}
