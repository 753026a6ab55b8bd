/**
 * Bee's memory evolution (seed 003 §3.1, §3.4, §3.5) over scanned tasks, without a person typing anything:
 * - a tool the agent called that does not exist (Claude Code "No such tool available: X", Codex "unsupported
 *   call: X", "Unknown tool: X", "工具不存在") → the "only use the registered tools" lesson;
 * - a critic's correction ("Critic 建议：…", "Critic suggestion: …") → a "Critic 建议：…" lesson, similar ones once;
 * - every tool's calls, successes and failures → a short procedural note for the tools that fail often.
 * Pure: the caller scans the tasks and turns the findings into reviewable proposals.
 */
import type { TaskTrace } from '../../shared/types'
import { coded, codedList, refOf, type CodedText } from '../../shared/error-codes'
import { lessonFromFailure, type MemoryLang } from './lessons'
import { reasonKey } from './procedural'
import { findDuplicate, oneLine } from './text'

/** A tool name as agents write them; longer or stranger names are not taken from an error text. */
const TOOL_NAME = String.raw`[A-Za-z_][\w.:-]{0,79}`

// The messages agents print when a model calls a tool that is not registered. The name is group 1.
const HALLUCINATION_PATTERNS: RegExp[] = [
  new RegExp(String.raw`No such tool available:\s*["'\x60]?(${TOOL_NAME})`, 'i'),
  new RegExp(String.raw`unsupported call:\s*["'\x60]?(${TOOL_NAME})`, 'i'),
  new RegExp(String.raw`\bunknown tool(?: name)?\s*[:：]?\s*["'\x60]?(${TOOL_NAME})`, 'i'),
  new RegExp(String.raw`\btool\s+["'\x60](${TOOL_NAME})["'\x60]\s+(?:not found|does not exist|is not (?:registered|available))`, 'i'),
  new RegExp(String.raw`HallucinatedTool\s*[:(]\s*["'\x60]?(${TOOL_NAME})`, 'i'),
  new RegExp(String.raw`(?:工具不存在|不存在的工具|未知工具|未注册的工具)\s*[:：]?\s*[「"'\x60]?(${TOOL_NAME})`, 'u'),
  new RegExp(String.raw`工具\s*[「"'\x60](${TOOL_NAME})[」"'\x60]\s*(?:不存在|未注册)`, 'u')
]

/** The invented tool name an error text reports, or undefined. */
export function hallucinatedToolIn(text: string): string | undefined {
  for (const re of HALLUCINATION_PATTERNS) {
    const m = re.exec(text)
    if (m) return m[1]!.replace(/[.:]+$/, '')
  }
  return undefined
}

