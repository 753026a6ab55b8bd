/**
 * Curation on a library folder: compute and save the pending plan, accept / reject / undo proposals,
 * restore legacy skills. Every entry point first finishes any transaction a crash interrupted.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { CurationPlan, Proposal, ProposalKind, Skill, SkillList, UsageReport } from '../../shared/types'
import type { LlmClient } from '../llm/types'
import { loadedSkillText, openLibrary, type SkillLibrary } from '../store/library'
import { readContainedText, writeContained } from '../store/contained'
import { buildSkillFileName } from '../store/paths'
import { applyProposal, CurationError, recoverTransactions, runTransaction, undoRecord, withLibraryLock, type RecoveryReport, type TxHooks } from './apply'
import { unresolvedConflicts } from './changes'
import { activeApplies, readJournal, STATE_DIR, stateDir, type JournalRecord } from './journal'
import { chunked, jsonPieces } from './json-pieces'
import { buildPlan, similarityParts, type CurationProgress } from './proposals'
import type { TermTable } from '../text/doc-terms'
import { STREAMED_SCAN_MIN_DOCS, StreamedScan } from '../text/streamed-scan'
import { warmCurationWorkers } from './warm-up'
import { cutCacheFile, loadCut, saveCut } from './cut-cache'
import { corpusDigest, pairsCacheFile, pairsForKey, readPairsFile, savePairs, type KeptJoin, type PairsKey } from './pairs-cache'
import { documentKey, encodeTermCache, loadTermCache, saveTermCache, termCacheFile } from './term-cache'
import type { CurationSettings } from './settings'

/** The pending plan as saved in `.skillbench/plan.json`. */
export interface SavedPlan extends CurationPlan {
  version: 1
  created_at: string
  library: string
}

export function planPath(root: string): string {
  return path.join(stateDir(root), 'plan.json')
}

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
}

/**
 * Opens the library and rolls back / completes interrupted transactions. Opened to be curated, the join's workers
 * start while the library is read, and a library curated for the first time has its text scanned meanwhile.
 */
