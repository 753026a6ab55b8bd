/** Where the workbench settings live (no schema code: the MCP server reads two settings without loading zod). */
import os from 'node:os'
import path from 'node:path'

/** The settings file inside the settings dir. */
export const SETTINGS_FILE = 'settings.json'

/**
 * The settings dir: `$SKILLBENCH_CONFIG_DIR`, else `$XDG_CONFIG_HOME/skillbench`, else `~/.config/skillbench`.
 */
export function resolveSettingsDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SKILLBENCH_CONFIG_DIR) {
    return path.resolve(env.SKILLBENCH_CONFIG_DIR)
  }
  const base = env.XDG_CONFIG_HOME ? path.resolve(env.XDG_CONFIG_HOME) : path.join(os.homedir(), '.config')
  return path.join(base, 'skillbench')
}
