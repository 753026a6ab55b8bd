/**
 * Cleanup's evidence (issue 36, pure): a skill is "unused" only over days something watched the library's skills
 * being used, counted from when the skill arrived in the library. What watches:
 *
 * - `fetch_count`: an AGIAgent library whose agents keep fetch_count through query_skill (the seed's 30-day rule).
 *   That they keep it is seen in the files (some skill carries a use: fetch_count > 0 or last_used_at) or in their
 *   logs (an AGIAgent task's query_skill returned one of the library's skills). It watches each skill from its own
 *   created_at.
 * - the ledger: Skillbench's recorded queries, from the first one that returned a skill of this library;
 * - agents' logs (AGIAgent data roots, Claude Code, Codex, …), each folder from its first task that used a skill
 *   of this library (before that, nothing shows its agents could see the library at all).
 *
 * A skill arrives when its front matter says it was made (created_at). A file's time is not evidence: a clone or a
 * copy gives old files new times and new files old ones, so a skill dated only by its file is not judged.
 */
import type { CleanupCoverage, ObservedSource, Skill, UsageReport } from '../../shared/types'

const DAY_MS = 86_400_000
/** The kinds a recorded query (the ledger) carries in the usage report. */
const LEDGER_KINDS = new Set(['skillbench', 'mcp', 'cli'])

export interface LibraryWatch {
  /** Every source that watched, earliest first (`fetch_count`'s `from`: its earliest skill). */
  sources: ObservedSource[]
  /** True when the library's agents keep fetch_count (see the module comment). */
  fetchCount: boolean
  /** The earliest day a log or the ledger watched (ms); undefined when none did. */
  logsFrom?: number
}

/** The sources that watched this library's skills being used (see the module comment). */
export function libraryWatch(skills: readonly Skill[], report: UsageReport | undefined): LibraryWatch {
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
export function cleanupWindow(skill: Skill, watch: LibraryWatch, now: number, minDays: number): CleanupWindow {
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

/** Readable name of a source for the card ("Claude Code sessions in ~/.claude/projects"). */
export function sourceLabel(s: Pick<ObservedSource, 'kind' | 'dir'>): string {
  switch (s.kind) {
    case 'fetch_count':
      return "fetch_count kept by the agents' query_skill"
    case 'ledger':
      return "Skillbench's recorded queries"
    case 'agiagent':
      return `AGIAgent logs in ${s.dir}`
    case 'claude':
      return `Claude Code sessions in ${s.dir}`
    case 'codex':
      return `Codex sessions in ${s.dir}`
    default:
      return `${s.kind} logs${s.dir ? ` in ${s.dir}` : ''}`
  }
}

/** "2026-10-03". */
export function day(iso: string | number): string {
  return new Date(iso).toISOString().slice(0, 10)
}

/** The cleanup card's sentence: which sources watched which days, and for how long nothing used the skill. */
export function cleanupReason(w: Extract<CleanupWindow, { judged: true }>, minDays: number): string {
  const watched = w.sources.map((s) => `${sourceLabel(s)} since ${day(Math.max(Date.parse(s.from), w.arrived))}`).join('; ')
  return `not used by any agent in the ${w.days} days watched since it arrived on ${day(w.arrived)} (at least ${minDays} needed); watched by ${watched}; moves to legacy/ (restorable)`
}

/** The plan's summary of what watched and how many skills went unjudged, by why. */
export function coverageSummary(watch: LibraryWatch, minDays: number, windows: readonly CleanupWindow[]): CleanupCoverage {
  const not_judged = { arrival_unknown: 0, not_observed: 0, too_short: 0 }
  let judged = 0
  for (const w of windows) {
    if (w.judged) judged++
    else not_judged[w.why]++
  }
  return { sources: watch.sources, days: minDays, judged, not_judged }
}

/** The plan's cleanup evidence as a few lines for the terminal: what watched since when, what was not judged and why. */
export function formatCleanupCoverage(c: CleanupCoverage): string {
  const lines = [
    c.sources.length === 0
      ? "Cleanup: nothing has watched this library's skills being used (no agent log names them, no query was recorded, no fetch_count is kept): no skill is called unused."
      : `Cleanup: watched by ${c.sources.map((s) => `${sourceLabel(s)} since ${day(s.from)}`).join('; ')}.`
  ]
  const n = c.not_judged
  const parts = [
    n.arrival_unknown ? `${n.arrival_unknown} dated only by their file (when they arrived is unknown)` : '',
    n.not_observed ? `${n.not_observed} never watched` : '',
    n.too_short ? `${n.too_short} watched fewer than ${c.days} days since they arrived` : ''
  ].filter(Boolean)
  if (parts.length) lines.push(`  Not judged: ${parts.join('; ')}.`)
  lines.push(`  Judged: ${c.judged} skill(s) watched ${c.days}+ days since they arrived.`)
  return lines.join('\n')
}
