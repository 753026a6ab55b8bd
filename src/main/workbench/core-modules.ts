import { createHash } from 'node:crypto'
import fsp from 'node:fs/promises'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { ApiError, type OverviewResult, type RateResult, type SkillListResult } from '../../shared/api'
import { coded, codedLine, refOf, type CodedLine, type MessageParam } from '../../shared/error-codes'
import type { CurationPlan, JournalEntry, Proposal, QueryResult, ScanResult, Settings, Skill, TaskTrace, UsageReport } from '../../shared/types'
import type { LlmClient } from '../llm/types'
import type { SkillStore } from '../store/types'
import type { JobContext } from './jobs'
import { graphFromPairs, dbscan } from '../cluster/dbscan'
import { defaultReflectionDeps } from '../reflect/default-deps'
import { runReflection, type MemoryEvolution } from '../reflect/run-reflection'
import type { ReflectionEvent, ReflectionSummary } from '../reflect/types'
import type { LogParse } from '../scan/agiagent-parser'
import { ScanCache } from '../scan/cache'
import { scanRoot } from '../scan/scan-root'
import { parseReasonParam, parseSkillText } from '../store/skill-file'
import { allPairsAsync } from '../text/all-pairs'
import { strongestPairs } from '../text/strongest-pairs'
import { buildTfIdfIndex } from '../text/tfidf'
import { stripBoilerplate } from '../text/boilerplate'
import { similarityText, type CurationProgress } from '../curate/proposals'
import { copySkillFiles } from '../tools/copy-files'
import { openLibraryServices, type LibraryServices, type UsageRequest } from '../services/library-services'
import { defaultCacheDir } from '../cache-dir'
import { buildStamp } from '../search/daemon/address'
import { graphCacheFile, loadCachedGraph, saveCachedGraph } from './graph-cache'
import { recoverTransactions } from '../review/transactions'
import { recoverFirst } from '../review/recover-first'
import { withLibraryLock } from '../store/lock'
import { readJournal, type JournalRecord } from '../review/journal'
import { restoreSkill, undoApplied } from '../review/decisions'
import { curateLibrary, type OpenedLibrary } from '../curate/service'
import type { CurationSettings } from '../curate/settings'
import type { SkillLibrary } from '../store/library'
import { acceptQueued, readReviewQueue, rejectQueued, saveEdits, unrejectQueued } from '../review/queue'
import { dismissLibraryProblems, libraryProblems, type LibraryProblemsAnswer } from './library-problems'

/** What a reflection job needs. */
export interface ReflectRequest {
  root: string
  user?: string
  /** Absolute task folder paths (already checked to be tasks of the root). */
  tasks?: string[]
  force: boolean
  settings: Settings
  llm?: LlmClient
  /** Write every skill into this library (session sources) instead of `<root>/<user>/general/experience`. */
  library?: string
  /** Already scanned traces (session sources, auto-enhance): the root is not scanned again. */
  traces?: TaskTrace[]
  /** Create / enhance / none decisions: an enhancement becomes a pending proposal in plan.json. */
  decide?: boolean
  /** The same tasks also proposed into memory (auto-enhance with long-term memory on), as `reflect --evolve-memory` does. */
  evolveMemory?: MemoryEvolution
}

/**
 * The core modules the workbench drives, behind one small port: the store, the skill tools, the usage report, the
 * scanner, reflection, curation and the similarity engine. `createCoreModules()` wires the real ones (a library's
 * store, search, skill tools and usage through `services/library-services`, as the CLI and the MCP server have
 * them); tests may pass their own. Until a module exists its methods answer ApiError('unavailable').
 */
