import type { CliCommand } from './common'

/**
 * Every `skillbench` command, loaded lazily so `skillbench query` does not pay for the web server or the MCP SDK.
 * One line per command; the command itself lives in `commands/<name>.ts` and exports `command`.
 */
export const COMMAND_LOADERS: Record<string, () => Promise<{ command: CliCommand }>> = {
  version: () => import('./commands/version'),
  export: () => import('./commands/export'),
  import: () => import('./commands/import'),
  use: () => import('./commands/use'),
  validate: () => import('./commands/validate'),
  'gen-commands': () => import('./commands/gen-commands'),
  list: () => import('./commands/list'),
  query: () => import('./commands/query'),
  rate: () => import('./commands/rate'),
  edit: () => import('./commands/edit'),
  delete: () => import('./commands/delete'),
  'copy-files': () => import('./commands/copy-files'),
  serve: () => import('./commands/serve'),
  scan: () => import('./commands/scan'),
  memory: () => import('./commands/memory'),
  mcp: () => import('./commands/mcp'),
  reflect: () => import('./commands/reflect'),
  curate: () => import('./commands/curate'),
  proposals: () => import('./commands/proposals'),
  accept: () => import('./commands/accept'),
  reject: () => import('./commands/reject'),
  undo: () => import('./commands/undo'),
  restore: () => import('./commands/restore')
}
