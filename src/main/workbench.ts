/**
 * The composition root: implements every method of the API contract once, on top of the core modules.
 *
 * Hosts (Electron IPC in `app/`, the web server in `web-server/`, tests) create one workbench and call
 * `dispatch()` (which validates the input with the contract's schema) or the typed `handlers` directly.
 * Every `root` / `library` / `taskPath` argument must be one the workbench listed: the renderer sends ids,
 * never arbitrary paths to open (only `roots.add` and `libraries.open` take a folder the user chose).
 *
 * Each domain's methods live in a module of their own (`workbench/handlers/*.ts`, `memory-service.ts`, …) that
 * takes the shared `WorkbenchContext`; this file builds the context, joins the handlers and dispatches.
 */
import { randomBytes } from 'node:crypto'
import { API_INPUT_SCHEMAS, ApiError, type ApiErrorShape, type ApiEvent, type ApiHandlers, type ApiMethod, type ApiOutput, type JobInfo } from '../shared/api'
import { coded, refOf } from '../shared/error-codes'
import type { ScanResult } from '../shared/types'
import type { LlmClient, LlmConfig } from './llm/types'
import type { SkillStore } from './store/types'
import { createCoreModules } from './workbench/core-modules'
import { API_KEY_SECRET, type WorkbenchContext, type WorkbenchDeps } from './workbench/context'
import { toApiErrorShape } from './workbench/errors'
import { JobRegistry } from './workbench/jobs'
import { LibraryRegistry } from './workbench/libraries'
import { resourcesDir } from './reflect/resources'
import { OwnWrites } from './workbench/own-writes'
import { onOwnWrites } from './store/announce-writes'
import { SettingsStore } from './workbench/settings-store'
import { createWatchers, type WatcherSet } from './workbench/watcher'
import { AutoEnhancer } from './workbench/auto-enhance'
import { autoMemoryEvolution, memoryHandlers } from './workbench/memory-service'
import { createSessionService } from './workbench/session-sources'
import { deployHandlers } from './workbench/deploy-service'
import { createUsageService } from './workbench/usage-service'
import { curateHandlers } from './workbench/handlers/curate'
import { jobHandlers } from './workbench/handlers/jobs'
import { overviewHandlers } from './workbench/handlers/overview'
import { auditHandlers } from './workbench/handlers/audit'
import { syncHandlers } from './workbench/handlers/sync'
import { placeHandlers } from './workbench/handlers/places'
import { reflectHandlers } from './workbench/handlers/reflect'
import { settingsHandlers } from './workbench/handlers/settings'
import { skillHandlers } from './workbench/handlers/skills'
import { taskHandlers } from './workbench/handlers/tasks'

export { API_KEY_SECRET, type WorkbenchDeps }

export interface Workbench {
  handlers: ApiHandlers
  /** Parses `input` with the method's schema, runs it, and returns the output or a `{code, message}` error. */
  dispatch(method: string, input: unknown): Promise<{ ok: true; value: unknown } | { ok: false; error: ApiErrorShape }>
  /** For tests and hosts: waits for a job to end. */
  waitForJob(jobId: string): Promise<void>
  /** For tests: waits until no auto-enhance run is going; returns the jobs auto-enhance started so far. */
  autoEnhanceIdle(): Promise<JobInfo[]>
  /** For tests: how often the prewarm, its idle wait over, found a call still running and held back for it. */
  prewarmHeldBack(): number
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
  const registry = new LibraryRegistry(settingsStore, { resourcesDir: resourcesDir(deps.env ?? process.env) })
  for (const root of deps.initialRoots ?? []) {
    await registry.addSessionRoot(root)
  }
  const runId = randomBytes(8).toString('hex')
  const secretsToRedact = async (): Promise<string[]> => {
    const key = await deps.secrets.get(API_KEY_SECRET)
    return key ? [key] : []
  }
  let knownSecrets: string[] = await secretsToRedact()
  const jobs = new JobRegistry(deps.emit, (err) => toApiErrorShape(err, knownSecrets))
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
    afterReflect: async () => {
      await refreshWatchers()
    },
    evolveMemory: autoMemoryEvolution({ settings: settingsStore, listLibraries: () => registry.listLibraries() })
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
  let stopOwnWrites: (() => void) | undefined
  const refreshWatchers = async (): Promise<void> => {
    if (deps.watch === false) {
      return
    }
    const libraries = (await registry.listLibraries()).filter((l) => l.exists).map((l) => l.path)
    if (!watchers) {
      // the store announces every file this process writes: the watcher leaves out the ones still as we left them
      const ownWrites = new OwnWrites()
      stopOwnWrites = onOwnWrites((abs, stamp) => ownWrites.record(abs, stamp, Date.now()))
      watchers = createWatchers({ emit: onWatcherEvent, ownWrites })
    }
    void watchers.update({ libraries, roots: registry.roots() })
  }
  await refreshWatchers()

