import { promises as fsp } from 'node:fs'
import path from 'node:path'
import { API_INPUT_SCHEMAS, type SettingsPatch } from '../../shared/api'
import { DEFAULT_SETTINGS, type Settings } from '../../shared/types'
import { writeFileAtomic } from '../store/atomic'
import { resolveSettingsDir, SETTINGS_FILE } from '../config/settings-dir'

export { resolveSettingsDir, SETTINGS_FILE }

/** A session folder of another agent the user added on the Workspaces screen. */
export interface StoredSessionSource {
  source: 'claude' | 'codex' | 'synapse'
  dir: string
}

/** What the settings file holds: the settings without the key, plus the workbench's own lists. */
export interface StoredSettings {
  settings: Settings
  openedLibraries: string[]
  /** Memory workspace chosen per library (library path → folder holding `memory/`); unset = the default. */
  memoryWorkspaces: Record<string, string>
  /** Session folders added by hand (auto-detected ones are found again on each start). */
  sessionSources: StoredSessionSource[]
  /** The library chosen for the skills of each session folder (`<source>:<dir>` → library path). */
  sessionTargets: Record<string, string>
}

/** Applies a validated patch to settings (nested objects merged one level deep). Pure. */
export function applySettingsPatch(settings: Settings, patch: SettingsPatch): Settings {
  return {
    ...settings,
    ...stripUndefined(patch),
    llm: { ...settings.llm, ...stripUndefined(patch.llm ?? {}) },
    thresholds: { ...settings.thresholds, ...stripUndefined(patch.thresholds ?? {}) },
    proposalOnlyTools: { ...settings.proposalOnlyTools, ...stripUndefined(patch.proposalOnlyTools ?? {}) },
    dataRoots: patch.dataRoots ?? settings.dataRoots
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}

/**
 * Loads and saves `settings.json`. A damaged file is kept aside (`settings.json.damaged-<time>`) and the
 * defaults are used, with `loadWarning` saying so; the key is never written here.
 */
export class SettingsStore {
  readonly file: string
  loadWarning: string | undefined
  private current: StoredSettings = { settings: structuredClone(DEFAULT_SETTINGS), openedLibraries: [], memoryWorkspaces: {}, sessionSources: [], sessionTargets: {} }

  constructor(readonly dir: string) {
    this.file = path.join(dir, SETTINGS_FILE)
  }

  get settings(): Settings {
    return this.current.settings
  }

  get openedLibraries(): string[] {
    return this.current.openedLibraries
  }

  /** Reads the file (missing = defaults). */
  async load(): Promise<void> {
    let text: string
    try {
      text = await fsp.readFile(this.file, 'utf8')
    } catch {
      return
    }
    const parsed = parseStored(text)
    if (parsed) {
      this.current = parsed
      return
    }
    const aside = `${this.file}.damaged-${Date.now()}`
    await fsp.rename(this.file, aside).catch(() => undefined)
    this.loadWarning = `The settings file could not be read; defaults are used. The old file was kept as ${aside}.`
  }

  /** Applies a patch and saves. */
  async update(patch: SettingsPatch): Promise<Settings> {
    this.current = { ...this.current, settings: applySettingsPatch(this.current.settings, patch) }
    await this.save()
    return this.current.settings
  }

  async setOpenedLibraries(paths: string[]): Promise<void> {
    this.current = { ...this.current, openedLibraries: [...paths] }
    await this.save()
  }

  get memoryWorkspaces(): Readonly<Record<string, string>> {
    return this.current.memoryWorkspaces
  }

  /** Sets (or with null, forgets) the memory workspace of a library. */
  async setMemoryWorkspace(library: string, workspace: string | null): Promise<void> {
    await this.setEntry('memoryWorkspaces', library, workspace)
  }

  get sessionSources(): readonly StoredSessionSource[] {
    return this.current.sessionSources
  }

  async setSessionSources(sources: StoredSessionSource[]): Promise<void> {
    this.current = { ...this.current, sessionSources: sources.map((s) => ({ ...s })) }
    await this.save()
  }

  get sessionTargets(): Readonly<Record<string, string>> {
    return this.current.sessionTargets
  }

  /** Sets (or with null, forgets) the library the skills of a session folder go to. */
  async setSessionTarget(key: string, library: string | null): Promise<void> {
    await this.setEntry('sessionTargets', key, library)
  }

  /** Sets (or with null, removes) one entry of a path map of the settings file, and saves. */
  private async setEntry(map: 'memoryWorkspaces' | 'sessionTargets', key: string, value: string | null): Promise<void> {
    const next = { ...this.current[map] }
    if (value === null) delete next[key]
    else next[key] = value
    this.current = { ...this.current, [map]: next }
    await this.save()
  }

  private async save(): Promise<void> {
    const { apiKey: _dropped, ...llm } = this.current.settings.llm
    const data = {
      version: 1,
      settings: { ...this.current.settings, llm },
      openedLibraries: this.current.openedLibraries,
      memoryWorkspaces: this.current.memoryWorkspaces,
      sessionSources: this.current.sessionSources,
      sessionTargets: this.current.sessionTargets
    }
    await writeFileAtomic(this.file, JSON.stringify(data, null, 2) + '\n', { mode: 0o600, folderMode: 0o700 })
  }
}

/** Parses a settings file; unknown fields are dropped, bad fields fall back to their defaults. */
export function parseStored(text: string): StoredSettings | undefined {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    return undefined
  }
  if (!data || typeof data !== 'object') {
    return undefined
  }
  const raw = data as { settings?: unknown; openedLibraries?: unknown; memoryWorkspaces?: unknown; sessionSources?: unknown; sessionTargets?: unknown }
  const schema = API_INPUT_SCHEMAS['settings.update'].shape.patch
  let settings = structuredClone(DEFAULT_SETTINGS)
  if (raw.settings && typeof raw.settings === 'object') {
    // field by field, so one bad value does not throw away the rest
    for (const [key, value] of Object.entries(raw.settings as Record<string, unknown>)) {
      const one = schema.safeParse({ [key]: value })
      if (one.success) {
        settings = applySettingsPatch(settings, one.data)
      }
    }
  }
  delete settings.llm.apiKey
  const opened = Array.isArray(raw.openedLibraries)
    ? raw.openedLibraries.filter((p): p is string => typeof p === 'string' && path.isAbsolute(p))
    : []
  const memoryWorkspaces: Record<string, string> = {}
  if (raw.memoryWorkspaces && typeof raw.memoryWorkspaces === 'object' && !Array.isArray(raw.memoryWorkspaces)) {
    for (const [lib, ws] of Object.entries(raw.memoryWorkspaces as Record<string, unknown>)) {
      if (path.isAbsolute(lib) && typeof ws === 'string' && path.isAbsolute(ws)) memoryWorkspaces[lib] = ws
    }
  }
  const sessionSources = Array.isArray(raw.sessionSources)
    ? raw.sessionSources.filter(
        (s): s is StoredSessionSource =>
          !!s && typeof s === 'object' && ['claude', 'codex', 'synapse'].includes((s as StoredSessionSource).source) && typeof (s as StoredSessionSource).dir === 'string' && path.isAbsolute((s as StoredSessionSource).dir)
      ).map((s) => ({ source: s.source, dir: s.dir }))
    : []
  const sessionTargets: Record<string, string> = {}
  if (raw.sessionTargets && typeof raw.sessionTargets === 'object' && !Array.isArray(raw.sessionTargets)) {
    for (const [key, lib] of Object.entries(raw.sessionTargets as Record<string, unknown>)) {
      if (typeof lib === 'string' && path.isAbsolute(lib)) sessionTargets[key] = lib
    }
  }
  return { settings, openedLibraries: opened, memoryWorkspaces, sessionSources, sessionTargets }
}
