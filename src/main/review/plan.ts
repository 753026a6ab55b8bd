/**
 * The pending plan (`.skillbench/plan.json`): read, saved, and its proposals' status brought up to date from the
 * journal. Every producer (curate, reflection, update, deploy) adds its proposals here; review decides them.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { CurationPlan, Proposal, ProposalKind } from '../../shared/types'
import { readContainedText, writeContained } from '../store/contained'
import { CurationError } from './transactions'
import { activeApplies, readJournal, STATE_DIR, stateDir, type JournalRecord } from './journal'
import { chunked, jsonPieces } from './json-pieces'
import { CodedError, reasonOf } from '../../shared/api-error'
import { coded } from '../../shared/error-codes'

/** The pending plan as saved in `.skillbench/plan.json`. */
export interface SavedPlan extends CurationPlan {
  version: 1
  created_at: string
  library: string
}

export function planPath(root: string): string {
  return path.join(stateDir(root), 'plan.json')
}

/** The proposal kinds `curate` computes; a recomputed plan replaces exactly these. */
export const CURATION_KINDS: readonly ProposalKind[] = ['merge', 'consolidate', 'cleanup', 'review']
const CURATION_KINDS_SOURCE = CURATION_KINDS.join('|')

/**
 * A `"kind": "…"` member whose value is not a curation kind. Inside a JSON string every quote is escaped, so
 * this can only match JSON structure: a plan text without a match holds curation proposals only.
 */
const OTHER_KIND = new RegExp(`"kind"\\s*:\\s*"(?!(?:${CURATION_KINDS_SOURCE})")`)

/** Proposals of the saved plan that are not curation kinds and still wait for review or were rejected (status from the journal). */
export async function pendingOtherProposals(root: string): Promise<Proposal[]> {
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

/**
 * The proposals a recomputed curation plan must keep: other producers' kinds still waiting for review, and those a
 * person rejected — curation computes them never again, so the plan is the only place they are kept, and their
 * rejection can be undone (unreject.ts) only while it holds them (a memory proposal's rejection record would
 * otherwise refuse its entry for good with no way back). Pure.
 */
export function proposalsToKeep(plan: Pick<SavedPlan, 'proposals'> | undefined): Proposal[] {
  return (plan?.proposals ?? []).filter((p) => !CURATION_KINDS.includes(p.kind) && ((p.status ?? 'pending') === 'pending' || p.status === 'rejected'))
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
  if (text === null) throw new CurationError('not_found', coded('review.no_plan'))
  try {
    const plan = JSON.parse(text) as SavedPlan
    if (plan.version !== 1 || !Array.isArray(plan.proposals)) throw new CodedError('invalid', coded('review.plan_unknown_format'))
    return plan
  } catch (err) {
    throw new CurationError('invalid', coded('review.plan_unreadable', { detail: reasonOf(err) }))
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

/** A plan proposal's status. */
export type ProposalStatus = NonNullable<Proposal['status']>

/**
 * A proposal's status by the journal (pure): applied while an apply of it stands, undone once every apply of it was
 * undone (unless rejected since), rejected as the plan says, else pending.
 */
export function statusByJournal(records: readonly JournalRecord[]): (p: Pick<Proposal, 'id' | 'status'>) => ProposalStatus {
  const active = new Set(activeApplies(records).map((r) => r.proposal_id))
  const everApplied = new Set(records.filter((r) => r.action === 'apply').map((r) => r.proposal_id))
  return (p) => (active.has(p.id) ? 'applied' : p.status === 'rejected' ? 'rejected' : everApplied.has(p.id) ? 'undone' : 'pending')
}

/** Plan proposals with their status brought up to date from the journal. */
export async function proposalsWithStatus(root: string): Promise<{ plan: SavedPlan; journal: JournalRecord[] }> {
  const plan = await loadPlan(root)
  const { records } = await readJournal(root)
  const statusOf = statusByJournal(records)
  for (const p of plan.proposals) p.status = statusOf(p)
  return { plan, journal: records }
}
