/**
 * The environment for a child an MCP client spawns (or an agent process the tests start). The MCP SDK's default
 * environment passes only a few variables (HOME, PATH…): without the run's TMPDIR and SKILLBENCH_CACHE_DIR (set per
 * run by vitest.config.mts) the child would write its caches into the real user's ~/.cache/skillbench.
 */
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js'

export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { ...getDefaultEnvironment(), NODE_OPTIONS: '' }
  for (const key of ['TMPDIR', 'SKILLBENCH_CACHE_DIR'] as const) {
    const value = process.env[key]
    if (value) env[key] = value
  }
  return { ...env, ...extra }
}