export interface CoreModules {
  openLibrary(dir: string): Promise<SkillStore>
  /** Why `text` cannot be saved as this skill's file (unparsable front matter, changed id…), or undefined. */
  /** Why the text cannot be saved over `current`, as a param of skill.not_saved (by code), or undefined. */
  checkSkillText(text: string, current: Skill): MessageParam | undefined
  /** The list rows of a library (its real path), from its search index: only files changed since it was saved are read. */
  listSkills(root: string, includeLegacy: boolean): Promise<SkillListResult>
  /** What is wrong with the library as a whole (only reads); see library-problems.ts. */
  libraryProblems?(root: string): Promise<LibraryProblemsAnswer>
  /** Marks the recoveries shown up to the log's offset `upTo` seen (a write); returns the new offset. */
  dismissLibraryProblems?(root: string, upTo: number): Promise<number>
  /** `query_skill` ranking without touching fetch_count (searching in the UI is not an agent using a skill). */
  query(store: SkillStore, text: string, top: number): Promise<QueryResult>
  /** `rate_skill` semantics: quality = 0.7·old + 0.3·rating. */
  rate(store: SkillStore, skillId: string, rating: number): Promise<RateResult>
  /** The usage report of the library in `dir` (`request.skills` given: the folder need not exist yet). */
  usage(dir: string, request: UsageRequest): Promise<UsageReport>
  /** Scans a data root (incremental: `cache` is kept by the workbench per root). */
  scanRoot(rootDir: string, cache: unknown, signal?: AbortSignal): Promise<{ result: ScanResult; cache: unknown }>
  reflect(req: ReflectRequest, ctx: JobContext): Promise<ReflectionSummary>
  /** `usage`: the library's usage report (issue 14): cleanup spares what agents used, failing skills get a review. */
  curatePlan(store: SkillStore, settings: Settings, llm: LlmClient | undefined, ctx: JobContext, usage?: UsageReport): Promise<CurationPlan>
  readPlan(store: SkillStore): Promise<{ plan: CurationPlan; computedAt: string | null }>
  accept(store: SkillStore, proposalId: string, edited?: { path: string; before: string | null; after: string | null }[]): Promise<JournalEntry>
  reject(store: SkillStore, proposalId: string): Promise<Proposal>
  /** Undoes a rejection (plan or pending folder): the proposal waits for review again. */
  unreject(store: SkillStore, proposalId: string): Promise<Proposal>
  journal(store: SkillStore): Promise<JournalEntry[]>
  undo(store: SkillStore, entryId: string): Promise<JournalEntry>
  /** Brings a legacy skill back (journaled when curation is available). */
  restore(store: SkillStore, skillId: string): Promise<Skill>
  /** Similarity graph + DBSCAN cluster labels of the active skills. */
  similarityGraph(skills: Skill[], thresholds: Settings['thresholds']): Promise<OverviewResult['graph']>
  /** At the workbench's end: each library's changed search index saved now (not lost with its save timer). */
  close(): Promise<void>
}

function unavailable(what: string): never {
  throw new ApiError('unavailable', coded('api.unavailable', { what }))
}

/** A port whose every method says "not available": the base the real modules are layered on. */
export function unavailableCore(): CoreModules {
  return {
    openLibrary: async () => unavailable('the skill store'),
    checkSkillText: () => unavailable('the skill parser'),
    query: async () => unavailable('search'),
    listSkills: async () => unavailable('the skill listing'),
    rate: async () => unavailable('rating'),
    usage: async () => unavailable('the usage report'),
    scanRoot: async () => unavailable('the task scanner'),
    reflect: async () => unavailable('reflection'),
    curatePlan: async () => unavailable('curation'),
    readPlan: async () => unavailable('curation'),
    accept: async () => unavailable('curation'),
    reject: async () => unavailable('curation'),
    unreject: async () => unavailable('curation'),
    journal: async () => unavailable('the curation journal'),
    undo: async () => unavailable('undo'),
    restore: (store, skillId) => store.restore(skillId),
    similarityGraph: async () => ({ nodes: [], edges: [] }),
    close: async () => undefined
  }
}


/** Largest library drawn as a graph (beyond it, the most used skills are drawn: a hairball helps nobody). */
export const MAX_GRAPH_NODES = 1500
/** Most edges sent with the graph (the strongest). */
export const MAX_GRAPH_EDGES = 5000

/**
 * Similarity graph of skills: edges for pairs with cosine ≥ min(0.3, merge, 1 − eps), cluster labels from
 * DBSCAN at eps (cosine distance ≤ eps), -1 = noise. The all-pairs join yields to the event loop, so a big
 * library never stalls other requests.
 */
