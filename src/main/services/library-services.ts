/**
 * The one composition of a library's services: the CLI's skill commands, the MCP server, the search daemon and the
 * app's workbench (one services object per library, `workbench/core-modules.ts`) open a library through here — the
 * store, its search index, the skill tools over both, the usage report — instead of wiring them each their own way.
 *
 * Two lifetimes: a command answers once (`keep: false`, the default: the saved index is opened once, only changed
 * files read), a long-lived process (the app, an MCP server, the search daemon) keeps the index in memory and current
 * (`keep: true`, optionally through a change feed). Nothing is opened before it is asked for: a query never lists
 * the library, and the usage scanner loads only when a report is asked for. An opening that failed is tried again
 * at the next ask (a long-lived process outlives a folder that was missing or unreadable for a moment).
 */
import fs from 'node:fs'
import path from 'node:path'
import type { ScanResult, Skill, UsageReport } from '../../shared/types'
import type { LibrarySearch, LibrarySearchOptions } from '../search/library-search'
import type { SearchIndex } from '../search/search-index'
import { openLibrary, type SkillLibrary } from '../store/library'
import type { LibraryOptions } from '../store/types'
import { createSkillTools, type SkillTools, type SkillToolsOptions } from '../tools/skill-tools'
import type { UsageSourceSpec } from '../usage/service'
import type { CodedLine } from '../../shared/error-codes'

/**
 * The search's own options (`keep`: a long-lived process, default false; with it `feed`, `saveDelayMs`, `maxAgeMs`),
 * handed to its LibrarySearch as they are.
 */
export interface LibraryServicesOptions extends LibrarySearchOptions {
  env: NodeJS.ProcessEnv
  /** Who asks, recorded with each use in the ledger (`cli`, `mcp`); a tool call may say otherwise. */
  via?: string
  /**
   * Run first inside the lock of every write to the store (the hosts pass review/recover-first.ts, which this
   * floor cannot import): a tool's write never lands on the half of a change a crash interrupted.
   */
  recover?: LibraryOptions['recover']
}

export interface UsageRequest {
  /** Where to look for uses; default: the library's own data root and the agents' session folders found for it. */
  sources?: UsageSourceSpec[]
  /** Only uses from this time on (ms since the epoch). */
  since?: number
  /**
   * The library's active skills when a listing is at hand already (curation's; listing 20,000 files again costs a
   * stat each). With them, a library folder that does not exist yet has a report too: its sources' uses, none its own.
   */
  skills?: readonly Skill[]
  /** Keep the scanned sessions in the cache folder for the next report (default true). */
  persist?: boolean
  /** How each source is scanned, instead of a scanner of this report's own (the app: its scans, kept for its life). */
  scan?: (source: UsageSourceSpec) => Promise<ScanResult>
  signal?: AbortSignal
  onProgress?: (line: CodedLine) => void
}

export interface LibraryServices {
  /** The folder as given (the store reports a missing one with its own message). */
  readonly dir: string
  /** With `keep`: the search index kept current (null for a command that answers once). */
  readonly search: LibrarySearch | null
  /**
   * The library's store, opened once. Default lazy: no listing at open; a skill is located through the last index
   * handed out (a query of 10,000 skills reads only what it returns). `lazy: false` lists it at open.
   */
  library(opts?: { lazy?: boolean }): Promise<SkillLibrary>
  /** The search index, current (`full`: every file's stat checked, as a listing a person looks at wants). */
  index(opts?: { full?: boolean }): Promise<SearchIndex>
  /**
   * The five skill tools over the store, ranking from `index` when given (the index a question is answered from,
   * so the skills it returns are located in it), else from `index()` at each query.
   */
  tools(opts?: { index?: SearchIndex; lazy?: boolean } & Pick<SkillToolsOptions, 'via' | 'workspaceRoot' | 'now' | 'foldUses'>): Promise<SkillTools>
  /** The usage report of the library's active skills, and the problems saving the scanned sessions met (none with `scan`). */
  usage(request?: UsageRequest): Promise<{ report: UsageReport; library: string; saveProblems: string[] }>
  /** Saves a changed index and stops its timers and watches. */
  close(): void
}

/** The services of the library in `dir`. Loads the search modules only for a long-lived process (else at the first index()). */
export async function openLibraryServices(dir: string, opts: LibraryServicesOptions): Promise<LibraryServices> {
  const search = opts.keep ? new (await import('../search/library-search')).LibrarySearch(dir, opts) : null
  let last: SearchIndex | undefined
  const opened: { lazy?: Promise<SkillLibrary>; listed?: Promise<SkillLibrary> } = {}

  const library = (o: { lazy?: boolean } = {}): Promise<SkillLibrary> => {
    const kind = o.lazy === false ? 'listed' : 'lazy'
    let store = opened[kind]
    if (!store) {
      const recover = opts.recover ? { recover: opts.recover } : {}
      const opening = kind === 'listed' ? openLibrary(dir, recover) : openLibrary(dir, { lazy: true, locate: (id) => (last ?? search?.peek() ?? undefined)?.pathOf(id), ...recover })
      store = opened[kind] = opening
      opening.catch(() => {
        if (opened[kind] === opening) delete opened[kind]
      })
    }
    return store
  }

  const index = async (o: { full?: boolean } = {}): Promise<SearchIndex> => {
    if (search) return (last = await search.current(o))
    // Once: keyed by the library's real path, which the store resolves (and reports when it is missing).
    if (!last) {
      const [{ LibrarySearch }, lib] = await Promise.all([import('../search/library-search'), library()])
      last = await new LibrarySearch(lib.root, opts).current()
    }
    return last
  }

  return {
    dir,
    search,
    library,
    index,
    async tools(o = {}) {
      const store = await library(o.lazy === false ? { lazy: false } : {})
      if (o.index) last = o.index
      const pinned = o.index
      return createSkillTools(store, {
        via: o.via ?? opts.via,
        ...(o.workspaceRoot !== undefined ? { workspaceRoot: o.workspaceRoot } : {}),
        ...(o.now ? { now: o.now } : {}),
        ...(o.foldUses ? { foldUses: o.foldUses } : {}),
        search: pinned ? async () => pinned : () => index()
      })
    },
    async usage(request = {}) {
      const { collectUsage, defaultUsageSources, UsageScanner } = await import('../usage/service')
      const missing = request.skills !== undefined && !(await fs.promises.stat(dir).then(() => true, () => false))
      const lib = missing ? null : await library({ lazy: request.skills !== undefined })
      const root = lib?.root ?? path.resolve(dir)
      const skills = request.skills ?? (await lib!.list()).skills.filter((s) => !s.legacy)
      const scanner = request.scan ? null : new UsageScanner({ persist: request.persist ?? true, env: opts.env })
      const report = await collectUsage({
        root,
        skills,
        sources: request.sources ?? defaultUsageSources(root, opts.env),
        ...(request.since !== undefined ? { since: request.since } : {}),
        signal: request.signal,
        ...(request.onProgress ? { onProgress: request.onProgress } : {}),
        scan: request.scan ?? ((s) => scanner!.scan(s, request.signal))
      })
      return { report, library: root, saveProblems: scanner ? await scanner.save() : [] }
    },
    close() {
      search?.close()
    }
  }
}
