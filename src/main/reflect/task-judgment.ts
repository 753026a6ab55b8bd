/**
 * Which tasks are worth a skill (pure). A task is a request and the work up to the next request; a follow-up
 * ("continue", "great, now also…", "thanks", a correction) folds into the task it continues. Greetings, tasks
 * with no work and unfinished tasks make no skill, and each says why (the Reflect screen and `reflect --json`).
 */
import type { NoSkillWhy } from '../../shared/api'
import type { TaskTrace, ToolCall } from '../../shared/types'
import { isCorrection } from '../scan/skill-refs'
import { cleanRequest, contentWordList, contentWords, isGreeting, isPermissionPrompt, requestWords, startsAsContinuation } from './requests'
import { sharedShare, sharesPhrase, WordIndex } from './topic-overlap'
import { coded, type CodedText } from '../../shared/error-codes'

export type { NoSkillWhy }

/** The English reason of `reflect --json` and the logs (the app translates it). */
export function noSkillReason(why: NoSkillWhy, of?: string): string {
  return noSkillReasonCoded(why, of).text
}

/** Why no skill was written, by code (error-codes.ts): the app words it in its own language. */
export function noSkillReasonCoded(why: NoSkillWhy, of?: string): CodedText {
  switch (why) {
    case 'greeting':
      return coded('reflect.why_greeting')
    case 'no-work':
      return coded('reflect.why_no_work')
    case 'little-work':
      return coded('reflect.why_little_work')
    case 'unfinished':
      return coded('reflect.why_unfinished')
    case 'follow-up':
      return of ? coded('reflect.why_follow_up_of', { task: of }) : coded('reflect.why_follow_up')
  }
}

/** A task to reflect: its first request and every follow-up folded in, as one trace. */
export interface TaskUnit {
  /** The folded trace (task folder of the first request). */
  trace: TaskTrace
  /** Task folders of the request and its follow-ups, in order. */
  members: string[]
}

/** A task that makes no skill and why. */
export interface NoSkillTask {
  trace: TaskTrace
  why: NoSkillWhy
  /** `follow-up`: the task it continues. */
  of?: string
}

export interface JudgedTasks {
  units: TaskUnit[]
  none: NoSkillTask[]
}

/** Tools that plan, ask or talk rather than do: they are not work a skill could teach. */
const NOT_WORK = new Set(['todowrite', 'todo_write', 'update_plan', 'askuserquestion', 'exitplanmode', 'enterplanmode', 'write_stdin', 'send_message', 'rate_skill'])
/** A task with fewer successful calls than this, no file written and no error met teaches nothing reusable. */
export const MIN_WORK_CALLS = 2
/** A later request this short cannot stand alone ("delete js", "create the beads"): it continues the task. */
const SHORT_FOLLOW_UP_WORDS = 8
/** Share of a later request's words already in the open task that makes it part of that task. */
const SHARED_WORDS = 0.5
/**
 * A lower share is enough when the request also picks up a phrase of the turn just before it: "prepare a demo
 * scenario" after "… draft the demo scenario" goes on with what was just discussed. A new task of the same project
 * shares a name or two, seldom a phrase of the last turn as well.
 */
const SHARED_WORDS_WITH_PHRASE = 0.25

/** Calls that did something (not planning, not failed). */
export function workCalls(calls: readonly ToolCall[]): number {
  return calls.filter((c) => c.ok !== false && !NOT_WORK.has(c.name.toLowerCase())).length
}

/**
 * Groups tasks into what deserves a skill and what does not. Tasks of one session (same `path`, not AGIAgent) are
 * read in order so a follow-up finds the task it continues; an AGIAgent task folder is one task with all its
 * requests. Pure and deterministic.
 */
export function judgeTasks(traces: readonly TaskTrace[]): JudgedTasks {
  const out: JudgedTasks = { units: [], none: [] }
  const sessions = new Map<string, TaskTrace[]>()
  for (const t of traces) {
    if (!wellFormed(t)) {
      // not judged: the reflection of it fails and says why, as any broken task does
      out.units.push({ trace: t, members: [t.taskDir] })
      continue
    }
    if (!t.source || t.source === 'agiagent') {
      judgeUnit({ trace: t, members: [t.taskDir] }, [], out)
      continue
    }
    const list = sessions.get(t.path) ?? []
    list.push(t)
    sessions.set(t.path, list)
  }
  for (const list of sessions.values()) {
    list.sort((a, b) => taskNumber(a) - taskNumber(b))
    let open: { parts: TaskTrace[]; words: WordIndex } | undefined
    const flush = (): void => {
      if (open) judgeUnit(foldParts(open.parts), open.parts.slice(1), out)
      open = undefined
    }
    for (const t of list) {
      const request = t.requirements[0] ?? ''
      if (open && isFollowUp(t, request, open.words, open.parts[open.parts.length - 1]!)) {
        open.parts.push(t)
        for (const w of taskWords(t)) open.words.add(w)
        continue
      }
      flush()
      if (!request.trim() && t.toolCalls.length > 0 && list.indexOf(t) === 0) {
        // work before the first request (a resumed session): it continues a task of an earlier log
        out.none.push({ trace: t, why: 'follow-up' })
        continue
      }
      if (isPureContinuation(request)) {
        // "continue" with no open task here continues a task of an earlier log
        out.none.push({ trace: t, why: 'follow-up' })
        continue
      }
      if (isGreeting(request)) {
        out.none.push({ trace: t, why: 'greeting' })
        continue
      }
      open = { parts: [t], words: new WordIndex() }
      for (const w of taskWords(t)) open.words.add(w)
    }
    flush()
  }
  return out
}