// A critic's correction, as Bee injects it (CriticResult::Correction) or a log prints it. The suggestion is group 1.
const CRITIC_PATTERNS: RegExp[] = [
  /\bcritic(?:'s)?\s*(?:suggestion|correction|suggests|建议|修正建议)\s*[:：]\s*(.+)$/imu,
  /\[critic\]\s*(?:correction|suggestion)?\s*[:：]?\s*(.+)$/imu,
  /\bcritic\s*[:：]\s*(?:correction|suggestion)\s*[:：]?\s*(.+)$/imu,
  /(?:评审|审查|Critic)\s*(?:建议|修正建议|纠正)\s*[:：]\s*(.+)$/mu
]

/** The critic suggestions a text holds (one per line at most). */
export function criticSuggestionsIn(text: string): string[] {
  const out: string[] = []
  for (const line of text.split(/\r?\n/)) {
    for (const re of CRITIC_PATTERNS) {
      const m = re.exec(line)
      if (m) {
        const s = oneLine(m[1]!, 300).replace(/^["'“「]+|["'”」]+$/gu, '').trim()
        if (s.length >= 4) out.push(s)
        break
      }
    }
  }
  return out
}

/** Where a finding was seen: the task's folder or session file. */
export interface FindingSource {
  task: string
  path: string
}

export interface HallucinationFinding {
  tool: string
  /** The tools the same agent called that do exist (its calls that did not fail that way). */
  validTools: string[]
  seen: FindingSource[]
}

export interface CriticFinding {
  suggestion: string
  /** Similar suggestions folded into this one (the seed: a critic saying the same thing often becomes one rule). */
  similar: string[]
  seen: FindingSource[]
}

/** One tool's record over the scanned tasks. */
export interface ToolStat {
  tool: string
  calls: number
  /** Calls whose result is known (session logs say; AGIAgent's logs mostly do not). */
  known: number
  failed: number
  tasks: number
  /** The most frequent failure, as the log wrote it (variable parts compared masked). */
  topError?: string
  topErrorCount?: number
}

export interface EvolutionFindings {
  tasks: number
  hallucinations: HallucinationFinding[]
  critic: CriticFinding[]
  tools: ToolStat[]
}

/** The name part of a session error "Tool: message" and the message, as session adapters record them. */
function splitError(error: string): { tool?: string; message: string } {
  const m = /^([A-Za-z_][\w.-]{0,79}):\s([\s\S]*)$/.exec(error)
  return m ? { tool: m[1], message: m[2]! } : { message: error }
}

/** The texts of a task a critic's words may be in: requirements (Bee injects them as user turns), messages, errors, the final text. */
function criticTexts(t: TaskTrace): string[] {
  return [...t.requirements, ...t.agentMessages.map((m) => m.text), ...t.errors, ...(t.finalText ? [t.finalText] : [])]
}

/** Finds hallucinated tools, critic suggestions and tool statistics in scanned tasks. */
export function findEvolution(traces: readonly TaskTrace[]): EvolutionFindings {
  const hallucinated = new Map<string, { seen: FindingSource[]; agents: Set<string> }>()
  const critic: CriticFinding[] = []
  const stats = new Map<string, { calls: number; known: number; failed: number; tasks: Set<string>; errors: Map<string, { text: string; n: number }> }>()
  // the tools each source really has: names of calls that did not fail as not existing
  const realBySource = new Map<string, Map<string, number>>()
  // in the order the tasks ran (scans list them in whatever order their files were read): the same tasks give the
  // same findings, and the first invented name is the one named in the lesson
  const ordered = [...traces].sort((a, b) => (a.startedAt ?? a.mtime) - (b.startedAt ?? b.mtime) || a.path.localeCompare(b.path) || a.taskDir.localeCompare(b.taskDir))
  for (const t of ordered) {
    const src: FindingSource = { task: t.taskDir, path: t.path }
    const sourceKey = t.source ?? 'agiagent'
    const invented = new Set<string>()
    for (const e of t.errors) {
      const tool = hallucinatedToolIn(e)
      if (!tool) continue
      invented.add(tool)
      const h = hallucinated.get(tool) ?? { seen: [], agents: new Set<string>() }
      if (!h.seen.some((s) => s.path === src.path)) h.seen.push(src)
      h.agents.add(sourceKey)
      hallucinated.set(tool, h)
    }
    const real = realBySource.get(sourceKey) ?? new Map<string, number>()
    realBySource.set(sourceKey, real)
    for (const c of t.toolCalls) {
      if (invented.has(c.name)) continue
      real.set(c.name, (real.get(c.name) ?? 0) + 1)
      const s = stats.get(c.name) ?? { calls: 0, known: 0, failed: 0, tasks: new Set<string>(), errors: new Map() }
      s.calls++
      if (c.ok !== undefined) s.known++
      if (c.ok === false) s.failed++
      s.tasks.add(src.path)
      stats.set(c.name, s)
    }
    for (const e of t.errors) {
      const { tool, message } = splitError(e)
      const s = tool ? stats.get(tool) : undefined
      if (!s || invented.has(tool!)) continue
      const text = oneLine(message, 160)
      const key = reasonKey(text)
      const prev = s.errors.get(key)
      s.errors.set(key, { text: prev?.text ?? text, n: (prev?.n ?? 0) + 1 })
    }
    for (const text of criticTexts(t)) {
      for (const suggestion of criticSuggestionsIn(text)) {
        const same = findDuplicate(suggestion, critic.map((c) => c.suggestion), 0.7)
        const found = critic.find((c) => c.suggestion === same)
        if (found) {
          if (found.suggestion !== suggestion && !found.similar.includes(suggestion)) found.similar.push(suggestion)
          if (!found.seen.some((s) => s.path === src.path)) found.seen.push(src)
        } else {
          critic.push({ suggestion, similar: [], seen: [src] })
        }
      }
    }
  }
  const hallucinations: HallucinationFinding[] = [...hallucinated].map(([tool, h]) => {
    const valid = new Map<string, number>()
    for (const a of h.agents) for (const [name, n] of realBySource.get(a) ?? []) if (name !== tool) valid.set(name, (valid.get(name) ?? 0) + n)
    // the tools used most, at most 20: the lesson must stay one readable line
    const validTools = [...valid].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 20).map(([n]) => n).sort()
    return { tool, validTools, seen: h.seen }
  })
  const tools: ToolStat[] = [...stats].map(([tool, s]) => {
    const top = [...s.errors.values()].sort((a, b) => b.n - a.n)[0]
    return { tool, calls: s.calls, known: s.known, failed: s.failed, tasks: s.tasks.size, ...(top ? { topError: top.text, topErrorCount: top.n } : {}) }
  })
  tools.sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool))
  return { tasks: traces.length, hallucinations, critic, tools }
}

