/** The I/O side of create / enhance / none: finding the closest skills and saving enhancement proposals. */
import type { Proposal, QueriedSkill } from '../../shared/types'
import { withLibraryLock } from '../store/lock'
import { loadPlan, loadPlanOrEmpty, savePlan, statusByJournal, type ProposalStatus } from '../review/plan'
import { readJournal } from '../review/journal'
import type { SkillStore } from '../store/types'
import { createSkillTools } from '../tools/skill-tools'

/** The closest active skills for a text, via query_skill WITHOUT touching them (no fetch_count / last_used_at write). */
export async function findClosestSkills(store: SkillStore, text: string, top = 3): Promise<QueriedSkill[]> {
  if (!text.trim()) return []
  const res = await createSkillTools(store, { snapshotMaxAgeMs: 0 }).query_skill(text, { top, touch: false })
  return res.status === 'success' ? res.skills : []
}

/**
 * Adds a proposal to the library's pending plan (`.skillbench/plan.json`, the curation plan), creating the
 * plan when there is none. A proposal with the same id already there is left as it is: its status is returned
 * (by the journal: still pending, accepted, rejected, or undone), so a run can say what became of it.
 */
export async function savePendingProposal(libraryRoot: string, proposal: Proposal, now: Date = new Date()): Promise<'added' | { exists: ProposalStatus }> {
  return withLibraryLock(libraryRoot, async () => {
    const plan = await loadPlanOrEmpty(libraryRoot, now)
    const before = plan.proposals.find((p) => p.id === proposal.id)
    if (before) return { exists: statusByJournal((await readJournal(libraryRoot)).records)(before) }
    plan.proposals.push(proposal)
    await savePlan(libraryRoot, plan)
    return 'added'
  })
}

/** Task folders that already have an enhancement waiting for review in the library's plan. */
export async function pendingEnhanceTasks(libraryRoot: string): Promise<Set<string>> {
  const out = new Set<string>()
  try {
    const plan = await loadPlan(libraryRoot)
    for (const p of plan.proposals) {
      if (p.kind === 'enhance' && p.status !== 'rejected' && typeof p.evidence.task === 'string') out.add(p.evidence.task)
    }
  } catch {
    // no plan yet
  }
  return out
}
