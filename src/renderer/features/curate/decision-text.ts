/**
 * Curation's evidence and lasting decisions in words (issue 36, pure): which sources watched a cleanup's skill and
 * since when, the retired members agents used, and what the whole plan's cleanup could judge.
 */
import type { CleanupCoverage, Proposal } from '../../../shared/types'
import type { Translate } from '../../i18n/i18n'

const AGENTS: Record<string, string> = { agiagent: 'AGIAgent', claude: 'Claude Code', codex: 'Codex', synapse: 'Synapse' }

/** "2026-10-03" of an ISO time ('' when unreadable). */
export function day(iso: unknown): string {
  if (typeof iso !== 'string') return ''
  const t = Date.parse(iso)
  return Number.isFinite(t) ? new Date(t).toISOString().slice(0, 10) : ''
}

/** One watching source in words. */
export function sourceText(t: Translate, s: { kind?: unknown; dir?: unknown; from?: unknown }): string {
  const from = day(s.from)
  if (s.kind === 'fetch_count') return t('decide.source.fetch_count', { from })
  if (s.kind === 'ledger') return t('decide.source.ledger', { from })
  const kind = String(s.kind ?? '')
  return t('decide.source.logs', { agent: AGENTS[kind] ?? kind, dir: String(s.dir ?? ''), from })
}

/** A cleanup judged over watched days (plans since issue 36: evidence `observed_by`), or null for older plans. */
export function cleanupWatchedReason(t: Translate, p: Proposal): string | null {
  const e = p.evidence
  if (!Array.isArray(e.observed_by) || typeof e.observed_days !== 'number') return null
  const sources = (e.observed_by as { kind?: unknown; dir?: unknown; from?: unknown }[]).map((s) => sourceText(t, s)).join('; ')
  return t('decide.cleanupWatched', { days: e.observed_days, arrived: day(e.created_at), limit: typeof e.cleanup_days === 'number' ? e.cleanup_days : 30, sources })
}

interface UsedRetired {
  skill_id: string
  title: string
  uses: number
  last_used_at: string | null
  /** Since the card names its two sources (src/main/curate/usage-guard.ts): the skill's fetch_count and its uses in the logs read. */
  fetched?: number
  in_logs?: number
}

/** One retired member's uses, each source named; an older plan's evidence has the recorded uses alone. */
function usedItem(t: Translate, u: UsedRetired): string {
  const title = u.title || u.skill_id
  const date = day(u.last_used_at) || u.last_used_at || ''
  if (typeof u.fetched !== 'number' || typeof u.in_logs !== 'number') {
    return date ? t('decide.usedItem', { title, n: u.uses, date }) : t('decide.usedItemNoDate', { title, n: u.uses })
  }
  const parts = [
    u.fetched > 0 ? t(u.fetched === 1 ? 'decide.usedFetchedOne' : 'decide.usedFetched', { n: u.fetched }) : t('decide.usedNeverFetched'),
    u.in_logs > 0 ? t('decide.usedInLogs', { n: u.in_logs }) : t('decide.usedNotInLogs'),
    ...(date ? [t('decide.usedLast', { date })] : [])
  ]
  return t('decide.usedItemSources', { title, parts: parts.join(t('decide.usedSep')) })
}

/** The warning of a merge or consolidation that retires members agents used; null when none was used. */
export function usedRetiredText(t: Translate, p: Proposal): string | null {
  const used = Array.isArray(p.evidence.retired_with_uses) ? (p.evidence.retired_with_uses as UsedRetired[]) : []
  if (used.length === 0) return null
  const list = used.map((u) => usedItem(t, u)).join(t('decide.usedListSep'))
  const primary = typeof p.evidence.primary === 'string' ? p.members.find((m) => m.skill_id === p.evidence.primary) : p.members[0]
  return t(used.length === 1 ? 'decide.usedRetiredOne' : 'decide.usedRetiredMany', { list, title: primary?.title || primary?.skill_id || '' })
}

/** What the plan's cleanup could judge: the watching sources (or that nothing watched), then what was not judged. */
export function coverageLines(t: Translate, c: CleanupCoverage): string[] {
  const lines = [c.sources.length === 0 ? t('decide.coverageNone') : t('decide.coverageWatched', { sources: c.sources.map((s) => sourceText(t, s)).join('; ') })]
  const n = c.not_judged
  const parts = [
    n.arrival_unknown ? t('decide.coverageArrivalUnknown', { n: n.arrival_unknown }) : '',
    n.not_observed ? t('decide.coverageNotObserved', { n: n.not_observed }) : '',
    n.too_short ? t('decide.coverageTooShort', { n: n.too_short, days: c.days }) : ''
  ].filter(Boolean)
  if (parts.length) lines.push(t('decide.coverageNotJudged', { parts: parts.join('; ') }))
  return lines
}
