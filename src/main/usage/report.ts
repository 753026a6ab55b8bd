/**
 * The usage report of a library (pure): for each skill, every task whose own actions used it and how that task
 * ended, next to the same figures for tasks of the same sources and period that used none of the library's
 * skills. Counts come first; a rate is only compared once there are enough tasks on both sides.
 */
import type { Skill, SkillRef, SkillUsage, SkillUseKind, SkillUseTask, TaskOutcome, TaskTrace, UsageBaseline, UsageReport, UsageSourceKind, UsageVerdict } from '../../shared/types'
import type { UseRecord } from '../store/ledger'
import type { SkillCopy } from './copies'
import { SkillMatcher, skillName } from './match'

/** Below this many tasks that used a skill, its figures are shown but not judged ("too few uses to tell"). */
export const MIN_USES = 5
/** Below this many baseline tasks (same sources), there is nothing to compare with. */
export const MIN_BASELINE = 5
/** "Went wrong clearly more often": at least this much above the baseline's rate (and at least 2 tasks). */
export const FAIL_MARGIN = 0.2
/** A recorded query and a query seen in a task's log this close in time (and sharing a skill) are one use. */
const SAME_QUERY_MS = 120_000

/** A scanned task with where it was scanned from. */
export interface ScannedTask {
  trace: TaskTrace
  /** The data root or session folder it came from. */
  origin: string
}

export interface UsageInput {
  /** The library's active skills. */
  skills: readonly Skill[]
  /** The library's folder (real path). */
  root: string
  tasks: readonly ScannedTask[]
  /** The library's recorded query hits (ledger history). */
  ledger: readonly UseRecord[]
  /** Only uses and tasks from this time on (ms); undefined = everything. */
  since?: number
  now: Date
  sources?: UsageReport['sources']
  problems?: string[]
  /** Skill files read outside the library that exist on this machine: their own id or real path (see copies.ts). */
  copies?: ReadonlyMap<string, SkillCopy>
}

/** When a task happened: its own start, else its file's time. */
export function taskTime(t: Pick<TaskTrace, 'startedAt' | 'mtime'>): number {
  return t.startedAt ?? t.mtime
}

/**
 * How a task ended, judged from a use on (`firstUse`; for a baseline task: from its start). The user stopping it
 * counts first, then the user saying it was wrong, then errors with no completion.
 */
export function taskOutcome(t: Pick<TaskTrace, 'completed' | 'status' | 'interruptions' | 'errors' | 'correctedBy'>, firstUse?: Pick<SkillRef, 'errorsAfter'>): TaskOutcome {
  if (t.status === 'interrupted' || (!t.completed && t.interruptions > 0)) return 'interrupted'
  if (t.correctedBy) return 'corrected'
  if (t.completed) return 'completed'
  const errors = firstUse ? firstUse.errorsAfter : t.errors.length
  return errors > 0 ? 'failed' : 'incomplete'
}

function emptyBaseline(): UsageBaseline {
  return { tasks: 0, completed: 0, failed: 0, interrupted: 0, corrected: 0 }
}

function count(b: UsageBaseline, outcome: TaskOutcome): void {
  b.tasks++
  if (outcome === 'completed' || outcome === 'failed' || outcome === 'interrupted' || outcome === 'corrected') b[outcome]++
}

function addInto(into: UsageBaseline, b: UsageBaseline): void {
  into.tasks += b.tasks
  into.completed += b.completed
  into.failed += b.failed
  into.interrupted += b.interrupted
  into.corrected += b.corrected
}

/** Naive local ISO (the ledger's format) or any ISO → ms. */
function parseTime(at: string): number {
  const ms = Date.parse(at)
  return Number.isFinite(ms) ? ms : NaN
}

/** "Went wrong" = failed or corrected by the user; the rule compares this share on both sides. */
export function wentWrong(b: Pick<UsageBaseline, 'failed' | 'corrected'>): number {
  return b.failed + b.corrected
}

/** The verdict for a skill's figures (pure, deterministic; thresholds above). */
export function verdictOf(u: Pick<SkillUsage, 'uses' | 'completed' | 'failed' | 'interrupted' | 'corrected' | 'incomplete'>, baseline: UsageBaseline): UsageVerdict {
  const judged = u.completed + u.failed + u.interrupted + u.corrected + u.incomplete
  if (u.uses === 0) return 'unused'
  if (judged < MIN_USES) return 'too-few'
  if (baseline.tasks < MIN_BASELINE) return 'no-baseline'
  const bad = wentWrong(u)
  const rate = bad / judged
  const baseRate = wentWrong(baseline) / baseline.tasks
  return bad >= 2 && rate >= baseRate + FAIL_MARGIN ? 'fails-more' : 'as-baseline'
}

interface Found {
  skill: Skill
  refs: SkillRef[]
}

/** A skill's uses while the report is built. */
interface UseEntry {
  tasks: SkillUseTask[]
  sources: Set<UsageSourceKind>
  last: number
}

/** The entry of every skill without uses (read only). */
const NO_USES: Readonly<UseEntry> = Object.freeze({ tasks: Object.freeze([]) as unknown as SkillUseTask[], sources: new Set<UsageSourceKind>(), last: -Infinity })

/** The text after a use that tells why a task failed: its first error after the use. */
function errorAfter(trace: TaskTrace, ref: SkillRef): string | undefined {
  if (ref.errorsAfter <= 0 || trace.errors.length === 0) return undefined
  const e = trace.errors[Math.max(0, trace.errors.length - ref.errorsAfter)]
  return e === undefined ? undefined : e.length > 300 ? `${e.slice(0, 299)}…` : e
}

