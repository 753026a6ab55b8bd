/**
 * Builds one AGIAgent task trace from the parsed logs of its folder (pure).
 */
import path from 'node:path'
import type { SkillRef, TaskStatus, TaskTrace, ToolCall } from '../../shared/types'
import type { LogParse } from './agiagent-parser'
import { isCorrection, mayUseSkill, refsOfCall } from './skill-refs'

/** Tools whose path parameter names a file they create or change. */
const WRITING_TOOL = /edit|write|create|append|replace|save|patch|insert|move|copy|rename|update_file|new_file/i
const NOT_A_FILE_TOOL = /dir(ector(y|ies))?\b|folder|read|search|list|delete|remove/i
const PATH_PARAMS = [
  'target_file',
  'file_path',
  'filepath',
  'file',
  'filename',
  'path',
  'target_path',
  'output_file',
  'output_path',
  'destination',
  'dest',
  'new_path',
  'target'
]

/**
 * Workspace-relative form of a path a tool call wrote, or null when it points outside the workspace.
 * Absolute paths from the machine that ran the agent are matched by their `<taskDir>/workspace/` part.
 */
export function toWorkspaceRelative(raw: string, taskPath: string, taskDir: string): string | null {
  return workspaceRelative(raw, workspacePrefix(taskPath), taskDir)
}

/** `<taskPath>/workspace/` with forward slashes (computed once per task). */
function workspacePrefix(taskPath: string): string {
  return taskPath.replace(/\\/g, '/').replace(/\/+$/, '') + '/workspace/'
}

const QUOTE = /^["'`]|["'`]$/g
/** Segments `.`/`..` or empty ones: only then does normalising change the path. */
const NEEDS_NORMALIZE = /\/\/|(?:^|\/)\.\.?(?:\/|$)/

function workspaceRelative(raw: string, ws: string, taskDir: string): string | null {
  let p = raw.trim()
  const first = p.charCodeAt(0)
  const last = p.charCodeAt(p.length - 1)
  // 0x22 " 0x27 ' 0x60 `
  if (first === 0x22 || first === 0x27 || first === 0x60 || last === 0x22 || last === 0x27 || last === 0x60) {
    p = p.replace(QUOTE, '')
  }
  if (p.includes('\\')) {
    p = p.replace(/\\/g, '/')
  }
  if (!p || p.includes('\0') || p.includes('\n')) {
    return null
  }
  if (p.startsWith('/') || /^[A-Za-z]:\//.test(p)) {
    if (p.startsWith(ws)) {
      p = p.slice(ws.length)
    } else {
      const marker = `/${taskDir}/workspace/`
      const at = p.lastIndexOf(marker)
      if (at === -1) {
        return null
      }
      p = p.slice(at + marker.length)
    }
  } else {
    if (p.startsWith('./')) {
      p = p.replace(/^(\.\/)+/, '')
    }
    if (p.startsWith(`${taskDir}/workspace/`)) {
      p = p.slice(taskDir.length + '/workspace/'.length)
    } else if (p.startsWith('workspace/')) {
      p = p.slice('workspace/'.length)
    }
  }
  const norm = NEEDS_NORMALIZE.test(p) ? path.posix.normalize(p) : p
  if (!norm || norm === '.' || norm.startsWith('../') || norm === '..' || norm.startsWith('/') || norm.endsWith('/')) {
    return null
  }
  return norm
}

/** The workspace files the tool calls created or edited, in first-seen order. */
export function filesFromToolCalls(calls: ToolCall[], taskPath: string, taskDir: string): string[] {
  const ws = workspacePrefix(taskPath)
  const files = new Set<string>()
  // Tool names repeat: each is classified once.
  const writes = new Map<string, boolean>()
  for (const call of calls) {
    let writing = writes.get(call.name)
    if (writing === undefined) {
      writing = WRITING_TOOL.test(call.name) && !NOT_A_FILE_TOOL.test(call.name)
      writes.set(call.name, writing)
    }
    if (!writing) {
      continue
    }
    for (const key of PATH_PARAMS) {
      const value = call.params[key]
      if (value === undefined) {
        continue
      }
      const rel = workspaceRelative(value, ws, taskDir)
      if (rel) {
        files.add(rel)
      }
      break
    }
  }
  return [...files]
}

/** Completed → `completed`; stopped or interrupted → `interrupted`; otherwise still `incomplete`. */
export function statusOf(completed: boolean, interruptions: number, stoppedByUser: boolean): TaskStatus {
  if (completed) {
    return 'completed'
  }
  return stoppedByUser || interruptions > 0 ? 'interrupted' : 'incomplete'
}

/**
 * When an AGIAgent task started, from its folder name `output_YYYYMMDD_HHMMSS` (local time, as AGIAgent names
 * it), or undefined for other names. Pure.
 */
export function startedAtFromName(taskDir: string): number | undefined {
  const m = /^output_(\d{4})(\d{2})(\d{2})_(\d{2})(\d{2})(\d{2})(?:$|[^0-9])/.exec(taskDir)
  if (!m) {
    return undefined
  }
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number]
  const date = new Date(y, mo - 1, d, h, mi, s)
  // Date rolls 20260231 over into March: such a name holds no real time
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d || h > 23 || mi > 59 || s > 59) {
    return undefined
  }
  return date.getTime()
}

