/**
 * Which days something watched a library's skills being used (issue 36, pure; the sources are described in
 * src/main/curate/cleanup-evidence.ts). Shared by cleanup and the Overview's "never used" list, so neither calls a
 * skill unused from a file time or from a library nothing observed.
 */
import type { ObservedSource, Skill, UsageReport } from './types'

/** The fields of a skill the window reads (a listing's summaries carry them too). */
export type WatchedSkill = Pick<Skill, 'format' | 'fetch_count' | 'last_used_at' | 'created_at' | 'dated_by_file'>

const DAY_MS = 86_400_000
/** The kinds a recorded query (the ledger) carries in the usage report. */
const LEDGER_KINDS = new Set(['skillbench', 'mcp', 'cli'])

export interface LibraryWatch {
  /** Every source that watched, earliest first (`fetch_count`'s `from`: its earliest skill). */
  sources: ObservedSource[]
  /** True when the library's agents keep fetch_count (src/main/curate/cleanup-evidence.ts). */
  fetchCount: boolean
  /** The earliest day a log or the ledger watched (ms); undefined when none did. */
  logsFrom?: number
}

/** The sources that watched this library's skills being used (src/main/curate/cleanup-evidence.ts). */
export function libraryWatch(skills: readonly WatchedSkill[], report: UsageReport | undefined): LibraryWatch {
  const bySource = new Map<string, ObservedSource & { at: number }>()
  let agentQueries = false
  const since = report?.since ? Date.parse(report.since) : -Infinity
  for (const usage of report?.skills ?? []) {
    for (const t of usage.tasks) {
      const at = Date.parse(t.at)
      if (!Number.isFinite(at)) continue
      if (t.source === 'agiagent' && t.how.includes('query')) agentQueries = true
      const ledger = LEDGER_KINDS.has(t.source)
      const kind = ledger ? 'ledger' : t.source
      const dir = ledger ? '' : (t.origin ?? '')
      const key = `${kind}\n${dir}`
      const seen = bySource.get(key)
      if (seen) {
        seen.uses++
        if (at < seen.at) seen.at = at
      } else bySource.set(key, { kind, dir, from: '', uses: 1, at })
    }
  }
  const sources: ObservedSource[] = []
  let logsFrom: number | undefined
  for (const s of bySource.values()) {
    // A report read from a date on saw nothing before it, whatever its first use.
    const at = Math.max(s.at, since)
    logsFrom = logsFrom === undefined ? at : Math.min(logsFrom, at)
    sources.push({ kind: s.kind, dir: s.dir, from: new Date(at).toISOString(), uses: s.uses })
  }
  const agi = skills.filter((s) => s.format === 'agiagent')
  const fetchCount = agi.length > 0 && (agentQueries || agi.some((s) => s.fetch_count > 0 || (s.last_used_at !== null && s.last_used_at !== '')))
  if (fetchCount) {
    const made = agi.map((s) => arrivalOf(s)).filter((t): t is number => t !== undefined)
    const first = made.length ? Math.min(...made) : Date.now()
    sources.push({ kind: 'fetch_count', dir: '', from: new Date(first).toISOString(), uses: agi.reduce((n, s) => n + s.fetch_count, 0) })
  }
  sources.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0))
  return { sources, fetchCount, ...(logsFrom !== undefined ? { logsFrom } : {}) }
}

/** When the skill arrived in the library (ms): its front matter's created_at; undefined when only a file time dates it. */
export function arrivalOf(skill: Pick<Skill, 'created_at' | 'dated_by_file'>): number | undefined {
  if (skill.dated_by_file) return undefined
  const t = Date.parse(skill.created_at)
  return Number.isFinite(t) ? t : undefined
}

/** What a skill's cleanup is judged over, or why it is not judged. */
export type CleanupWindow =
  | { judged: true; arrived: number; from: number; days: number; sources: ObservedSource[] }
  | { judged: false; why: 'arrival_unknown' | 'not_observed' | 'too_short' }

/**
 * The days a skill was watched since it arrived: from the later of its arrival and the first source that watched
 * it, to now. Judged only when that is at least `minDays` long.
 */
export function cleanupWindow(skill: WatchedSkill, watch: LibraryWatch, now: number, minDays: number): CleanupWindow {
  const arrived = arrivalOf(skill)
  if (arrived === undefined) return { judged: false, why: 'arrival_unknown' }
  const watchedFrom = watch.fetchCount && skill.format === 'agiagent' ? arrived : watch.logsFrom
  if (watchedFrom === undefined) return { judged: false, why: 'not_observed' }
  const from = Math.max(arrived, watchedFrom)
  const days = Math.floor((now - from) / DAY_MS)
  if (days < minDays) return { judged: false, why: 'too_short' }
  // The sources that watched this skill: fetch_count watches it from its arrival; the others from their own start.
  const sources = watch.sources
    .filter((s) => (s.kind === 'fetch_count' ? skill.format === 'agiagent' : true))
    .map((s) => (s.kind === 'fetch_count' ? { ...s, from: new Date(arrived).toISOString() } : s))
  return { judged: true, arrived, from, days, sources }
}

