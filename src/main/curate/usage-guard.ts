/**
 * Used skills in merges and consolidations (issue 36, pure): the most-used member survives by default; a member
 * agents chose as well is left out of the group unless it is the same skill as the survivor; a group that keeps
 * fewer than two members is not proposed; the card names every retired member with recorded uses.
 *
 * Two kinds of use: recorded uses (fetch_count, recorded queries, tasks that used it) say how much a skill served;
 * chosen uses (a task loaded, invoked or read the skill itself) say an agent picked it. Only the second proves two
 * skills are distinct: a query returns its top three, so near-duplicates are returned, and counted, together.
 */
import type { Skill, SkillUsage } from '../../shared/types'
import { pickPrimary } from './merge-text'

/**
 * Above this similarity two used skills are the same skill (a copy in another collection, a renamed file) and may
 * be merged; below it agents using both is taken as proof they are two skills.
 */
export const SAME_SKILL_SIMILARITY = 0.9

/** A skill's recorded uses: its own counter (query_skill, folded ledger) or the tasks that used it, whichever is more. */
export function recordedUses(skill: Pick<Skill, 'fetch_count'>, usage: Pick<SkillUsage, 'uses'> | undefined): number {
  return Math.max(skill.fetch_count, usage?.uses ?? 0)
}

/** Tasks in which an agent loaded, invoked or read the skill itself (not only a query returning it). */
export function chosenUses(usage: Pick<SkillUsage, 'tasks'> | undefined): number {
  let n = 0
  for (const t of usage?.tasks ?? []) if (t.how.some((h) => h !== 'query')) n++
  return n
}

/** The survivor: the most-used member; without uses (or tied), the rated-highest, then the oldest (pickPrimary). */
export function pickSurvivor<T extends Skill>(members: readonly T[], usesOf: (s: T) => number): T {
  const most = Math.max(...members.map(usesOf))
  return pickPrimary(most > 0 ? members.filter((s) => usesOf(s) === most) : members)
}

export interface GuardedGroup {
  /** Members kept, survivor first (indices into the caller's skills). */
  kept: number[]
  /** Members left out because agents use them and they are not the survivor's skill. */
  leftOut: number[]
}

/**
 * The group without the used members that are distinct skills from the survivor (see the module comment). `kept`
 * has fewer than two members when nothing is left to merge.
 */
export function guardGroup(
  group: readonly number[],
  skills: readonly Skill[],
  use: { recorded: (s: Skill) => number; chosen: (s: Skill) => number },
  similarity: (a: number, b: number) => number
): GuardedGroup {
  const survivor = skills.indexOf(pickSurvivor(group.map((i) => skills[i]!), use.recorded))
  const kept = [survivor]
  const leftOut: number[] = []
  for (const i of group) {
    if (i === survivor) continue
    // Chosen by agents and not the survivor's skill: retiring it would take away what they pick.
    if (use.chosen(skills[i]!) > 0 && similarity(survivor, i) < SAME_SKILL_SIMILARITY) leftOut.push(i)
    else kept.push(i)
  }
  return { kept, leftOut }
}

/**
 * A retired member with recorded uses, as the card's evidence lists it. `uses` is the larger of the two sources
 * (recordedUses); `fetched` and `in_logs` say which is which, so the card never reads "agents used it" beside a
 * usage panel that found no use in the logs (plans made before these two fields have `uses` alone).
 */
export interface UsedRetired {
  skill_id: string
  title: string
  uses: number
  /** The latest use of either source. */
  last_used_at: string | null
  /** The skill's own fetch_count (its agents' query_skill fetches). */
  fetched: number
  /** Tasks and recorded queries that used it in the logs read (the usage report). */
  in_logs: number
}

/** The later of two times (either may be missing or unreadable; a readable one wins). */
function later(a: string | null | undefined, b: string | null | undefined): string | null {
  const x = a ? Date.parse(a) : NaN
  const y = b ? Date.parse(b) : NaN
  if (!Number.isFinite(x)) return Number.isFinite(y) ? b! : (a ?? b ?? null)
  return Number.isFinite(y) && y > x ? b! : a!
}

/** The retired members agents used (for the card), most-used first; `usageOf` is a skill's line of the usage report. */
export function usedRetired(retired: readonly Skill[], usageOf: (s: Skill) => Pick<SkillUsage, 'uses' | 'last_used_at'> | undefined): UsedRetired[] {
  return retired
    .map((s) => ({ s, u: usageOf(s) }))
    .filter(({ s, u }) => recordedUses(s, u) > 0)
    .map(({ s, u }) => ({
      skill_id: s.skill_id,
      title: s.title,
      uses: recordedUses(s, u),
      last_used_at: later(u?.last_used_at, s.last_used_at),
      fetched: s.fetch_count,
      in_logs: u?.uses ?? 0
    }))
    .sort((a, b) => b.uses - a.uses)
}

/** One retired member's uses in words, each source named: `fetched 1 time, none in the logs read, last 2026-10-20`. */
function usedItem(u: UsedRetired): string {
  const fetched = u.fetched > 0 ? `fetched ${u.fetched} time${u.fetched === 1 ? '' : 's'}` : 'never fetched'
  const logs = u.in_logs > 0 ? `${u.in_logs} use${u.in_logs === 1 ? '' : 's'} in the logs read` : 'no use in the logs read'
  return `"${u.title}" (${fetched}, ${logs}${u.last_used_at ? `, last ${u.last_used_at.slice(0, 10)}` : ''})`
}

/** The warning the card's reason ends with when a retired member was used; '' when none was. */
export function usedRetiredWarning(used: readonly UsedRetired[]): string {
  if (used.length === 0) return ''
  const list = used.map(usedItem).join(', ')
  return `; ⚠ agents used ${list}: ${used.length === 1 ? 'it moves' : 'they move'} to the legacy folder too, check that the survivor covers ${used.length === 1 ? 'it' : 'them'}`
}

/** Why the survivor stays, for the reason text: used most, else rated highest, else the oldest. */
export function survivorWhy(survivor: Skill, members: readonly Skill[], usesOf: (s: Skill) => number): 'used' | 'quality' | 'oldest' {
  const others = members.filter((s) => s !== survivor)
  if (usesOf(survivor) > 0 && others.every((s) => usesOf(s) < usesOf(survivor))) return 'used'
  if (others.every((s) => s.quality_index < survivor.quality_index)) return 'quality'
  return 'oldest'
}