export async function computeSimilarityGraph(skills: Skill[], thresholds: Settings['thresholds'], signal?: AbortSignal): Promise<OverviewResult['graph']> {
  const shown =
    skills.length <= MAX_GRAPH_NODES
      ? skills
      : [...skills].sort((a, b) => b.fetch_count - a.fetch_count || b.quality_index - a.quality_index).slice(0, MAX_GRAPH_NODES)
  if (shown.length === 0) {
    return { nodes: [], edges: [] }
  }
  // compared exactly as curation compares them (same text, template boilerplate left out, the same word scan), so
  // the map's likely duplicates are the plan's merges. The scan is one block (~30–80 ms for 1,000 skills): it once
  // ran through the general tokenizer in slices, which cost three times as much and ended in a longer block.
  const texts = stripBoilerplate(shown.map(similarityText))
  await nextTurn()
  signal?.throwIfAborted()
  const index = buildTfIdfIndex(texts)
  const clusterSim = 1 - thresholds.eps
  const edgeSim = Math.min(clusterSim, thresholds.merge, 0.3)
  const pairs = await allPairsAsync(index, Math.max(0.05, edgeSim), { signal, sliceMs: 20 })
  const graph = graphFromPairs(shown.length, pairs.a, pairs.b, pairs.count, (k) => (pairs.score[k] ?? 0) >= clusterSim - 1e-12)
  const labels = dbscan(graph, thresholds.minSamples)
  const nodes = shown.map((s, i) => ({ id: s.skill_id, title: s.title, quality: s.quality_index, cluster: labels[i] ?? -1 }))
  // the strongest edges only: enough to see duplicates and clusters, light enough to send and draw
  const order = pairs.count > MAX_GRAPH_EDGES ? strongestPairs(pairs, MAX_GRAPH_EDGES) : Array.from({ length: pairs.count }, (_, k) => k)
  const edges = order.map((k) => ({
    source: shown[pairs.a[k] ?? 0]!.skill_id,
    target: shown[pairs.b[k] ?? 0]!.skill_id,
    similarity: Math.round((pairs.score[k] ?? 0) * 1000) / 1000
  }))
  return { nodes, edges }
}

/**
 * The graph's file key depends on the code that draws it: a new build computes the graphs again. Run from source
 * (tsx), the build stamp follows one file only (search/daemon/address.ts), so this version is bumped whenever the
 * graph's shape or meaning changes.
 */
const GRAPH_KEY_VERSION = 1

/**
 * Caches graphs (a few, newest kept) until a skill's content or a threshold changes; with `cacheDir`, also in that
 * folder (graph-cache.ts), so a new process finds the graphs an earlier one computed.
 */
export function cachedGraph(compute: CoreModules['similarityGraph'], size = 8, cacheDir?: () => string): CoreModules['similarityGraph'] {
  const cache = new Map<string, Promise<OverviewResult['graph']>>()
  return (skills, thresholds) => {
    const key = createHash('sha256')
      .update(JSON.stringify(thresholds))
      .update(skills.map((s) => `${s.skill_id}:${s.path}:${s.hash}`).join('\n'))
      .digest('hex')
    const hit = cache.get(key)
    if (hit) {
      return hit
    }
    const graph = cacheDir ? kept(cacheDir(), key, skills, () => compute(skills, thresholds)) : compute(skills, thresholds)
    cache.set(key, graph)
    graph.catch(() => cache.delete(key))
    if (cache.size > size) {
      cache.delete(cache.keys().next().value as string)
    }
    return graph
  }
}

/** The graph from its file in `dir`, or computed and saved there (a save that fails costs only the next start). */
async function kept(dir: string, key: string, skills: Skill[], compute: () => Promise<OverviewResult['graph']>): Promise<OverviewResult['graph']> {
  const file = graphCacheFile(dir, createHash('sha256').update(`${GRAPH_KEY_VERSION}\n${buildStamp()}\n${key}`).digest('hex'))
  const saved = await loadCachedGraph(file, new Set(skills.map((s) => s.skill_id)))
  if (saved) return saved
  const graph = await compute()
  await saveCachedGraph(file, graph).catch(() => undefined)
  return graph
}

/** Curation settings from the app settings (the thresholds screen). */
function curationSettingsOf(settings: Settings): Partial<CurationSettings> {
  return {
    mergeThreshold: settings.thresholds.merge,
    eps: settings.thresholds.eps,
    minSamples: settings.thresholds.minSamples,
    cleanupDays: settings.thresholds.cleanupDays
  }
}

/** The store as the curation service wants it, after finishing any transaction a crash interrupted (recovery keeps what it did for the app). */
async function openedForCuration(store: SkillStore): Promise<OpenedLibrary> {
  const recovery = await withLibraryLock(store.root, () => recoverTransactions(store.root))
  return { library: store as SkillLibrary, root: store.root, recovery }
}

/** A journal record as the API shows it. */
function entryOf(record: JournalRecord): JournalEntry {
  return {
    id: record.id,
    proposal_id: record.proposal_id,
    kind: record.kind as JournalEntry['kind'],
    at: record.at,
    by: record.by,
    changes: record.changes
  }
}

