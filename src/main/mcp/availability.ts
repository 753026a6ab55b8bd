/**
 * Whether the skill tools are available: as upstream, only when long-term memory is enabled.
 * The switch is `enable_long_term_memory` in the data root's `config.txt` (or the app setting);
 * where nothing sets it (a plain `--library`), the tools are available.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import { DEFAULT_SETTINGS, type Settings } from '../../shared/types'
import { configBool, parseConfigTxt } from '../config/config-txt'
import { resolveSettingsDir, SETTINGS_FILE } from '../config/settings-dir'

/** Upstream's exact refusal text. */
export const LONG_TERM_MEMORY_DISABLED = 'Skill tools are only available when long-term memory is enabled'

export interface Availability {
  available: boolean
  /** What decided it: a config file path, 'settings', or 'default'. */
  source: string
}

/** The config.txt files that may govern a data root, in the order they are tried. */
export function configCandidates(rootDir: string): string[] {
  return [path.join(rootDir, 'config.txt'), path.join(rootDir, 'config', 'config.txt')]
}

/** The two workbench settings the MCP server follows. */
export type ToolSettings = Pick<Settings, 'enableLongTermMemory' | 'proposalOnlyTools'>

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The tool settings of a settings file's text, as the workbench reads them (settings-store.ts `parseStored`, which
 * validates with the API schema; test/mcp checks they agree): a bad value falls back to its default, a file that is
 * not a JSON object gives undefined. Read by hand so the server does not load zod before its first answer.
 */
export function toolSettingsFrom(text: string): ToolSettings | undefined {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    return undefined
  }
  if (!data || typeof data !== 'object') return undefined
  const raw = (data as { settings?: unknown }).settings
  const stored = isObject(raw) ? raw : {}
  const enable = stored.enableLongTermMemory
  const tools = stored.proposalOnlyTools
  const flag = (v: unknown): v is boolean | undefined => v === undefined || typeof v === 'boolean'
  const toolsOk = isObject(tools) && flag(tools.edit) && flag(tools.delete)
  const defaults = DEFAULT_SETTINGS.proposalOnlyTools
  return {
    enableLongTermMemory: typeof enable === 'boolean' ? enable : DEFAULT_SETTINGS.enableLongTermMemory,
    proposalOnlyTools: {
      edit: toolsOk && typeof tools.edit === 'boolean' ? tools.edit : defaults.edit,
      delete: toolsOk && typeof tools.delete === 'boolean' ? tools.delete : defaults.delete
    }
  }
}

/**
 * The workbench's saved tool settings (read-only: a damaged or missing file gives undefined, and is left as it
 * is), with the file they came from.
 */
export async function readAppSettings(env: NodeJS.ProcessEnv): Promise<{ settings: ToolSettings; file: string } | undefined> {
  const file = path.join(resolveSettingsDir(env), SETTINGS_FILE)
  let text: string
  try {
    text = await fs.readFile(file, 'utf8')
  } catch {
    return undefined
  }
  const settings = toolSettingsFrom(text)
  return settings ? { settings, file } : undefined
}

/**
 * Combines the data root's config.txt with the app's settings: either one switching long-term memory
 * off turns the tools off (the settings default to on, so only an explicit off there counts).
 */
export async function combinedAvailability(opts: {
  rootDir?: string
  configFile?: string
  settings?: { settings: Pick<Settings, 'enableLongTermMemory'>; file: string }
}): Promise<Availability> {
  const fromConfig = await skillToolsAvailability({ rootDir: opts.rootDir, configFile: opts.configFile })
  if (!fromConfig.available || !opts.settings || opts.settings.settings.enableLongTermMemory) {
    return fromConfig
  }
  return { available: false, source: opts.settings.file }
}

/**
 * Decides availability: an explicit setting wins, then the first config.txt found (an explicit
 * `configFile`, else the data root's) that sets `enable_long_term_memory`, else available.
 */
export async function skillToolsAvailability(opts: {
  rootDir?: string
  configFile?: string
  enableLongTermMemory?: boolean
}): Promise<Availability> {
  if (opts.enableLongTermMemory !== undefined) {
    return { available: opts.enableLongTermMemory, source: 'settings' }
  }
  const files = opts.configFile ? [opts.configFile] : opts.rootDir ? configCandidates(opts.rootDir) : []
  for (const file of files) {
    let text: string
    try {
      text = await fs.readFile(file, 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !opts.configFile) {
        continue
      }
      throw new Error(`cannot read ${file}: ${(err as Error).message}`, { cause: err })
    }
    const value = configBool(parseConfigTxt(text), 'enable_long_term_memory')
    if (value !== undefined) {
      return { available: value, source: file }
    }
  }
  return { available: true, source: 'default' }
}
