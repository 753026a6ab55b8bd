/**
 * Splits an agent session into tasks (pure): a task is one user request and the work until the next request.
 * Shared by the Claude Code, Codex CLI and Synapse adapters so they all produce the same TaskTrace.
 */
import path from 'node:path'
import type { SkillRef, TaskTrace, ToolCall, TraceSource } from '../../shared/types'
import { idsFromQueryResult, isCorrection, isSkillQuery, mayUseSkill, refsOfCall } from './skill-refs'

const TEXT_CAP = 4000
const PARAM_CAP = 4000
const FINAL_CAP = 2000

/** Cuts a string for storage, saying how much was dropped. */
export function cap(text: string, max = TEXT_CAP): string {
  return text.length > max ? `${text.slice(0, max)}…[truncated ${text.length - max} chars]` : text
}

/** A tool's input object as flat string params (objects as JSON), each value capped. */
export function toParams(input: unknown): Record<string, string> {
  const params: Record<string, string> = {}
  if (input && typeof input === 'object' && !Array.isArray(input)) {
    for (const [k, v] of Object.entries(input as Record<string, unknown>)) {
      params[k] = cap(typeof v === 'string' ? v : JSON.stringify(v) ?? '', PARAM_CAP)
    }
  } else if (typeof input === 'string') {
    try {
      return toParams(JSON.parse(input) as unknown)
    } catch {
      params.input = cap(input, PARAM_CAP)
    }
  }
  return params
}

interface Segment {
  requirement: string | null
  toolCalls: ToolCall[]
  callIds: Map<string, ToolCall>
  errors: string[]
  interruptions: number
  completed: boolean
  finalText?: string
  files: string[]
  skills: string[]
  /** Skill uses, each with the number of errors the segment had when it happened. */
  refs: { ref: SkillRef; errorsBefore: number }[]
  startedAt?: number
}

/** A call that may show a skill use once its result is known (a failed read is no use; a query's ids are in its result). */
interface WatchedCall {
  seg: Segment
  /** Uses the call's arguments showed (dropped when the call fails). */
  refs: { ref: SkillRef; errorsBefore: number }[]
  query: boolean
  at?: number
  line?: number
  agent: string
}

/** Accumulates session events into tasks. */
export class SessionTaskBuilder {
  private readonly segments: Segment[] = []
  private readonly seenCalls = new Set<string>()
  private readonly watched = new Map<string, WatchedCall>()
  /** Skill names used so far in the session (an `invoked_skills` replay after a compaction names them again). */
  private readonly usedNames = new Set<string>()
  /** The time of the record being handled (set by `at`). */
  private recordTime: number | undefined

  constructor(
    private readonly base: { source: TraceSource; path: string; user: string; name: string; mtime: number; cwd?: string }
  ) {}

  private current(): Segment {
    let seg = this.segments[this.segments.length - 1]
    if (!seg) {
      seg = this.newSegment(null)
    }
    return seg
  }

  /**
   * The time of the record about to be handled: a task starts at the time of its request's record (or of the
   * first record with a time after it).
   */
  at(time: number | undefined): void {
    this.recordTime = time
    const last = this.segments[this.segments.length - 1]
    if (last && last.startedAt === undefined && time !== undefined) {
      last.startedAt = time
    }
  }

  private newSegment(requirement: string | null): Segment {
    const seg: Segment = {
      ...(this.recordTime !== undefined ? { startedAt: this.recordTime } : {}),
      requirement,
      toolCalls: [],
      callIds: new Map(),
      errors: [],
      interruptions: 0,
      completed: false,
      files: [],
      skills: [],
      refs: []
    }
    this.segments.push(seg)
    return seg
  }

  /**
   * A new user request starts a new task. `dedupe`: the same text just seen as the open task's request
   * (one request reported twice, as item and as event) does not start another.
   */
  request(text: string, dedupe = false): void {
    const req = cap(text.trim())
    const last = this.segments[this.segments.length - 1]
    if (dedupe && last && last.requirement === req && last.toolCalls.length === 0 && !last.completed) {
      return
    }
    this.newSegment(req)
  }

