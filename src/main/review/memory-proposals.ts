/**
 * Memory proposals (kind `memory`, seed 003): entries for a workspace's lessons.md, preferences.md or
 * procedural.md that reflection found (a hallucinated tool, a critic's suggestion, tool statistics, a stated
 * preference) or an agent asked for through MCP in proposal mode. They wait in the pending plan like every other
 * proposal; accepting adds the entries under the memory lock (deduplicated against the files as they are then),
 * journals what was written, and undo takes exactly those bullets back.
 *
 * The memory folder is outside the library (`<root>/<user>/memory` beside `general/experience`), so these
 * proposals never touch the library's files: their `changes` show the memory file before and after, relative to
 * the workspace, for the reviewer; the journal record carries the workspace and the bullets written.
 */
import { createHash, randomBytes } from 'node:crypto'
import path from 'node:path'
import type { Proposal } from '../../shared/types'
import { addMemoryEntries, MEMORY_TARGETS, revertMemoryEntries, targetFile, withEntries, type MemoryTarget, type WrittenEntry } from '../memory/memory-entries'
import { memoryPaths, readMem, realWorkspace } from '../memory/memory-files'
import { normalizeEntry, oneLine, parseEntries } from '../memory/text'
import { withLibraryLock } from '../store/lock'
import { appendJournal, newRecordId, type JournalRecord } from './journal'
import { loadPlanOrEmpty, proposalsWithStatus, savePlan } from './plan'
import { readRejections } from './rejections'
import { CurationError } from './transactions'
import { coded, type CodedText } from '../../shared/error-codes'
import { codedReason } from '../../shared/coded-reason'

/** What found an entry. */
export type MemorySource = 'hallucinated_tool' | 'critic' | 'tool_stats' | 'preference' | 'agent'

/** A memory proposal's own evidence (`evidence.memory`). */
export interface MemoryEvidence {
  /** The workspace holding `memory/` (absolute, real path). */
  workspace: string
  target: MemoryTarget
  entries: string[]
  source: MemorySource
}

/** What to propose. */
export interface MemoryProposalInput {
  workspace: string
  target: MemoryTarget
  entries: string[]
  source: MemorySource
  /** Why, in a sentence (the tasks it was seen in, the numbers), by code: the proposal's `reason` is its English. */
  reason: CodedText
  /** offline, reflection, mcp:<client>… */
  author: string
  /** More evidence for the reviewer (task paths, counts). */
  details?: Record<string, unknown>
}

/** The journal's part of an applied memory proposal: enough to undo it bullet by bullet. */
export interface MemoryJournal {
  workspace: string
  written: WrittenEntry[]
}

/** The evidence of a memory proposal, or undefined when it is not one (or is malformed). Pure. */
export function memoryEvidence(p: Proposal): MemoryEvidence | undefined {
  const m = p.evidence.memory as Partial<MemoryEvidence> | undefined
  if (p.kind !== 'memory' || !m || typeof m.workspace !== 'string' || !path.isAbsolute(m.workspace)) return undefined
  if (!MEMORY_TARGETS.includes(m.target as MemoryTarget) || !Array.isArray(m.entries)) return undefined
  return { workspace: m.workspace, target: m.target as MemoryTarget, entries: m.entries.filter((e): e is string => typeof e === 'string'), source: (m.source ?? 'agent') as MemorySource }
}

/** A preference a memory proposal still waiting for review would add (the Memory screen lists them). */
export interface ProposedPreference {
  proposalId: string
  text: string
  /** How many tasks stated it (the proposal's `task_count`; 1 when it does not say). */
  tasks: number
}

/**
 * The preferences the plan's memory proposals for `workspace` (a real path) would add, in the plan's order: those
 * waiting for a decision (pending, or undone and so up for review again). Pure; statuses as `proposalsWithStatus` set them.
 */
export function proposedPreferences(proposals: readonly Proposal[], workspace: string): ProposedPreference[] {
  return proposals.flatMap((p) => {
    const m = memoryEvidence(p)
    const status = p.status ?? 'pending'
    if (!m || m.target !== 'preferences' || m.workspace !== workspace || (status !== 'pending' && status !== 'undone')) return []
    const tasks = typeof p.evidence.task_count === 'number' && p.evidence.task_count > 0 ? p.evidence.task_count : 1
    return m.entries.map((text) => ({ proposalId: p.id, text, tasks }))
  })
}