function wellFormed(t: TaskTrace): boolean {
  return Boolean(t) && Array.isArray(t.requirements) && Array.isArray(t.toolCalls) && Array.isArray(t.errors) && Array.isArray(t.files) && Array.isArray(t.agentMessages)
}

/** The number n of a session task `name#n` (0 when absent). */
function taskNumber(t: TaskTrace): number {
  const m = /#(\d+)$/.exec(t.taskDir)
  return m ? Number(m[1]) : 0
}

/** A request that only says to go on ("continue", "继续", "go ahead"): never a task of its own. */
function isPureContinuation(request: string): boolean {
  const t = cleanRequest(request).replace(/[\s,，.。!！?？~～]+/gu, ' ').trim()
  return t !== '' && startsAsContinuation(t) && requestWords(t) <= 3 && /^(?:continue|go on|keep going|carry on|proceed|resume|go ahead|do it|please continue|继续|接着)/i.test(t)
}

/** Whether a later request of a session continues the open task rather than starting a new one. */
function isFollowUp(t: TaskTrace, request: string, openWords: WordIndex, lastPart: TaskTrace): boolean {
  if (!request.trim()) return true // work with no new request (after a compaction) belongs to the task before
  if (startsAsContinuation(request) || isCorrection(request) || isGreeting(request)) return true
  // a turn without tool calls talks about the open task (a design discussed, a constraint added)
  if (t.toolCalls.length === 0) return true
  if (requestWords(request) <= SHORT_FOLLOW_UP_WORDS) return true
  const cleaned = cleanRequest(request)
  const words = contentWords(cleaned)
  if (words.size === 0) return true
  const share = sharedShare(words, openWords)
  if (share >= SHARED_WORDS) return true
  return share >= SHARED_WORDS_WITH_PHRASE && sharesPhrase(contentWordList(cleaned), lastTurnWords(lastPart))
}

/** The words of the turn just before, in order: its request, then its answer. */
function lastTurnWords(t: TaskTrace): string[] {
  return [...t.requirements.flatMap((r) => [...contentWordList(cleanRequest(r)), '']), ...contentWordList(t.finalText ?? '')]
}

/** The words a task's requests and answer use (what a follow-up would refer back to). */
function taskWords(t: TaskTrace): Set<string> {
  return contentWords([...t.requirements.map(cleanRequest), t.finalText ?? '', ...t.files].join('\n'))
}

/** One trace from a request and its follow-ups: requests in order, work concatenated, the outcome of the last. */
export function foldParts(parts: readonly TaskTrace[]): TaskUnit {
  const head = parts[0]!
  if (parts.length === 1) return { trace: head, members: [head.taskDir] }
  const last = parts[parts.length - 1]!
  const files: string[] = []
  for (const p of parts) for (const f of p.files) if (!files.includes(f)) files.push(f)
  // finished once any part finished and the last is not still at work: a follow-up the user stopped ("also lint",
  // then Esc) leaves the task done; a log that ends mid-work is waited for
  const completed = parts.some((p) => p.completed) && last.status !== 'incomplete'
  const trace: TaskTrace = {
    ...head,
    status: completed ? 'completed' : last.status,
    completed,
    requirements: parts.flatMap((p) => p.requirements),
    toolCalls: parts.flatMap((p) => p.toolCalls),
    errors: parts.flatMap((p) => p.errors),
    interruptions: parts.reduce((n, p) => n + p.interruptions, 0),
    agentMessages: parts.flatMap((p) => p.agentMessages),
    files,
    preferences: parts.flatMap((p) => p.preferences ?? [])
  }
  const total = parts.reduce((n, p) => n + (p.toolCallsTotal ?? p.toolCalls.length), 0)
  if (total > trace.toolCalls.length) trace.toolCallsTotal = total
  else delete trace.toolCallsTotal
  if (last.finalText) trace.finalText = last.finalText
  else delete trace.finalText
  if (last.correctedBy) trace.correctedBy = last.correctedBy
  else delete trace.correctedBy
  const skills = [...new Set(parts.flatMap((p) => p.skillsUsed ?? []))]
  if (skills.length) trace.skillsUsed = skills
  const refs = parts.flatMap((p) => p.skillRefs ?? [])
  if (refs.length) trace.skillRefs = refs
  return { trace, members: parts.map((p) => p.taskDir) }
}

/** Decides a unit: a skill, or a reason (its follow-ups then point at it). */
function judgeUnit(unit: TaskUnit, followUps: readonly TaskTrace[], out: JudgedTasks): void {
  const why = noSkillFor(unit.trace)
  if (!why) {
    out.units.push(unit)
    return
  }
  out.none.push({ trace: unit.trace, why })
  for (const f of followUps) out.none.push({ trace: f, why: 'follow-up', of: unit.trace.taskDir })
}

/** Why a (folded) task makes no skill, or undefined when it deserves one. */
export function noSkillFor(trace: TaskTrace): NoSkillWhy | undefined {
  const requests = trace.requirements.filter((r) => r.trim())
  if (requests.length > 0 && requests.every((r) => isGreeting(r))) return 'greeting'
  if (!trace.completed) return 'unfinished'
  const work = workCalls(trace.toolCalls)
  if (work === 0) return 'no-work'
  // one command that wrote nothing and fixed nothing ("show tools") leaves nothing to reuse
  const fixed = trace.errors.some((e) => !isPermissionPrompt(e))
  if (work < MIN_WORK_CALLS && !fixed && trace.files.length === 0) return 'little-work'
  return undefined
}

/** The request a title and usage line come from: the first one that is not a greeting, cleaned. */
export function headRequest(trace: TaskTrace): string {
  const real = trace.requirements.find((r) => r.trim() && !isGreeting(r))
  return cleanRequest(real ?? trace.requirements[0] ?? '')
}