  /**
   * A tool call; a repeated id (the same block seen twice) is counted once.
   * `ownerCallId`: a sub-agent's calls join the task holding the call that started the sub-agent.
   */
  toolCall(id: string | undefined, agent: string, name: string, params: Record<string, string>, ownerCallId?: string, line?: number): void {
    if (id) {
      if (this.seenCalls.has(id)) {
        return
      }
      this.seenCalls.add(id)
    }
    const seg = (ownerCallId && this.segments.find((s) => s.callIds.has(ownerCallId))) || this.current()
    const call: ToolCall = { agent, name, params }
    if (line !== undefined) {
      call.line = line
    }
    seg.toolCalls.push(call)
    if (id) {
      seg.callIds.set(id, call)
    }
    if (!ownerCallId) {
      seg.completed = false
    }
    if (mayUseSkill(name)) {
      this.watchCall(seg, id, agent, name, params, line)
    }
  }

  /** Records the uses a call's arguments show, and watches its result (failure, query ids). */
  private watchCall(seg: Segment, id: string | undefined, agent: string, name: string, params: Record<string, string>, line?: number): void {
    const refs = refsOfCall(name, params).map((r) => this.addRef(seg, { ...r, errorsAfter: 0, agent, ...(line !== undefined ? { line } : {}) }))
    const query = isSkillQuery(name)
    if (id && (refs.length > 0 || query)) {
      this.watched.set(id, { seg, refs, query, agent, ...(this.recordTime !== undefined ? { at: this.recordTime } : {}), ...(line !== undefined ? { line } : {}) })
    }
  }

  private addRef(seg: Segment, ref: SkillRef): { ref: SkillRef; errorsBefore: number } {
    if (this.recordTime !== undefined && ref.at === undefined) ref.at = this.recordTime
    if (ref.name) this.usedNames.add(ref.name)
    const entry = { ref, errorsBefore: seg.errors.length }
    seg.refs.push(entry)
    return entry
  }

  /** True when the result text of this call is wanted (a `query_skill` call: its result lists the skills it returned). */
  wantsResult(id: string | undefined): boolean {
    return id !== undefined && this.watched.get(id)?.query === true
  }

  /**
   * A skill named by an `invoked_skills` attachment (a slash command ran it). Claude Code re-attaches every skill
   * invoked earlier after a compaction: a name this session already used is that replay, not a new use.
   */
  invokedSkill(name: string, skillPath?: string): void {
    if (!name) return
    this.skill(name)
    if (this.usedNames.has(name)) return
    this.addRef(this.current(), { kind: 'invoked', name, errorsAfter: 0, ...(skillPath ? { path: skillPath } : {}) })
  }

  /**
   * The result of a call: a failure is an error of the task the call belongs to. `resultText`: the result of a
   * call `wantsResult` asked for (a query's answer).
   */
  toolResult(id: string | undefined, ok: boolean, errorText?: string, resultText?: string): void {
    const watched = id !== undefined ? this.watched.get(id) : undefined
    if (watched) {
      this.watched.delete(id!)
      if (!ok) {
        // a read that failed read nothing: no use
        watched.seg.refs = watched.seg.refs.filter((r) => !watched.refs.includes(r))
      } else if (watched.query && resultText) {
        const ids = idsFromQueryResult(resultText)
        if (ids.length) {
          watched.seg.refs.push({
            ref: { kind: 'query', ids, errorsAfter: 0, agent: watched.agent, ...(watched.at !== undefined ? { at: watched.at } : {}), ...(watched.line !== undefined ? { line: watched.line } : {}) },
            errorsBefore: watched.seg.errors.length
          })
        }
      }
    }
    let seg: Segment | undefined
    let call: ToolCall | undefined
    for (let i = this.segments.length - 1; i >= 0 && !call; i--) {
      call = id ? this.segments[i]!.callIds.get(id) : undefined
      if (call) {
        seg = this.segments[i]
      }
    }
    seg ??= this.current()
    if (call) {
      if (call.ok === false && !ok) {
        return // the same failure reported twice (e.g. exec end event + output)
      }
      call.ok = ok
    }
    if (!ok) {
      const label = call ? `${call.name}: ` : ''
      seg.errors.push(cap(`${label}${(errorText ?? 'failed').trim()}`, 1000))
    }
  }

