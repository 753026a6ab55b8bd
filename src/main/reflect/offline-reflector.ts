import type { TaskTrace, ToolCall } from '../../shared/types'
import { condenseToolCalls, primaryTarget, type Step } from './condense'
import { detectLanguage, type ReflectLanguage } from './language'
import { isBackupCandidate } from './backup-rules'
import { safeWorkspacePath } from './parse-answer'
import { isGreeting, isPermissionPrompt } from './requests'
import { headRequest } from './task-judgment'
import { clip, oneLine } from './text-utils'
import type { ReflectionDraft } from './types'

/** Headings and phrases of the offline reflection, per language. */
const WORDS = {
  en: {
    colon: ':',
    paren: (t: string) => ` (${t})`,
    task: 'Task',
    outcome: 'Outcome',
    source: 'Source',
    when: 'When to use',
    approach: 'Approach',
    pitfalls: 'Pitfalls and fixes',
    outputs: 'Outputs',
    followUps: 'Follow-up requests',
    prefs: 'User preferences',
    result: 'Final answer',
    completed: 'Completed.',
    interrupted: (n: number) => `Interrupted by the user (${n}×); the follow-up requests show what they wanted instead.`,
    incomplete: 'Not finished: the log has no completion marker.',
    calls: (n: number, agents: number) => `${n} tool call${n === 1 ? '' : 's'}${agents > 1 ? `, ${agents} agents` : ''}`,
    capped: (total: number, kept: number) => `${total.toLocaleString('en-US')} tool calls in the log; the first ${kept.toLocaleString('en-US')} were read`,
    noTools: 'Answered directly, without tools.',
    more: (n: number) => `… and ${n} more step${n === 1 ? '' : 's'} of the same kind.`,
    multiAgent: (n: number, agents: string[]) =>
      `Work was split between agents (${agents.join(', ')}); ${n} message${n === 1 ? '' : 's'} passed between them.`,
    usage: (req: string) => `Use when asked to: ${req}`,
    usageNone: 'General tasks',
    untitled: (dir: string) => `Task ${dir}`,
    retried: (tool: string, target: string) => `fixed by running \`${tool}\` again${target ? ` (\`${target}\`)` : ''}`,
    stillCompleted: 'the task still completed',
    unresolved: 'not resolved before the task ended',
    interruptedPitfall: (n: number) =>
      `The user interrupted ${n === 1 ? 'once' : `${n} times`}: check the follow-up requests before repeating this approach.`,
    times: (n: number) => ` (×${n})`,
    and: (n: number) => ` and ${n} more`
  },
  zh: {
    colon: '：',
    paren: (t: string) => `（${t}）`,
    task: '任务',
    outcome: '结果',
    source: '来源',
    when: '适用场景',
    approach: '方法步骤',
    pitfalls: '踩坑与解决',
    outputs: '产出文件',
    followUps: '后续要求',
    prefs: '用户偏好',
    result: '最终答复',
    completed: '已完成。',
    interrupted: (n: number) => `被用户中断 ${n} 次；后续要求说明了用户真正想要的结果。`,
    incomplete: '未完成：日志中没有完成标记。',
    calls: (n: number, agents: number) => `${n} 次工具调用${agents > 1 ? `，${agents} 个智能体` : ''}`,
    capped: (total: number, kept: number) => `日志共有 ${total.toLocaleString('en-US')} 次工具调用，只分析了前 ${kept.toLocaleString('en-US')} 次`,
    noTools: '未调用工具，直接作答。',
    more: (n: number) => `…… 另有 ${n} 个同类步骤。`,
    multiAgent: (n: number, agents: string[]) => `任务由多个智能体分工完成（${agents.join('、')}），相互传递了 ${n} 条消息。`,
    usage: (req: string) => `当需要完成类似任务时使用：${req}`,
    usageNone: '通用任务',
    untitled: (dir: string) => `任务 ${dir}`,
    retried: (tool: string, target: string) => `再次运行 \`${tool}\` 后解决${target ? `（\`${target}\`）` : ''}`,
    stillCompleted: '任务最终仍然完成',
    unresolved: '任务结束前未解决',
    interruptedPitfall: (n: number) => `用户中断了 ${n} 次：重复这个做法前先看后续要求。`,
    times: (n: number) => `（×${n}）`,
    and: (n: number) => ` 等 ${n + 1} 项`
  }
} as const

type Words = (typeof WORDS)[ReflectLanguage]

/** Verb phrases for well-known tools (AGIAgent, Claude Code, Codex), keyed by lower-case name. */
const VERBS: Record<string, { en: string; zh: string }> = {}
function verbs(names: string[], en: string, zh: string): void {
  for (const n of names) VERBS[n] = { en, zh }
}
verbs(['read_file', 'read', 'view_file', 'cat', 'open_file'], 'Read', '读取')
verbs(['edit_file', 'write_file', 'write', 'create_file', 'edit', 'multiedit', 'str_replace', 'apply_patch', 'notebookedit'], 'Write or edit', '编写/修改')
verbs(['run_terminal_cmd', 'bash', 'shell', 'exec_command', 'run_command', 'local_shell', 'terminal'], 'Run', '运行')
verbs(['web_search', 'search_web', 'websearch'], 'Search the web for', '联网搜索')
verbs(['codebase_search', 'grep_search', 'grep', 'search', 'file_search', 'glob', 'search_files'], 'Search the code for', '搜索代码')
verbs(['list_dir', 'ls', 'list_files'], 'List', '查看目录')
verbs(['query_skill'], 'Look up earlier skills for', '查询已有技能')
verbs(['fetch_webpage', 'webfetch', 'fetch_url', 'fetch'], 'Fetch', '获取网页')
verbs(['spawn_agia', 'spawn_agent', 'create_agent', 'task', 'agent'], 'Hand a sub-task to an agent:', '派生子智能体：')
verbs(['send_p2p_message', 'send_message', 'send_broadcast_message'], 'Message', '发送消息给')
verbs(['todowrite', 'update_plan', 'todo_write'], 'Update the plan', '更新计划')
verbs(['rate_skill'], 'Rate the skill', '给技能评分')

const MAX_STEPS = 20
const MAX_PITFALLS = 8

const PREF_EN = /\b(i prefer|prefer|always|never|don't|do not|please use|make sure|remember|in (?:chinese|english))\b/i
const PREF_ZH = /(记住|偏好|喜欢|不要|别用|务必|一定要|必须|请用|请使用|用中文|中文的|用英文|英文的)/

/**
 * The offline reflection: deterministic and extractive (no network). Everything it says comes from the
 * trace: title and usage from the first requirement, the approach from the tool-call sequence, pitfalls from
 * the errors and what followed them, outputs, outcome and stated preferences — in the task's language.
 */
export function reflectOffline(trace: TaskTrace): ReflectionDraft {
  const language = detectLanguage(trace.requirements.join('\n') || trace.finalText || '')
  const w = WORDS[language]
  // the title and usage come from what was asked: the first real request, without greetings and agent wrappers
  const head = headRequest(trace)
  const first = oneLine(head)
  const title = titleFromRequirement(head, language) || w.untitled(trace.taskDir)
  const usageConditions = first ? w.usage(clip(first, 100)) : w.usageNone
  const preferences = extractPreferences(trace)
  const filesToBackup = backupCandidates(trace)

  const agents = [...new Set(trace.toolCalls.map((c) => c.agent).filter(Boolean))]
  // (one agent: no agent count in the source line)
  const out: string[] = [`# ${title}`, '']
  if (first) {
    out.push(`**${w.task}${w.colon}** ${clip(first, 600)}`)
  }
  out.push(`**${w.outcome}${w.colon}** ${outcomeLine(trace, w)}`)
  // the parser keeps the first 20,000 calls of a log: say so rather than state the kept number as the count
  const calls = trace.toolCallsTotal && trace.toolCallsTotal > trace.toolCalls.length ? w.capped(trace.toolCallsTotal, trace.toolCalls.length) : w.calls(trace.toolCalls.length, agents.length)
  out.push(`**${w.source}${w.colon}** \`${trace.taskDir}\`${w.paren(calls)}`)
  out.push('', `## ${w.when}`, usageConditions)

  out.push('', `## ${w.approach}`)
  out.push(...approachLines(trace, language, w))

  const pitfalls = pitfallLines(trace, w)
  if (pitfalls.length) {
    out.push('', `## ${w.pitfalls}`, ...pitfalls.map((p) => `- ${p}`))
  }
  if (trace.files.length) {
    const shown = trace.files.slice(0, 30).map((f) => `- \`${f}\``)
    if (trace.files.length > 30) shown.push(`- …${w.and(trace.files.length - 30)}`)
    out.push('', `## ${w.outputs}`, ...shown)
  }
  const followUps = followUpRequests(trace, first)
  if (followUps.length) {
    out.push('', `## ${w.followUps}`, ...followUps.map((r, i) => `${i + 1}. ${r}`))
  }
  if (preferences.length) {
    out.push('', `## ${w.prefs}`, ...preferences.map((p) => `- ${p}`))
  }
  if (trace.finalText?.trim()) {
    out.push('', `## ${w.result}`, quoteAnswer(trace.finalText, 800))
  }
  return {
    title,
    body: out.join('\n') + '\n',
    usageConditions,
    userPreferences: preferences.join('; '),
    filesToBackup,
    rejectedPaths: [],
    language,
    author: 'offline'
  }
}

