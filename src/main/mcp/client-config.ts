/**
 * The configuration lines that register `skillbench mcp` in an MCP client: Claude Code's
 * `claude mcp add`, a project `.mcp.json`, Codex's `config.toml`, Cursor's `mcp.json`. Pure.
 */

export const MCP_CLIENTS = ['claude', 'mcp-json', 'codex', 'cursor'] as const
export type McpClientKind = (typeof MCP_CLIENTS)[number]

/** The process a client starts: `node <bin> mcp <args…>`. */
export interface ServerLaunch {
  command: string
  args: string[]
}

/** Quotes one word for a POSIX shell when it needs it. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

/** A TOML basic string. */
function tomlString(s: string): string {
  return JSON.stringify(s)
}

/** The snippet for one client, with `name` as the server's name there. */
export function clientConfigSnippet(kind: McpClientKind, launch: ServerLaunch, name = 'skillbench'): string {
  switch (kind) {
    case 'claude':
      return `claude mcp add --transport stdio ${shellQuote(name)} -- ${[launch.command, ...launch.args].map(shellQuote).join(' ')}\n`
    case 'mcp-json':
      return JSON.stringify({ mcpServers: { [name]: { type: 'stdio', command: launch.command, args: launch.args } } }, null, 2) + '\n'
    case 'cursor':
      return JSON.stringify({ mcpServers: { [name]: { command: launch.command, args: launch.args } } }, null, 2) + '\n'
    case 'codex':
      return `[mcp_servers.${name}]\ncommand = ${tomlString(launch.command)}\nargs = [${launch.args.map(tomlString).join(', ')}]\n`
  }
}