  error(text: string): void {
    this.current().errors.push(cap(text.trim(), 1000))
  }

  interrupt(): void {
    const seg = this.current()
    seg.interruptions++
    seg.completed = false
  }

  /** Assistant text; `final` marks a final answer (the task is complete unless more work follows). */
  assistantText(text: string, final: boolean): void {
    const seg = this.current()
    if (text.trim()) {
      seg.finalText = cap(text.trim(), FINAL_CAP)
    }
    if (final) {
      seg.completed = true
    }
  }

  complete(finalText?: string): void {
    const seg = this.current()
    seg.completed = true
    if (finalText?.trim()) {
      seg.finalText = cap(finalText.trim(), FINAL_CAP)
    }
  }

  /** Sets the working folder once the session says it (file paths are made relative to it). */
  setCwd(cwd: string): void {
    this.base.cwd ??= cwd
  }

  file(rawPath: string, ownerCallId?: string): void {
    const rel = relativeToCwd(rawPath, this.base.cwd)
    const seg = (ownerCallId && this.segments.find((s) => s.callIds.has(ownerCallId))) || this.current()
    if (rel && !seg.files.includes(rel)) {
      seg.files.push(rel)
    }
  }

  skill(name: string): void {
    const seg = this.current()
    if (name && !seg.skills.includes(name)) {
      seg.skills.push(name)
    }
  }

  /** The tasks, oldest first. Work before the first request becomes a task only if it did something. */
  tasks(): TaskTrace[] {
    const out: TaskTrace[] = []
    let n = 0
    for (const [i, seg] of this.segments.entries()) {
      if (seg.requirement === null && seg.toolCalls.length === 0) {
        continue
      }
      n++
      const completed = seg.completed
      const trace: TaskTrace = {
        source: this.base.source,
        user: this.base.user,
        taskDir: `${this.base.name}#${n}`,
        path: this.base.path,
        mtime: this.base.mtime,
        status: completed ? 'completed' : seg.interruptions > 0 ? 'interrupted' : 'incomplete',
        completed,
        requirements: seg.requirement === null ? [] : [seg.requirement],
        toolCalls: seg.toolCalls,
        errors: seg.errors,
        interruptions: seg.interruptions,
        agentMessages: [],
        files: seg.files,
        preferences: []
      }
      if (seg.finalText) {
        trace.finalText = seg.finalText
      }
      if (seg.skills.length) {
        trace.skillsUsed = seg.skills
      }
      if (seg.refs.length) {
        trace.skillRefs = seg.refs.map(({ ref, errorsBefore }) => ({ ...ref, errorsAfter: seg.errors.length - errorsBefore }))
      }
      const next = this.segments[i + 1]?.requirement
      if (next && isCorrection(next)) {
        trace.correctedBy = cap(next, 300)
      }
      if (seg.startedAt !== undefined) {
        trace.startedAt = seg.startedAt
      }
      out.push(trace)
    }
    return out
  }
}

/** A path a tool wrote, relative to the session's working folder; null when outside it. */
export function relativeToCwd(raw: string, cwd: string | undefined): string | null {
  const p = raw.trim().replace(/\\/g, '/')
  if (!p || p.includes('\0')) {
    return null
  }
  if (!path.posix.isAbsolute(p)) {
    const norm = path.posix.normalize(p)
    return norm.startsWith('..') || norm === '.' ? null : norm
  }
  if (!cwd) {
    return null
  }
  const base = cwd.replace(/\\/g, '/').replace(/\/+$/, '')
  if (!p.startsWith(base + '/')) {
    return null
  }
  return path.posix.normalize(p.slice(base.length + 1))
}
