/**
 * Building the curation plan: merge, consolidate and cleanup proposals with their evidence and the exact
 * before/after text of every file they touch. Pure except for the optional model calls, the caches the input
 * hands in (term cache, cut-off, kept pairs) and stopping warm worker threads it will not use; no library file is
 * written.
 */
import { createHash } from 'node:crypto'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { CurationPlan, FileChange, LoadError, ProtectedSkill, Proposal, ProposalKind, ProposalMember, Skill, UsageReport } from '../../shared/types'
import type { LlmClient } from '../llm/types'
import { formatTimestamp } from '../store/skill-meta'
import { allPairsAsync, joinWorkerCount, sharedTopTerms, type SimilarPairs } from '../text/all-pairs'
import { JoinArena } from '../text/join-arena'
import type { DocTermsOptions } from '../text/doc-terms'
import type { StreamedScan } from '../text/streamed-scan'
import { pairsAtLeast, updatePairs, type EarlierJoin, type UpdatedPairs } from '../text/pairs-update'
import { releaseWarmWorkers } from '../text/warm-workers'
import { buildTfIdfIndexAsync, type TfIdfIndex } from '../text/tfidf'
import { legacyMoveChanges, rewriteSkillText, unmovableReason } from '../review/changes'
import type { JoinShape } from './cut-cache'
import { consolidationClusters, mergeGroups } from './grouping'
import { askModel } from './llm-consolidate'
import type { WordTerms } from './evidence-words'
import { ContentJudge, familiesOf } from './content-judge'
import { FamilyTerms, judgedPairs, judgedSharedWords, splitDisagreeing, whatTheyShare } from './judged-groups'
import { similarityParts, similarityText } from './similarity-text'
import { mergeBodies, mergeMeta } from './merge-text'
import { protectionReason } from './protect'
import { resolveSettings, type CurationSettings } from './settings'
import { cleanupUsageEvidence, reviewProposal, usageById, useSince } from './usage-rules'
import { cleanupReason, cleanupWindow, coverageSummary, libraryWatch, type CleanupWindow } from './cleanup-evidence'
import { proposalFingerprint } from '../review/rejections'
import { chosenUses, guardGroup, recordedUses, survivorWhy, usedRetired, usedRetiredWarning } from './usage-guard'
import { codedLine, type CodedLine } from '../../shared/error-codes'

/** A line of curation's progress: its English `message` with its code and params (error-codes.ts), so the app words it. */
export interface CurationProgress extends CodedLine {
  step: 1 | 2 | 3
  /** Skills (or clusters) done so far, out of `total`: progress is reported per skill. */
  done?: number
  total?: number
  /** The skill (or the cluster's skills) being worked on, when the work goes one at a time. */
  skill?: string
}

export interface PlanInput {
  /** Active skills (legacy ones are ignored). */
  skills: readonly Skill[]
  /** Raw text of each skill file by library-relative path. */
  texts: ReadonlyMap<string, string>
  /** Every library-relative path that exists (legacy included), to pick free legacy/ names. */
  existingPaths: ReadonlySet<string>
  loadErrors?: readonly LoadError[]
  now: Date
  settings?: Partial<CurationSettings>
  llm?: LlmClient
  onProgress?: (p: CurationProgress) => void
  signal?: AbortSignal
  /** What agents really used (issue 14): cleanup spares skills used inside its window; failing skills get a review. */
  usage?: UsageReport
  /**
   * Pass-1 results kept from earlier runs (term-cache.ts): given the documents the index reads (one per skill,
   * as similarityParts gives them), which of them it has and where fresh results go. `keysLater`: the documents'
   * keys as the streamed scan computed them, once the build has used it (else undefined: key them here).
   */
  termCache?: (docs: ReadonlyArray<readonly string[]>, lines: boolean, keysLater?: () => readonly string[] | undefined) => Pick<DocTermsOptions, 'reuse' | 'onScanned'>
  /** The documents' text scan, streamed while the library was read (used when it covers exactly them). */
  streamedScan?: StreamedScan
  /**
   * The join's frequent-term cut-off an earlier run chose for a corpus of this shape (cut-cache.ts: it decides how
   * fast the join is, never its pairs), and where to keep the one this run chose.
   */
  joinCut?: { reuse(shape: JoinShape): Promise<number | undefined>; keep(shape: JoinShape, frequentDf: number): void }
  /**
   * The join's pairs an earlier run found for exactly these texts and this threshold (pairs-cache.ts; asked after
   * termCache; complete at or below the threshold); else an earlier run's join for this threshold, to bring up to
   * date (text/pairs-update.ts); and where to keep this run's join.
   */
  /**
   * Work of the caller's that does not depend on the plan, run while the similarity join runs on worker threads
   * (this thread only waits for them then); not called when the join does not run on workers, nor from
   * OVERLAP_JOIN_MAX_SKILLS skills on.
   */
  whileJoining?: () => void
  joinPairs?: {
    reuse(threshold: number): SimilarPairs | undefined
    earlier(threshold: number): EarlierJoin | undefined
    keep(threshold: number, join: EarlierJoin): void
  }
}

