/**
 * The composition root: implements every method of the API contract once, on top of the core modules.
 *
 * Hosts (Electron IPC in `app/`, the web server in `server/`, tests) create one workbench and call
 * `dispatch()` (which validates the input with the contract's schema) or the typed `handlers` directly.
 * Every `root` / `library` / `taskPath` argument must be one the workbench listed: the renderer sends ids,
 * never arbitrary paths to open (only `roots.add` and `libraries.open` take a folder the user chose).
 */
import { randomBytes } from 'node:crypto'
import { promises as fsp } from 'node:fs'
import path from 'node:path'
import {
  API_INPUT_SCHEMAS,
  ApiError,
  type ApiEvent,
  type ApiHandlers,
  type ApiMethod,
  type ApiOutput,
  type JobInfo,
  type OverviewResult,
  type PublicSettings,
  type SkillDocument,
  type SkillFileText,
  type TaskSummary
} from '../shared/api'
import type { ScanResult, Skill } from '../shared/types'
import { maskKey } from './llm/redact'
import type { LlmClient, LlmConfig } from './llm/types'
import { StoreError, type SkillStore } from './store/types'
import { hashBytes } from './store/load'
import { applyUsageDrift, formatOfPath, usageDrift } from './store/usage-drift'
import { createCoreModules, type CoreModules } from './workbench/core-modules'
import { badRequest, toApiErrorShape } from './workbench/errors'
import { JobRegistry } from './workbench/jobs'
import { LibraryRegistry, userLibraryPath } from './workbench/libraries'
import { readLogWindow, resolveInsideRoot, taskLogFile } from './workbench/log-window'
import { searchFile } from './workbench/log-lines'
import { buildOverview, readRecentActivity } from './workbench/overview'
import type { SecretStore } from './workbench/secrets'
import { SelfWrites } from './workbench/self-writes'
import { SettingsStore } from './workbench/settings-store'
import { createWatchers, type WatcherSet } from './workbench/watcher'
import { AutoEnhancer } from './workbench/auto-enhance'
import { readCodeFile } from './workbench/code-files'
import { memoryHandlers } from './workbench/memory-service'
import { sessionHandlers } from './workbench/session-sources'
import { deployHandlers } from './workbench/deploy-service'
import { createUsageService } from './workbench/usage-service'
import { protectionReason } from './curate/protect'
import { parseSkillText } from './store/skill-file'
import { testLlmConnection } from './workbench/llm-test'
import { BASE_URL_PROBLEM_TEXT, baseUrlProblem } from '../shared/base-url'

/**
 * `edited` with the uses counted into the file since `baseText` was read, when nothing else changed there; null
 * when the file changed otherwise (a real conflict).
 */
async function withUsesSince(store: SkillStore, rel: string, baseText: string, baseHash: string, edited: string): Promise<{ text: string; hash: string } | null> {
  if (hashBytes(baseText) !== baseHash) return null
  const current = await store.readRaw(rel)
  const format = formatOfPath(rel)
  const drift = usageDrift(baseText, current.text, format)
  const text = drift ? applyUsageDrift(edited, drift, format) : null
  return text === null ? null : { text, hash: current.hash }
}

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

export interface Workbench {
  handlers: ApiHandlers
  /** Parses `input` with the method's schema, runs it, and returns the output or a `{code, message}` error. */
  dispatch(method: string, input: unknown): Promise<{ ok: true; value: unknown } | { ok: false; error: { code: string; message: string } }>
  /** For tests and hosts: waits for a job to end. */
  waitForJob(jobId: string): Promise<void>
  /** For tests: waits until no auto-enhance run is going; returns the jobs auto-enhance started so far. */
  autoEnhanceIdle(): Promise<JobInfo[]>
  /** Stops watchers and cancels running jobs. */
  dispose(): Promise<void>
}

/** Libraries read in the background at start. */
const PREWARM_LIBRARIES = 4
/** The prewarm waits for this long without an API call (the first screen's calls go first). */
const PREWARM_IDLE_MS = 500

