/**
 * The workbench settings an agent's Stop hook goes by (seed 001 §4.5.2–4.5.3): the auto-enhance switch and the
 * model reflection would call. Read-only, without the settings schema (a hook starts on every agent turn): a
 * missing or damaged file reads as the defaults (switch off, offline), and is left as it is.
 */
import fs from 'node:fs'
import path from 'node:path'
import { resolveSettingsDir, SETTINGS_FILE } from './settings-dir'

export interface EnhanceSettings {
  /** The settings file read (it may not exist). */
  file: string
  /** Whether the file was there and readable. */
  found: boolean
  autoEnhance: boolean
  llm: { provider: 'offline' | 'openai'; baseUrl?: string; model?: string }
  /** Characters of a task sent to the model at most (the workbench's reflectBudgetChars). */
  budgetChars?: number
}

/** The switch and model out of settings.json's text. Pure. */
export function enhanceSettingsFrom(text: string | null, file: string): EnhanceSettings {
  const off: EnhanceSettings = { file, found: false, autoEnhance: false, llm: { provider: 'offline' } }
  if (text === null) return off
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    return off
  }
  const s = (data as { settings?: unknown } | null)?.settings
  if (typeof s !== 'object' || s === null) return off
  const o = s as Record<string, unknown>
  const llm = typeof o.llm === 'object' && o.llm !== null ? (o.llm as Record<string, unknown>) : {}
  const text1 = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined)
  const budget = typeof o.reflectBudgetChars === 'number' && Number.isFinite(o.reflectBudgetChars) ? o.reflectBudgetChars : undefined
  return {
    file,
    found: true,
    autoEnhance: o.autoEnhance === true,
    llm: {
      provider: llm.provider === 'openai' ? 'openai' : 'offline',
      ...(text1(llm.baseUrl) ? { baseUrl: text1(llm.baseUrl) } : {}),
      ...(text1(llm.model) ? { model: text1(llm.model) } : {})
    },
    ...(budget !== undefined ? { budgetChars: budget } : {})
  }
}

/** Reads them from `$SKILLBENCH_CONFIG_DIR` (or the usual settings folder). */
export function readEnhanceSettings(env: NodeJS.ProcessEnv): EnhanceSettings {
  const file = path.join(resolveSettingsDir(env), SETTINGS_FILE)
  let text: string | null
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch {
    text = null
  }
  return enhanceSettingsFrom(text, file)
}