/** Stable id: same kind, same members in the same file state → same id. */
export function proposalId(kind: ProposalKind, members: readonly Skill[]): string {
  const key = [kind, ...members.map((s) => `${s.skill_id}:${s.path}:${s.hash}`).sort()].join('\n')
  return `${kind.slice(0, 1)}-${createHash('sha256').update(key).digest('hex').slice(0, 12)}`
}

function memberOf(s: Skill): ProposalMember {
  return { skill_id: s.skill_id, title: s.title, path: s.path }
}

export { similarityParts, similarityText }

interface Engine {
  index: TfIdfIndex
  pairs: SimilarPairs
}

/**
 * The similarity index of the skills. Its own function so that what it was built from (the documents, the term
 * cache's table) is no longer referenced once it is built: the join that follows is the command's memory peak.
 */
async function similarityIndex(skills: readonly Skill[], settings: CurationSettings, input: PlanInput): Promise<TfIdfIndex> {
  // Template boilerplate lines are left out while the index is built (one pass over the text, two threads on
  // large libraries).
  const docs = skills.map(similarityParts)
  const streamed = input.streamedScan
  const kept = input.termCache?.(docs, settings.stripBoilerplate, streamed && (() => streamed.keys())) ?? {}
  // Term ids by document frequency: the join then takes each row's rare terms as they lie (all-pairs.ts). Rows are
  // digested when pairs are kept between runs (to recognise them in the next run).
  // Rows and postings in one arena when the join will run on worker threads: its WebAssembly kernel reads them there.
  // SKILLBENCH_JOIN_KERNEL=javascript keeps the JavaScript kernel (the same pairs; for comparing the two).
  const wasm = joinWorkerCount(skills.length) > 0 && process.env.SKILLBENCH_JOIN_KERNEL !== 'javascript'
  const arena = wasm ? JoinArena.create() : undefined
  const options = { ...kept, termOrder: 'df' as const, rowDigests: input.joinPairs !== undefined, ...(arena ? { arena } : {}), ...(streamed ? { streamed } : {}), ...(input.signal ? { signal: input.signal } : {}) }
  return buildTfIdfIndexAsync(docs, settings.stripBoilerplate ? { boilerplate: {}, ...options } : options)
}