/** Applied changes (apply / restore records), newest first, each with the time it was undone if it was. Pure. */
export function journalEntries(records: readonly JournalRecord[]): JournalEntry[] {
  const undoneAt = new Map<string, string>()
  for (const r of records) {
    if (r.action === 'undo' && r.undoes) {
      undoneAt.set(r.undoes, r.at)
    }
  }
  return records
    .filter((r) => r.action !== 'undo' && r.action !== 'unreject')
    .map((r) => {
      const at = undoneAt.get(r.id)
      return at ? { ...entryOf(r), undone_at: at } : entryOf(r)
    })
    .reverse()
}

/**
 * How far a reflection run is (0..1) after an event: finished tasks count whole, the running task by its step
 * (tasks run a few at a time, so this is an estimate that only says "still moving" precisely). Pure.
 */
export function reflectionFraction(e: Pick<ReflectionEvent, 'kind' | 'index' | 'total' | 'stepFraction'>): number {
  if (e.kind === 'done') return 1
  if (e.total <= 0) return 0
  const done = e.kind === 'task-start' ? e.index - 1 : e.kind === 'task-step' ? e.index - 1 + Math.min(1, Math.max(0, e.stepFraction ?? 0)) : e.index
  return Math.max(0, Math.min(1, done / e.total))
}

