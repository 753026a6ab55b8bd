import { ApiError, type OverviewResult, type RateResult, type ReflectSummary } from '../../shared/api'
import type { CurationPlan, JournalEntry, Proposal, QueryResult, ScanResult, Settings, Skill } from '../../shared/types'
import type { LlmClient } from '../llm/types'
import type { SkillStore } from '../store/types'
import type { JobContext } from './jobs'

/** What a reflection job needs. */
export interface ReflectRequest {
  root: string
  user?: string
  /** Absolute task folder paths (already checked to be tasks of the root). */
  tasks?: string[]
  force: boolean
  settings: Settings
  llm?: LlmClient
}

/**
 * The core modules the workbench drives, behind one small port: the store, the skill tools, the scanner,
 * reflection, curation and the similarity engine. `createCoreModules()` wires the real ones; tests may
 * pass their own. Until a module exists its methods answer ApiError('unavailable').
 */
export interface CoreModules {
  openLibrary(dir: string): Promise<SkillStore>
  /** Why `text` cannot be saved as this skill's file (unparsable front matter, changed id…), or undefined. */
  checkSkillText(text: string, current: Skill): string | undefined
  /** `query_skill` ranking without touching fetch_count (searching in the UI is not an agent using a skill). */
  query(store: SkillStore, text: string, top: number): Promise<QueryResult>
  /** `rate_skill` semantics: quality = 0.7·old + 0.3·rating. */
  rate(store: SkillStore, skillId: string, rating: number): Promise<RateResult>
  /** Scans a data root (incremental: `cache` is kept by the workbench per root). */
  scanRoot(rootDir: string, cache: unknown, signal?: AbortSignal): Promise<{ result: ScanResult; cache: unknown }>
  reflect(req: ReflectRequest, ctx: JobContext): Promise<ReflectSummary>
  curatePlan(store: SkillStore, settings: Settings, llm: LlmClient | undefined, ctx: JobContext): Promise<CurationPlan>
  readPlan(store: SkillStore): Promise<{ plan: CurationPlan; computedAt: string | null }>
  accept(store: SkillStore, proposalId: string, edited?: { path: string; before: string | null; after: string | null }[]): Promise<JournalEntry>
  reject(store: SkillStore, proposalId: string): Promise<Proposal>
  journal(store: SkillStore): Promise<JournalEntry[]>
  undo(store: SkillStore, entryId: string): Promise<JournalEntry>
  /** Similarity graph + DBSCAN cluster labels of the active skills. */
  similarityGraph(skills: Skill[], thresholds: Settings['thresholds']): OverviewResult['graph']
}

function unavailable(what: string): never {
  throw new ApiError('unavailable', `${what} is not available yet in this build`)
}

/** A port whose every method says "not available": the base the real modules are layered on. */
export function unavailableCore(): CoreModules {
  return {
    openLibrary: async () => unavailable('the skill store'),
    checkSkillText: () => unavailable('the skill parser'),
    query: async () => unavailable('search'),
    rate: async () => unavailable('rating'),
    scanRoot: async () => unavailable('the task scanner'),
    reflect: async () => unavailable('reflection'),
    curatePlan: async () => unavailable('curation'),
    readPlan: async () => unavailable('curation'),
    accept: async () => unavailable('curation'),
    reject: async () => unavailable('curation'),
    journal: async () => unavailable('the curation journal'),
    undo: async () => unavailable('undo'),
    similarityGraph: () => ({ nodes: [], edges: [] })
  }
}

/** The real core modules (wired as they land). */
export async function createCoreModules(): Promise<CoreModules> {
  return unavailableCore()
}
