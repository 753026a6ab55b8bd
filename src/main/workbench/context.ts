/**
 * What every domain's handlers share: the workbench's stores, registries and a few helpers. `createWorkbench`
 * builds one context; each `handlers/<domain>.ts` takes it and returns its part of the API contract.
 */
import type { ApiEvent } from '../../shared/api'
import type { ScanResult } from '../../shared/types'
import type { LlmClient, LlmConfig } from '../llm/types'
import type { SkillStore } from '../store/types'
import type { AutoEnhancer } from './auto-enhance'
import type { CoreModules } from './core-modules'
import type { JobRegistry } from './jobs'
import type { LibraryRegistry } from './libraries'
import type { SecretStore } from './secrets'
import type { SettingsStore } from './settings-store'
import type { createUsageService } from './usage-service'

/** The secret name of the LLM API key. */
export const API_KEY_SECRET = 'llm.apiKey'

export interface WorkbenchDeps {
  /** Where settings.json (and, in web mode, the 0600 secrets file) live. */
  settingsDir: string
  transport: 'electron' | 'web'
  secrets: SecretStore
  /** Pushes an event to every connected renderer. */
  emit: (event: ApiEvent) => void
  /**
   * Data roots given for this run (e.g. `skillbench serve --root-dir`): listed first, the app opens on the first,
   * and they are not written to the settings file unless the user chooses to remember them.
   */
  initialRoots?: string[]
  /** The core modules (tests may pass their own); default: the real ones. */
  core?: CoreModules
  /** Watch libraries and roots for outside changes (default true). */
  watch?: boolean
  /** Read the first libraries in the background at start, so the first screens find them warm (default true). */
  prewarm?: boolean
  /** Builds the model client (default: the OpenAI-compatible adapter, loaded on first use). */
  createLlm?: (config: LlmConfig) => LlmClient | Promise<LlmClient>
  version?: string
  /** Where agents' default session folders are looked for (`SKILLBENCH_HOME`, `HOME`); default process.env. */
  env?: NodeJS.ProcessEnv
}

export interface WorkbenchContext {
  deps: WorkbenchDeps
  settingsStore: SettingsStore
  core: CoreModules
  registry: LibraryRegistry
  jobs: JobRegistry
  autoEnhancer: AutoEnhancer
  usage: ReturnType<typeof createUsageService>
  /** This process's id for the renderer (a new one after a restart). */
  runId: string
  createLlm: (config: LlmConfig) => LlmClient | Promise<LlmClient>
  /** The open store of a listed library (opened once, kept). */
  storeFor(library: string): Promise<SkillStore>
  /** Scans a known data root (incrementally from the last scan) and tells auto-enhance. */
  scan(root: string): Promise<ScanResult>
  /** The last scan of a root, if any. */
  lastScan(root: string): ScanResult | undefined
  forgetScan(root: string): void
  /** The model client of a choice (or the settings' provider); undefined offline. */
  llmFor(choice: 'offline' | 'openai' | undefined): Promise<LlmClient | undefined>
  /** Brings the file watchers up to date with the listed libraries and roots. */
  refreshWatchers(): Promise<void>
  /** An error's message as the API sends it (secrets redacted). */
  errorMessage(err: unknown): string
  /** Reads the secrets again after the API key changed (what error messages redact). */
  secretsChanged(): Promise<void>
}
