/** The usage evidence in words and lists (pure: no React, tested directly). */
import type { SkillSummary } from '../../../shared/api'
import type { SkillUsage, SkillUseTask, UsageBaseline, UsageReport } from '../../../shared/types'
import { cleanupWindow, libraryWatch } from '../../../shared/cleanup-window'
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

/** The latest use a skill has: its own `last_used_at` (query_skill fetches) or the latest use found in agents' logs. */
export function latestUse(fileLastUsed: string | null | undefined, u: SkillUsage | undefined): string | null {
  const a = fileLastUsed ? Date.parse(fileLastUsed) : NaN
  const b = u?.last_used_at ? Date.parse(u.last_used_at) : NaN
  if (!Number.isFinite(a) && !Number.isFinite(b)) return null
  return Number.isFinite(a) && (!Number.isFinite(b) || a >= b) ? fileLastUsed! : u!.last_used_at!
}

/**
 * The skill's own record of being fetched: `fetch_count` and `last_used_at`, which its agents' query_skill keeps in
 * the file. The second source of use beside the agents' logs (the usage report): every place that speaks of a
 * skill's use names both, and none says "no use found" of a skill with recorded fetches.
 */
export type Fetches = Pick<SkillSummary, 'fetch_count' | 'last_used_at'>

/** "once", "5 times". */
export function timesText(t: Translate, n: number): string {
  return n === 1 ? t('usage.once') : t('usage.times', { n })
}

/** "2026-10-20" of a time as the file wrote it ('' when unreadable). */
function dayOf(at: string | null | undefined): string {
  if (!at) return ''
  if (/^\d{4}-\d\d-\d\d/.test(at)) return at.slice(0, 10)
  const ms = Date.parse(at)
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 10) : ''
}

function fetched(f: Fetches | undefined): number {
  return f && Number.isFinite(f.fetch_count) && f.fetch_count > 0 ? f.fetch_count : 0
}

/**
 * The two lines of a skill's cell in the Skills list: its uses in the logs (or its fetches, when the logs show none)
 * and how those tasks went against the baseline; `note`, its fetches beside uses in the logs (the cell's title).
 */
export function usageCell(t: Translate, u: SkillUsage | undefined, f?: Fetches): { uses: string; result: string; tone: 'muted' | 'bad' | 'plain'; note?: string } {
  const n0 = fetched(f)
  if (!u || u.uses === 0) {
    // fetched, though no log read shows it used: a use all the same, said as what it is
    if (n0 > 0) return { uses: t('usage.fetchedCell', { times: timesText(t, n0) }), result: t('usage.noneInLogs'), tone: 'plain' }
    return { uses: t('usage.notUsed'), result: t('usage.notUsedSub'), tone: 'muted' }
  }
  // (when: the row's one "Last used" column, latestUse)
  const uses = u.uses === 1 ? t('usage.usesOne') : t('usage.uses', { n: u.uses })
  const note = n0 > 0 ? t('usage.fetchedCell', { times: timesText(t, n0) }) : undefined
  return { ...usageResult(t, u, uses), ...(note ? { note } : {}) }
}

function usageResult(t: Translate, u: SkillUsage, uses: string): { uses: string; result: string; tone: 'muted' | 'bad' | 'plain' } {
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

/**
 * The panel's sentence for a skill no log read shows used: what its own fetch record says (fetched, when last), and
 * that the logs show no use; "no use found" only when neither source has one.
 */
export function noLogUseText(t: Translate, f: Fetches | undefined): string {
  const n = fetched(f)
  if (n === 0) return t('usage.verdict.unused')
  const date = dayOf(f?.last_used_at)
  return date ? t('usage.verdict.fetchedOnly', { times: timesText(t, n), date }) : t('usage.verdict.fetchedOnlyNoDate', { times: timesText(t, n) })
}

/** The panel's line on the fetch record of a skill the logs show used; null when it was never fetched. */
export function alsoFetchedText(t: Translate, f: Fetches | undefined): string | null {
  const n = fetched(f)
  if (n === 0) return null
  const date = dayOf(f?.last_used_at)
  return date ? t('usage.alsoFetched', { times: timesText(t, n), date }) : t('usage.alsoFetchedNoDate', { times: timesText(t, n) })
}

/**
 * A line of the Overview's never-used list: each source on its own (fetched / never fetched; the last use in the
 * logs / none in them), "never used" when both are empty.
 */
export function unusedItemText(t: Translate, f: Fetches, u: SkillUsage | undefined): string {
  const n = fetched(f)
  const logDay = u && u.uses > 0 ? dayOf(u.last_used_at) : ''
  if (n === 0 && !logDay) return t('usage.neverUsed')
  const fetchDay = dayOf(f.last_used_at)
  return [
    n === 0 ? t('usage.listNeverFetched') : fetchDay ? t('usage.listFetched', { times: timesText(t, n), date: fetchDay }) : t('usage.fetchedCell', { times: timesText(t, n) }),
    logDay ? t('usage.listInLogs', { date: logDay }) : t('usage.noneInLogs')
  ].join(t('usage.listSep'))
}

/** The panel's verdict sentence with its numbers. */
export function verdictText(t: Translate, u: SkillUsage, rules: UsageReport['rules'], f?: Fetches): string {
  const n = judged(u)
  switch (u.verdict) {
    case 'unused':
      return noLogUseText(t, f)
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

/** The Overview's "never used" list, judged as cleanup judges (shared/cleanup-window.ts). */
export interface NeverUsed {
  /** Skills watched at least `days` days since they arrived in the library, with no use in the last `days`; oldest use first. */
  unused: { skill: SkillSummary; last: number }[]
  /** Active skills watched long enough to be judged. */
  judged: number
  /** Active skills not judged: watched fewer days since they arrived, dated only by their file, or a use of unknown date. */
  notJudged: number
  /** Something (agents' logs, recorded queries, fetch_count the agents keep) watched this library's skills being used. */
  watched: boolean
}

/**
 * Active skills no agent used in the last `days` days, counted only over days something watched the library (the
 * evidence cleanup uses): never from a file's time, and nothing at all when nothing watched. A use in the report
 * (logs, recorded queries) or the skill's own `last_used_at` (upstream's query_skill writes it) counts.
 */
export function neverUsedIn(skills: readonly SkillSummary[], report: UsageReport, days: number, now: number): NeverUsed {
  const cutoff = now - days * DAY
  const byId = new Map(report.skills.map((u) => [u.skill_id, u]))
  const active = skills.filter((s) => !s.legacy)
  const watch = libraryWatch(active, report)
  const out: NeverUsed = { unused: [], judged: 0, notJudged: 0, watched: watch.sources.length > 0 }
  for (const s of active) {
    const last = latest(byId.get(s.skill_id)?.last_used_at, s.last_used_at)
    // counted uses without a date (fetch_count alone) cannot tell when it was last used
    if (!cleanupWindow(s, watch, now, days).judged || (s.fetch_count > 0 && !Number.isFinite(last))) {
      out.notJudged++
      continue
    }
    out.judged++
    if (last < cutoff) out.unused.push({ skill: s, last })
  }
  out.unused.sort((a, b) => a.last - b.last || (a.skill.title < b.skill.title ? -1 : 1))
  return out
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
