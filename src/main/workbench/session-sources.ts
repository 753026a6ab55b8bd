/**
 * Other agents' sessions on the Workspaces screen (issue 6): Claude Code, Codex CLI and Synapse folders,
 * auto-detected at their default locations (under `SKILLBENCH_HOME` or the home folder) plus folders the
 * user added (kept in the settings file). Same task list and trace view as AGIAgent roots; reflecting them
 * writes into a library the user picks, with create / enhance / none decisions.
 */
import { promises as fsp } from 'node:fs'
import path from 'node:path'
import { ApiError, type ApiHandlers, type JobInfo, type LibraryInfo, type SessionSourceInfo, type SessionSourceKind, type TaskListResult, type TaskSummary } from '../../shared/api'
import { coded } from '../../shared/error-codes'
import type { ScanResult, Settings, Skill } from '../../shared/types'
import type { LlmClient } from '../llm/types'
import { detectSessionDirs, scanSessions } from '../scan/sessions'
import { listingSkill, summariseTasks, type ListingSkill } from './task-plans'
import { pendingEnhanceTasks } from '../reflect/decide-io'
import type { SkillStore } from '../store/types'
import type { CoreModules } from './core-modules'
import { badRequest } from './errors'
import type { JobRegistry } from './jobs'
import { DEFAULT_LOG_WINDOW } from './log-window'
import { readLineWindow, searchFile } from './log-lines'
import type { SettingsStore, StoredSessionSource } from './settings-store'
import { isFolder } from '../store/is-folder'

export type SessionMethods = 'sessions.list' | 'sessions.add' | 'sessions.remove' | 'sessions.tasks' | 'sessions.readLog' | 'sessions.searchLog' | 'sessions.setTarget' | 'sessions.reflect'

export interface SessionServiceDeps {
  settings: SettingsStore
  /** Where default session folders are looked for (`SKILLBENCH_HOME`, `HOME`). */
  env: NodeJS.ProcessEnv
  core: CoreModules
  jobs: JobRegistry
  requireLibrary(library: string): Promise<LibraryInfo>
  listLibraries(): Promise<LibraryInfo[]>
  storeFor(library: string): Promise<SkillStore>
  llmFor(choice: 'offline' | 'openai' | undefined): Promise<LlmClient | undefined>
  /** After a run: note the files written and watch a library the run created. */
  afterReflect(created: { library: string; path: string }[]): Promise<void>
}

/** Detected folders first, then added ones not detected; one row per (source, folder). Pure. */
export function mergeSources(detected: readonly StoredSessionSource[], added: readonly StoredSessionSource[]): Omit<SessionSourceInfo, 'exists'>[] {
  const out: Omit<SessionSourceInfo, 'exists'>[] = []
  const key = (s: StoredSessionSource): string => `${s.source}\u0000${s.dir}`
  const addedKeys = new Set(added.map(key))
  const seen = new Set<string>()
  for (const s of detected) {
    seen.add(key(s))
    out.push({ source: s.source, dir: s.dir, detected: true, added: addedKeys.has(key(s)) })
  }
  for (const s of added) {
    if (!seen.has(key(s))) out.push({ source: s.source, dir: s.dir, detected: false, added: true })
  }
  return out
}

/** The settings key of a session folder's chosen library. */
function targetKey(source: SessionSourceKind, dir: string): string {
  return `${source}:${dir}`
}

/** How long the Overview counts a session folder from its last scan before scanning it again (sessions grow). */
const OVERVIEW_SCAN_REUSE_MS = 30_000

/** The session-source methods of the contract. */
export function sessionHandlers(deps: SessionServiceDeps): Pick<ApiHandlers, SessionMethods> {
  return createSessionService(deps).handlers
}