async function similarityEngine(skills: readonly Skill[], settings: CurationSettings, input: PlanInput): Promise<Engine> {
  const index = await similarityIndex(skills, settings, input)
  if (input.signal) {
    // A turn of the event loop: a Ctrl-C during the index build (synchronous) is seen before the join starts.
    await nextTurn()
    input.signal.throwIfAborted()
  }
  // One join at the lowest similarity either step needs; each step filters with its own exact test.
  const floor = Math.min(settings.mergeThreshold, 1 - settings.eps) - 1e-9
  const threshold = Math.max(1e-6, floor)
  const total = index.docCount
  // Nothing changed since an earlier run: its pairs are these texts' pairs.
  const keptPairs = input.joinPairs?.reuse(threshold)
  // Workers warmed for the index build and the join that will not be used go now, not when the plan is built:
  // each idle one holds ~9 MB through the command's peak.
  if (keptPairs) {
    releaseWarmWorkers()
    input.onProgress?.({ step: 1, ...codedLine('curate.comparing_unchanged'), done: total, total })
    input.onProgress?.({ step: 1, ...codedLine('curate.pairs_kept') })
    return { index, pairs: pairsAtLeast(keptPairs, threshold) }
  }
  // Some skills changed: the earlier pairs are brought up to date when that is the smaller work.
  const update = updateKeptJoin(index, threshold, input)
  releaseWarmWorkers(update.updated ? 0 : joinWorkerCount(total))
  if (update.updated) {
    input.onProgress?.({ step: 1, ...codedLine('curate.comparing_updated', { n: update.updated.rejoined }), done: total, total })
    input.onProgress?.({ step: 1, ...codedLine('curate.pairs_updated', { n: update.updated.rejoined }) })
    return { index, pairs: pairsAtLeast(update.updated.pairs, threshold) }
  }
  // The whole join. A library curated before is being edited: its join reaches a margin below the threshold, which
  // the next runs' updates draw on. A library's first run joins at the threshold (nothing more to pay for a first look).
  const level = update.earlier ? Math.max(1e-6, threshold - JOIN_MARGIN) : threshold
  // The cut-off only decides how fast the join is: the one kept for this threshold serves the lower level too.
  const shape: JoinShape = { docs: total, entries: index.colIdx.length, threshold }
  const earlierCut = await input.joinCut?.reuse(shape)
  const pairs = await allPairsAsync(index, level, {
    signal: input.signal,
    ...(input.whileJoining ? { whileWaiting: input.whileJoining } : {}),
    onProgress: (done, total) => input.onProgress?.({ step: 1, ...codedLine('curate.comparing'), done, total }),
    ...(earlierCut !== undefined ? { frequentDf: earlierCut } : {})
  })
  if (earlierCut === undefined && pairs.frequentDf !== undefined) input.joinCut?.keep(shape, pairs.frequentDf)
  input.joinPairs?.keep(threshold, joinRecord(index, pairs, level))
  return { index, pairs: pairsAtLeast(pairs, threshold) }
}

/**
 * How far below the plan's threshold the join of a library being edited reaches (pairs-update.ts): later runs bring
 * its pairs up to date while the rows' drift since then fits in it. At 20,000 skills joining at 0.48 instead of 0.5
 * took ~5 % more time and found 345,000 pairs instead of 221,000.
 */
const JOIN_MARGIN = 0.02
/** A row that moved more than this (one of its terms much rarer or commoner) is compared with every row again. */
const MAX_DRIFT = JOIN_MARGIN / 8
/**
 * Posting entries the rows compared again may read, per entry of the index, before the whole join is the better
 * way: at 20,000 skills (4.5 M entries) ~135 M entries, about the time of a quarter of the join on one thread.
 */
const UPDATE_WORK_PER_ENTRY = 30

/**
 * The earlier run's join brought up to date and kept for the next run, when there is one for this threshold and
 * the update is the smaller work. The earlier join is only referenced here: its arrays can go before a whole join.
 */
function updateKeptJoin(index: TfIdfIndex, threshold: number, input: PlanInput): { earlier: boolean; updated?: UpdatedPairs } {
  const earlier = input.joinPairs?.earlier(threshold)
  if (!earlier || !index.rowDigests) return { earlier: earlier !== undefined }
  const updated = updatePairs(index, earlier, { threshold, maxDrift: MAX_DRIFT, maxWork: UPDATE_WORK_PER_ENTRY * index.colIdx.length })
  if (updated) input.joinPairs?.keep(threshold, joinRecord(index, updated.pairs, updated.level))
  return { earlier: true, ...(updated ? { updated } : {}) }
}

/** What a run keeps of its join for the next one (the index is built with row digests whenever pairs are kept). */
function joinRecord(index: TfIdfIndex, pairs: SimilarPairs, level: number): EarlierJoin {
  if (!index.rowDigests) throw new Error('a kept join needs the index built with row digests')
  return { docs: index.docCount, vocab: index.vocab, df: index.df, digests: index.rowDigests, level, pairs: () => pairs }
}