export async function openForCuration(dir: string, opts: OpenForCurationOptions = {}): Promise<OpenedLibrary> {
  const toCurate = opts.toCurate
  let streamed: StreamedScan | undefined
  const onListing = (root: string, files: number): ((skill: Skill) => void) | undefined => {
    // While the streamed scan runs, both cores are busy: the join's workers start when it is done.
    streamed = streamedScanFor(root, files, toCurate?.cacheDir, () => warmCurationWorkers(files))
    if (!streamed) warmCurationWorkers(files)
    const scan = streamed
    return scan && ((skill) => void (skill.legacy || scan.add(similarityParts(skill))))
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
  opts.onProgress?.({ step: 1, message: `Loaded ${active.length} skills` })
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
  const legacyDir = path.join(root, 'legacy')
  // Non-skill files in legacy/ also block names.
  for (const name of await fs.promises.readdir(legacyDir).catch(() => [] as string[])) existing.add(`legacy/${name}`)
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

/** The proposal kinds `curate` computes; a recomputed plan replaces exactly these. */
export const CURATION_KINDS: readonly ProposalKind[] = ['merge', 'consolidate', 'cleanup', 'review']
const CURATION_KINDS_SOURCE = CURATION_KINDS.join('|')

/**
 * A `"kind": "…"` member whose value is not a curation kind. Inside a JSON string every quote is escaped, so
 * this can only match JSON structure: a plan text without a match holds curation proposals only.
 */
const OTHER_KIND = new RegExp(`"kind"\\s*:\\s*"(?!(?:${CURATION_KINDS_SOURCE})")`)

/** Proposals of the saved plan that are not curation kinds and still wait for review (status from the journal). */
async function pendingOtherProposals(root: string): Promise<Proposal[]> {
  // The old plan can be large (every proposal carries exact file texts); when it holds only curation
  // proposals, which a new plan replaces anyway, it is not parsed at all.
  const text = await fs.promises.readFile(planPath(root), 'utf8').catch(() => null)
  if (text === null || !OTHER_KIND.test(text)) return []
  let current: SavedPlan
  try {
    current = (await proposalsWithStatus(root)).plan
  } catch (err) {
    // No plan yet: nothing to keep. An unreadable one cannot be kept either; it is replaced, as before.
    if (err instanceof CurationError) return []
    throw err
  }
  return proposalsToKeep(current)
}

/** The proposals a recomputed curation plan must keep: other producers' kinds still waiting for review. Pure. */
export function proposalsToKeep(plan: Pick<SavedPlan, 'proposals'> | undefined): Proposal[] {
  return (plan?.proposals ?? []).filter((p) => !CURATION_KINDS.includes(p.kind) && (p.status ?? 'pending') === 'pending')
}

/** Library-relative path of the pending plan. */
const PLAN_REL = `${STATE_DIR}/plan.json`

/** Saves the plan (call under the library lock: it is read, changed and written back by several processes). */
export async function savePlan(root: string, plan: SavedPlan): Promise<void> {
  // Serialised and written proposal by proposal (in ~1 MB writes): a large plan never exists as one string.
  await writeContained(root, PLAN_REL, chunked(jsonPieces(plan as unknown as Record<string, unknown>, 1), 1 << 20, '\n'))
}

/** The pending plan, or a not_found error saying to run curate first. */
export async function loadPlan(root: string): Promise<SavedPlan> {
  const text = await readContainedText(root, PLAN_REL)
  if (text === null) throw new CurationError('not_found', 'no pending plan in this library: run `skillbench curate` first')
  try {
    const plan = JSON.parse(text) as SavedPlan
    if (plan.version !== 1 || !Array.isArray(plan.proposals)) throw new Error('unknown format')
    return plan
  } catch (err) {
    throw new CurationError('invalid', `.skillbench/plan.json is unreadable (${(err as Error).message}): run \`skillbench curate\` again`)
  }
}

/**
 * The pending plan, or an empty one when the library has none yet (for adding proposals under the lock). Only a
 * missing plan is started afresh: an unreadable one is an error, never overwritten.
 */
export async function loadPlanOrEmpty(root: string, now: Date = new Date()): Promise<SavedPlan> {
  try {
    return await loadPlan(root)
  } catch (err) {
    if (!(err instanceof CurationError && err.code === 'not_found')) throw err
    return { version: 1, created_at: now.toISOString(), library: root, skills_loaded: 0, proposals: [], errors: [] }
  }
}

/** Plan proposals with their status brought up to date from the journal. */
export async function proposalsWithStatus(root: string): Promise<{ plan: SavedPlan; journal: JournalRecord[] }> {
  const plan = await loadPlan(root)
  const { records } = await readJournal(root)
  const active = new Set(activeApplies(records).map((r) => r.proposal_id))
  const everApplied = new Set(records.filter((r) => r.action === 'apply').map((r) => r.proposal_id))
  for (const p of plan.proposals) {
    if (active.has(p.id)) p.status = 'applied'
    else if (everApplied.has(p.id) && p.status !== 'rejected') p.status = 'undone'
    else if (p.status !== 'rejected') p.status = 'pending'
  }
  return { plan, journal: records }
}

function findProposal(plan: SavedPlan, id: string): Proposal {
  const p = plan.proposals.find((x) => x.id === id)
  if (!p) throw new CurationError('not_found', `no proposal ${JSON.stringify(id)} in the pending plan (see \`skillbench proposals\`)`)
  return p
}

/** Applies one proposal of the pending plan (all-or-nothing) and journals it. */
export async function acceptProposal(root: string, id: string, by: string, hooks: TxHooks = {}): Promise<JournalRecord> {
  return withLibraryLock(root, async () => {
    await recoverTransactions(root)
    const { plan } = await proposalsWithStatus(root)
    const proposal = findProposal(plan, id)
    if (proposal.status === 'applied') throw new CurationError('invalid', `proposal ${id} is already applied`)
    if (proposal.status === 'rejected') throw new CurationError('invalid', `proposal ${id} was rejected; run curate again to get a fresh plan`)
    // a merge of two sides (update from upstream, a deployed copy's change) may keep both between markers: a person decides
    const unresolved = unresolvedConflicts(proposal.changes)
    if (unresolved.length > 0) throw new CurationError('invalid', `proposal ${id} still marks places changed on both sides (<<<<<<< … >>>>>>>) in ${unresolved.join(', ')}: edit the result to keep what you want, then accept`)
    if (proposal.kind === 'review' && proposal.changes.every((c) => c.before === c.after)) {
      throw new CurationError('invalid', `proposal ${id} asks for a review: edit the skill in the review (the app's diff view) and accept to save it, or reject it to keep the skill as it is`)
    }
    const record = await applyProposal(root, proposal, { by, ...hooks })
    proposal.status = 'applied'
    await savePlan(root, plan)
    return record
  })
}

/** Marks a pending proposal rejected (nothing on disk changes). */
export async function rejectProposal(root: string, id: string): Promise<Proposal> {
  return withLibraryLock(root, async () => {
    const { plan } = await proposalsWithStatus(root)
    const proposal = findProposal(plan, id)
    if (proposal.status === 'applied') throw new CurationError('invalid', `proposal ${id} is applied: use undo`)
    proposal.status = 'rejected'
    await savePlan(root, plan)
    return proposal
  })
}

/** Undoes an applied proposal (by proposal id or journal record id), if its files are unchanged since. */
export async function undoApplied(root: string, id: string, by: string, hooks: TxHooks = {}): Promise<JournalRecord> {
  return withLibraryLock(root, async () => {
    await recoverTransactions(root)
    const { records } = await readJournal(root)
    const record = activeApplies(records).find((r) => r.id === id || r.proposal_id === id)
    if (!record) {
      const known = records.some((r) => r.id === id || r.proposal_id === id)
      throw new CurationError('not_found', known ? `${id} is already undone` : `nothing applied with id ${JSON.stringify(id)} in the journal`)
    }
    const undo = await undoRecord(root, record, by, hooks)
    const plan = await loadPlan(root).catch(() => null)
    const p = plan?.proposals.find((x) => x.id === record.proposal_id)
    if (plan && p) {
      p.status = 'undone'
      await savePlan(root, plan)
    }
    return undo
  })
}

/** Where a legacy skill goes back to: its old name, or a free one when that is taken again (same names as the store picks). */
function restoreTarget(root: string, skill: { path: string; title: string; skill_id: string; format: string }, now: Date): { from: string; to: string; file: string } {
  const taken = (rel: string): boolean => fs.existsSync(path.join(root, ...rel.split('/')))
  if (skill.format !== 'skill-md') {
    const base = path.posix.basename(skill.path)
    return { from: skill.path, to: taken(base) ? buildSkillFileName(skill.title, skill.skill_id, taken) : base, file: '' }
  }
  const fromDir = path.posix.dirname(skill.path)
  const relDir = fromDir.replace(/^legacy\//, '')
  let to = relDir
  const ts = Math.floor(now.getTime() / 1000)
  for (let n = 1; taken(to); n++) to = `${relDir}_${ts}${n > 1 ? `_${n}` : ''}`
  return { from: fromDir, to, file: 'SKILL.md' }
}

/**
 * Brings a legacy skill back as one journaled transaction (the same machinery as accept): a crash leaves
 * the skill either still in legacy/ with no record, or restored with its journal record.
 */
export async function restoreSkill(opened: OpenedLibrary, skillId: string, by: string, hooks: TxHooks = {}): Promise<JournalRecord> {
  const { library, root } = opened
  return withLibraryLock(root, async () => {
    await recoverTransactions(root)
    const before = await library.get(skillId, { includeLegacy: true })
    if (!before.legacy) throw new CurationError('invalid', `skill ${skillId} is not in legacy/`)
    const active = (await library.list()).skills.find((s) => s.skill_id === before.skill_id)
    if (active) throw new CurationError('invalid', `an active skill with id ${before.skill_id} already exists (${active.path})`)
    const text = (await library.readRaw(before.path)).text
    const move = restoreTarget(root, before, new Date())
    const restoredPath = move.file ? `${move.to}/${move.file}` : move.to
    return runTransaction(
      root,
      {
        action: 'restore',
        proposal_id: `restore-${skillId}`,
        kind: 'restore',
        by,
        changes: [
          { path: before.path, before: text, after: null },
          { path: restoredPath, before: null, after: text }
        ],
        ops: [{ op: 'move', from: move.from, to: move.to, file: move.file, text }]
      },
      hooks
    )
  })
}
