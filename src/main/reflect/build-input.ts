import type { TaskTrace } from '../../shared/types'
import { condenseToolCalls, formatStepLine } from './condense'
import { detectLanguage, type ReflectLanguage } from './language'
import { isPermissionPrompt } from './requests'
import { clip, cutMiddle } from './text-utils'

/** What the reflector (offline or model) reads about one task. */
export interface ReflectionInput {
  text: string
  language: ReflectLanguage
  /** True when something was cut to fit the budget. */
  truncated: boolean
}

export interface BuildInputOptions {
  /** Upper bound of `text` in chars (setting `reflectBudgetChars`). */
  budgetChars: number
  /** The raw manager log, when the caller has it: an excerpt fills the budget left over. */
  rawLog?: string
}

const MIN_BUDGET = 1_000

/**
 * Builds the reflection input from a trace within a budget. The requirements, the tool-call sequence, the
 * errors and the end of the task are always present (each cut in its middle when too long); the raw log,
 * if given, only fills what is left.
 */
export function buildReflectionInput(trace: TaskTrace, opts: BuildInputOptions): ReflectionInput {
  const budget = Math.max(MIN_BUDGET, Math.floor(opts.budgetChars))
  const language = detectLanguage(trace.requirements.join('\n') || trace.finalText || '')
  let truncated = false
  const fit = (text: string, max: number): string => {
    const out = cutMiddle(text, Math.max(80, Math.floor(max)))
    if (out !== text) {
      truncated = true
    }
    return out
  }

  const header = [
    `Task folder: ${trace.taskDir}`,
    `Outcome: ${trace.status}${trace.interruptions ? ` (user interruptions: ${trace.interruptions})` : ''}`,
    trace.source ? `Source: ${trace.source}` : ''
  ]
    .filter(Boolean)
    .join('\n')

  // the first request is the task; later ones are follow-ups folded into it (never the title)
  const requirements = trace.requirements.length
    ? trace.requirements.map((r, i) => `${i === 0 ? 'Task' : `Follow-up ${i}`}: ${clip(r.trim(), 4_000)}`).join('\n')
    : '(none recorded)'
  const steps = condenseToolCalls(trace.toolCalls)
  const toolLines = steps.length ? steps.map((s, i) => `${i + 1}. ${formatStepLine(s)}`).join('\n') : '(no tool calls)'
  // a tool use the user declined is a permission prompt, not an error to learn from
  const real = trace.errors.filter((e) => !isPermissionPrompt(e))
  const declined = trace.errors.length - real.length
  const errors =
    (real.length ? real.map((e) => `- ${clip(e.trim(), 600)}`).join('\n') : '(none)') +
    (declined ? `\n(${declined} tool use(s) declined by the user at the permission prompt: not errors, no lesson)` : '')
  const files = trace.files.length ? trace.files.slice(0, 200).map((f) => `- ${f}`).join('\n') : '(none)'
  const prefs = trace.preferences?.length ? trace.preferences.map((p) => `- ${clip(p, 400)}`).join('\n') : ''
  // the agent's own 💬 lines are not multi-agent events
  const events = trace.agentMessages.filter((m) => m.kind !== 'said')
  const messages = events.length
    ? `${events.length} multi-agent events, e.g.\n` +
      events
        .slice(0, 5)
        .map((m) => `- ${clip(m.text, 200)}`)
        .join('\n')
    : ''
  const end = trace.finalText ? clip(trace.finalText.trim(), 4_000) : ''

  // shares of the budget for the parts that must always be there
  const sections: [string, string, number][] = [
    ['User requirements', requirements, 0.25],
    [toolCallsHeading(trace, steps.length), toolLines, 0.25],
    ['Errors', errors, 0.12],
    ['Files created or edited (workspace-relative)', files, 0.06],
    ['User preferences stated in the log', prefs, 0.04],
    ['Multi-agent messages', messages, 0.04],
    ['How the task ended', end, 0.08]
  ]
  const parts = [header]
  for (const [title, body, share] of sections) {
    if (body) {
      parts.push(`## ${title}\n${fit(body, budget * share)}`)
    }
  }
  let text = parts.join('\n\n')
  if (opts.rawLog) {
    const room = budget - text.length - 40
    if (room > 200) {
      const excerpt = cutMiddle(opts.rawLog, room, (n) => `\n… [${n} chars of the log cut here] …\n`)
      truncated ||= excerpt !== opts.rawLog
      text += `\n\n## Log excerpt (start and end)\n${excerpt}`
    } else {
      truncated = true
    }
  }
  if (text.length > budget) {
    text = cutMiddle(text, budget)
    truncated = true
  }
  return { text, language, truncated }
}

/** The tool-call section's heading; a capped list says it is the first part of a longer one (never a false count). */
function toolCallsHeading(trace: TaskTrace, steps: number): string {
  const kept = trace.toolCalls.length
  if (trace.toolCallsTotal && trace.toolCallsTotal > kept) {
    return `Tool calls (the first ${kept} of ${trace.toolCallsTotal} calls in the log, ${steps} steps, in order; the rest were not read)`
  }
  return `Tool calls (${kept} calls, ${steps} steps, in order)`
}
