/**
 * Curation on a library folder: open it (finishing any transaction a crash interrupted), compute the curation
 * proposals and save them into the pending plan. Deciding them is review's (`review/decisions.ts`).
 */
import { AGIAGENT_LEGACY_DIR, SKILL_MD_LEGACY_DIR } from '../../shared/legacy-paths'
import fs from 'node:fs'
import path from 'node:path'
import type { Skill, SkillList, UsageReport } from '../../shared/types'
import type { LlmClient } from '../llm/types'
import { loadedSkillText, openLibrary, type SkillLibrary } from '../store/library'
import { withLibraryLock } from '../store/lock'
import { recoverTransactions, type RecoveryReport } from '../review/transactions'
import { pendingOtherProposals, savePlan, type SavedPlan } from '../review/plan'
import { applyRejections, readRejections, rejectionsByFingerprint } from '../review/rejections'
import { buildPlan, similarityParts, type CurationProgress } from './proposals'
import type { TermTable } from '../text/doc-terms'
import { STREAMED_SCAN_MIN_DOCS, StreamedScan } from '../text/streamed-scan'
import { warmCurationWorkers } from './warm-up'
import { cutCacheFile, loadCut, saveCut } from './cut-cache'
import { corpusDigest, pairsCacheFile, pairsForKey, readPairsFile, savePairs, type KeptJoin, type PairsKey } from './pairs-cache'
import { documentKey, encodeTermCache, loadTermCache, saveTermCache, termCacheFile } from './term-cache'
import type { CurationSettings } from './settings'
import { codedLine } from '../../shared/error-codes'

export interface OpenedLibrary {
  library: SkillLibrary
  root: string
  recovery: RecoveryReport
  /**
   * The listing (legacy included) that opening the library made, when recovery changed nothing: the next
   * curateLibrary uses it instead of listing every file again, and drops it; later calls list afresh.
   */
  listing?: SkillList
  /**
   * The similarity index's text scan of that listing's active skills, started on a worker while the files were
   * read (a first run on a large library: see streamedScanFor). The next curateLibrary uses or closes it.
   */
  streamedScan?: StreamedScan
}

/**
 * How a library is opened: `toCurate` when curateLibrary comes next (cacheDir: where curation keeps its caches);
 * `signal` stops reading it (the open rejects with an AbortError).
 */
export interface OpenForCurationOptions {
  toCurate?: { cacheDir?: string }
  signal?: AbortSignal
  /** Each skill as it is read (`reading skills`, done/total, its title): opened to be curated only. */
  onProgress?: (p: CurationProgress) => void
}

/**
 * Opens the library and rolls back / completes interrupted transactions. Opened to be curated, the join's workers
 * start while the library is read, and a library curated for the first time has its text scanned meanwhile.
 */
export async function openForCuration(dir: string, opts: OpenForCurationOptions = {}): Promise<OpenedLibrary> {
  const toCurate = opts.toCurate
  let streamed: StreamedScan | undefined
  let listed = 0
  const report = opts.onProgress
  const onListing = (root: string, files: number): ((skill: Skill) => void) | undefined => {
    // While the streamed scan runs, both cores are busy: the join's workers start when it is done.
    streamed = streamedScanFor(root, files, toCurate?.cacheDir, () => warmCurationWorkers(files))
    if (!streamed) warmCurationWorkers(files)
    const scan = streamed
    listed = files
    let read = 0
    if (!scan && !report) return undefined
    // one line object's fields for every skill (made per skill, it was ~1 % of a cold curate at 3,000)
    const reading = codedLine('curate.reading')
    return (skill) => {
      if (scan && !skill.legacy) scan.add(similarityParts(skill))
      report?.({ step: 1, ...reading, done: ++read, total: files, skill: skill.title })
    }
  }
  let library: SkillLibrary
  try {
    library = await openLibrary(dir, { ...(toCurate ? { onListing } : {}), ...(opts.signal ? { signal: opts.signal } : {}) })
  } catch (err) {
    streamed?.close()
    throw err
  } finally {
    streamed?.end()
  }
  // files that could not be read are reported with the listing: the count still ends at the total
  if (report && listed > 0) report({ step: 1, ...codedLine('curate.reading'), done: listed, total: listed })
  const listing = await library.snapshot({ includeLegacy: true })
  const recovery = await recoverTransactions(library.root)
  const changed = recovery.rolledBack.length > 0 || recovery.committed.length > 0
  if (changed) streamed?.close()
  return { library, root: library.root, recovery, ...(changed ? {} : { listing, ...(streamed ? { streamedScan: streamed } : {}) }) }
}