function rowsOnly(engine: Engine): Engine {
  return { pairs: engine.pairs, index: engine.index.rowsOnly() }
}

function pairScores(group: readonly number[], index: TfIdfIndex): number[] {
  const out: number[] = []
  for (let x = 0; x < group.length; x++) for (let y = x + 1; y < group.length; y++) out.push(index.similarity(group[x]!, group[y]!))
  return out
}

function sharedTerms(group: readonly number[], index: TfIdfIndex, n: number, skip?: (term: string) => boolean): string[] {
  // Terms shared by every member, ranked by their summed pairwise contribution.
  const counts = new Map<string, number>()
  for (let x = 0; x < group.length; x++) {
    for (let y = x + 1; y < group.length; y++) {
      sharedTopTerms(index, group[x]!, group[y]!, 64).forEach((t, rank) => {
        if (!skip?.(t)) counts.set(t, (counts.get(t) ?? 0) + 64 - rank)
      })
    }
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n).map(([t]) => t)
}

const PRIMARY_WHY: Record<ReturnType<typeof survivorWhy>, string> = { quality: 'rated highest', used: 'used most', oldest: 'the oldest' }

/** 0.8617 → "0.86". */
function two(x: number): string {
  return x.toFixed(2)
}

interface MergeResult {
  changes: FileChange[]
  primary: Skill
}

/** Changes for "primary absorbs the others": primary rewritten (merged meta, body, optional title/usage), others to legacy/. */
function mergeChanges(
  primary: Skill,
  retired: readonly Skill[],
  input: PlanInput,
  reserved: Set<string>,
  override: { title?: string; usageConditions?: string; body?: string } = {}
): MergeResult {
  const texts = input.texts
  const rawOf = (s: Skill): string => {
    const t = texts.get(s.path)
    if (t === undefined) throw new Error(`${s.path}: file text not loaded`)
    return t
  }
  const meta = mergeMeta(primary, retired)
  const body = override.body ?? mergeBodies([primary.body, ...retired.map((s) => s.body)])
  const patch = {
    ...meta,
    ...(override.title ? { title: override.title } : {}),
    ...(override.usageConditions !== undefined ? { usage_conditions: override.usageConditions } : {}),
    updated_at: formatTimestamp(input.now)
  }
  const before = rawOf(primary)
  const changes: FileChange[] = [{ path: primary.path, before, after: rewriteSkillText(before, primary, patch, body) }]
  for (const s of retired) changes.push(...legacyMoveChanges(s, rawOf(s), input.existingPaths, reserved, input.now))
  return { changes, primary }
}

/** From this many skills nothing is worked out beside the join (see buildPlan). */
const OVERLAP_JOIN_MAX_SKILLS = 10_000