/**
 * When an AGIAgent task started, from the `start_time` of its `.agia_spawn_manager_status.json`
 * (`2026-04-11T23:50:43.861109`, local time like the folder names), or undefined when the text holds none. Pure.
 */
export function startedAtFromStatus(text: string): number | undefined {
  let status: unknown
  try {
    status = JSON.parse(text)
  } catch {
    return undefined
  }
  const start = (status as { start_time?: unknown } | null)?.start_time
  if (typeof start !== 'string') {
    return undefined
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/.exec(start.trim())
  if (!m) {
    return undefined
  }
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number]
  const ms = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0
  const date = new Date(y, mo - 1, d, h, mi, s, ms)
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d || h > 23 || mi > 59 || s > 59) {
    return undefined
  }
  return date.getTime()
}

/**
 * The skill uses the logs show: reads and loads from the calls' arguments, ids from `query_skill` results. Errors
 * after a use: the same log's errors past its offset, plus every error of the task's other logs (their order
 * against this log is not known).
 */
export function skillRefsOfLogs(logs: readonly LogParse[], startedAt: number | undefined): SkillRef[] {
  const refs: SkillRef[] = []
  const totalErrors = logs.reduce((n, l) => n + l.errors.length, 0)
  for (const l of logs) {
    const offsets = l.errorOffsets ?? []
    const after = (offset: number): number => {
      let n = 0
      for (const o of offsets) if (o > offset) n++
      return totalErrors - l.errors.length + n
    }
    const base = (offset: number): Pick<SkillRef, 'errorsAfter' | 'agent' | 'offset' | 'at'> => ({
      errorsAfter: after(offset),
      agent: l.agent,
      offset,
      ...(startedAt !== undefined ? { at: startedAt } : {})
    })
    const mine: SkillRef[] = []
    for (const c of l.toolCalls) {
      if (!mayUseSkill(c.name)) continue
      for (const r of refsOfCall(c.name, c.params)) mine.push({ ...r, ...base(c.offset ?? 0) })
    }
    for (const q of l.queryResults ?? []) mine.push({ kind: 'query', ids: q.ids, ...base(q.offset) })
    refs.push(...mine.sort((a, b) => (a.offset ?? 0) - (b.offset ?? 0)))
  }
  return refs
}

/**
 * The user's follow-up that says the work was wrong: the first later requirement of the manager's log (after the
 * first skill use in it, when there is one) that reads as a correction.
 */
function correctionOf(manager: LogParse | undefined, refs: readonly SkillRef[]): string | undefined {
  if (!manager || manager.requirements.length < 2) return undefined
  const firstUse = refs.find((r) => r.agent === manager.agent)?.offset
  const offsets = manager.requirementOffsets ?? []
  for (let i = 1; i < manager.requirements.length; i++) {
    if (firstUse !== undefined && (offsets[i] ?? 0) < firstUse) continue
    const text = manager.requirements[i]!
    if (isCorrection(text)) return text.slice(0, 300)
  }
  return undefined
}

/** Merges manager.out and the agent logs into one trace; requirements and interruptions come from the manager. */
export function buildTaskTrace(
  task: { path: string; user: string; taskDir: string; mtime: number; startedAt?: number },
  logs: LogParse[]
): TaskTrace {
  const manager = logs.find((l) => l.agent === 'manager')
  const lead = manager ?? logs[0]
  const toolCalls = logs.flatMap((l) => l.toolCalls)
  const toolCallsTotal = logs.reduce((n, l) => n + (l.toolCallsTotal ?? l.toolCalls.length), 0)
  const agentRequirements: Record<string, string[]> = {}
  for (const l of logs) {
    if (l !== manager && l.requirements.length > 0) {
      agentRequirements[l.agent] = l.requirements
    }
  }
  const completed = lead?.completed ?? false
  const interruptions = manager?.interruptions ?? 0
  const trace: TaskTrace = {
    source: 'agiagent',
    user: task.user,
    taskDir: task.taskDir,
    path: task.path,
    mtime: task.mtime,
    status: statusOf(completed, interruptions, lead?.stoppedByUser ?? false),
    completed,
    requirements: manager?.requirements ?? [],
    toolCalls,
    errors: logs.flatMap((l) => (l === manager ? l.errors : l.errors.map((e) => `[${l.agent}] ${e}`))),
    interruptions,
    agentMessages: logs.flatMap((l) => l.agentMessages),
    files: filesFromToolCalls(toolCalls, task.path, task.taskDir),
    preferences: manager?.preferences ?? []
  }
  if (Object.keys(agentRequirements).length > 0) {
    trace.agentRequirements = agentRequirements
  }
  const startedAt = startedAtFromName(task.taskDir) ?? task.startedAt
  if (startedAt !== undefined) {
    trace.startedAt = startedAt
  }
  const refs = skillRefsOfLogs(logs, startedAt ?? task.mtime)
  if (refs.length > 0) {
    trace.skillRefs = refs
  }
  const corrected = correctionOf(manager, refs)
  if (corrected !== undefined) {
    trace.correctedBy = corrected
  }
  if (toolCallsTotal > toolCalls.length) {
    trace.toolCallsTotal = toolCallsTotal
  }
  return trace
}
