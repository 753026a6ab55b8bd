/**
 * Scanned tasks → memory proposals (seed 003 without a person typing): hallucinated tools and critic suggestions
 * become lessons, stated preferences become preferences, tool statistics become a short procedural note. Each
 * finding is one proposal in the pending plan (deduplicated by `proposeMemory`), reviewed like every other.
 */
import type { TaskTrace } from '../../shared/types'
import { criticLesson, findEvolution, hallucinationLesson, toolStatsNotes, toolStatsSummary, type EvolutionFindings, type FindingSource } from '../memory/evolution'
import type { MemoryLang } from '../memory/lessons'
import { preferencesFromTraces } from '../memory/memory-files'
import { duplicatePreference } from '../memory/preference-kv'
import { proposeMemory, type MemoryProposalInput, type ProposeMemoryResult } from '../review/memory-proposals'
import { coded } from '../../shared/error-codes'

export interface EvolveOptions {
  /** The workspace holding `memory/`. */
  workspace: string
  lang?: MemoryLang
  /** Who found them (goes into each proposal's author). Default: offline (the deterministic rules here). */
  author?: string
  /** Leave out some kinds of finding. */
  skip?: { preferences?: boolean; toolStats?: boolean }
  /** Preferences waiting in the memory folder's own queue (Find preferences): not proposed again, counted as proposed. */
  queuedPreferences?: readonly string[]
  now?: Date
}

export interface EvolveReport extends ProposeMemoryResult {
  findings: EvolutionFindings
  preferences: number
}

const MAX_TASKS_LISTED = 20

function taskList(seen: readonly FindingSource[]): string[] {
  return seen.slice(0, MAX_TASKS_LISTED).map((s) => s.path)
}

/** The proposals the findings make (pure). */
export function evolutionInputs(traces: readonly TaskTrace[], findings: EvolutionFindings, opts: EvolveOptions): MemoryProposalInput[] {
  const lang = opts.lang ?? 'en'
  const author = opts.author ?? 'offline'
  const inputs: MemoryProposalInput[] = []
  for (const h of findings.hallucinations) {
    const lesson = hallucinationLesson(h, lang)
    if (!lesson) continue
    inputs.push({
      workspace: opts.workspace,
      target: 'lessons',
      entries: [lesson],
      source: 'hallucinated_tool',
      reason: coded('memory.reason_hallucinated', { tool: h.tool, n: h.seen.length, valid: h.validTools.length }),
      author,
      details: { invented_tool: h.tool, valid_tools: h.validTools, tasks: taskList(h.seen), task_count: h.seen.length }
    })
  }
  for (const c of findings.critic) {
    inputs.push({
      workspace: opts.workspace,
      target: 'lessons',
      entries: [criticLesson(c, lang)],
      source: 'critic',
      reason: c.similar.length ? coded('memory.reason_critic_similar', { n: c.seen.length, similar: c.similar.length }) : coded('memory.reason_critic', { n: c.seen.length }),
      author,
      details: { suggestion: c.suggestion, similar: c.similar, tasks: taskList(c.seen), task_count: c.seen.length }
    })
  }
  if (!opts.skip?.preferences) {
    const byText = new Map<string, string[]>()
    for (const p of preferencesFromTraces([...traces])) byText.set(p.text, [...(byText.get(p.text) ?? []), p.source])
    for (const [text, sources] of byText) {
      inputs.push({
        workspace: opts.workspace,
        target: 'preferences',
        entries: [text],
        source: 'preference',
        reason: coded('memory.reason_preference', { n: sources.length }),
        author,
        details: { tasks: sources.slice(0, MAX_TASKS_LISTED), task_count: sources.length }
      })
    }
  }
  if (!opts.skip?.toolStats) {
    const notes = toolStatsNotes(findings.tools, lang)
    if (notes.length > 0) {
      inputs.push({
        workspace: opts.workspace,
        target: 'procedural',
        entries: notes,
        source: 'tool_stats',
        reason: toolStatsSummary(findings.tools, findings.tasks),
        author,
        details: { tool_stats: findings.tools.slice(0, 40), task_count: findings.tasks, tasks: traces.slice(0, MAX_TASKS_LISTED).map((t) => t.path) }
      })
    }
  }
  return inputs
}

/** Finds what the tasks teach and proposes it for review in the library's pending plan. */
export async function evolveMemory(libraryRoot: string, traces: readonly TaskTrace[], opts: EvolveOptions): Promise<EvolveReport> {
  // in the order the tasks ran, whatever order the scan read them in: the same tasks propose the same, in order
  const ordered = [...traces].sort((a, b) => (a.startedAt ?? a.mtime) - (b.startedAt ?? b.mtime) || a.path.localeCompare(b.path) || a.taskDir.localeCompare(b.taskDir))
  const findings = findEvolution(ordered)
  const all = evolutionInputs(ordered, findings, opts)
  const queued = opts.queuedPreferences ?? []
  const waiting = all.filter((i) => i.source === 'preference' && duplicatePreference(i.entries[0] ?? '', queued) !== undefined)
  const inputs = all.filter((i) => !waiting.includes(i))
  const result = await proposeMemory(libraryRoot, inputs, opts.now)
  const skipped = [...result.skipped, ...waiting.map((i) => ({ entry: i.entries[0] ?? '', target: i.target, reason: 'proposed' as const }))]
  return { ...result, skipped, findings, preferences: inputs.filter((i) => i.source === 'preference').length }
}