/** Creates the workbench: loads settings, adds initial roots, starts watching. */
export async function createWorkbench(deps: WorkbenchDeps): Promise<Workbench> {
  const settingsStore = new SettingsStore(deps.settingsDir)
  await settingsStore.load()
  const core = deps.core ?? (await createCoreModules())
  const registry = new LibraryRegistry(settingsStore)
  for (const root of deps.initialRoots ?? []) {
    await registry.addSessionRoot(root)
  }
  const runId = randomBytes(8).toString('hex')
  const selfWrites = new SelfWrites()
  const secretsToRedact = async (): Promise<string[]> => {
    const key = await deps.secrets.get(API_KEY_SECRET)
    return key ? [key] : []
  }
  let knownSecrets: string[] = await secretsToRedact()
  const jobs = new JobRegistry(deps.emit, (err) => toApiErrorShape(err, knownSecrets).message)
  const stores = new Map<string, Promise<SkillStore>>()
  const scans = new Map<string, { result: ScanResult; cache: unknown }>()
  // the openai SDK takes most of a second to load: only when a model is actually used
  const createLlm = deps.createLlm ?? (async (config: LlmConfig) => (await import('./llm/openai-client')).createOpenAiClient(config))

  const autoEnhancer = new AutoEnhancer({
    settingsDir: deps.settingsDir,
    settings: () => settingsStore.settings,
    core,
    jobs,
    llm: () => llmFor(undefined),
    scanRoot: (root) => scan(root),
    afterReflect: async (summary) => {
      await selfWrites.note(summary.created.map((c) => path.resolve(c.library, c.path)))
      await refreshWatchers()
    }
  })
  await autoEnhancer.load()
  // a data root changed on disk (a task appeared or finished): rescan it for auto-enhance, debounced
  const rootRescans = new Map<string, NodeJS.Timeout>()
  const onWatcherEvent = (event: ApiEvent): void => {
    deps.emit(event)
    if (event.type !== 'files.changed' || !event.root || !settingsStore.settings.autoEnhance) return
    const root = event.root
    clearTimeout(rootRescans.get(root))
    rootRescans.set(
      root,
      setTimeout(() => {
        rootRescans.delete(root)
        if (registry.roots().includes(root)) void scan(root).catch(() => undefined)
      }, 1_500)
    )
  }

  let watchers: WatcherSet | undefined
  const refreshWatchers = async (): Promise<void> => {
    if (deps.watch === false) {
      return
    }
    const libraries = (await registry.listLibraries()).filter((l) => l.exists).map((l) => l.path)
    watchers ??= createWatchers({ emit: onWatcherEvent, selfWrites })
    watchers.update({ libraries, roots: registry.roots() })
  }
  await refreshWatchers()

  async function storeFor(library: string): Promise<SkillStore> {
    const info = await registry.requireLibrary(library)
    if (!info.exists) {
      throw new ApiError('not_found', `the library folder does not exist yet: ${info.path}`)
    }
    let store = stores.get(info.path)
    if (!store) {
      store = core.openLibrary(info.path)
      stores.set(info.path, store)
      store.catch(() => stores.delete(info.path))
    }
    return store
  }

  async function publicSettings(): Promise<PublicSettings> {
    const s = settingsStore.settings
    const key = await deps.secrets.get(API_KEY_SECRET)
    const { apiKey: _never, ...llm } = s.llm
    return {
      ...structuredClone(s),
      llm: {
        ...llm,
        hasApiKey: Boolean(key),
        apiKeyHint: maskKey(key),
        keyStorage: deps.secrets.kind,
        ...(deps.secrets.warning ? { keyWarning: deps.secrets.warning } : {})
      }
    }
  }

  async function llmFor(choice: 'offline' | 'openai' | undefined): Promise<LlmClient | undefined> {
    const provider = choice ?? settingsStore.settings.llm.provider
    if (provider === 'offline') {
      return undefined
    }
    const s = settingsStore.settings.llm
    const apiKey = await deps.secrets.get(API_KEY_SECRET)
    return createLlm({ baseUrl: s.baseUrl, model: s.model, apiKey, temperature: s.temperature, timeoutMs: s.timeoutMs })
  }

  async function scan(root: string): Promise<ScanResult> {
    const previous = scans.get(root)
    const next = await core.scanRoot(root, previous?.cache)
    scans.set(root, next)
    autoEnhancer.onScan(root, next.result)
    return next.result
  }

  const usage = createUsageService({
    settings: settingsStore,
    env: deps.env ?? process.env,
    requireLibrary: (library) => registry.requireLibrary(library),
    storeFor,
    roots: () => registry.roots(),
    scanRoot: (root) => scan(root)
  })

  async function documentOf(store: SkillStore, skill: Skill): Promise<SkillDocument> {
    const { text } = await store.readRaw(skill.path)
    const relatedFiles = skill.related_code
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)
    return { skill, text, relatedFiles }
  }

  async function noteLibraryWrites(store: SkillStore, relPaths: readonly string[]): Promise<void> {
    await selfWrites.note(relPaths.map((p) => path.join(store.root, p)))
  }

  const handlers: ApiHandlers = {
    ...memoryHandlers({
      settings: settingsStore,
      requireLibrary: (library) => registry.requireLibrary(library),
      tracesOf: async (root, user) => (await scan(registry.requireRoot(root))).tasks.filter((t) => t.user === user),
      llmFor,
      noteWrites: (paths) => selfWrites.note(paths)
    }),
    ...sessionHandlers({
      settings: settingsStore,
      env: deps.env ?? process.env,
      core,
      jobs,
      requireLibrary: (library) => registry.requireLibrary(library),
      listLibraries: () => registry.listLibraries(),
      storeFor,
      llmFor,
      afterReflect: async (created) => {
        await selfWrites.note(created.map((c) => path.resolve(c.library, c.path)))
        await refreshWatchers()
      }
    }),

    ...deployHandlers({ requireLibrary: (library) => registry.requireLibrary(library), env: deps.env ?? process.env, noteWrites: (paths) => selfWrites.note(paths) }),
    ...usage.handlers,

    'skills.readCode': async ({ library, path: rel }) => {
      const info = await registry.requireLibrary(library)
      return readCodeFile(info.path, rel)
    },

    'app.info': async () => {
      const startRoot = registry.startRoot()
      return {
        version: deps.version ?? '0.1.0',
        transport: deps.transport,
        platform: process.platform,
        settingsPath: settingsStore.file,
        runId,
        ...(startRoot ? { startRoot } : {})
      }
    },

    'settings.get': async () => publicSettings(),

    'settings.update': async ({ patch }) => {
      // an empty URL is fine while the model is not used; anything typed must be a real http(s) URL
      const provider = patch.llm?.provider ?? settingsStore.settings.llm.provider
      const urlProblem = patch.llm?.baseUrl !== undefined ? baseUrlProblem(patch.llm.baseUrl) : null
      if (urlProblem && (urlProblem !== 'empty' || provider === 'openai')) {
        throw badRequest(`not saved: ${BASE_URL_PROBLEM_TEXT[urlProblem]}`)
      }
      if (patch.dataRoots) {
        const roots: string[] = []
        for (const root of patch.dataRoots) {
          roots.push(await registry.addRoot(root))
        }
        patch = { ...patch, dataRoots: [...new Set(roots)] }
      }
      await settingsStore.update(patch)
      await autoEnhancer.settingsChanged()
      await refreshWatchers()
      deps.emit({ type: 'settings.changed' })
      return publicSettings()
    },

    'settings.setApiKey': async ({ apiKey }) => {
      const value = apiKey?.trim() || null
      await deps.secrets.set(API_KEY_SECRET, value)
      knownSecrets = await secretsToRedact()
      deps.emit({ type: 'settings.changed' })
      return publicSettings()
    },

    'llm.test': async (input) => {
      const s = settingsStore.settings.llm
      return testLlmConnection(
        { baseUrl: input.baseUrl ?? s.baseUrl, model: input.model ?? s.model, timeoutMs: input.timeoutMs ?? s.timeoutMs, apiKey: await deps.secrets.get(API_KEY_SECRET) },
        createLlm,
        (err) => toApiErrorShape(err, knownSecrets).message
      )
    },

    'roots.list': async () => registry.listRoots(),

    'roots.add': async ({ path: p }) => {
      await registry.addRoot(p)
      await refreshWatchers()
      deps.emit({ type: 'settings.changed' })
      return registry.listRoots()
    },

    'roots.remove': async ({ path: p }) => {
      await registry.removeRoot(p)
      scans.delete(path.resolve(p))
      await refreshWatchers()
      deps.emit({ type: 'settings.changed' })
      return registry.listRoots()
    },

    'tasks.list': async ({ root }) => {
      const known = registry.requireRoot(root)
      const result = await scan(known)
      const reflectedBy = await skillsByTask(known, result)
      const tasks: TaskSummary[] = result.tasks.map((t) => {
        const skills = reflectedBy.get(`${t.user}\u0000${t.taskDir}`) ?? []
        return { ...t, reflected: skills.length > 0, skills }
      })
      return { root: result.root, skipped: result.skipped, tasks }
    },

    'tasks.readLog': async ({ root, taskPath, file, start, at, line, end, maxBytes }) => {
      const { known, taskDir } = await requireTaskDir(root, taskPath)
      return readLogWindow(known, taskDir, { file, start, at, line, end, maxBytes })
    },

    'tasks.searchLog': async ({ root, taskPath, file, query, start }) => {
      const { known, taskDir } = await requireTaskDir(root, taskPath)
      const log = await taskLogFile(known, taskDir, file)
      return searchFile(log.abs, log.file, query, start)
    },

    'libraries.list': async () => registry.listLibraries(),

    'libraries.open': async ({ path: p }) => {
      await registry.openFolder(p)
      await refreshWatchers()
      return registry.listLibraries()
    },

    'skills.list': async ({ library, includeLegacy }) => {
      const info = await registry.requireLibrary(library)
      if (!info.exists) {
        return { skills: [], errors: [] }
      }
      // From the library's search index (warm from the cache folder): the rows without opening the store, which
      // reads every file.
      return core.listSkills(await fsp.realpath(info.path), includeLegacy ?? false)
    },

    'skills.get': async ({ library, skillId, includeLegacy }) => {
      const store = await storeFor(library)
      const skill = await store.get(skillId, { includeLegacy: includeLegacy ?? true })
      return documentOf(store, skill)
    },

    'skills.query': async ({ library, text, top }) => {
      const store = await storeFor(library)
      return core.query(store, text, top ?? 20)
    },

    'skills.save': async ({ library, skillId, text, baseHash, baseText }) => {
      const store = await storeFor(library)
      const skill = await store.get(skillId, { includeLegacy: true })
      const problem = core.checkSkillText(text, skill)
      if (problem) {
        throw badRequest(`not saved: ${problem}`)
      }
      try {
        await store.writeRaw(skill.path, text, baseHash)
      } catch (err) {
        // Only uses were counted into the file since the editor loaded it (a fold): keep them, save the edit.
        const merged = err instanceof StoreError && err.code === 'conflict' && baseText !== undefined ? await withUsesSince(store, skill.path, baseText, baseHash, text) : null
        if (!merged) throw err
        await store.writeRaw(skill.path, merged.text, merged.hash)
      }
      await noteLibraryWrites(store, [skill.path])
      return documentOf(store, await store.get(skillId, { includeLegacy: true }))
    },

    'skills.rate': async ({ library, skillId, rating }) => {
      const store = await storeFor(library)
      const skill = await store.get(skillId)
      const result = await core.rate(store, skillId, rating)
      await noteLibraryWrites(store, [skill.path])
      return result
    },

    'skills.readFile': async ({ library, path: rel }) => {
      const store = await storeFor(library)
      requireSkillFilePath(rel)
      const { text, hash } = await store.readRaw(rel)
      return skillFileText(store, rel, text, hash)
    },

    'skills.saveFile': async ({ library, path: rel, text, baseHash }) => {
      const store = await storeFor(library)
      requireSkillFilePath(rel)
      const parsed = parseSkillText(text)
      if (!parsed.ok) {
        throw badRequest(`not saved: ${parsed.reason}`)
      }
      const { hash } = await store.writeRaw(rel, text, baseHash)
      await noteLibraryWrites(store, [rel])
      return skillFileText(store, rel, text, hash)
    },

    'skills.delete': async ({ library, skillId }) => {
      const store = await storeFor(library)
      const moved = await store.moveToLegacy(skillId)
      await noteLibraryWrites(store, [moved.from, moved.to])
      return moved
    },

    'skills.restore': async ({ library, skillId }) => {
      const store = await storeFor(library)
      const before = await store.get(skillId, { includeLegacy: true })
      const skill = await core.restore(store, skillId)
      await noteLibraryWrites(store, [before.path, skill.path])
      return documentOf(store, skill)
    },

    'reflect.start': async ({ root, user, tasks, force, llm }) => {
      const known = registry.requireRoot(root)
      const info = await registry.rootInfo(known)
      if (user !== undefined && user !== '' && !info.users.includes(user)) {
        throw badRequest(`unknown user "${user}" in ${known}`)
      }
      let taskPaths: string[] | undefined
      if (tasks?.length) {
        const scanned = scans.get(known)?.result ?? (await scan(known))
        const byKey = new Map<string, string>()
        for (const t of scanned.tasks) {
          byKey.set(t.path, t.path)
          byKey.set(t.taskDir, t.path)
        }
        taskPaths = tasks.map((t) => {
          const found = byKey.get(t) ?? byKey.get(path.resolve(t))
          if (!found) {
            throw badRequest(`not a task of this data root: ${t}`)
          }
          return found
        })
      }
      const client = await llmFor(llm)
      const settings = settingsStore.settings
      return jobs.start('reflect', async (ctx) => {
        const summary = await core.reflect({ root: known, user: user || undefined, tasks: taskPaths, force: force ?? false, settings, llm: client }, ctx)
        await selfWrites.note(summary.created.map((c) => path.resolve(c.library, c.path)))
        // a user's first skill creates their library folder: watch it too
        await refreshWatchers()
        return summary
      })
    },

    'curate.start': async ({ library, llm }) => {
      const info = await registry.requireLibrary(library)
      const store = await storeFor(library)
      const client = await llmFor(llm)
      const settings = settingsStore.settings
      return jobs.start('curate', async (ctx) => {
        // real usage first: cleanup must not retire what an agent used, and failing skills get a review
        ctx.progress({ fraction: 0, stage: 'usage', message: "Reading the agents' logs for real usage..." })
        const report = await usage.reportFor(info.path, ctx.signal, (message) => ctx.progress({ fraction: 0, stage: 'usage', message })).catch((err: unknown) => {
          if (ctx.signal.aborted) throw err
          ctx.progress({ fraction: 0, stage: 'log', message: `usage not read (${(err as Error).message}): cleanup goes by fetch_count alone` })
          return undefined
        })
        const plan = await core.curatePlan(store, settings, client, ctx, report)
        await selfWrites.note([path.join(store.root, '.skillbench', 'plan.json')])
        return { library: info.path, plan }
      })
    },

    'curate.plan': async ({ library }) => {
      const store = await storeFor(library)
      const { plan, computedAt } = await core.readPlan(store)
      return { ...plan, library: (await registry.requireLibrary(library)).path, computedAt }
    },

    'curate.accept': async ({ library, proposalId, edited }) => {
      const store = await storeFor(library)
      const entry = await core.accept(store, proposalId, edited)
      await noteLibraryWrites(store, entry.changes.map((c) => c.path))
      return entry
    },

    'curate.reject': async ({ library, proposalId }) => {
      const store = await storeFor(library)
      return core.reject(store, proposalId)
    },

    'curate.journal': async ({ library }) => {
      const store = await storeFor(library)
      return core.journal(store)
    },

    'curate.undo': async ({ library, entryId }) => {
      const store = await storeFor(library)
      const entry = await core.undo(store, entryId)
      await noteLibraryWrites(store, entry.changes.map((c) => c.path))
      return entry
    },

    'jobs.list': async () => jobs.list(),

    'jobs.cancel': async ({ jobId }) => {
      const info = jobs.cancel(jobId)
      if (!info) {
        throw new ApiError('not_found', `no such job: ${jobId}`)
      }
      return info
    },

    'overview.get': async ({ library }) => {
      const info = await registry.requireLibrary(library)
      let taskCount = 0
      let reflectedTasks = 0
      const list = info.exists ? await (await storeFor(library)).list({ includeLegacy: true }) : { skills: [], errors: [] }
      if (info.root && info.user !== undefined) {
        // a user with tasks but no library folder yet still has tasks to count
        const scanned = await scan(info.root).catch(() => undefined)
        if (scanned) {
          const reflected = new Set(list.skills.flatMap((s) => s.task_directories))
          const mine = scanned.tasks.filter((t) => t.user === info.user)
          taskCount = mine.length
          reflectedTasks = mine.filter((t) => reflected.has(t.taskDir)).length
        }
      }
      if (!info.exists) {
        return { ...emptyOverview(), tasks: taskCount }
      }
      const store = await storeFor(library)
      const plan = await core.readPlan(store).catch(() => undefined)
      const journal = await core.journal(store).catch(() => [])
      const recent = await readRecentActivity(store.root, journal, list.skills)
      const active = list.skills.filter((s) => !s.legacy)
      const protectedIds = new Map<string, 'pinned' | 'edited'>()
      for (const s of active) {
        const why = protectionReason(s, true)
        if (why) protectedIds.set(s.skill_id, s.pinned === true ? 'pinned' : 'edited')
      }
      return buildOverview({
        skills: list.skills,
        errors: list.errors,
        tasks: taskCount,
        reflectedTasks,
        pendingProposals: plan ? plan.plan.proposals.filter((p) => !p.status || p.status === 'pending').length : 0,
        planComputed: Boolean(plan?.computedAt),
        recent,
        protectedIds,
        graph: await core.similarityGraph(active, settingsStore.settings.thresholds)
      })
    }
  }

  /** A skill file's text with what the store says about it: its load error (placed on a line) or its skill id. */
  async function skillFileText(store: SkillStore, rel: string, text: string, hash: string): Promise<SkillFileText> {
    const list = await store.list({ includeLegacy: true })
    const error = list.errors.find((e) => e.path === rel)
    const skill = list.skills.find((s) => s.path === rel)
    if (!error && skill) {
      return { path: rel, text, hash, problem: null, skillId: skill.skill_id }
    }
    const parsed = parseSkillText(text)
    const reason = error?.reason ?? (parsed.ok ? 'the file does not load as a skill' : parsed.reason)
    // loaded here: it brings the full YAML parser (~60–115 ms), which the first screens do not need
    const at = parsed.ok ? null : (await import('../shared/problem-position')).locateSkillProblem(text)
    return { path: rel, text, hash, problem: { reason, ...(at ? { line: at.line, column: at.column } : {}) } }
  }

  /** A task folder of a known root (scanned, or found but skipped), as its real path. */
  async function requireTaskDir(root: string, taskPath: string): Promise<{ known: string; taskDir: string }> {
    const known = registry.requireRoot(root)
    const taskDir = await resolveInsideRoot(known, taskPath)
    const scanned = scans.get(known)?.result ?? (await scan(known))
    const realTasks = await Promise.all(scanned.tasks.map((t) => fsp.realpath(t.path).catch(() => t.path)))
    const skipped = await Promise.all(scanned.skipped.map((t) => fsp.realpath(t.path).catch(() => t.path)))
    if (!realTasks.includes(taskDir) && !skipped.includes(taskDir)) {
      throw badRequest(`not a task of this data root: ${taskPath}`)
    }
    return { known, taskDir }
  }

  /** Which skills (of the root's user libraries) list each task folder: key `user\0taskDir`. */
  async function skillsByTask(root: string, result: ScanResult): Promise<Map<string, TaskSummary['skills']>> {
    const out = new Map<string, TaskSummary['skills']>()
    const users = [...new Set(result.tasks.map((t) => t.user))]
    for (const user of users) {
      const libPath = userLibraryPath(root, user || 'default')
      const lib = await registry.libraryOfUser(root, user || 'default')
      if (!lib?.exists) {
        continue
      }
      const store = await storeFor(libPath).catch(() => undefined)
      const list = store ? await store.list({ includeLegacy: true }).catch(() => undefined) : undefined
      for (const skill of list?.skills ?? []) {
        for (const dir of skill.task_directories) {
          const key = `${user}\u0000${dir}`
          const arr = out.get(key) ?? []
          arr.push({ skill_id: skill.skill_id, title: skill.title, library: libPath, legacy: skill.legacy })
          out.set(key, arr)
        }
      }
    }
    return out
  }

  let callsInFlight = 0
  let lastCallEndedAt = performance.now()
  async function dispatch(method: string, input: unknown): ReturnType<Workbench['dispatch']> {
    callsInFlight++
    try {
      return await dispatchCall(method, input)
    } finally {
      callsInFlight--
      lastCallEndedAt = performance.now()
    }
  }

  async function dispatchCall(method: string, input: unknown): ReturnType<Workbench['dispatch']> {
    if (!Object.hasOwn(API_INPUT_SCHEMAS, method)) {
      return { ok: false, error: { code: 'not_found', message: `unknown method: ${method}` } }
    }
    const m = method as ApiMethod
    const parsed = API_INPUT_SCHEMAS[m].safeParse(input ?? {})
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const where = issue?.path.length ? ` at "${issue.path.join('.')}"` : ''
      return { ok: false, error: { code: 'bad_request', message: `invalid input for ${m}${where}: ${issue?.message ?? 'bad input'}` } }
    }
    try {
      const handler = handlers[m] as (input: unknown) => Promise<ApiOutput<typeof m>>
      const value = await handler(parsed.data)
      return { ok: true, value }
    } catch (err) {
      return { ok: false, error: toApiErrorShape(err, knownSecrets) }
    }
  }

  // Warm the store caches (and the overview graph of the first library) while the window / browser starts:
  // the first list then costs a re-stat instead of reading and parsing every file. The first screen's own calls
  // go first: each step waits until no call is running and none came for PREWARM_IDLE_MS (a browser opened on
  // `skillbench serve` asks for its first data at once, and a thousand file reads queued in front of those calls
  // would delay the first rows).
  let disposed = false
  let wakePrewarm = (): void => undefined
  const idle = async (): Promise<void> => {
    for (;;) {
      const wait = lastCallEndedAt + PREWARM_IDLE_MS - performance.now()
      if (disposed || (callsInFlight === 0 && wait <= 0)) return
      await new Promise<void>((resolve) => {
        wakePrewarm = resolve
        setTimeout(resolve, Math.max(wait, 20)).unref()
      })
    }
  }
  const prewarm = (async (): Promise<void> => {
    if (deps.prewarm === false) {
      return
    }
    await idle()
    const libs = (await registry.listLibraries()).filter((l) => l.exists).slice(0, PREWARM_LIBRARIES)
    for (const [i, lib] of libs.entries()) {
      await idle()
      if (disposed) {
        return
      }
      const store = await storeFor(lib.path)
      const list = await store.list({ includeLegacy: true })
      await idle()
      if (i === 0 && !disposed) {
        await core.similarityGraph(
          list.skills.filter((s) => !s.legacy),
          settingsStore.settings.thresholds
        )
      }
    }
  })().catch(() => undefined)

  return {
    handlers,
    dispatch,
    async waitForJob(jobId) {
      await jobs.wait(jobId)
    },
    async autoEnhanceIdle() {
      await autoEnhancer.idle()
      return [...autoEnhancer.startedJobs]
    },
    async dispose() {
      disposed = true
      wakePrewarm()
      for (const timer of rootRescans.values()) clearTimeout(timer)
      await autoEnhancer.dispose()
      await prewarm
      watchers?.dispose()
      await jobs.dispose()
    }
  }
}

/** Only skill files (`skill_*.md`, `SKILL.md`) can be read or fixed as text through the API. */
function requireSkillFilePath(rel: string): void {
  const name = path.posix.basename(rel.replace(/\\/g, '/'))
  if (!(/^skill_.*\.md$/.test(name) || name === 'SKILL.md')) {
    throw badRequest(`not a skill file: ${rel}`)
  }
}

function emptyOverview(): OverviewResult {
  return {
    skills: 0,
    legacy: 0,
    errors: 0,
    errorFiles: [],
    planComputed: false,
    tasks: 0,
    reflectedTasks: 0,
    pendingProposals: 0,
    qualityHistogram: new Array<number>(10).fill(0),
    recent: [],
    graph: { nodes: [], edges: [] }
  }
}
