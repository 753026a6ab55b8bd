/**
 * The app's side of long-term memory (issue 7): every library has a memory workspace, a folder holding
 * `memory/` (lessons.md, preferences.md, procedural.md, long-term.md, logs/YYYY-MM-DD.md).
 * Default for a data-root user `<root>/<user>/general/experience`: `<root>/<user>` (so `<root>/<user>/memory`,
 * next to the user's tasks, where the agent runs). A folder opened by hand has no default. The user can
 * pick another folder per library; the choice is kept in the settings file.
 */
import { promises as fsp } from 'node:fs'
import path from 'node:path'
import { ApiError, type ApiHandlers, type LibraryInfo, type MemoryStatusResult, type MemoryWorkspaceInfo } from '../../shared/api'
import { coded } from '../../shared/error-codes'
import type { TaskTrace } from '../../shared/types'
import type { LlmClient } from '../llm/types'
import type { MemoryEvolution } from '../reflect/run-reflection'
import {
  acceptPendingPreference,
  capturePreferences,
  consolidateDailyLogs,
  listPendingPreferences,
  MemoryConflictError,
  memoryPrompt,
  memoryStatus,
  readMemoryDocument,
  rejectPendingPreference,
  preferencesFromTraces,
  writeMemoryDocument
} from '../memory/memory-files'
import { duplicatePreference } from '../memory/preference-kv'
import { realWorkspace } from '../memory/memory-files'
import { proposedPreferences, type ProposedPreference } from '../review/memory-proposals'
import { proposalsWithStatus } from '../review/plan'
import { CurationError } from '../review/transactions'
import { badRequest } from './errors'
import type { SettingsStore } from './settings-store'
import { isFolder } from '../store/is-folder'

export type MemoryMethods =
  | 'memory.status'
  | 'memory.setWorkspace'
  | 'memory.read'
  | 'memory.write'
  | 'memory.pendingPreferences'
  | 'memory.capturePreferences'
  | 'memory.acceptPreference'
  | 'memory.rejectPreference'
  | 'memory.consolidate'
  | 'memory.prompt'
  | 'memory.evolve'

export interface MemoryServiceDeps {
  settings: SettingsStore
  requireLibrary(library: string): Promise<LibraryInfo>
  /** The scanned tasks of a data-root user (for preferences stated in task logs). */
  tracesOf(root: string, user: string): Promise<TaskTrace[]>
  llmFor(choice: 'offline' | 'openai' | undefined): Promise<LlmClient | undefined>
}

/**
 * Auto-enhance's memory step, as the options of its reflection run: with long-term memory on, the tasks an automatic
 * run reflects also teach memory — the same evolution as `reflect --evolve-memory` (run-reflection's evolveFromRun),
 * proposed for review in each data-root user's library, into the memory folder the Memory screen shows for it.
 * Undefined while long-term memory is off.
 */
export function autoMemoryEvolution(deps: { settings: SettingsStore; listLibraries(): Promise<LibraryInfo[]> }): (root: string) => MemoryEvolution | undefined {
  return (root) => {
    const settings = deps.settings.settings
    if (!settings.enableLongTermMemory) return undefined
    let libraries: Promise<LibraryInfo[]> | undefined
    return {
      lang: settings.language,
      workspace: async (_library, user) => {
        libraries ??= deps.listLibraries()
        const info = (await libraries).find((l) => l.origin === 'root' && l.root === root && l.user === user)
        return info ? chosenMemoryWorkspace(deps.settings, info).workspace : null
      }
    }
  }
}

/** A library's memory workspace: the one chosen in the settings, else the default (none for an opened folder). */
export function chosenMemoryWorkspace(settings: SettingsStore, info: LibraryInfo): { workspace: string | null; isDefault: boolean } {
  const chosen = settings.memoryWorkspaces[info.path]
  return { workspace: chosen ?? defaultMemoryWorkspace(info), isDefault: !chosen }
}

/** The default memory workspace of a library: `<root>/<user>` for a data-root user, none for an opened folder. Pure. */
export function defaultMemoryWorkspace(info: Pick<LibraryInfo, 'root' | 'user' | 'origin'>): string | null {
  return info.origin === 'root' && info.root && info.user ? path.join(info.root, info.user) : null
}

/**
 * The memory module's errors as the API sends them: its CodedErrors already say their kind (bad_request for a
 * bad file name or id, not_found, malformed) and code, and cross as they are; a conflict becomes one.
 */
async function mapErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    if (err instanceof MemoryConflictError) throw new ApiError('conflict', err.coded)
    throw err
  }
}

/**
 * The preferences waiting for review in a library's plan for one memory workspace (Learn from tasks, reflection):
 * none while the library has no plan, or one that does not read (the Curate screen says why).
 */