/**
 * A streamed scan for a listing of `files` files, when it pays: a library large enough that the scan takes longer
 * than starting a worker, and no term cache yet (a later run reuses its terms and scans only what changed).
 */
function streamedScanFor(root: string, files: number, cacheDir: string | undefined, onScanned: () => void): StreamedScan | undefined {
  if (files < STREAMED_SCAN_MIN_DOCS) return undefined
  if (cacheDir !== undefined && fs.existsSync(termCacheFile(cacheDir, root))) return undefined
  return StreamedScan.start(onScanned)
}

export interface CurateOptions {
  settings?: Partial<CurationSettings>
  llm?: LlmClient
  now?: Date
  onProgress?: (p: CurationProgress) => void
  signal?: AbortSignal
  /** The library's usage report (issue 14); without it cleanup goes by fetch_count alone and no review is proposed. */
  usage?: UsageReport
  /** The cache folder: the index's first pass is kept there between runs (term-cache.ts); without it, nothing is kept. */
  cacheDir?: string
  /** Work of the caller's run while the similarity join runs on worker threads (PlanInput.whileJoining). */
  whileJoining?: () => void
}

/**
 * Computes the curation plan for a library and saves it as the pending plan (the only write). The saved
 * plan also keeps the other producers' proposals (kinds other than merge/consolidate/cleanup) that still wait
 * for review; the returned plan holds only the freshly computed curation proposals.
 */
export async function curateLibrary(opened: OpenedLibrary, opts: CurateOptions = {}): Promise<SavedPlan> {
  const { library, root } = opened
  const all = opened.listing ?? (await library.list({ includeLegacy: true }))
  const streamedScan = opened.listing ? opened.streamedScan : undefined
  if (!streamedScan) opened.streamedScan?.close()
  opened.listing = undefined
  opened.streamedScan = undefined
  const active = all.skills.filter((s) => !s.legacy)
  opts.onProgress?.({ step: 1, ...codedLine('curate.loaded', { n: active.length }) })
  // The listing keeps each file's text (what its hash is of): proposals' "before" texts come from that same read.
  const texts = new Map<string, string>()
  const errors = [...all.errors]
  for (const s of active) {
    try {
      texts.set(s.path, loadedSkillText(s) ?? (await library.readRaw(s.path)).text)
    } catch (err) {
      errors.push({ path: s.path, reason: (err as Error).message })
    }
  }
  const existing = new Set(all.skills.map((s) => s.path))
  // Non-skill files in either folder of retired skills also block names.
  for (const dir of [AGIAGENT_LEGACY_DIR, SKILL_MD_LEGACY_DIR]) {
    for (const name of await fs.promises.readdir(path.join(root, dir)).catch(() => [] as string[])) existing.add(`${dir}/${name}`)
  }
  // What this library keeps in the cache folder: its terms, the join's cut-off and pairs, side by side.
  const termFile = opts.cacheDir === undefined ? undefined : termCacheFile(opts.cacheDir, root)
  const cache = termFile === undefined ? undefined : termCacheFor(termFile, root)
  const cut = termFile === undefined ? undefined : cutCacheFor(cutCacheFile(termFile))
  const kept = termFile === undefined || !cache ? undefined : pairsCacheFor(pairsCacheFile(termFile), cache, active.length)
  const plan = await buildPlan({
    skills: active,
    texts,
    existingPaths: existing,
    loadErrors: errors,
    now: opts.now ?? new Date(),
    settings: opts.settings,
    llm: opts.llm,
    onProgress: opts.onProgress,
    signal: opts.signal,
    usage: opts.usage,
    ...(opts.whileJoining ? { whileJoining: opts.whileJoining } : {}),
    termCache: cache?.forDocs,
    joinCut: cut?.joinCut,
    joinPairs: kept?.joinPairs,
    ...(streamedScan ? { streamedScan } : {})
  }).finally(() => streamedScan?.close())
  await cache?.saving
  await cut?.saving
  await kept?.saving
  const saved: SavedPlan = { version: 1, created_at: (opts.now ?? new Date()).toISOString(), library: root, ...plan }
  // Other producers (reflection's 'enhance', …) put proposals in the same plan: a recomputed plan replaces
  // only the curation kinds and keeps theirs while they still wait for review. Read-modify-write under the lock.
  await withLibraryLock(root, async () => {
    // A person's rejections outlive the plan they were made on: read under the lock, so one recorded while this
    // plan was computed (another process) holds too.
    applyRejections(saved.proposals, rejectionsByFingerprint(await readRejections(root)))
    const kept = await pendingOtherProposals(root)
    const ids = new Set(saved.proposals.map((p) => p.id))
    await savePlan(root, { ...saved, proposals: [...saved.proposals, ...kept.filter((p) => !ids.has(p.id))] })
  })
  return saved
}

