import type { CliCommand } from './common'

/**
 * Every `skillbench` command, loaded lazily so `skillbench query` does not pay for the web server or the MCP SDK.
 * One line per command; the command itself lives in `commands/<name>.ts` and exports `command`.
 */
export const COMMAND_LOADERS: Record<string, () => Promise<{ command: CliCommand }>> = {
  version: () => import('./commands/version'),
  serve: () => import('./commands/serve'),
  scan: () => import('./commands/scan'),
  memory: () => import('./commands/memory'),
  reflect: () => import('./commands/reflect')
}
