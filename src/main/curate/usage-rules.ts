/**
 * What real usage changes in the curation plan (issue 14), as deterministic rules over the usage report
 * (pure): cleanup never retires a skill an agent used inside the cleanup window, whatever its fetch_count
 * says; a skill whose tasks went wrong clearly more often than the baseline gets a "review" proposal that
 * carries the failing tasks as its evidence. The thresholds are the report's own (`rules`).
 */
import type { Proposal, ProposalMember, Skill, SkillUsage, SkillUseTask, UsageReport } from '../../shared/types'

/** The report's figures per skill id. */
export function usageById(report: UsageReport | undefined): Map<string, SkillUsage> {
  return new Map((report?.skills ?? []).map((s) => [s.skill_id, s]))
}

/** A use of the skill at or after `cutoff` (ms), newest first; undefined when none. */
export function useSince(usage: SkillUsage | undefined, cutoff: number): SkillUseTask | undefined {
  return usage?.tasks.find((t) => Date.parse(t.at) >= cutoff)
}

/** What the cleanup evidence says about usage (so "never used" is shown as checked, and against what). */
export function cleanupUsageEvidence(usage: SkillUsage | undefined, report: UsageReport | undefined): Record<string, unknown> {
  if (!report) return { usage_checked: false }
  const last = usage?.tasks[0]
  return {
    usage_checked: true,
    uses: usage?.uses ?? 0,
    last_use: last ? { source: last.source, task: last.task, at: last.at } : null,
    sources_read: report.sources.map((s) => ({ kind: s.kind, dir: s.dir, tasks: s.tasks }))
  }
}

function pct(n: number, of: number): string {
  return of === 0 ? '0%' : `${Math.round((100 * n) / of)}%`
}

/** The tasks a reviewer should read first: those that failed or were corrected after using the skill. */
export function failingTasks(usage: SkillUsage, max = 20): SkillUseTask[] {
  return usage.tasks.filter((t) => t.outcome === 'failed' || t.outcome === 'corrected').slice(0, max)
}

/**
 * A "review this skill" proposal for a skill whose verdict is `fails-more`. Its one change is the skill file
 * unchanged: the reviewer edits it in the diff view and accepts to save the edit, or rejects to keep it as it is.
 */
export function reviewProposal(id: string, skill: Skill, member: ProposalMember, text: string, usage: SkillUsage, report: UsageReport): Proposal {
  const judged = usage.completed + usage.failed + usage.interrupted + usage.corrected + usage.incomplete
  const bad = usage.failed + usage.corrected
  const b = usage.baseline
  const baseBad = b.failed + b.corrected
  const rate = judged ? bad / judged : 0
  const baseRate = b.tasks ? baseBad / b.tasks : 0
  const sources = [...new Set(usage.tasks.map((t) => t.source))]
  return {
    id,
    kind: 'review',
    members: [member],
    score: Math.round((rate - baseRate) * 1e4) / 1e4,
    reason:
      `${bad} of the ${judged} tasks that used it went wrong afterwards (${usage.failed} failed, ${usage.corrected} corrected by the user: ${pct(bad, judged)}), ` +
      `against ${baseBad} of ${b.tasks} (${pct(baseBad, b.tasks)}) of the tasks that used none of the library's skills (${sources.join(', ')}, same period); ` +
      `read the failing tasks, then fix the skill (accepting saves your edit), retire it, or reject this to keep it as it is`,
    evidence: {
      tasks: judged,
      uses: usage.uses,
      completed: usage.completed,
      failed: usage.failed,
      interrupted: usage.interrupted,
      corrected: usage.corrected,
      went_wrong: bad,
      rate: Math.round(rate * 1e4) / 1e4,
      baseline: { tasks: b.tasks, completed: b.completed, failed: b.failed, interrupted: b.interrupted, corrected: b.corrected },
      baseline_rate: Math.round(baseRate * 1e4) / 1e4,
      sources,
      since: report.since,
      min_uses: report.rules.minUses,
      margin: report.rules.margin,
      failing_tasks: failingTasks(usage).map((t) => ({
        source: t.source,
        task: t.task,
        at: t.at,
        outcome: t.outcome,
        ...(t.path ? { path: t.path } : {}),
        ...(t.origin ? { origin: t.origin } : {}),
        ...(t.error ? { error: t.error } : {}),
        ...(t.correction ? { correction: t.correction } : {})
      }))
    },
    changes: [{ path: skill.path, before: text, after: text }],
    status: 'pending',
    author: 'offline'
  }
}
