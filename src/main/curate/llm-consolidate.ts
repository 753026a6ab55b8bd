/**
 * Asking a model whether a cluster of similar skills should become one, and reading its answer. Pure
 * apart from the one `LlmClient.chat` call.
 *
 * The model answers either with tool calls (`edit_skill` on the skill to keep, `delete_skill` on the
 * ones to retire) or in plain text with `MERGE: yes|no`, `REASON:`, `TITLE:`, `USAGE_CONDITIONS:`,
 * `CONTENT:` lines, read case-insensitively (upstream's `'MERGE: yes' in text.upper()` never matches).
 * Anything malformed, or naming a skill outside the cluster, is an error: no proposal is made.
 */
import type { Skill } from '../../shared/types'
import type { ChatReply, LlmClient, LlmToolCall, ToolSpec } from '../llm/types'

export type LlmDecision =
  | { kind: 'merge'; primaryId: string; title?: string; usageConditions?: string; body?: string; retire: string[]; reason: string }
  | { kind: 'keep'; reason: string }
  | { kind: 'error'; message: string }

export const CONSOLIDATION_TOOLS: ToolSpec[] = [
  {
    type: 'function',
    function: {
      name: 'edit_skill',
      description: 'Rewrite the skill that stays after the merge (body, and optionally its title and usage conditions).',
      parameters: {
        type: 'object',
        properties: {
          skill_id: { type: 'string' },
          edit_mode: { type: 'string', enum: ['full_replace', 'append', 'lines_replace'] },
          code_edit: { type: 'string', description: 'New body (full_replace), text to append, or replacement lines' },
          old_code: { type: 'string', description: 'lines_replace only: the exact text to replace' },
          title: { type: 'string' },
          usage_conditions: { type: 'string' }
        },
        required: ['skill_id', 'code_edit']
      }
    }
  },
  {
    type: 'function',
    function: {
      name: 'delete_skill',
      description: 'Retire a skill whose knowledge is now in the merged one (it moves to legacy/, nothing is deleted).',
      parameters: { type: 'object', properties: { skill_id: { type: 'string' } }, required: ['skill_id'] }
    }
  }
]

/** The prompt for one cluster: every member with its id, title, usage conditions and body (cut). */
export function consolidationPrompt(members: readonly Skill[], maxChars: number): string {
  const parts = members.map((s, i) =>
    [
      `### Skill ${i + 1} (skill_id: ${s.skill_id})`,
      `Title: ${s.title}`,
      `Usage conditions: ${s.usage_conditions}`,
      `Quality index: ${s.quality_index}  Fetch count: ${s.fetch_count}`,
      'Content:',
      s.body.length > maxChars ? `${s.body.slice(0, maxChars)}\n[… cut]` : s.body
    ].join('\n')
  )
  return [
    'These skills were found similar. Decide whether they should be merged into one skill.',
    'If yes, call edit_skill on the skill to keep (full_replace with the merged content; keep every distinct',
    'piece of knowledge once) and delete_skill on each skill to retire. Or answer in plain text exactly as:',
    'MERGE: yes|no',
    'REASON: <one line>',
    'TITLE: <title of the merged skill>',
    'USAGE_CONDITIONS: <when to use it>',
    'CONTENT:',
    '<the merged Markdown body>',
    '',
    ...parts
  ].join('\n')
}