  async function storeFor(library: string): Promise<SkillStore> {
    const info = await registry.requireLibrary(library)
    if (!info.exists) {
      throw new ApiError('not_found', coded('library.missing', { path: info.path }))
    }
    let store = stores.get(info.path)
    if (!store) {
      store = core.openLibrary(info.path)
      stores.set(info.path, store)
      store.catch(() => stores.delete(info.path))
    }
    return store
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
    // auto-enhance reflects into the root's libraries: never the bundled sample data's (a root an older version remembered)
    if (!registry.isBundledSample(root)) autoEnhancer.onScan(root, next.result)
    return next.result
  }

  const usage = createUsageService({
    settings: settingsStore,
    env: deps.env ?? process.env,
    requireLibrary: (library) => registry.requireLibrary(library),
    report: (dir, request) => core.usage(dir, request),
    roots: () => registry.roots(),
    scanRoot: (root) => scan(root)
  })

  const ctx: WorkbenchContext = {
    deps,
    settingsStore,
    core,
    registry,
    jobs,
    autoEnhancer,
    usage,
    runId,
    createLlm,
    storeFor,
    scan,
    lastScan: (root) => scans.get(root)?.result,
    forgetScan: (root) => void scans.delete(root),
    llmFor,
    refreshWatchers,
    errorMessage: (err) => toApiErrorShape(err, knownSecrets).message,
    secretsChanged: async () => {
      knownSecrets = await secretsToRedact()
    }
  }

  const sessions = createSessionService({
    settings: settingsStore,
    env: deps.env ?? process.env,
    core,
    jobs,
    requireLibrary: (library) => registry.requireLibrary(library),
    listLibraries: () => registry.listLibraries(),
    storeFor,
    llmFor,
    afterReflect: async () => {
      await refreshWatchers()
    }
  })

  const handlers: ApiHandlers = {
    ...memoryHandlers({
      settings: settingsStore,
      requireLibrary: (library) => registry.requireLibrary(library),
      tracesOf: async (root, user) => (await scan(registry.requireRoot(root))).tasks.filter((t) => t.user === user),
      llmFor
    }),
    ...sessions.handlers,
    ...deployHandlers({
      requireLibrary: (library) => registry.requireLibrary(library),
      env: deps.env ?? process.env,
      usageOf: (library) => async () => new Map((await usage.reportFor(library)).skills.map((s) => [s.skill_id, { uses: s.uses, last_used_at: s.last_used_at }]))
    }),
    ...usage.handlers,
    ...settingsHandlers(ctx),
    ...placeHandlers(ctx),
    ...taskHandlers(ctx),
    ...skillHandlers(ctx),
    ...reflectHandlers(ctx),
    ...curateHandlers(ctx),
    ...jobHandlers(ctx),
    ...overviewHandlers(ctx, { sessionTasks: (library) => sessions.tasksTargeting(library) }),
    ...syncHandlers(ctx),
    ...auditHandlers(ctx)
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
      const unknown = coded('api.unknown_method', { method })
      return { ok: false, error: { code: 'not_found', message: unknown.text, ...refOf(unknown) } }
    }
    const m = method as ApiMethod
    const parsed = API_INPUT_SCHEMAS[m].safeParse(input ?? {})
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const problem = issue?.message ?? 'bad input'
      const invalid = issue?.path.length ? coded('api.invalid_input_at', { method: m, field: issue.path.join('.'), problem }) : coded('api.invalid_input', { method: m, problem })
      return { ok: false, error: { code: 'bad_request', message: invalid.text, ...refOf(invalid) } }
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
  let heldBack = 0
  const idle = async (): Promise<void> => {
    for (;;) {
      const wait = lastCallEndedAt + PREWARM_IDLE_MS - performance.now()
      if (disposed || (callsInFlight === 0 && wait <= 0)) return
      if (wait <= 0) heldBack++
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
    prewarmHeldBack: () => heldBack,
    async dispose() {
      disposed = true
      wakePrewarm()
      for (const timer of rootRescans.values()) clearTimeout(timer)
      await autoEnhancer.dispose()
      await prewarm
      watchers?.dispose()
      stopOwnWrites?.()
      await jobs.dispose()
      await core.close()
    }
  }
}