/** The agent's last answer inside the skill: headings demoted under ours, a fence cut by the clip closed again. */
function quoteAnswer(text: string, max: number): string {
  const cut = clip(text.trim(), max)
  const lines = cut.split('\n').map((l) => l.replace(/^#{1,6}\s+/, '#### '))
  if (lines.filter((l) => /^\s*```/.test(l)).length % 2 === 1) lines.push('```')
  return lines.join('\n')
}

/** The agent that ran the task: the first one seen ('manager' for AGIAgent, 'main' for sessions). */
function primaryAgent(trace: TaskTrace): string {
  return trace.toolCalls[0]?.agent || 'manager'
}

function outcomeLine(trace: TaskTrace, w: Words): string {
  if (trace.status === 'completed') {
    return trace.interruptions ? `${w.completed} ${w.interrupted(trace.interruptions)}` : w.completed
  }
  if (trace.status === 'interrupted' || trace.interruptions > 0) {
    return w.interrupted(Math.max(1, trace.interruptions))
  }
  return w.incomplete
}

const GREETING = /^(?:你好|您好|hi|hello|hey|嗨|哈喽)[\s,，!！.。~～]*/i
const POLITE = /^(?:please|pls|could you|can you|请你|请帮我|请|帮我|麻烦)[\s,，]*/i

/** A title from the first requirement: greeting and "please" dropped, one line, ≤ 50 chars, cut at a word. */
export function titleFromRequirement(requirement: string, language: ReflectLanguage): string {
  // the first line names the task; later lines are details (or log noise glued on by a streamed log)
  let t = oneLine(requirement.split('\n').find((l) => l.trim()) ?? '')
  const stripped = t.replace(GREETING, '').replace(POLITE, '').trim()
  if (stripped) {
    t = stripped
  }
  t = t.replace(/[\s,，;；:：。.!！?？]+$/, '')
  if (language === 'en' && t) {
    t = t[0]!.toUpperCase() + t.slice(1)
  }
  if (t.length <= 50) {
    return t
  }
  if (language === 'en') {
    const cut = t.slice(0, 49)
    const space = cut.lastIndexOf(' ')
    return (space > 25 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '') + '…'
  }
  return clip(t, 50)
}

function approachLines(trace: TaskTrace, language: ReflectLanguage, w: Words): string[] {
  if (!trace.toolCalls.length) {
    return [w.noTools]
  }
  const steps = condenseToolCalls(trace.toolCalls)
  // AGIAgent's lead agent is always `manager`; a session's lead is whoever acted first
  const main = !trace.source || trace.source === 'agiagent' ? 'manager' : primaryAgent(trace)
  const lines = steps.slice(0, MAX_STEPS).map((s, i) => `${i + 1}. ${describeStep(s, language, w, main)}`)
  if (steps.length > MAX_STEPS) {
    lines.push(w.more(steps.length - MAX_STEPS))
  }
  const subAgents = [...new Set(trace.toolCalls.map((c) => c.agent).filter((a) => a && a !== main))]
  if (subAgents.length) {
    lines.push('', w.multiAgent(trace.agentMessages.filter((m) => m.kind !== 'said').length, subAgents))
  }
  return lines
}

function describeStep(step: Step, language: ReflectLanguage, w: Words, main: string): string {
  const verb = VERBS[step.name.toLowerCase()]?.[language]
  const shown = step.targets.slice(0, 3).map((t) => `\`${clip(t.replace(/`/g, "'"), 100)}\``)
  const more = step.targets.length > 3 ? w.and(step.targets.length - 3) : ''
  const sep = language === 'zh' ? '、' : ', '
  const what = shown.length ? ` ${shown.join(sep)}${more}` : ''
  const agent = step.agent && step.agent !== main ? `[${step.agent}] ` : ''
  const times = step.count > 1 ? w.times(step.count) : ''
  const head = verb ? `${verb}${what}` : language === 'zh' ? `使用 \`${step.name}\`${what}` : `Use \`${step.name}\`${what}`
  const tool = verb ? ` — \`${step.name}\`` : ''
  return `${agent}${head}${times}${tool}`
}

/** Errors and how the log shows they were handled. */
function pitfallLines(trace: TaskTrace, w: Words): string[] {
  const lines: string[] = []
  const seen = new Set<string>()
  const toolNames = [...new Set(trace.toolCalls.map((c) => c.name))].sort((a, b) => b.length - a.length)
  // a tool use the user declined is a permission prompt, not a lesson (nor is the failed call behind it)
  const declined = trace.errors.filter(isPermissionPrompt)
  for (const raw of trace.errors) {
    if (isPermissionPrompt(raw)) continue
    const text = cleanError(raw)
    if (!text || seen.has(text)) continue
    seen.add(text)
    if (lines.length >= MAX_PITFALLS) break
    const tool = toolNames.find((n) => text.toLowerCase().includes(n.toLowerCase()))
    lines.push(`${clip(text, 240)} — ${resolution(trace, tool, w)}`)
  }
  // failed calls known from session adapters that no error line mentions
  const failed = trace.toolCalls.filter((c) => c.ok === false)
  for (const call of failed) {
    if (lines.length >= MAX_PITFALLS) break
    const key = `${call.name}:${primaryTarget(call) ?? ''}`
    if (seen.has(key)) continue
    seen.add(key)
    if (trace.errors.some((e) => e.includes(call.name))) continue
    if (declined.some((e) => e.startsWith(`${call.name}:`))) continue
    lines.push(`\`${call.name}\`${primaryTarget(call) ? ` (\`${primaryTarget(call, 80)}\`)` : ''} failed — ${resolution(trace, call.name, w, call)}`)
  }
  if (trace.interruptions > 0) {
    lines.push(w.interruptedPitfall(trace.interruptions))
  }
  return lines
}

function resolution(trace: TaskTrace, tool: string | undefined, w: Words, failedCall?: ToolCall): string {
  const calls = tool ? trace.toolCalls.filter((c) => c.name === tool) : []
  if (tool && calls.length) {
    const from = failedCall ? trace.toolCalls.indexOf(failedCall) : -1
    // a later call of the same tool that did not fail = the retry that worked
    const later = trace.toolCalls.filter((c, i) => c.name === tool && i > from && c.ok !== false && c !== failedCall)
    const retry = failedCall ? later[0] : calls.length > 1 ? calls[calls.length - 1] : undefined
    if (retry) {
      return w.retried(tool, primaryTarget(retry, 100) ?? '')
    }
  }
  return trace.completed ? w.stillCompleted : w.unresolved
}

function cleanError(raw: string): string {
  return oneLine(
    raw
      .replace(/^\s*(?:❌|⚠️)\s*/u, '')
      .replace(/^(?:CRITICAL\s+)?ERROR FEEDBACK[:\s-]*/i, '')
  )
}

function followUpRequests(trace: TaskTrace, first: string): string[] {
  const seen = new Set([first, oneLine(trace.requirements[0] ?? '')])
  const out: string[] = []
  for (const r of trace.requirements) {
    const line = oneLine(r)
    if (!line || seen.has(line) || isGreeting(line)) continue
    seen.add(line)
    out.push(clip(line, 300))
    if (out.length >= 10) break
  }
  return out
}

/** Preferences the log states: the scanner's list plus requirement sentences that sound like one. */
export function extractPreferences(trace: TaskTrace): string[] {
  const out: string[] = []
  const add = (p: string): void => {
    // "记住：代码注释用中文。" and "代码注释用中文。" are one preference
    const t = clip(oneLine(p).replace(/^(?:记住|请记住|remember(?: that)?)\s*[:：,，]?\s*/i, ''), 200)
    const key = t.replace(/[\s。.!！]+$/u, '')
    if (!key || out.length >= 10 || out.some((o) => o.includes(key) || key.includes(o.replace(/[\s。.!！]+$/u, '')))) return
    out.push(t)
  }
  for (const p of trace.preferences ?? []) add(p)
  for (const req of trace.requirements) {
    for (const sentence of req.split(/(?<=[。！？!?;；\n])|(?<=\.)\s+|[，,](?=[^，,]*$)/u)) {
      const s = sentence.trim()
      if (s.length >= 2 && s.length <= 200 && (PREF_EN.test(s) || PREF_ZH.test(s))) add(s)
    }
  }
  return out
}

/** The workspace files the task created or edited that the backup rules accept (code and documents). */
export function backupCandidates(trace: TaskTrace): string[] {
  const out: string[] = []
  const consider = (p: string | undefined): void => {
    if (!p) return
    const safe = safeWorkspacePath(p)
    if (safe && isBackupCandidate(safe) && !out.includes(safe)) out.push(safe)
  }
  trace.files.forEach(consider)
  return out.slice(0, 50)
}