/** The fingerprint of one proposal's entries in one workspace's file: the same lesson found again has it. Pure. */
export function memoryFingerprint(workspace: string, target: MemoryTarget, entries: readonly string[]): string {
  const key = ['memory', workspace, target, ...entries.map(normalizeEntry).sort()].join('\n')
  return createHash('sha256').update(key).digest('hex').slice(0, 24)
}

/** Where an entry already is, when proposing it again would repeat it. */
export type SkipReason = 'in_memory' | 'proposed' | 'rejected'

export interface ProposeMemoryResult {
  proposed: Proposal[]
  skipped: { entry: string; target: MemoryTarget; reason: SkipReason; proposal_id?: string }[]
}

/** True when `withEntries` leaves the text as it is: the file already holds the entry (or a near-duplicate). */
function alreadyIn(target: MemoryTarget, text: string | null, entry: string): boolean {
  try {
    return withEntries(target, text, [entry]) === (text ?? '')
  } catch {
    return false
  }
}

/** Entries as a bullet list (null for none), to test a new entry against them as against a file. */
function asBullets(entries: readonly string[]): string | null {
  return entries.length ? entries.map((e) => `- ${e}`).join('\n') + '\n' : null
}

/**
 * Adds memory proposals to the pending plan under the library lock. An entry the memory file holds already, or
 * that a proposal in the plan (waiting, applied, rejected or undone) or an earlier rejection holds, is skipped, so
 * the same lesson found in ten tasks and by two processes lands once.
 */
export async function proposeMemory(libraryRoot: string, inputs: readonly MemoryProposalInput[], now: Date = new Date()): Promise<ProposeMemoryResult> {
  const result: ProposeMemoryResult = { proposed: [], skipped: [] }
  if (inputs.length === 0) return result
  return withLibraryLock(
    libraryRoot,
    async () => {
      const plan = await loadPlanOrEmpty(libraryRoot, now)
      const statuses = await proposalsWithStatus(libraryRoot).then((r) => new Map(r.plan.proposals.map((p) => [p.id, p.status])), () => new Map<string, Proposal['status']>())
      const rejected = new Set((await readRejections(libraryRoot)).filter((r) => r.kind === 'memory').map((r) => r.fingerprint))
      for (const input of inputs) {
        const ws = await realWorkspace(input.workspace, true)
        const file = memoryPaths(ws)[input.target]
        const current = await readMem(ws, file)
        const inPlan = plan.proposals.map((p) => ({ p, m: memoryEvidence(p) })).filter((x) => x.m && x.m.workspace === ws && x.m.target === input.target)
        const entries: string[] = []
        for (const raw of input.entries) {
          const entry = oneLine(raw)
          if (!entry) continue
          if (alreadyIn(input.target, current, entry)) {
            result.skipped.push({ entry, target: input.target, reason: 'in_memory' })
            continue
          }
          if (rejected.has(memoryFingerprint(ws, input.target, [entry]))) {
            result.skipped.push({ entry, target: input.target, reason: 'rejected' })
            continue
          }
          // the same (or a near-duplicate) entry in a proposal already made, or earlier in this batch
          const holder = inPlan.find((x) => alreadyIn(input.target, asBullets(x.m!.entries), entry))
          if (holder || alreadyIn(input.target, asBullets(entries), entry)) {
            const status = holder ? (statuses.get(holder.p.id) ?? holder.p.status ?? 'pending') : 'pending'
            result.skipped.push({ entry, target: input.target, reason: status === 'rejected' ? 'rejected' : 'proposed', ...(holder ? { proposal_id: holder.p.id } : {}) })
            continue
          }
          entries.push(entry)
        }
        if (entries.length === 0) continue
        const fingerprint = memoryFingerprint(ws, input.target, entries)
        const proposal: Proposal = {
          id: `memory-${input.target}-${fingerprint.slice(0, 12)}-${randomBytes(2).toString('hex')}`,
          kind: 'memory',
          members: [],
          score: 1,
          ...codedReason(input.reason),
          evidence: { ...(input.details ?? {}), memory: { workspace: ws, target: input.target, entries, source: input.source } satisfies MemoryEvidence },
          changes: [{ path: targetFile(input.target), before: current, after: withEntries(input.target, current, entries) }],
          status: 'pending',
          author: input.author,
          fingerprint
        }
        plan.proposals.push(proposal)
        result.proposed.push(proposal)
      }
      if (result.proposed.length > 0) await savePlan(libraryRoot, plan)
      return result
    },
    { purpose: 'proposing memory entries' }
  )
}