/** The real core modules. */
export async function createCoreModules(): Promise<CoreModules> {
  const base = unavailableCore()
  const scanCaches = new Map<string, ScanCache<LogParse>>()
  // One services object per library (its real path), kept for the app's life: its store, and its search index kept
  // current — composed as the CLI, the MCP server and the search daemon compose theirs.
  const services = new Map<string, Promise<LibraryServices>>()
  const servicesOf = async (dir: string): Promise<LibraryServices> => {
    // a folder that does not exist (yet) goes by the path given; the store reports it when it is opened
    const root = await fsp.realpath(dir).catch(() => dir)
    let s = services.get(root)
    if (!s) {
      // its store's writes (a query's uses and their fold too) finish a change a crash interrupted first
      services.set(root, (s = openLibraryServices(root, { env: process.env, keep: true, recover: recoverFirst })))
      s.catch(() => services.delete(root))
    }
    return s
  }
  // the stores handed out, by real path: their last write says how index.json fared
  const openStores = new Map<string, SkillLibrary>()
  return {
    ...base,
    openLibrary: async (dir) => {
      const store = await (await servicesOf(dir)).library({ lazy: false })
      openStores.set(store.root, store)
      return store
    },
    libraryProblems: (root) => libraryProblems(root, openStores.get(root)),
    dismissLibraryProblems,
    checkSkillText(text, current) {
      const parsed = parseSkillText(text)
      if (!parsed.ok) {
        return parseReasonParam(parsed)
      }
      if (current.format === 'agiagent') {
        const id = parsed.file.data.skill_id
        if (id !== undefined && String(id) !== current.skill_id) {
          return refOf(coded('skill.id_fixed', { id: current.skill_id }))
        }
      }
      return undefined
    },
    listSkills: async (root, includeLegacy) => (await servicesOf(root)).search!.summaries(includeLegacy),
    async query(store, text, top) {
      const tools = await (await servicesOf(store.root)).tools({ lazy: false })
      return tools.query_skill(text, { top, touch: false })
    },
    async rate(store, skillId, rating) {
      const result = await (await (await servicesOf(store.root)).tools({ lazy: false })).rate_skill(skillId, rating)
      if (result.status !== 'success') {
        // eslint-disable-next-line no-restricted-syntax -- the tools answer in words (their JSON contract): toApiErrorShape reads the code back
        throw new ApiError(typeof result.code === 'string' ? result.code : 'bad_request', result.message)
      }
      return { skill_id: skillId, before: Number(result.old_quality_index), after: Number(result.new_quality_index) }
    },
    usage: async (dir, request) => (await (await servicesOf(dir)).usage(request)).report,
    async close() {
      const open = [...services.values()]
      services.clear()
      for (const s of await Promise.allSettled(open)) if (s.status === 'fulfilled') s.value.close()
    },
    async scanRoot(rootDir, cache, signal) {
      const own = (cache as ScanCache<LogParse> | undefined) ?? scanCaches.get(rootDir) ?? new ScanCache<LogParse>()
      scanCaches.set(rootDir, own)
      const result = await scanRoot({ rootDir, cache: own, signal })
      return { result, cache: own }
    },
    async reflect(req, ctx) {
      const deps = defaultReflectionDeps({
        llm: req.llm,
        backupFiles: async ({ store, skill, workspaceDir, files }) => {
          const r = await copySkillFiles(store, skill.skill_id, files, workspaceDir)
          return {
            copied: Array.isArray(r.copied) ? (r.copied as string[]) : [],
            skipped: Array.isArray(r.skipped) ? (r.skipped as { path: string; reason: string }[]) : []
          }
        }
      })
      return runReflection(
        {
          rootDir: req.root,
          user: req.user,
          tasks: req.tasks,
          library: req.library,
          traces: req.traces,
          decide: req.decide,
          evolveMemory: req.evolveMemory,
          mode: req.llm ? 'openai' : 'offline',
          force: req.force,
          concurrency: req.settings.llm.concurrency,
          budgetChars: req.settings.reflectBudgetChars,
          signal: ctx.signal,
          onEvent: (e) =>
            ctx.progress({
              fraction: reflectionFraction(e),
              stage: e.kind,
              ...(e.step ? { step: e.step } : {}),
              message: e.message ?? '',
              ...(e.messageCode ? { messageCode: e.messageCode, params: e.params ?? {} } : {}),
              taskDir: e.taskDir || undefined,
              skillPath: e.skillPath,
              index: e.index,
              total: e.total
            })
        },
        deps
      )
    },
    similarityGraph: cachedGraph((skills, thresholds) => computeSimilarityGraph(skills, thresholds), 8, () => defaultCacheDir()),

    async curatePlan(store, settings, llm, ctx, usage) {
      const opened = await openedForCuration(store)
      let lastProgress = 0
      // curateLibrary keeps other producers' pending proposals (enhance, agents' edits) in plan.json itself
      const plan = await curateLibrary(opened, {
        settings: curationSettingsOf(settings),
        llm,
        // The same term cache as `skillbench curate` (the user's cache folder): a second curation reads only changed skills.
        cacheDir: defaultCacheDir(),
        usage,
        signal: ctx.signal,
        onProgress: (p) => {
          // per skill (seed 000): the count and the skill in the message; at most every 100 ms to the window
          const counted = p.total !== undefined && p.done !== undefined
          const now = Date.now()
          if (counted && p.done! < p.total! && now - lastProgress < 100) return
          lastProgress = now
          ctx.progress({
            fraction: Math.min(1, ((p.step - 1) + (p.total ? (p.done ?? 0) / p.total : 0)) / 3),
            stage: `step-${p.step}`,
            ...(counted ? curateCountLine(p) : { message: p.message, messageCode: p.messageCode, params: p.params }),
            index: p.done,
            total: p.total
          })
        }
      })
      ctx.progress({ fraction: 1, stage: 'done', ...codedLine('curate.proposals', { n: plan.proposals.length }) })
      return (await readReviewQueue(store.root)).plan
    },
    async readPlan(store) {
      return readReviewQueue(store.root)
    },
    async accept(store, proposalId, edited) {
      if (edited?.length) {
        await saveEdits(store.root, proposalId, edited)
      }
      const record = await acceptQueued(store.root, proposalId, 'user')
      return entryOf(record)
    },
    async reject(store, proposalId) {
      return rejectQueued(store.root, proposalId, 'user')
    },
    async unreject(store, proposalId) {
      return unrejectQueued(store.root, proposalId, 'user')
    },
    async journal(store) {
      const { records } = await readJournal(store.root)
      return journalEntries(records)
    },
    async undo(store, entryId) {
      // a deploy changed an agent's folder: its own undo puts that folder back (loaded when needed)
      const { findDeployRecord, undoDeploy } = await import('../deploy/run')
      const deployed = await findDeployRecord(store.root, entryId)
      const undo = deployed ? await undoDeploy(store.root, deployed.id, 'user') : await undoApplied(store.root, entryId, 'user')
      const { records } = await readJournal(store.root)
      const original = records.find((r) => r.id === undo.undoes)
      return original ? { ...entryOf(original), undone_at: undo.at } : entryOf(undo)
    },
    async restore(store, skillId) {
      const opened = await openedForCuration(store)
      await restoreSkill(opened, skillId, 'user')
      return store.get(skillId)
    }
  }
}

/** A counted curation line for the app: the step's words, how far, and the skill at hand while it is not the last. */
function curateCountLine(p: CurationProgress): CodedLine {
  const message = { messageCode: p.messageCode, params: p.params }
  const count = { message, done: p.done ?? 0, total: p.total ?? 0 }
  return p.skill && p.done! < p.total! ? codedLine('curate.progress_skill', { ...count, skill: p.skill }) : codedLine('curate.progress_count', count)
}