/** Builds the report (see the module comment). */
export function buildUsageReport(input: UsageInput): UsageReport {
  // Made when a log names a skill: a library of 20,000 skills and no uses costs no index of names and paths.
  let matcher: SkillMatcher | undefined
  const since = input.since
  /** The uses found, for the skills with any (most skills of a large library have none). */
  const perSkill = new Map<Skill, UseEntry>()
  const entryOf = (s: Skill): UseEntry => {
    let entry = perSkill.get(s)
    if (!entry) perSkill.set(s, (entry = { tasks: [], sources: new Set(), last: -Infinity }))
    return entry
  }
  const baselineBySource = new Map<UsageSourceKind, UsageBaseline>()
  const baseline = emptyBaseline()
  /** Queries seen in task logs, to recognise the same query in the ledger. */
  const loggedQueries: { at: number; ids: Set<string> }[] = []

  for (const { trace, origin } of input.tasks) {
    const source: UsageSourceKind = trace.source ?? 'agiagent'
    const refs = trace.skillRefs ?? []
    const found = new Map<Skill, Found>()
    for (const ref of refs) {
      if (ref.kind === 'query' && ref.ids?.length) loggedQueries.push({ at: ref.at ?? taskTime(trace), ids: new Set(ref.ids) })
      matcher ??= new SkillMatcher(input.skills, input.root, input.copies)
      for (const s of matcher.match(ref)) {
        const f = found.get(s)
        if (f) f.refs.push(ref)
        else found.set(s, { skill: s, refs: [ref] })
      }
    }
    const time = taskTime(trace)
    if (found.size === 0) {
      if (since !== undefined && time < since) continue
      const outcome = taskOutcome(trace)
      count(baseline, outcome)
      let b = baselineBySource.get(source)
      if (!b) baselineBySource.set(source, (b = emptyBaseline()))
      count(b, outcome)
      continue
    }
    for (const { skill, refs: used } of found.values()) {
      const first = used[0]!
      const at = first.at ?? time
      if (since !== undefined && at < since) continue
      const outcome = taskOutcome(trace, first)
      const entry = entryOf(skill)
      const error = outcome === 'failed' ? errorAfter(trace, first) : undefined
      entry.tasks.push({
        source,
        task: trace.taskDir,
        at: new Date(at).toISOString(),
        outcome,
        how: [...new Set(used.map((r) => r.kind))] as SkillUseKind[],
        path: trace.path,
        ...(trace.user ? { user: trace.user } : {}),
        origin,
        ...(error ? { error } : {}),
        ...(outcome === 'corrected' && trace.correctedBy ? { correction: trace.correctedBy } : {})
      })
      entry.sources.add(source)
      entry.last = Math.max(entry.last, at)
    }
  }

  // Skillbench's own recorded queries: one use each, unless a scanned log shows the same query (then it is
  // already counted with its task).
  const byId = input.ledger.length > 0 ? new Map(input.skills.map((s) => [s.skill_id, s])) : new Map<string, Skill>()
  for (const rec of input.ledger) {
    const at = parseTime(rec.at)
    if (!Number.isFinite(at) || (since !== undefined && at < since)) continue
    const seen = loggedQueries.some((q) => Math.abs(q.at - at) <= SAME_QUERY_MS && rec.ids.some((id) => q.ids.has(id)))
    if (seen) continue
    const via: UsageSourceKind = rec.via === 'mcp' || rec.via === 'cli' ? rec.via : 'skillbench'
    for (const id of new Set(rec.ids)) {
      const s = byId.get(id)
      if (!s) continue
      const entry = entryOf(s)
      entry.tasks.push({ source: via, task: null, at: new Date(at).toISOString(), outcome: null, how: ['query'] })
      entry.last = Math.max(entry.last, at)
    }
  }

  const skills: SkillUsage[] = input.skills.map((s) => {
    const entry = perSkill.get(s) ?? NO_USES
    const tasks = entry.tasks.length === 0 ? [] : entry.tasks.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    const tally = { completed: 0, failed: 0, interrupted: 0, corrected: 0, incomplete: 0 }
    for (const t of tasks) if (t.outcome) tally[t.outcome]++
    const base = emptyBaseline()
    for (const src of entry.sources) {
      const b = baselineBySource.get(src)
      if (b) addInto(base, b)
    }
    // Built in one go (no spreads): 20,000 skills.
    const usage: SkillUsage = {
      skill_id: s.skill_id,
      name: skillName(s),
      title: s.title,
      path: s.path,
      uses: tasks.length,
      completed: tally.completed,
      failed: tally.failed,
      interrupted: tally.interrupted,
      corrected: tally.corrected,
      incomplete: tally.incomplete,
      last_used_at: Number.isFinite(entry.last) ? new Date(entry.last).toISOString() : null,
      tasks,
      baseline: base,
      verdict: 'unused'
    }
    usage.verdict = verdictOf(usage, base)
    return usage
  })
  return {
    skills,
    baseline,
    since: since === undefined ? null : new Date(since).toISOString(),
    generatedAt: input.now.toISOString(),
    sources: input.sources ?? [],
    problems: input.problems ?? [],
    rules: { minUses: MIN_USES, minBaseline: MIN_BASELINE, margin: FAIL_MARGIN }
  }
}