type Label = 'merge' | 'reason' | 'title' | 'usage_conditions' | 'content'
/** A label at a line start, tolerating Markdown decoration (`**MERGE:**`, `- Title:`, `USAGE CONDITIONS:`). */
const LABEL_LINE = /^[ \t>*_#-]*(merge|reason|title|usage[ _-]?conditions|content)[ \t*_]*[:：][ \t*_]*/gim

/** Splits a plain-text answer into its labelled fields (values trimmed; CONTENT keeps inner lines). */
export function parseLabelledAnswer(text: string): Partial<Record<Label, string>> {
  const found: Array<{ label: Label; start: number; valueStart: number }> = []
  for (const m of text.matchAll(LABEL_LINE)) {
    const label = m[1]!.toLowerCase().replace(/[ -]/g, '_').replace('usageconditions', 'usage_conditions') as Label
    // CONTENT runs to the end: labels inside it are body text.
    if (found.some((f) => f.label === 'content')) break
    if (found.some((f) => f.label === label)) continue
    found.push({ label, start: m.index!, valueStart: m.index! + m[0].length })
  }
  const out: Partial<Record<Label, string>> = {}
  found.forEach((f, i) => {
    const end = i + 1 < found.length ? found[i + 1]!.start : text.length
    let value = text.slice(f.valueStart, end).trim()
    if (f.label === 'content') value = stripWrappingFence(value)
    out[f.label] = value
  })
  return out
}

function stripWrappingFence(value: string): string {
  const m = /^```[\w-]*\n([\s\S]*?)\n```$/.exec(value)
  return m ? m[1]! : value
}

function parseArgs(call: LlmToolCall): Record<string, unknown> | string {
  try {
    const v: unknown = JSON.parse(call.arguments || '{}')
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return `${call.name}: arguments are not a JSON object`
    return v as Record<string, unknown>
  } catch {
    return `${call.name}: arguments are not valid JSON`
  }
}

/** Reads tool calls into a decision (see module comment). */
export function decisionFromToolCalls(calls: readonly LlmToolCall[], members: readonly Skill[]): LlmDecision {
  const byId = new Map(members.map((s) => [s.skill_id, s]))
  const bodies = new Map<string, { title?: string; usage?: string; body: string }>()
  const retire: string[] = []
  for (const call of calls) {
    if (call.name !== 'edit_skill' && call.name !== 'delete_skill') return { kind: 'error', message: `model called unknown tool ${JSON.stringify(call.name)}` }
    const args = parseArgs(call)
    if (typeof args === 'string') return { kind: 'error', message: args }
    const id = typeof args.skill_id === 'number' ? String(args.skill_id) : args.skill_id
    if (typeof id !== 'string' || !byId.has(id)) {
      return { kind: 'error', message: `${call.name} names skill ${JSON.stringify(id ?? null)}, which is not in this cluster (${[...byId.keys()].join(', ')})` }
    }
    if (call.name === 'delete_skill') {
      if (!retire.includes(id)) retire.push(id)
      continue
    }
    const mode = args.edit_mode ?? 'full_replace'
    const code = args.code_edit
    if (typeof code !== 'string') return { kind: 'error', message: 'edit_skill without a code_edit text' }
    const current = bodies.get(id) ?? { body: byId.get(id)!.body }
    if (mode === 'full_replace') current.body = code
    else if (mode === 'append') current.body = `${current.body.replace(/\s+$/, '')}\n\n${code}\n`
    else if (mode === 'lines_replace') {
      const old = args.old_code
      if (typeof old !== 'string' || old === '') return { kind: 'error', message: 'edit_skill lines_replace without old_code' }
      const at = current.body.indexOf(old)
      if (at < 0 || current.body.indexOf(old, at + 1) >= 0) return { kind: 'error', message: 'edit_skill lines_replace: old_code must occur exactly once in the skill' }
      current.body = current.body.slice(0, at) + code + current.body.slice(at + old.length)
    } else return { kind: 'error', message: `edit_skill with unknown edit_mode ${JSON.stringify(mode)}` }
    if (typeof args.title === 'string' && args.title.trim()) current.title = args.title.trim()
    if (typeof args.usage_conditions === 'string') current.usage = args.usage_conditions.trim()
    bodies.set(id, current)
  }
  if (bodies.size > 1) return { kind: 'error', message: `model edited ${bodies.size} skills; a consolidation keeps exactly one` }
  const [edited] = [...bodies.entries()]
  if (edited && retire.includes(edited[0])) return { kind: 'error', message: `model both edited and deleted skill ${edited[0]}` }
  if (!edited && retire.length === 0) return { kind: 'error', message: 'model made no edit_skill or delete_skill call' }
  if (!edited && retire.length >= members.length) return { kind: 'error', message: 'model deleted every skill of the cluster' }
  const primaryId = edited ? edited[0] : members.find((s) => !retire.includes(s.skill_id))!.skill_id
  return {
    kind: 'merge',
    primaryId,
    title: edited?.[1].title,
    usageConditions: edited?.[1].usage,
    body: edited?.[1].body,
    retire,
    reason: 'model merged the cluster through tool calls'
  }
}

/** Reads a plain-text answer into a decision; primaryId is chosen by the caller's rule. */
export function decisionFromText(text: string, primaryId: string, members: readonly Skill[]): LlmDecision {
  const f = parseLabelledAnswer(text)
  if (f.merge === undefined) return { kind: 'error', message: 'model answer has no "MERGE: yes|no" line' }
  const verdict = /^[*_\s]*(yes|no|true|false|是|否)\b/i.exec(f.merge)?.[1]?.toLowerCase()
  if (verdict === undefined) return { kind: 'error', message: `model answer "MERGE: ${f.merge.slice(0, 30)}" is neither yes nor no` }
  const reason = f.reason ?? ''
  if (verdict === 'no' || verdict === 'false' || verdict === '否') return { kind: 'keep', reason: reason || 'model said not to merge' }
  if (!f.content) return { kind: 'error', message: 'model said MERGE: yes but gave no CONTENT' }
  if (!f.title) return { kind: 'error', message: 'model said MERGE: yes but gave no TITLE' }
  return {
    kind: 'merge',
    primaryId,
    title: f.title.split('\n')[0]!.trim(),
    usageConditions: f.usage_conditions,
    body: f.content.endsWith('\n') ? f.content : `${f.content}\n`,
    retire: members.filter((s) => s.skill_id !== primaryId).map((s) => s.skill_id),
    reason: reason || 'model said to merge'
  }
}

/** Asks the model about one cluster. Network/model failures become an error decision. */
export async function askModel(llm: LlmClient, members: readonly Skill[], primaryId: string, maxChars: number, signal?: AbortSignal): Promise<LlmDecision & { model?: string }> {
  let reply: ChatReply
  try {
    reply = await llm.chat({
      messages: [
        { role: 'system', content: 'You curate a library of agent skills. Merge only skills that teach the same thing.' },
        { role: 'user', content: consolidationPrompt(members, maxChars) }
      ],
      tools: CONSOLIDATION_TOOLS,
      temperature: 0,
      signal
    })
  } catch (err) {
    return { kind: 'error', message: `model request failed: ${(err as Error).message}` }
  }
  const decision = reply.toolCalls.length > 0 ? decisionFromToolCalls(reply.toolCalls, members) : decisionFromText(reply.text, primaryId, members)
  return { ...decision, model: reply.model || llm.model }
}