/** The session-source methods, plus the tasks of the folders that reflect into a library (the Overview counts them). */
export function createSessionService(deps: SessionServiceDeps): {
  handlers: Pick<ApiHandlers, SessionMethods>
  tasksTargeting(library: string): Promise<{ sources: { source: SessionSourceKind; dir: string }[]; tasks: TaskSummary[] }>
} {
  const scans = new Map<string, Promise<ScanResult>>()
  const scannedAt = new Map<string, number>()

  async function list(): Promise<SessionSourceInfo[]> {
    const rows = mergeSources(detectSessionDirs(deps.env), deps.settings.sessionSources)
    const libraries = new Set((await deps.listLibraries()).map((l) => l.path))
    return Promise.all(
      rows.map(async (r) => {
        const target = deps.settings.sessionTargets[targetKey(r.source, r.dir)]
        return { ...r, exists: await isFolder(r.dir), ...(target && libraries.has(target) ? { targetLibrary: target } : {}) }
      })
    )
  }

  /** The source if the workbench listed it, else bad_request (the renderer names sources, never arbitrary folders). */
  async function requireSource(source: SessionSourceKind, dir: string): Promise<SessionSourceInfo> {
    const found = (await list()).find((s) => s.source === source && s.dir === path.resolve(dir))
    if (!found) throw badRequest(coded('session.unknown_folder', { dir }))
    if (!found.exists) throw new ApiError('not_found', coded('session.folder_missing', { dir: found.dir }))
    return found
  }

  /** Scans a source; concurrent callers share one scan, the next call scans again (sessions grow). */
  function scan(source: SessionSourceKind, dir: string, settings: Settings, fresh: boolean | number): Promise<ScanResult> {
    const key = `${source}\u0000${dir}`
    const running = scans.get(key)
    // a number: reuse a scan started less than that many ms ago (the Overview, refreshed often)
    const recent = typeof fresh === 'number' && Date.now() - (scannedAt.get(key) ?? 0) < fresh
    if (running && (fresh === false || recent)) return running
    const next = scanSessions({ source, dir, maxEnhanceContextChars: settings.maxEnhanceContextChars })
    scans.set(key, next)
    scannedAt.set(key, Date.now())
    next.catch(() => scans.delete(key))
    return next
  }

  /** The session file of a task of a listed source; it must still be a file inside the folder. */
  async function sessionFile(source: SessionSourceKind, dir: string, taskPath: string): Promise<string> {
    const found = await requireSource(source, dir)
    const result = await scan(source, found.dir, deps.settings.settings, false)
    const task = result.tasks.find((t) => t.path === taskPath || t.taskDir === taskPath)
    if (!task) throw badRequest(coded('session.not_task', { task: taskPath }))
    const real = await fsp.realpath(task.path).catch(() => null)
    const realDir = await fsp.realpath(found.dir)
    if (!real || !real.startsWith(realDir + path.sep)) throw new ApiError('not_found', coded('session.file_gone', { path: task.path }))
    const st = await fsp.stat(real)
    if (!st.isFile()) throw badRequest(coded('session.not_file', { path: task.path }))
    return real
  }

  /** Skills of every existing library that list a task name, to mark session tasks reflected. */
  async function skillsByTaskName(): Promise<{ byName: Map<string, ListingSkill[]>; pending: Set<string> }> {
    const out = new Map<string, ListingSkill[]>()
    const pending = new Set<string>()
    for (const lib of (await deps.listLibraries()).filter((l) => l.exists)) {
      const store = await deps.storeFor(lib.path).catch(() => undefined)
      // an enhancement of a skill from this task waits for review: a run skips the task as "pending review"
      if (store) for (const dir of await pendingEnhanceTasks(store.root)) pending.add(dir)
      const skills: Skill[] = store ? ((await store.list({ includeLegacy: true }).catch(() => undefined))?.skills ?? []) : []
      for (const s of skills) {
        for (const dir of s.task_directories) {
          const arr = out.get(dir) ?? []
          arr.push(listingSkill(s, lib.path))
          out.set(dir, arr)
        }
      }
    }
    return { byName: out, pending }
  }

  /** A source's tasks with their skills and what a reflect run would do with each. */
  async function listTasks(source: SessionSourceKind, dir: string, fresh: boolean | number): Promise<TaskListResult> {
    const found = await requireSource(source, dir)
    const result = await scan(source, found.dir, deps.settings.settings, fresh)
    const { byName, pending } = await skillsByTaskName()
    const tasks = summariseTasks(result.tasks, (t) => byName.get(t.taskDir) ?? [], (t) => pending.has(t.taskDir))
    return { root: result.root, skipped: result.skipped, tasks }
  }

  /** Every session folder whose target is `library`: their tasks, from a scan of the last half minute when there is one. */
  async function tasksTargeting(library: string): Promise<{ sources: { source: SessionSourceKind; dir: string }[]; tasks: TaskSummary[] }> {
    const tasks: TaskSummary[] = []
    const sources = (await list()).filter((x) => x.exists && x.targetLibrary === library)
    for (const s of sources) tasks.push(...(await listTasks(s.source, s.dir, OVERVIEW_SCAN_REUSE_MS)).tasks)
    return { sources: sources.map((s) => ({ source: s.source, dir: s.dir })), tasks }
  }

  const handlers: Pick<ApiHandlers, SessionMethods> = {
    'sessions.list': async () => list(),

    'sessions.add': async ({ source, path: p }) => {
      if (!path.isAbsolute(p)) throw badRequest(coded('path.not_absolute', { path: p }))
      const real = await fsp.realpath(p).catch(() => null)
      if (!real || !(await isFolder(real))) throw badRequest(coded('path.folder_not_found', { path: p }))
      const current = deps.settings.sessionSources
      if (!current.some((s) => s.source === source && s.dir === real)) {
        await deps.settings.setSessionSources([...current, { source, dir: real }])
      }
      return list()
    },

    'sessions.remove': async ({ source, path: p }) => {
      const dir = path.resolve(p)
      const current = deps.settings.sessionSources
      if (!current.some((s) => s.source === source && s.dir === dir)) {
        throw badRequest(coded('session.not_added', { path: p }))
      }
      await deps.settings.setSessionSources(current.filter((s) => !(s.source === source && s.dir === dir)))
      return list()
    },

    'sessions.tasks': async ({ source, dir }) => listTasks(source, dir, true),

    'sessions.readLog': async ({ source, dir, taskPath, start, at, line, end, maxBytes }) => {
      const real = await sessionFile(source, dir, taskPath)
      const name = path.basename(real)
      return readLineWindow(real, name, [name], { start, at, line, end, maxBytes: maxBytes ?? DEFAULT_LOG_WINDOW })
    },

    'sessions.searchLog': async ({ source, dir, taskPath, query, start }) => {
      const real = await sessionFile(source, dir, taskPath)
      return searchFile(real, path.basename(real), query, start)
    },

    'sessions.setTarget': async ({ source, dir, library }) => {
      const found = (await list()).find((s) => s.source === source && s.dir === path.resolve(dir))
      if (!found) throw badRequest(coded('session.unknown_folder', { dir }))
      const target = library === null ? null : (await deps.requireLibrary(library)).path
      await deps.settings.setSessionTarget(targetKey(found.source, found.dir), target)
      return list()
    },

    'sessions.reflect': async ({ source, dir, library, tasks, force, llm }): Promise<JobInfo> => {
      const found = await requireSource(source, dir)
      const info = await deps.requireLibrary(library)
      const settings = deps.settings.settings
      const scanned = await scan(source, found.dir, settings, true)
      let traces = scanned.tasks
      if (tasks?.length) {
        const wanted = new Set(tasks)
        const unknown = tasks.filter((t) => !traces.some((x) => x.taskDir === t || x.path === t))
        if (unknown.length) throw badRequest(coded('session.not_task', { task: unknown[0]! }))
        traces = traces.filter((t) => wanted.has(t.taskDir) || wanted.has(t.path))
      }
      const client = await deps.llmFor(llm)
      return deps.jobs.start('reflect', async (ctx) => {
        const summary = await deps.core.reflect(
          { root: info.path, library: info.path, traces, decide: true, force: force ?? false, settings, llm: client },
          ctx
        )
        await deps.afterReflect(summary.created)
        return summary
      })
    }
  }
  return { handlers, tasksTargeting }
}
