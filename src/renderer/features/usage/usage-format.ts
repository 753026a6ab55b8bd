/** The usage evidence in words and lists (pure: no React, tested directly). */
import type { SkillSummary } from '../../../shared/api'
import type { SkillUsage, SkillUseTask, UsageBaseline, UsageReport } from '../../../shared/types'
import type { Route } from '../../app-state'
import type { Translate } from '../../i18n/i18n'

/** Tasks with an outcome (recorded queries outside any task have none). */
export function judged(u: Pick<SkillUsage, 'completed' | 'failed' | 'interrupted' | 'corrected' | 'incomplete'>): number {
  return u.completed + u.failed + u.interrupted + u.corrected + u.incomplete
}

/** Failed or corrected by the user: what "went wrong" means on both sides of the comparison. */
export function wentWrong(u: Pick<UsageBaseline, 'failed' | 'corrected'>): number {
  return u.failed + u.corrected
}

/** 3 of 12 → "25%" ("—" of nothing). */
export function pct(n: number, of: number): string {
  return of === 0 ? '—' : `${Math.round((100 * n) / of)}%`
}

/** The baseline's "went wrong" share as counts and rate: "3 of 25 (12%)". */
export function baselineText(b: UsageBaseline): string {
  return `${wentWrong(b)}/${b.tasks} (${pct(wentWrong(b), b.tasks)})`
}

/** The two lines of a skill's cell in the Skills list: uses and last use; how its tasks went against the baseline. */
/** The latest use a skill has: its own `last_used_at` (query_skill fetches) or the latest use found in agents' logs. */
export function latestUse(fileLastUsed: string | null | undefined, u: SkillUsage | undefined): string | null {
  const a = fileLastUsed ? Date.parse(fileLastUsed) : NaN
  const b = u?.last_used_at ? Date.parse(u.last_used_at) : NaN
  if (!Number.isFinite(a) && !Number.isFinite(b)) return null
  return Number.isFinite(a) && (!Number.isFinite(b) || a >= b) ? fileLastUsed! : u!.last_used_at!
}

export function usageCell(t: Translate, u: SkillUsage | undefined): { uses: string; result: string; tone: 'muted' | 'bad' | 'plain' } {
  if (!u || u.uses === 0) return { uses: t('usage.notUsed'), result: '', tone: 'muted' }
  // (when: the row's one "Last used" column, latestUse)
  const uses = u.uses === 1 ? t('usage.usesOne') : t('usage.uses', { n: u.uses })
  const n = judged(u)
  switch (u.verdict) {
    case 'too-few':
    case 'unused':
      return { uses, result: `${t('usage.tooFew')} (${u.completed}/${n})`, tone: 'plain' }
    case 'no-baseline':
      return { uses, result: `${u.completed}/${n} · ${t('usage.noBaseline')}`, tone: 'plain' }
    case 'fails-more':
      // how often its tasks went wrong, against how often the others did
      return { uses, result: t('usage.wentWrong', { bad: wentWrong(u), n, base: pct(wentWrong(u.baseline), u.baseline.tasks) }), tone: 'bad' }
    case 'as-baseline':
      // success: how many completed, against the others' completion rate
      return { uses, result: t('usage.wentWell', { ok: u.completed, n, base: pct(u.baseline.completed, u.baseline.tasks) }), tone: 'plain' }
  }
}

/** The panel's verdict sentence with its numbers. */
export function verdictText(t: Translate, u: SkillUsage, rules: UsageReport['rules']): string {
  const n = judged(u)
  switch (u.verdict) {
    case 'unused':
      return t('usage.verdict.unused')
    case 'too-few':
      return t('usage.verdict.too-few', { min: rules.minUses })
    case 'no-baseline':
      return t('usage.verdict.no-baseline', { min: rules.minBaseline })
    case 'fails-more':
    case 'as-baseline':
      return t(`usage.verdict.${u.verdict}`, { bad: wentWrong(u), n, pct: pct(wentWrong(u), n), base: baselineText(u.baseline) })
  }
}

const DAY = 86_400_000

/** The newest of two ISO-ish times (either may be missing or unreadable). */
function latest(a: string | null | undefined, b: string | null | undefined): number {
  const x = a ? Date.parse(a) : NaN
  const y = b ? Date.parse(b) : NaN
  return Math.max(Number.isFinite(x) ? x : -Infinity, Number.isFinite(y) ? y : -Infinity)
}

/**
 * Active skills made more than `days` ago that no agent used since: no use in the report (logs, recorded queries)
 * and no `last_used_at` of their own (upstream's query_skill writes it) in the period. Oldest use first.
 */
export function neverUsedIn(skills: readonly SkillSummary[], report: UsageReport, days: number, now: number): { skill: SkillSummary; last: number }[] {
  const cutoff = now - days * DAY
  const byId = new Map(report.skills.map((u) => [u.skill_id, u]))
  const out: { skill: SkillSummary; last: number }[] = []
  for (const s of skills) {
    if (s.legacy) continue
    const created = Date.parse(s.created_at)
    if (!Number.isFinite(created) || created >= cutoff) continue
    const last = latest(byId.get(s.skill_id)?.last_used_at, s.last_used_at)
    if (last < cutoff) out.push({ skill: s, last })
  }
  return out.sort((a, b) => a.last - b.last || (a.skill.title < b.skill.title ? -1 : 1))
}

/** Skills whose tasks went wrong clearly more often than the baseline, worst first. */
export function failingSkills(report: UsageReport): SkillUsage[] {
  const rate = (u: SkillUsage): number => wentWrong(u) / Math.max(1, judged(u))
  return report.skills.filter((u) => u.verdict === 'fails-more').sort((a, b) => rate(b) - rate(a) || b.uses - a.uses)
}

/** Where a task's trace opens: its data root or session folder in Workspaces; null for a recorded query. */
export function taskRoute(task: SkillUseTask): Route | null {
  if (!task.task || !task.path || !task.origin) return null
  if (task.source === 'agiagent') return { screen: 'workspaces', taskPath: task.path, root: task.origin }
  if (task.source === 'claude' || task.source === 'codex' || task.source === 'synapse') {
    return { screen: 'workspaces', taskPath: task.task, session: { source: task.source, dir: task.origin } }
  }
  return null
}

/** The source's name in the UI language. */
export function sourceName(t: Translate, source: SkillUseTask['source']): string {
  switch (source) {
    case 'agiagent':
      return 'AGIAgent'
    case 'claude':
    case 'codex':
    case 'synapse':
      return t(`source.${source}`)
    case 'mcp':
    case 'cli':
    case 'skillbench':
      return t(`usage.source.${source}`)
  }
}