/** Computes the plan (see module comment). Never writes. */
export async function buildPlan(input: PlanInput): Promise<CurationPlan> {
  const settings = resolveSettings(input.settings)
  const skills = input.skills.filter((s) => !s.legacy)
  const errors: LoadError[] = [...(input.loadErrors ?? [])]
  const proposals: Proposal[] = []
  const reserved = new Set<string>()
  const allPaths = skills.map((s) => s.path)
  // each skill's protection once (it parses three timestamps)
  const protection = skills.map((s) => protectionReason(s, settings.protectEdited))
  const blocked = skills.map((s, i) => protection[i] ?? unmovableReason(s, allPaths) ?? (input.texts.has(s.path) ? null : 'file text not loaded'))
  const protectedSkills: ProtectedSkill[] = []
  skills.forEach((s, i) => {
    const why = protection[i]
    if (why) protectedSkills.push({ skill_id: s.skill_id, title: s.title, path: s.path, reason: s.pinned === true ? 'pinned' : 'edited' })
  })
  const used = new Uint8Array(skills.length)
  const eligible = (i: number): boolean => blocked[i] === null && used[i] === 0
  const progress = input.onProgress ?? (() => undefined)
  const wordTerms: WordTerms = new Map()
  // Recorded uses decide the survivor and keep used skills apart (usage-guard.ts).
  const usage = usageById(input.usage)
  const usesOf = (s: Skill): number => recordedUses(s, usage.get(s.skill_id))
  /** The group without the used members that are other skills, survivor first; null when fewer than two are left. */
  const guarded = (group: readonly number[], index: TfIdfIndex): number[] | null => {
    const { kept } = guardGroup(group, skills, { recorded: usesOf, chosen: (s) => chosenUses(usage.get(s.skill_id)) }, (a, b) => index.similarity(a, b))
    return kept.length >= 2 ? kept : null
  }
  /** Evidence and reason suffix for retired members agents used. */
  const usedNote = (retired: readonly Skill[]): { evidence: Record<string, unknown>; warning: string } => {
    const used = usedRetired(retired, (s) => usage.get(s.skill_id))
    return { evidence: used.length ? { retired_with_uses: used } : {}, warning: usedRetiredWarning(used) }
  }

  progress({ step: 1, ...codedLine('curate.step1') })
  // The plan reads rows only: the postings (a third of the index's memory) can go before it builds proposals.
  // What the skills are about, judged by content (never by names): pairs that only share a template are left out.
  // The judge reads what each skill's text holds from the index (once it is built); the subjects its families
  // announce it works out from the skills alone, while the join runs on worker threads (this thread waits then).
  const families = skills.length >= 2 && settings.judgeContent ? familiesOf(skills.map((s) => s.path)) : null
  let family: FamilyTerms | null = null
  const judge = families ? new ContentJudge(skills, families, { holds: (i, t) => family!.holds(i, t), common: (i, t) => family!.common(i, t) }) : null
  const whileJoining = (): void => {
    judge?.prepareTemplates()
    input.whileJoining?.()
  }
  // Not on the largest libraries: there the join is the command's memory peak, and what this work keeps (subjects,
  // the stems text) would add to it (+6 MB at 20,000 skills) for a gain small beside the join's seconds.
  const overlap = skills.length < OVERLAP_JOIN_MAX_SKILLS
  const engine = skills.length >= 2 ? rowsOnly(await similarityEngine(skills, settings, overlap ? { ...input, whileJoining } : { ...input, whileJoining: undefined })) : null
  family = engine && families ? new FamilyTerms(engine.index, families) : null
  /** Evidence words of a group: its shared subject and the distinctive words it shares (its family's common ones left out). */
  const evidenceWords = (group: readonly number[]): ReturnType<typeof judgedSharedWords> =>
    judgedSharedWords(group, skills, judge, family, settings.evidenceTerms, wordTerms, (g, n, skip) => sharedTerms(g, engine!.index, n, skip))
  if (engine) {
    const { index, pairs } = engine
    // Pairs whose subjects disagree are no candidates (content-judge.ts): the template they share is not a reason.
    const mergePairs = judge ? judgedPairs(pairs, judge, 'merge', settings.mergeThreshold) : pairs
    const agreed = judge ? (a: number, b: number): number => (judge.judge(a, b, 'merge').same ? index.similarity(a, b) : 0) : (a: number, b: number): number => index.similarity(a, b)
    for (const found of mergeGroups(mergePairs, eligible, agreed, settings.mergeThreshold, settings.maxMergeGroup)) {
      const group = guarded(found, index)
      if (!group) continue
      const members = group.map((i) => skills[i]!)
      const primary = members[0]!
      const scores = pairScores(group, index)
      const note = usedNote(members.slice(1))
      const shared = evidenceWords(group)
      try {
        const { changes } = mergeChanges(primary, members.filter((s) => s !== primary), input, reserved)
        proposals.push({
          id: proposalId('merge', members),
          kind: 'merge',
          members: [primary, ...members.filter((s) => s !== primary)].map(memberOf),
          score: round(Math.min(...scores)),
          reason: `${members.length} skills are the same skill: ${whatTheyShare(shared)} (${two(Math.min(...scores))} similar); "${primary.title}", ${PRIMARY_WHY[survivorWhy(primary, members, usesOf)]}, stays and takes in what the others add; they move to the legacy folder (restorable)${note.warning}`,
          evidence: {
            ...note.evidence,
            similarity: round(Math.min(...scores)),
            pair_similarities: scores.map(round),
            ...shared,
            primary: primary.skill_id,
            primary_why: survivorWhy(primary, members, usesOf),
            threshold: settings.mergeThreshold
          },
          changes,
          status: 'pending',
          author: 'offline'
        })
        for (const i of group) used[i] = 1
      } catch (err) {
        errors.push({ path: primary.path, reason: `merge not proposed: ${(err as Error).message}` })
      }
    }
  }
  progress({ step: 1, ...codedLine('curate.proposed_merges', { n: proposals.length }) })

  progress({ step: 2, ...codedLine('curate.step2') })
  if (engine) {
    const { index, pairs } = engine
    // Judged after clustering (a cheap post-filter: a cluster has at most maxClusterSize members), at a stricter bar
    // than a merge's: a cluster whose members do not all agree is split into the groups that do.
    const grouped = consolidationClusters(skills.length, pairs, eligible, settings.eps, settings.minSamples, settings.maxClusterSize)
    const clusters = judge ? grouped.clusters.flatMap((c) => splitDisagreeing(c, judge, 'consolidate', (a, b) => index.similarity(a, b))) : grouped.clusters
    const oversized = grouped.oversized
    for (const c of oversized) {
      errors.push({ path: skills[c[0]!]!.path, reason: `a cluster of ${c.length} skills stays larger than ${settings.maxClusterSize} even at a tight eps: not proposed (review by hand)` })
    }
    let done = 0
    for (const found of clusters) {
      input.signal?.throwIfAborted()
      progress({ step: 2, ...codedLine('curate.consolidating'), done: done++, total: clusters.length, skill: found.map((i) => skills[i]!.title).join(' + ') })
      const cluster = guarded(found, index)
      if (!cluster) continue
      const members = cluster.map((i) => skills[i]!)
      const scores = pairScores(cluster, index)
      const mean = scores.reduce((a, b) => a + b, 0) / scores.length
      const shared = evidenceWords(cluster)
      const evidence = { similarity: round(mean), pair_similarities: scores.map(round), ...shared, eps: settings.eps, min_samples: settings.minSamples }
      const primary = members[0]!
      try {
        let proposal: Proposal | null
        if (input.llm) {
          const d = await askModel(input.llm, members, primary.skill_id, settings.llmSkillChars, input.signal)
          if (d.kind === 'error') {
            errors.push({ path: primary.path, reason: `consolidation of ${members.map((s) => s.skill_id).join(', ')} not proposed: ${d.message}` })
            continue
          }
          if (d.kind === 'keep') continue
          const keep = members.find((s) => s.skill_id === d.primaryId)!
          const retired = members.filter((s) => d.retire.includes(s.skill_id))
          const note = usedNote(retired)
          const { changes } = mergeChanges(keep, retired, input, reserved, { title: d.title, usageConditions: d.usageConditions, body: d.body ?? keep.body })
          proposal = {
            id: proposalId('consolidate', members),
            kind: 'consolidate',
            members: [keep, ...members.filter((s) => s !== keep)].map(memberOf),
            score: round(mean),
            reason: `${members.length} skills cover the same ground: ${whatTheyShare(shared)} (${two(mean)} similar on average); ${d.model ?? input.llm.model}: ${d.reason}${note.warning}`,
            evidence: { ...evidence, ...note.evidence, primary: keep.skill_id, retired: retired.map((s) => s.skill_id), model_reason: d.reason },
            changes,
            status: 'pending',
            author: d.model ?? input.llm.model
          }
        } else {
          const note = usedNote(members.slice(1))
          const { changes } = mergeChanges(primary, members.filter((s) => s !== primary), input, reserved)
          proposal = {
            id: proposalId('consolidate', members),
            kind: 'consolidate',
            members: [primary, ...members.filter((s) => s !== primary)].map(memberOf),
            score: round(mean),
            reason: `${members.length} skills cover the same ground: ${whatTheyShare(shared)} (${two(mean)} similar on average); the steps only some of them have are combined into "${primary.title}", the others move to the legacy folder (restorable); read and edit the result before accepting${note.warning}`,
            evidence: { ...evidence, ...note.evidence, primary: primary.skill_id, primary_why: survivorWhy(primary, members, usesOf) },
            changes,
            status: 'pending',
            author: 'offline'
          }
        }
        proposals.push(proposal)
        for (const i of cluster) used[i] = 1
      } catch (err) {
        if (input.signal?.aborted) throw err
        errors.push({ path: primary.path, reason: `consolidation not proposed: ${(err as Error).message}` })
      }
    }
    if (clusters.length > 0) progress({ step: 2, ...codedLine('curate.consolidating'), done: clusters.length, total: clusters.length })
  }
  progress({ step: 2, ...codedLine('curate.proposed_consolidations', { n: proposals.filter((p) => p.kind === 'consolidate').length }) })

  progress({ step: 3, ...codedLine('curate.step3') })
  // Judged only over days something watched the library's skills being used (cleanup-evidence.ts).
  const watch = libraryWatch(skills, input.usage)
  const windows: CleanupWindow[] = []
  skills.forEach((s, i) => {
    progress({ step: 3, ...codedLine('curate.checking'), done: i + 1, total: skills.length, skill: s.title })
    if (!eligible(i) || s.fetch_count !== 0) return
    const w = cleanupWindow(s, watch, input.now.getTime(), settings.cleanupDays)
    windows.push(w)
    if (!w.judged) return
    // fetch_count only counts queries: an agent that loaded or read it inside the window used it
    if (useSince(usage.get(s.skill_id), w.from)) return
    try {
      const changes = legacyMoveChanges(s, input.texts.get(s.path)!, input.existingPaths, reserved, input.now)
      const ageDays = Math.floor((input.now.getTime() - w.arrived) / 86_400_000)
      proposals.push({
        id: proposalId('cleanup', [s]),
        kind: 'cleanup',
        members: [memberOf(s)],
        score: 0,
        reason: cleanupReason(w, settings.cleanupDays),
        evidence: {
          fetch_count: 0,
          created_at: s.created_at,
          age_days: ageDays,
          cleanup_days: settings.cleanupDays,
          observed_from: new Date(w.from).toISOString(),
          observed_days: w.days,
          observed_by: w.sources.map((o) => ({ kind: o.kind, dir: o.dir, from: new Date(Math.max(Date.parse(o.from), w.arrived)).toISOString() })),
          ...cleanupUsageEvidence(usage.get(s.skill_id), input.usage)
        },
        changes,
        status: 'pending',
        author: 'offline'
      })
      used[i] = 1
    } catch (err) {
      errors.push({ path: s.path, reason: `cleanup not proposed: ${(err as Error).message}` })
    }
  })
  const coverage = coverageSummary(watch, settings.cleanupDays, windows)
  if (coverage.sources.length === 0 && windows.length > 0) {
    progress({ step: 3, ...codedLine('curate.usage_unwatched') })
  }
  progress({ step: 3, ...codedLine('curate.proposed_cleanups', { n: proposals.filter((p) => p.kind === 'cleanup').length }) })
  if (input.usage) {
    skills.forEach((s, i) => {
      const u = usage.get(s.skill_id)
      if (!eligible(i) || u?.verdict !== 'fails-more') return
      proposals.push(reviewProposal(proposalId('review', [s]), s, memberOf(s), input.texts.get(s.path)!, u, input.usage!))
      used[i] = 1
    })
    progress({ step: 3, ...codedLine('curate.proposed_reviews', { n: proposals.filter((p) => p.kind === 'review').length }) })
  }
  // What a person's rejection holds on: the members and their content (review/rejections.ts).
  const byPath = new Map(skills.map((s) => [s.path, s]))
  for (const p of proposals) p.fingerprint = proposalFingerprint(p.kind, p.members.map((m) => ({ skill_id: m.skill_id, hash: byPath.get(m.path)?.hash ?? '' })))
  return { skills_loaded: skills.length, proposals, errors, protected: protectedSkills, cleanup: coverage }
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4
}