/** The term cache of one run: what buildPlan asks of it, and the bytes to save once the plan is built. */
function termCacheFor(file: string, root: string): { saving?: Promise<void>; corpus?: string; forDocs: NonNullable<Parameters<typeof buildPlan>[0]['termCache']> } {
  const cache: ReturnType<typeof termCacheFor> = {
    forDocs: (docs, lines, keysLater) => {
      // A first run (no cache file) reuses nothing: its keys are needed only with its fresh terms, and a streamed
      // scan has computed them on its worker by then.
      let keys: readonly string[] | undefined = keysLater && !fs.existsSync(file) ? undefined : docs.map(documentKey)
      if (keys) cache.corpus = corpusDigest(keys, lines)
      const reuse = keys && loadTermCache(file, root, lines, keys)
      // Encoded while the arrays still hold every document's terms (boilerplate is taken out of them next), and
      // written at once: the bytes are not kept through the rest of the plan.
      const onScanned = (table: TermTable): void => {
        if (!keys) {
          keys = keysLater?.() ?? docs.map(documentKey)
          cache.corpus = corpusDigest(keys, lines)
        }
        cache.saving = saveTermCache(file, encodeTermCache(root, lines, keys, table))
      }
      return { ...(reuse ? { reuse } : {}), onScanned }
    }
  }
  return cache
}

/**
 * The join's pairs of one run: the kept ones when every text is the one they were found for, the earlier run's
 * pairs and row digests to bring up to date otherwise, and the write of new ones. The file is read once.
 */
function pairsCacheFor(file: string, cache: { corpus?: string }, docs: number): { saving?: Promise<void>; joinPairs: NonNullable<Parameters<typeof buildPlan>[0]['joinPairs']> } {
  const keyOf = (threshold: number): PairsKey | undefined => (cache.corpus === undefined ? undefined : { corpus: cache.corpus, threshold, docs })
  let read: { threshold: number; join: KeptJoin | undefined } | undefined
  const readAt = (threshold: number): KeptJoin | undefined => {
    if (read?.threshold !== threshold) read = { threshold, join: readPairsFile(file, threshold) }
    return read.join
  }
  const kept: ReturnType<typeof pairsCacheFor> = {
    joinPairs: {
      reuse: (threshold) => {
        const key = keyOf(threshold)
        const pairs = key && pairsForKey(readAt(threshold), key)
        // Taken back whole: nothing else will be asked of the file this run.
        if (pairs) read = undefined
        return pairs
      },
      // Asked once, after reuse: the file's arrays are not kept here once handed over.
      earlier: (threshold) => {
        const join = readAt(threshold)
        read = undefined
        return join
      },
      keep: (threshold, join) => {
        const key = keyOf(threshold)
        read = undefined
        if (key) kept.saving = savePairs(file, key, join)
      }
    }
  }
  return kept
}

/** The join's cut-off of one run: the kept one when the corpus kept its shape, and the write of a newly chosen one. */
function cutCacheFor(file: string): { saving?: Promise<void>; joinCut: NonNullable<Parameters<typeof buildPlan>[0]['joinCut']> } {
  const cut: ReturnType<typeof cutCacheFor> = {
    joinCut: {
      reuse: (shape) => loadCut(file, shape),
      keep: (shape, frequentDf) => void (cut.saving = saveCut(file, shape, frequentDf))
    }
  }
  return cut
}