/** The lesson of a hallucinated tool, in the seed's wording; undefined when no real tool is known to name. */
export function hallucinationLesson(f: HallucinationFinding, lang: MemoryLang): string | undefined {
  if (f.validTools.length === 0) return undefined
  return lessonFromFailure({ kind: 'hallucinated_tool', tool: f.tool, validTools: f.validTools }, lang)
}

/** The lesson of a critic's suggestion, in the seed's wording ("Critic 建议：…"). */
export function criticLesson(f: CriticFinding, lang: MemoryLang): string {
  return lessonFromFailure({ kind: 'critic', suggestion: f.suggestion }, lang)
}

/** When a tool's record is worth a note: enough known calls, and failing often enough to matter. */
export const TOOL_NOTE_RULES = { minKnownCalls: 5, minFailureRate: 0.1, maxNotes: 5 } as const

/** The failure rate of a tool over the calls whose outcome is known (0 when none is). */
export function failureRate(s: ToolStat): number {
  return s.known === 0 ? 0 : s.failed / s.known
}

/**
 * The short procedural note the tool statistics make: one `tool: …` entry per tool that fails often (at most 5,
 * most failures first), saying how often and the most frequent error. Numbers are masked when entries are
 * compared, so the next run's updated counts do not add the same note twice.
 */
export function toolStatsNotes(tools: readonly ToolStat[], lang: MemoryLang): string[] {
  const worth = tools
    .filter((s) => s.known >= TOOL_NOTE_RULES.minKnownCalls && s.failed > 0 && failureRate(s) >= TOOL_NOTE_RULES.minFailureRate)
    .sort((a, b) => b.failed - a.failed || failureRate(b) - failureRate(a) || a.tool.localeCompare(b.tool))
    .slice(0, TOOL_NOTE_RULES.maxNotes)
  return worth.map((s) => {
    const pct = Math.round(failureRate(s) * 100)
    const top = s.topError ? oneLine(s.topError, 100).replace(/"/g, "'") : undefined
    return lang === 'zh'
      ? `${s.tool}：${s.known} 次调用中失败 ${s.failed} 次（${pct}%），成功率 ${100 - pct}%${top ? `；最常见的错误：“${top}”` : ''}。调用前先核对参数与前提条件。`
      : `${s.tool}: ${s.failed} of ${s.known} calls failed (${pct}%), success rate ${100 - pct}%${top ? `; most common error: "${top}"` : ''}. Check its arguments and preconditions before calling it.`
  })
}

/**
 * A one-line summary of the statistics, for the proposal's reason (every tool, most used first): by code, each tool
 * an item of {tools} (a `text.list`, so a reader's language words each), the English as before.
 */
export function toolStatsSummary(tools: readonly ToolStat[], tasks: number): CodedText {
  const shown = tools.slice(0, 12).map((s) => (s.known ? coded('memory.tool_stat', { tool: s.tool, calls: s.calls, pct: Math.round(failureRate(s) * 100) }) : coded('memory.tool_stat_calls', { tool: s.tool, calls: s.calls })))
  if (tools.length > 12) shown.push(coded('memory.tool_stat_more', { n: tools.length - 12 }))
  const calls = tools.reduce((n, s) => n + s.calls, 0)
  return coded('memory.reason_tool_stats', { tasks, calls, tools: shown.length ? refOf(codedList(shown)) : '' })
}