export async function planPreferences(libraryPath: string, workspace: string): Promise<ProposedPreference[]> {
  let proposals
  try {
    proposals = (await proposalsWithStatus(await fsp.realpath(libraryPath))).plan.proposals
  } catch (err) {
    if (err instanceof CurationError || (err as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw err
  }
  return proposedPreferences(proposals, await realWorkspace(workspace, false))
}

/** The memory methods of the contract. */
export function memoryHandlers(deps: MemoryServiceDeps): Pick<ApiHandlers, MemoryMethods> {
  async function workspaceOf(library: string): Promise<MemoryWorkspaceInfo & { info: LibraryInfo }> {
    const info = await deps.requireLibrary(library)
    const { workspace, isDefault } = chosenMemoryWorkspace(deps.settings, info)
    const dir = workspace ? path.join(workspace, 'memory') : null
    return { info, library: info.path, workspace, dir, isDefault, exists: dir ? await isFolder(dir) : false }
  }

  async function requireWorkspace(library: string): Promise<string> {
    const ws = await workspaceOf(library)
    if (!ws.workspace) {
      throw badRequest(coded('memory.no_folder'))
    }
    return ws.workspace
  }

  async function status(library: string): Promise<MemoryStatusResult> {
    const { info: _info, ...ws } = await workspaceOf(library)
    const enabled = deps.settings.settings.enableLongTermMemory
    if (!ws.workspace) {
      return { ...ws, enabled, files: [], pendingPreferences: [], proposedPreferences: [], longTermPreferences: [], logDays: [], consolidatedDays: [] }
    }
    const st = await mapErrors(() => memoryStatus(ws.workspace!))
    const proposed = await planPreferences(ws.library, ws.workspace)
    return {
      ...ws,
      enabled,
      files: [
        ...st.files.map((f) => ({ name: f.name, exists: f.exists, bytes: f.bytes, entries: f.entries })),
        ...st.logDays.map((day) => ({ name: `logs/${day}.md`, exists: true, bytes: 0, entries: 0 }))
      ],
      pendingPreferences: st.pendingPreferences,
      proposedPreferences: proposed,
      longTermPreferences: st.longTermPreferences,
      logDays: st.logDays,
      consolidatedDays: st.consolidatedDays
    }
  }

  return {
    'memory.status': async ({ library }) => status(library),

    'memory.setWorkspace': async ({ library, path: p }) => {
      const info = await deps.requireLibrary(library)
      if (p === null) {
        await deps.settings.setMemoryWorkspace(info.path, null)
        return status(info.path)
      }
      if (!path.isAbsolute(p)) throw badRequest(coded('path.not_absolute', { path: p }))
      const real = await fsp.realpath(p).catch(() => null)
      if (!real || !(await isFolder(real))) throw badRequest(coded('path.folder_not_found', { path: p }))
      // pointing at the memory folder itself means its parent
      const workspace = path.basename(real) === 'memory' ? path.dirname(real) : real
      await deps.settings.setMemoryWorkspace(info.path, workspace)
      return status(info.path)
    },

    'memory.read': async ({ library, name }) => {
      const ws = await requireWorkspace(library)
      return mapErrors(() => readMemoryDocument(ws, name))
    },

    'memory.write': async ({ library, name, text, baseHash }) => {
      const ws = await requireWorkspace(library)
      const { hash } = await mapErrors(() => writeMemoryDocument(ws, name, text, baseHash))
      return { name, text, hash }
    },

    'memory.pendingPreferences': async ({ library }) => {
      const ws = await requireWorkspace(library)
      return mapErrors(() => listPendingPreferences(ws))
    },

    'memory.capturePreferences': async ({ library }) => {
      const ws = await workspaceOf(library)
      if (!ws.workspace) throw badRequest(coded('memory.no_folder'))
      if (ws.info.origin !== 'root' || !ws.info.root || !ws.info.user) {
        throw badRequest(coded('memory.not_root_user'))
      }
      const found = preferencesFromTraces(await deps.tracesOf(ws.info.root, ws.info.user))
      // one preference waits in one place: those Learn from tasks proposed for review on Curate are not queued here too
      const proposed = (await planPreferences(ws.library, ws.workspace)).map((p) => p.text)
      const fresh = found.filter((f) => duplicatePreference(f.text, proposed) === undefined)
      const result = await mapErrors(() => capturePreferences(ws.workspace!, fresh))
      return { found: found.length, queued: result.queued.length, pending: result.file.items }
    },

    'memory.acceptPreference': async ({ library, id }) => {
      const ws = await requireWorkspace(library)
      const result = await mapErrors(() => acceptPendingPreference(ws, id))
      return { added: result.added, pending: result.pending.items }
    },

    'memory.rejectPreference': async ({ library, id }) => {
      const ws = await requireWorkspace(library)
      await mapErrors(() => rejectPendingPreference(ws, id))
      return { pending: await listPendingPreferences(ws) }
    },

    'memory.consolidate': async ({ library, llm, includeToday }) => {
      const ws = await requireWorkspace(library)
      const client = await deps.llmFor(llm)
      return mapErrors(() => consolidateDailyLogs(ws, { llm: client, includeToday, lang: deps.settings.settings.language }))
    },

    'memory.evolve': async ({ library, lang }) => {
      const ws = await workspaceOf(library)
      if (!ws.workspace) throw badRequest(coded('memory.no_folder'))
      if (ws.info.origin !== 'root' || !ws.info.root || !ws.info.user) {
        throw badRequest(coded('memory.lessons_not_root_user'))
      }
      const traces = await deps.tracesOf(ws.info.root, ws.info.user)
      const { evolveMemory } = await import('../reflect/memory-evolve')
      const root = await fsp.realpath(ws.info.path)
      // a preference already waiting in the memory folder's queue (Find preferences) is not proposed a second time
      const queued = (await mapErrors(() => listPendingPreferences(ws.workspace!))).map((p) => p.text)
      const r = await mapErrors(() => evolveMemory(root, traces, { workspace: ws.workspace!, lang: lang ?? 'en', queuedPreferences: queued }))
      const count = (target: string): number => r.proposed.filter((p) => (p.evidence.memory as { target?: string } | undefined)?.target === target).length
      return { tasks: traces.length, proposed: r.proposed.length, skipped: r.skipped.length, lessons: count('lessons'), preferences: count('preferences'), procedural: count('procedural') }
    },

    'memory.prompt': async ({ library }) => {
      const ws = await requireWorkspace(library)
      const { sections, text } = await mapErrors(() => memoryPrompt(ws))
      return { sections: sections.map((s) => ({ key: s.key, heading: s.heading, entries: [...s.entries], omitted: s.omitted })), text }
    }
  }
}
