import { promises as fsp } from 'node:fs'
import path from 'node:path'
import type { OverviewResult } from '../../shared/api'
import type { JournalEntry, LoadError, Skill } from '../../shared/types'

type Recent = OverviewResult['recent'][number]

const HISTOGRAM_BINS = 10
const RECENT_LIMIT = 30
/** How many lines of each reflection log to look at (the newest ones). */
const LOG_TAIL_BYTES = 64 * 1024

/** Quality histogram of active skills: 10 bins over [0, 1] (1.0 falls in the last bin). Pure. */
export function qualityHistogram(skills: readonly Pick<Skill, 'quality_index' | 'legacy'>[]): number[] {
  const bins = new Array<number>(HISTOGRAM_BINS).fill(0)
  for (const s of skills) {
    if (s.legacy || !Number.isFinite(s.quality_index)) {
      continue
    }
    const q = Math.min(1, Math.max(0, s.quality_index))
    const i = Math.min(HISTOGRAM_BINS - 1, Math.floor(q * HISTOGRAM_BINS))
    bins[i] = (bins[i] ?? 0) + 1
  }
  return bins
}

/** Unreadable files listed on the overview (to open and fix). */
const ERROR_FILES_LIMIT = 100

/** Assembles the overview from gathered values. Pure. */
export function buildOverview(input: {
  skills: readonly Skill[]
  errors: readonly LoadError[]
  tasks: number
  reflectedTasks: number
  /** From the judged task list (what a reflect run would do); absent in older callers. */
  newTasks?: number
  noSkillTasks?: number
  noSkillWhy?: OverviewResult['noSkillWhy']
  sessionSources?: OverviewResult['sessionSources']
  pendingProposals: number
  planComputed: boolean
  recent: Recent[]
  graph: OverviewResult['graph']
  /** Skills curation leaves alone (marked on the map so it agrees with the plan). */
  protectedIds?: ReadonlyMap<string, 'pinned' | 'edited'>
}): OverviewResult {
  const nodes = input.protectedIds?.size
    ? input.graph.nodes.map((n) => {
        const why = input.protectedIds!.get(n.id)
        return why ? { ...n, protected: why } : n
      })
    : input.graph.nodes
  return {
    skills: input.skills.filter((s) => !s.legacy).length,
    legacy: input.skills.filter((s) => s.legacy).length,
    errors: input.errors.length,
    errorFiles: input.errors.slice(0, ERROR_FILES_LIMIT).map((e) => ({ path: e.path, reason: e.reason })),
    tasks: input.tasks,
    reflectedTasks: input.reflectedTasks,
    ...(input.newTasks !== undefined ? { newTasks: input.newTasks } : {}),
    ...(input.noSkillTasks !== undefined ? { noSkillTasks: input.noSkillTasks, noSkillWhy: input.noSkillWhy ?? {} } : {}),
    ...(input.sessionSources?.length ? { sessionSources: input.sessionSources } : {}),
    pendingProposals: input.pendingProposals,
    planComputed: input.planComputed,
    qualityHistogram: qualityHistogram(input.skills),
    recent: input.recent,
    graph: { nodes, edges: input.graph.edges }
  }
}

/** Parses `2026-01-02 10:11:12,345 - INFO - message` lines of a reflection log. Pure. */
export function parseReflectionLogLines(text: string): Recent[] {
  const out: Recent[] = []
  for (const line of text.split('\n')) {
    const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:[,.]\d+)?\s+-\s+(INFO|ERROR|WARNING)\s+-\s+(.+)$/.exec(line.trim())
    if (!m) {
      continue
    }
    const at = new Date(`${m[1]}T${m[2]}`)
    if (Number.isNaN(at.getTime())) {
      continue
    }
    const level = m[3] === 'ERROR' ? 'error' : m[3] === 'WARNING' ? 'warning' : 'info'
    out.push({ at: at.toISOString(), kind: 'log', level, text: (m[4] ?? '').slice(0, 300) })
  }
  return out
}

/**
 * How long after its creation a change still belongs to the making of a skill: reflection writes the file, then
 * backs up the task's files into it (tens of milliseconds later), and the screens show times to the minute.
 */
export const MADE_WITHIN_MS = 60_000

/** Whether a skill changed after it was made (not only in the write that made it). Pure. */
export function changedSinceMade(skill: Pick<Skill, 'created_at' | 'updated_at'>): boolean {
  if (!skill.updated_at || skill.updated_at === skill.created_at) return false
  const made = Date.parse(skill.created_at)
  const changed = Date.parse(skill.updated_at)
  // unreadable times: any difference is a change, as the file says
  if (!Number.isFinite(made) || !Number.isFinite(changed)) return true
  return changed - made > MADE_WITHIN_MS
}

/**
 * Recent activity of a library, newest first: journal entries, reflection log lines
 * (`logs/task_reflection_*.log`, the tail only) and skill creation/update dates.
 */
export async function readRecentActivity(libraryRoot: string, journal: readonly JournalEntry[], skills: readonly Skill[]): Promise<Recent[]> {
  const items: Recent[] = []
  for (const entry of journal) {
    items.push({ at: entry.at, kind: 'curation-applied', proposalKind: entry.kind, by: entry.by })
    if (entry.undone_at) {
      items.push({ at: entry.undone_at, kind: 'curation-undone', proposalKind: entry.kind, by: entry.by })
    }
  }
  for (const skill of skills) {
    if (skill.created_at) {
      items.push({ at: skill.created_at, kind: 'skill-created', title: skill.title, skill_id: skill.skill_id })
    }
    // a skill made and not changed since is "created" only
    if (changedSinceMade(skill)) {
      items.push({ at: skill.updated_at, kind: 'skill-updated', title: skill.title, skill_id: skill.skill_id })
    }
  }
  const logsDir = path.join(libraryRoot, 'logs')
  let names: string[] = []
  try {
    names = (await fsp.readdir(logsDir)).filter((n) => /^task_reflection_\d{8}\.log$/.test(n)).sort().slice(-3)
  } catch {
    // no logs yet
  }
  for (const name of names) {
    items.push(...parseReflectionLogLines(await readTail(path.join(logsDir, name), LOG_TAIL_BYTES)))
  }
  return items
    .filter((i) => !Number.isNaN(Date.parse(i.at)))
    .sort((a, b) => Date.parse(b.at) - Date.parse(a.at))
    .slice(0, RECENT_LIMIT)
}

async function readTail(file: string, bytes: number): Promise<string> {
  try {
    const handle = await fsp.open(file, 'r')
    try {
      const size = (await handle.stat()).size
      const start = Math.max(0, size - bytes)
      const buf = Buffer.alloc(size - start)
      await handle.read(buf, 0, buf.length, start)
      const text = buf.toString('utf8')
      return start > 0 ? text.slice(text.indexOf('\n') + 1) : text
    } finally {
      await handle.close()
    }
  } catch {
    return ''
  }
}
