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
import type { CleanupCoverage, ObservedSource } from '../../shared/types'
import type { CleanupWindow, LibraryWatch } from '../../shared/cleanup-window'

// The pure window logic lives in shared/ so the Overview's "never used" list judges exactly as cleanup does.
export { arrivalOf, cleanupWindow, libraryWatch, type CleanupWindow, type LibraryWatch } from '../../shared/cleanup-window'

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
  return `not used by any agent in the ${w.days} days watched since it arrived on ${day(w.arrived)} (at least ${minDays} needed); watched by ${watched}; moves to the legacy folder (restorable)`
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