/** The entries a (possibly reviewer-edited) proposal adds: bullets of its `after` that its `before` does not have. Pure. */
export function entriesToAdd(p: Proposal, m: MemoryEvidence): string[] {
  const change = p.changes.find((c) => c.path === targetFile(m.target))
  if (!change || change.after === null) return m.entries
  const before = new Set(parseEntries(change.before ?? '').map(normalizeEntry))
  return parseEntries(change.after).filter((e) => !before.has(normalizeEntry(e)))
}

/** Accepts a memory proposal (call under the library lock, with the plan loaded): writes the entries, journals them. */
export async function applyMemoryProposal(libraryRoot: string, proposal: Proposal, by: string, now: Date = new Date()): Promise<JournalRecord> {
  const m = memoryEvidence(proposal)
  if (!m) throw new CurationError('invalid', coded('review.memory_no_file', { id: proposal.id }))
  const entries = entriesToAdd(proposal, m)
  if (entries.length === 0) throw new CurationError('invalid', coded('review.memory_no_entry', { id: proposal.id, file: targetFile(m.target) }))
  const step = await addMemoryEntries(m.workspace, m.target, entries)
  if (step.written.length === 0) {
    throw new CurationError('conflict', coded(entries.length === 1 ? 'review.memory_holds_entry' : 'review.memory_holds_entries', { file: targetFile(m.target), workspace: m.workspace }))
  }
  const record: JournalRecord = {
    id: newRecordId(now),
    action: 'apply',
    proposal_id: proposal.id,
    kind: 'memory',
    at: now.toISOString(),
    by,
    ...(proposal.author ? { author: proposal.author } : {}),
    changes: step.files.map((f) => ({ path: f.file, before: f.before, after: f.after })),
    ops: [],
    memory: { workspace: m.workspace, written: step.written }
  }
  // the commit point: the entries are on disk, the record says so
  await appendJournal(libraryRoot, record)
  return record
}

/** Undoes an applied memory proposal: the bullets it wrote leave the files (a replaced key-value preference comes back). */
export async function undoMemoryRecord(libraryRoot: string, record: JournalRecord, by: string, now: Date = new Date()): Promise<JournalRecord> {
  const mem = record.memory
  if (!mem || !path.isAbsolute(mem.workspace) || !Array.isArray(mem.written)) throw new CurationError('invalid', coded('review.memory_record_unclear', { id: record.id }))
  return withLibraryLock(libraryRoot, async () => {
    const { files, missing } = await revertMemoryEntries(mem.workspace, mem.written)
    if (files.length === 0 && missing.length > 0) {
      throw new CurationError('conflict', coded('review.memory_cannot_undo', { id: record.proposal_id, entries: missing.map((w) => `"${w.entry.slice(0, 60)}"`).join(', '), files: [...new Set(missing.map((w) => w.file))].join(', ') }))
    }
    const undo: JournalRecord = {
      id: newRecordId(now),
      action: 'undo',
      proposal_id: record.proposal_id,
      kind: 'memory',
      at: now.toISOString(),
      by,
      author: by,
      changes: files.map((f) => ({ path: f.file, before: f.before, after: f.after })),
      ops: [],
      undoes: record.id
    }
    await appendJournal(libraryRoot, undo)
    return undo
  })
}

/** Re-exported so callers of the review engine need not reach into memory/ for the file names. */
export { targetFile, type MemoryTarget }
