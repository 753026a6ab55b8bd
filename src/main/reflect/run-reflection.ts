import fs from 'node:fs'
import path from 'node:path'
import { ensureDirInside } from '../store/contained'
import { libraryLayout } from '../formats/convert'
import { cutDescription, skillMdNameFor, uniqueSkillName } from '../formats/skill-md'
import { oneLine } from './text-utils'
import type { Proposal, ScanResult, Skill, TaskTrace } from '../../shared/types'
import { taskTime } from '../../shared/task-time'
import { LlmError } from '../llm/errors'
import { redact, redactParams } from '../llm/redact'
import { redactDraft } from './redact-draft'
import type { LlmClient } from '../llm/types'
import { StoreError, type SkillStore } from '../store/types'
import {
  decideOffline,
  decideWithLlm,
  decisionQuery,
  DEFAULT_DECIDE_THRESHOLDS,
  enhanceProposal,
  formatDecisionReport,
  type DecideThresholds,
  type Decision
} from './decide'
import { findClosestSkills, pendingEnhanceTasks, savePendingProposal } from './decide-io'
import { detectLanguage } from './language'
import { readLogExcerpt } from './log-excerpt'
import { reflectWithLlm } from './llm-reflector'
import { reflectOffline } from './offline-reflector'
import { ReflectionLog } from './reflection-log'
import { decisionLogLine } from './decision-log-line'
import { judgeTasks, noSkillReasonCoded, type NoSkillTask, type TaskUnit } from './task-judgment'
import { reflectedSets } from './reflect-preview'
import { finishedUpdateProposal } from './finished-update'
import { againTarget, reflectAgainProposal } from './reflect-again'
import { proposedBefore } from './proposed-before'
import { updateDecision } from './update-decision'
import type { ProposalStatus } from '../review/plan'
import { evolveMemory } from './memory-evolve'
import type { MemoryLang } from '../memory/lessons'
import type { ReflectionDraft, ReflectionEvent, ReflectionStep, ReflectionSummary } from './types'
import { RESERVED_SKILL_NAMES } from '../store/paths'
import { coded, codedLine, isMessageRef, lineOf, refOf, type CodedLine, type CodedText, type MessageCode, type MessageParams } from '../../shared/error-codes'
import { codedReason } from '../../shared/coded-reason'
import { codedFieldsOf, reasonOf } from '../../shared/api-error'

/** Copies chosen workspace files next to a new skill (copy_skill_files rules) and records them in related_code. */
export type BackupFiles = (args: {
  store: SkillStore
  skill: Skill
  /** Absolute path of the task's `workspace/` folder. */
  workspaceDir: string
  /** Workspace-relative paths, already checked to stay inside. */
  files: string[]
}) => Promise<{ copied: string[]; skipped: { path: string; reason: string }[] }>

/** What the runner needs from the rest of the app (all replaceable in tests). */
export interface ReflectionDeps {
  /** Required for mode 'openai'. */
  llm?: LlmClient
  scan: (opts: { rootDir: string; signal?: AbortSignal }) => Promise<ScanResult>
  openStore: (dir: string) => Promise<SkillStore>
  backupFiles?: BackupFiles
  /** Values never to print (the API key). */
  secrets?: string[]
  now?: () => Date
}

export interface ReflectionOptions {
  rootDir: string
  /** Write every skill into this library instead of `<root>/<user>/general/experience` (session sources). */
  library?: string
  /** Only this user's tasks ('default' = tasks directly under the root). */
  user?: string
  /** Only these tasks (folder names or paths). */
  tasks?: string[]
  mode?: 'offline' | 'openai'
  /** Reflect again on tasks already reflected. */
  force?: boolean
  /** Model calls at once (default 4). */
  concurrency?: number
  /** Reflection input budget (setting `reflectBudgetChars`). */
  budgetChars?: number
  /** Already scanned traces (session sources, benches): the scan is skipped. */
  traces?: TaskTrace[]
  /** Offer `copy_skill_files` as a function-calling tool to the model. */
  llmTools?: boolean
  /**
   * Create, enhance or nothing (issue 6): look up the closest skills first; a close skill gets a pending
   * `enhance` proposal in `.skillbench/plan.json` instead of a new skill; covered or trivial tasks change nothing.
   */
  decide?: boolean
  decideThresholds?: DecideThresholds
  /**
   * Seed 003 in the same run: the tasks' invented tools, critics' suggestions, stated preferences and tool error
   * rates become memory proposals for a workspace's `memory/`, reviewed in each task's library like the rest.
   */
  evolveMemory?: MemoryEvolution
  signal?: AbortSignal
  onEvent?: (event: ReflectionEvent) => void
}

/** What the tasks of a run teach memory, and where it goes: the CLI's `--evolve-memory`, auto-enhance's memory step. */
export interface MemoryEvolution {
  /**
   * The workspace whose `memory/` learns from a library's tasks: one folder (the CLI), or chosen per library and
   * user (the app: the settings' folder, else `<root>/<user>`); null: nowhere, the tasks are reported as not learned from.
   */
  workspace: string | ((library: string, user: string) => Promise<string | null>)
  lang?: MemoryLang
}

const DEFAULT_BUDGET = 24_000
const OFFLINE_CONCURRENCY = 8

/** `<root>/<user>/general/experience`, user `default` for tasks directly under the root. */
export function libraryDirFor(rootDir: string, user: string): string {
  return path.join(rootDir, user || 'default', 'general', 'experience')
}

/** Task folder names already reflected: listed by a skill (active or legacy) in task_directories. */
export function reflectedTaskDirs(skills: readonly Skill[]): Set<string> {
  const out = new Set<string>()
  for (const s of skills) for (const d of s.task_directories) out.add(d)
  return out
}

interface LibraryCtx {
  dir: string
  /** `skill-md`: new skills are `<name>/SKILL.md` and our bookkeeping lives under `.skillbench/` (issue 36). */
  layout: 'agiagent' | 'skill-md'
  /** SKILL.md folder names in use (skill-md layout). */
  takenNames: Set<string>
  store: SkillStore
  log: ReflectionLog
  /** Task folders a skill lists (a skill frozen while its task was unfinished does not count). */
  reflected: Set<string>
  /** Task folder → an active skill written while the task was unfinished: its finished version is proposed. */
  frozen: Map<string, string>
  /** Tasks with an enhancement waiting for review (decide mode): they count as reflected. */
  pendingEnhance: Set<string>
  /** Serialises plan.json updates of this run (the curation lock is per process, not per call). */
  planChain: Promise<unknown>
  /** Tasks being written right now (a check-and-claim without awaiting, so no lock is needed). */
  inFlight: Set<string>
  /** The library's skills when it was opened (active and legacy): `--force` finds the skill a task was made into. */
  skills: Skill[]
  /** Every skill id in the library (active and legacy) plus the ones handed out by this run. */
  takenIds: Set<string>
  lastId: number
}

/**
 * Reflects every task not yet reflected, newest first, writing one skill per task into the task user's
 * library. One bad task never stops the run; a failed task leaves no file; cancelling stops between steps
 * (a skill is either fully written or not at all).
 */
export async function runReflection(opts: ReflectionOptions, deps: ReflectionDeps): Promise<ReflectionSummary> {
  const emit = (e: ReflectionEvent): void => {
    try {
      opts.onEvent?.(e)
    } catch {
      // a broken listener must not break the run
    }
  }
  const summary: ReflectionSummary = { created: [], skipped: [], failed: [], cancelled: false }
  const mode = opts.mode ?? 'offline'
  if (mode === 'openai' && !deps.llm) {
    throw new LlmError('config', coded('llm.mode_needs_client'), 0)
  }
  const secrets = deps.secrets ?? []
  const now = deps.now ?? (() => new Date())
  const rootDir = path.resolve(opts.rootDir)

  let traces: TaskTrace[]
  if (opts.traces) {
    traces = [...opts.traces]
  } else {
    const scanned = await deps.scan({ rootDir, signal: opts.signal })
    traces = scanned.tasks
    for (const s of scanned.skipped) {
      // the scan's words and, when it sent them, their scan.* code (a cache from an older version has words only)
      summary.skipped.push({ taskDir: path.basename(s.path), reason: s.reason, ...(isMessageRef(s) ? { messageCode: s.messageCode, params: s.params } : {}) })
    }
  }
  // follow-ups fold into the task they continue; greetings, idle and unfinished tasks say why they make no skill
  const judged = judgeTasks(traces)
  const items: Item[] = [
    ...selectUnits(judged.units, opts, rootDir).map((unit) => ({ unit })),
    ...selectNone(judged.none, opts, rootDir).map((none) => ({ none }))
  ]

  const total = items.length
  emit({ kind: 'start', index: 0, total, taskDir: '', ...codedLine('reflect.found', { n: total }) })

  const order = new Map<ReflectionSummary['created'][number], number>()
  const libraries = new Map<string, Promise<LibraryCtx>>()
  const libraryFor = (trace: TaskTrace): Promise<LibraryCtx> => {
    const dir = opts.library ? path.resolve(opts.library) : libraryDirFor(rootDir, trace.user)
    let ctx = libraries.get(dir)
    if (!ctx) {
      ctx = openCtx(dir, deps, secrets, Boolean(opts.decide), Boolean(opts.library))
      libraries.set(dir, ctx)
    }
    return ctx
  }

  const processOne = async (item: Item, index: number): Promise<void> => {
    if (opts.signal?.aborted) {
      return
    }
    if (item.none) {
      const { trace, why, of } = item.none
      const reason = noSkillReasonCoded(why, of)
      summary.skipped.push({ taskDir: trace.taskDir, ...codedReason(reason), why, ...(of ? { of } : {}) })
      emit({ index, total, taskDir: trace.taskDir, kind: 'task-skipped', ...codedLine('reflect.no_skill', { reason }) })
      return
    }
    const { trace, members } = item.unit!
    const base = { index, total, taskDir: trace.taskDir }
    let ctx: LibraryCtx
    try {
      ctx = await libraryFor(trace)
    } catch (err) {
      failTask(err, base, secrets, summary, emit)
      return
    }
    const done = members.some((m) => ctx.reflected.has(m))
    if (!opts.force && (done || members.some((m) => ctx.pendingEnhance.has(m)))) {
      const why = coded(done ? 'reflect.already' : 'reflect.enhancement_pending')
      summary.skipped.push({ taskDir: trace.taskDir, ...codedReason(why) })
      emit({ ...base, kind: 'task-skipped', ...lineOf(why) })
      return
    }
    // --force on a task a skill of this library came from: that skill takes the new reflection (through review), never
    // a second skill of the same task (the next curate would propose merging the pair)
    const again = opts.force && !members.some((m) => ctx.inFlight.has(m)) ? againTarget(ctx.skills, members) : undefined
    if (again) {
      await reflectAgain({ ctx, unit: item.unit!, skillId: again.skill_id, base, summary, mode, opts, deps, emit, now })
      return
    }
    const frozenId = opts.force ? undefined : members.map((m) => ctx.frozen.get(m)).find((id) => id !== undefined)
    if (frozenId && !members.some((m) => ctx.inFlight.has(m))) {
      await proposeFinished({ ctx, unit: item.unit!, skillId: frozenId, base, summary, mode, opts, deps, emit, now })
      return
    }
    emit({ ...base, kind: 'task-start', ...codedLine('reflect.processing', { index, total, task: trace.taskDir }) })
    void ctx.log.info(`Processing: ${trace.path}`)
    const step = (name: ReflectionStep, fraction: number, line: CodedLine): void => emit({ ...base, kind: 'task-step', step: name, stepFraction: fraction, ...line })
    try {
      const calls = trace.toolCallsTotal ?? trace.toolCalls.length
      step('prepare', 0.05, codedLine('reflect.reading', { requests: trace.requirements.length, calls, errors: trace.errors.length }))
      let draft: ReflectionDraft
      if (opts.decide) {
        const decision = await whileWaiting(mode, step, () => decide(trace, ctx, mode, opts, deps))
        const report = decision.report
        ;(summary.decisions ??= []).push(report)
        void ctx.log.info(decisionLogLine(report).text)
        if (report.operation !== 'create' || !decision.draft) {
          const applied = await applyDecision(ctx, trace, decision, summary, now)
          // the decided line by code (the app words it); the message stays the seed's report (the CLI prints it)
          emit({ ...base, kind: report.operation === 'enhance' ? 'task-done' : 'task-skipped', ...applied.line, message: applied.report, decision: report })
          return
        }
        draft = decision.draft
      } else {
        draft = await whileWaiting(mode, step, () => reflect(trace, mode, opts, deps))
      }
      // a concurrent task of this run may have claimed the same folder meanwhile
      const claimed = opts.force || members.every((m) => !ctx.reflected.has(m) && !ctx.inFlight.has(m))
      if (opts.signal?.aborted) {
        throw new CancelledError()
      }
      let skill: Skill | undefined
      // a secret the session printed never reaches the skill: removed with the shared patterns, and said
      const redacted = redactDraft(draft)
      draft = redacted.draft
      if (redacted.note) void ctx.log.info(`${redacted.note.text} (task ${trace.taskDir})`)
      if (claimed) {
        ctx.inFlight.add(trace.taskDir)
        try {
          step('write', 0.9, codedLine('reflect.writing', { title: draft.title }))
          skill = await writeSkill(ctx, trace, members, draft, deps, now)
        } finally {
          ctx.inFlight.delete(trace.taskDir)
        }
      }
      if (!skill) {
        const why = coded('reflect.already')
        summary.skipped.push({ taskDir: trace.taskDir, ...codedReason(why) })
        emit({ ...base, kind: 'task-skipped', ...lineOf(why) })
        return
      }
      const skillPath = path.join(ctx.store.root, skill.path)
      const decided = summary.decisions?.find((d) => d.taskDir === trace.taskDir && d.operation === 'create')
      summary.created.push({ taskDir: trace.taskDir, skill_id: skill.skill_id, path: skillPath, library: ctx.store.root })
      order.set(summary.created[summary.created.length - 1]!, index)
      void ctx.log.info(`Skill generated: ${skillPath} (${draft.author})`)
      // --decide: a created skill gets the seed's report too, as enhance and none do
      const report = decided ? `\n${formatDecisionReport({ ...decided, name: decided.name || skill.title }, detectLanguage(trace.requirements.join('\n')))}` : ''
      // the line by code, the redaction note a coded param of it; a decision report rides after it in the message
      // only (the CLI prints it; the app words the line by its code and shows the report itself)
      const generated = redacted.note ? codedLine('reflect.generated_redacted', { path: skillPath, note: refOf(redacted.note) }) : codedLine('reflect.generated', { path: skillPath })
      emit({ ...base, kind: 'task-done', skillPath, ...generated, message: `${generated.message}${report}`, decision: decided })
    } catch (err) {
      if (err instanceof CancelledError || (opts.signal?.aborted && isAbort(err))) {
        return
      }
      failTask(err, base, secrets, summary, emit, (message) => void ctx.log.error(coded('reflect.log_failed', { path: trace.path, reason: message }).text))
    }
  }

  // offline work is CPU-light and waits on fsync: a few tasks at once keep the disk busy; offline decisions
  // run one at a time so a skill created for one task is seen by the next
  const limit = mode === 'openai' ? Math.max(1, Math.floor(opts.concurrency ?? 4)) : opts.decide ? 1 : OFFLINE_CONCURRENCY
  await pool(items, limit, processOne, opts.signal)

  // tasks run in parallel: report them in run order (newest first), not in finishing order
  summary.created.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0))
  summary.cancelled = Boolean(opts.signal?.aborted)
  if (opts.evolveMemory && !summary.cancelled) await evolveFromRun(opts.evolveMemory, traces, opts, rootDir, summary)
  for (const ctx of libraries.values()) {
    const c = await ctx.catch(() => undefined)
    if (c) {
      if (summary.cancelled) void c.log.info('Reflection cancelled by the user')
      await c.log.flush()
      if (c.log.problem) (summary.warnings ??= []).push(c.log.problem)
    }
  }
  emit({
    kind: 'done',
    index: 0,
    total,
    taskDir: '',
    ...codedLine(summary.cancelled ? 'reflect.totals_cancelled' : 'reflect.totals', { created: summary.created.length, skipped: summary.skipped.length, failed: summary.failed.length })
  })
  return summary
}

/** One entry of a run: a task to reflect (with its follow-ups), or a task that makes no skill and why. */
interface Item {
  unit?: TaskUnit
  none?: NoSkillTask
}

/** A filter by user and task names/paths (a unit is picked when any of its tasks is). */
function taskFilter(opts: ReflectionOptions, rootDir: string): (t: TaskTrace, members?: string[]) => boolean {
  const want = opts.user === 'default' ? '' : opts.user
  const names = new Set((opts.tasks ?? []).map((t) => t.replace(/[\\/]+$/, '')))
  const paths = new Set((opts.tasks ?? []).map((t) => path.resolve(rootDir, t)))
  return (t, members = [t.taskDir]) => {
    if (opts.user && !(t.user === want || (opts.user === 'default' && t.user === 'default'))) return false
    if (!opts.tasks?.length) return true
    return members.some((m) => names.has(m)) || paths.has(path.resolve(t.path))
  }
}

/** The units to reflect, newest first (ties by name, so runs are repeatable). */
function selectUnits(units: TaskUnit[], opts: ReflectionOptions, rootDir: string): TaskUnit[] {
  const keep = taskFilter(opts, rootDir)
  return units.filter((u) => keep(u.trace, u.members)).sort((a, b) => taskTime(b.trace) - taskTime(a.trace) || a.trace.taskDir.localeCompare(b.trace.taskDir))
}

/** The tasks that make no skill, in the same order. */
function selectNone(none: NoSkillTask[], opts: ReflectionOptions, rootDir: string): NoSkillTask[] {
  const keep = taskFilter(opts, rootDir)
  return none.filter((n) => keep(n.trace)).sort((a, b) => taskTime(b.trace) - taskTime(a.trace) || a.trace.taskDir.localeCompare(b.trace.taskDir))
}

async function openCtx(dir: string, deps: ReflectionDeps, secrets: string[], decide: boolean, chosen: boolean): Promise<LibraryCtx> {
  await fs.promises.mkdir(dir, { recursive: true })
  // a chosen library (~/.claude/skills, a Codex or Agent Skills folder) keeps its own layout; a data root's is AGIAgent's
  const layout = chosen ? await reflectLayout(dir) : 'agiagent'
  const store = await deps.openStore(dir)
  if (layout === 'agiagent') {
    // The upstream layout's folders, each a real folder inside the library (a link there is refused).
    for (const sub of ['legacy', 'codes', 'logs']) await ensureDirInside(store.root, sub)
  } else {
    // the folder stays exactly what agents load: our logs go under .skillbench/
    await ensureDirInside(store.root, '.skillbench/logs')
  }
  const { skills } = await store.list({ includeLegacy: true })
  const sets = reflectedSets(skills)
  return {
    dir,
    layout,
    // the bookkeeping folders' names are taken too: a task titled "logs" becomes logs-2, never the logs/ folder
    takenNames: new Set([...RESERVED_SKILL_NAMES, ...skills.filter((s) => s.format === 'skill-md').map((s) => s.path.split('/')[0]!)]),
    store,
    log: new ReflectionLog(layout === 'agiagent' ? dir : path.join(store.root, '.skillbench'), secrets, deps.now),
    ...sets,
    // a finished version already proposed for a frozen skill waits for review like an enhancement
    pendingEnhance: decide || sets.frozen.size > 0 ? await pendingEnhanceTasks(store.root) : new Set(),
    planChain: Promise.resolve(),
    inFlight: new Set(),
    skills,
    takenIds: new Set(skills.map((s) => s.skill_id)),
    lastId: 0
  }
}

/** A unix-seconds id no skill of the library has (bumped like upstream's timestamp ids). */
function nextSkillId(ctx: LibraryCtx, now: () => Date): string {
  let n = Math.max(Math.floor(now().getTime() / 1000), ctx.lastId + 1)
  while (ctx.takenIds.has(String(n))) n++
  ctx.lastId = n
  ctx.takenIds.add(String(n))
  return String(n)
}

async function reflect(trace: TaskTrace, mode: 'offline' | 'openai', opts: ReflectionOptions, deps: ReflectionDeps): Promise<ReflectionDraft> {
  if (mode === 'offline') {
    return reflectOffline(trace)
  }
  const budgetChars = opts.budgetChars ?? DEFAULT_BUDGET
  const rawLog = trace.source && trace.source !== 'agiagent' ? undefined : await readLogExcerpt(trace.path, Math.floor(budgetChars / 2))
  return reflectWithLlm(deps.llm!, trace, { budgetChars, rawLog, signal: opts.signal, offerTools: opts.llmTools })
}

async function decide(trace: TaskTrace, ctx: LibraryCtx, mode: 'offline' | 'openai', opts: ReflectionOptions, deps: ReflectionDeps): Promise<Decision> {
  if (mode === 'offline') {
    const draft = reflectOffline(trace)
    const candidates = await findClosestSkills(ctx.store, decisionQuery(trace, draft))
    return decideOffline(trace, candidates, opts.decideThresholds ?? DEFAULT_DECIDE_THRESHOLDS, draft)
  }
  const budgetChars = opts.budgetChars ?? DEFAULT_BUDGET
  const candidates = await findClosestSkills(ctx.store, decisionQuery(trace))
  const rawLog = trace.source && trace.source !== 'agiagent' ? undefined : await readLogExcerpt(trace.path, Math.floor(budgetChars / 3))
  return decideWithLlm(deps.llm!, trace, candidates, { budgetChars, rawLog, signal: opts.signal })
}

/**
 * enhance → a pending proposal in the plan; none → nothing. Returns the seed's report (bilingual, in the task's
 * language: the CLI prints it) and the line saying what was decided, by code.
 */
async function applyDecision(ctx: LibraryCtx, trace: TaskTrace, decision: Decision, summary: ReflectionSummary, now: () => Date): Promise<{ report: string; line: CodedLine }> {
  const report = decision.report
  const language = detectLanguage(trace.requirements.join('\n'))
  if (report.operation === 'enhance' && decision.enhancement) {
    const skill = await ctx.store.get(decision.enhancement.skill.skill_id)
    const { text } = await ctx.store.readRaw(skill.path)
    const proposal = enhanceProposal({ skill, raw: text, enhancement: decision.enhancement, taskDir: trace.taskDir, author: report.author, now: now() })
    await queueForReview(ctx, proposal, trace.taskDir, now)
    ;(summary.proposals ??= []).push(proposal.id)
    const why = coded('reflect.enhancement_proposed', { title: skill.title, id: proposal.id })
    summary.skipped.push({ taskDir: trace.taskDir, ...codedReason(why) })
    void ctx.log.info(coded('reflect.log_enhancement_proposed', { path: skill.path, id: proposal.id }).text)
    return { report: formatDecisionReport(report, language), line: lineOf(why) }
  }
  const why = coded('reflect.nothing_to_change', { reason: report.reason ?? '' })
  summary.skipped.push({ taskDir: trace.taskDir, ...codedReason(why) })
  return { report: formatDecisionReport(report, language), line: lineOf(why) }
}

/**
 * Saves a proposal to the plan after the run's earlier plan writes (one at a time: tasks run in parallel) and marks
 * its task as waiting for review; 'added' when it is new to the plan, else the status the same proposal has there
 * (pending, applied, rejected or undone).
 */
async function queueForReview(ctx: LibraryCtx, proposal: Proposal, taskDir: string, now: () => Date): Promise<'added' | { exists: ProposalStatus }> {
  const saved = ctx.planChain.then(() => savePendingProposal(ctx.store.root, proposal, now()))
  ctx.planChain = saved.catch(() => undefined)
  const result = await saved
  ctx.pendingEnhance.add(taskDir)
  return result
}

/** A task that failed: its redacted error goes to the summary, to `log` (when given) and out as its last event. */
function failTask(
  err: unknown,
  base: { index: number; total: number; taskDir: string },
  secrets: readonly string[],
  summary: ReflectionSummary,
  emit: (e: ReflectionEvent) => void,
  log?: (message: string) => void
): void {
  const message = redact(errorText(err), secrets)
  const ref = failureRef(err, secrets)
  summary.failed.push({ taskDir: base.taskDir, error: message, ...ref })
  log?.(message)
  emit({ ...base, kind: 'task-failed', message, ...ref })
}

/** A task of the run whose skill `skillId` of the library takes the task's new reflection through review. */
interface SkillTask {
  ctx: LibraryCtx
  unit: TaskUnit
  /** The skill the task was reflected into. */
  skillId: string
  base: { index: number; total: number; taskDir: string }
  summary: ReflectionSummary
  mode: 'offline' | 'openai'
  opts: ReflectionOptions
  deps: ReflectionDeps
  emit: (e: ReflectionEvent) => void
  now: () => Date
}

/**
 * A task reflected before issue 36 while it was unfinished has finished now: its skill gets the finished version as
 * an update proposal for review (never rewritten unseen, so a person's later edits are never lost; undo works).
 */
async function proposeFinished(task: SkillTask): Promise<void> {
  const { ctx, unit, skillId, base, summary, mode, opts, deps, emit, now } = task
  const { trace, members } = unit
  emit({ ...base, kind: 'task-start', ...codedLine('reflect.processing_finished', { index: base.index, total: base.total, task: trace.taskDir }) })
  try {
    const step = (name: ReflectionStep, fraction: number, line: CodedLine): void => emit({ ...base, kind: 'task-step', step: name, stepFraction: fraction, ...line })
    const draft = redactDraft(await whileWaiting(mode, step, () => reflect(trace, mode, opts, deps))).draft
    const skill = await ctx.store.get(skillId)
    const { text } = await ctx.store.readRaw(skill.path)
    const proposal = finishedUpdateProposal({ skill, raw: text, draft, members, taskDir: trace.taskDir, now: now() })
    const saved = await queueForReview(ctx, proposal, trace.taskDir, now)
    for (const m of members) ctx.frozen.delete(m)
    if (saved === 'added') (summary.proposals ??= []).push(proposal.id)
    const why =
      saved === 'added'
        ? coded('reflect.finished_update', { title: skill.title, id: proposal.id })
        : proposedBefore('finished', { title: skill.title, id: proposal.id, status: saved.exists })
    summary.skipped.push({ taskDir: trace.taskDir, ...codedReason(why) })
    void ctx.log.info(`Update proposed for ${skill.path} (task ${trace.taskDir} finished): ${proposal.id}`)
    endUpdate(task, 'task-done', why, opts.decide ? { kind: 'finished', skill, trace, proposal, author: draft.author } : undefined)
  } catch (err) {
    failTask(err, base, deps.secrets ?? [], summary, emit, (message) => void ctx.log.error(coded('reflect.log_propose_failed', { path: trace.path, reason: message }).text))
  }
}

/**
 * `--force` on a task a skill of the library came from: the task is reflected again and that skill gets the result as
 * an update proposal for review (the same review path as an enhancement: before-hash checked, undoable); when the new
 * reflection adds nothing, nothing is written and the run says the skill stays as it is.
 */
async function reflectAgain(task: SkillTask): Promise<void> {
  const { ctx, unit, skillId, base, summary, mode, opts, deps, emit, now } = task
  const { trace, members } = unit
  emit({ ...base, kind: 'task-start', ...codedLine('reflect.processing', { index: base.index, total: base.total, task: trace.taskDir }) })
  for (const m of members) ctx.inFlight.add(m)
  try {
    const step = (name: ReflectionStep, fraction: number, line: CodedLine): void => emit({ ...base, kind: 'task-step', step: name, stepFraction: fraction, ...line })
    const calls = trace.toolCallsTotal ?? trace.toolCalls.length
    step('prepare', 0.05, codedLine('reflect.reading', { requests: trace.requirements.length, calls, errors: trace.errors.length }))
    const draft = redactDraft(await whileWaiting(mode, step, () => reflect(trace, mode, opts, deps))).draft
    if (opts.signal?.aborted) return
    const skill = await ctx.store.get(skillId)
    const { text } = await ctx.store.readRaw(skill.path)
    const description = skill.format === 'skill-md' ? skillMdDescription(draft) : undefined
    const proposal = reflectAgainProposal({ skill, raw: text, draft, trace, members, description, now: now() })
    if (!proposal) {
      const why = coded('reflect.again_unchanged', { title: skill.title })
      summary.skipped.push({ taskDir: trace.taskDir, ...codedReason(why) })
      void ctx.log.info(`Reflected again: ${skill.path} unchanged (task ${trace.taskDir})`)
      endUpdate(task, 'task-skipped', why, opts.decide ? { kind: 'again', skill, trace, proposal: null, author: draft.author } : undefined)
      return
    }
    const saved = await queueForReview(ctx, proposal, trace.taskDir, now)
    if (saved === 'added') (summary.proposals ??= []).push(proposal.id)
    const why =
      saved === 'added'
        ? coded('reflect.again_proposed', { title: skill.title, id: proposal.id })
        : proposedBefore('again', { title: skill.title, id: proposal.id, status: saved.exists })
    summary.skipped.push({ taskDir: trace.taskDir, ...codedReason(why) })
    void ctx.log.info(`Update proposed for ${skill.path} (task ${trace.taskDir} reflected again): ${proposal.id}`)
    endUpdate(task, 'task-done', why, opts.decide ? { kind: 'again', skill, trace, proposal, author: draft.author } : undefined)
  } catch (err) {
    if (opts.signal?.aborted && isAbort(err)) return
    failTask(err, base, deps.secrets ?? [], summary, emit, (message) => void ctx.log.error(coded('reflect.log_failed', { path: trace.path, reason: message }).text))
  } finally {
    for (const m of members) ctx.inFlight.delete(m)
  }
}

/**
 * The last event of a task whose own skill took its new reflection: its line by code; with `--decide` the decision
 * report too (in the summary's decisions, the reflection log, and after the line in the message, as a created
 * skill's: the CLI prints it, the app words the line by its code).
 */
function endUpdate(task: SkillTask, kind: 'task-done' | 'task-skipped', why: CodedText, decided?: Omit<Parameters<typeof updateDecision>[0], 'language'>): void {
  const line = lineOf(why)
  if (!decided) {
    task.emit({ ...task.base, kind, ...line })
    return
  }
  const language = detectLanguage(decided.trace.requirements.join('\n'))
  const report = updateDecision({ ...decided, language })
  ;(task.summary.decisions ??= []).push(report)
  void task.ctx.log.info(decisionLogLine(report).text)
  task.emit({ ...task.base, kind, ...line, message: `${line.message}\n${formatDecisionReport(report, language)}`, decision: report })
}

/** Creates the skill, then backs up its files; a backup problem is logged, the skill stays valid. */
async function writeSkill(ctx: LibraryCtx, trace: TaskTrace, members: string[], draft: ReflectionDraft, deps: ReflectionDeps, now: () => Date): Promise<Skill> {
  let skill: Skill
  // ids are handed out here so tasks write in parallel; a name taken by a concurrent write is retried
  for (let attempt = 1; ; attempt++) {
    try {
      const skillId = nextSkillId(ctx, now)
      skill = await ctx.store.create({
        skill_id: skillId,
        title: draft.title,
        body: draft.body,
        usage_conditions: draft.usageConditions,
        user_preferences: draft.userPreferences,
        task_directories: members,
        ...(ctx.layout === 'skill-md' ? skillMdFields(ctx, draft, skillId) : {})
      })
      break
    } catch (err) {
      if (!(err instanceof StoreError && err.code === 'exists') || attempt >= 5) throw err
    }
  }
  for (const m of members) ctx.reflected.add(m)
  if (draft.rejectedPaths.length) {
    void ctx.log.error(coded('reflect.log_refused_paths', { task: trace.taskDir, paths: draft.rejectedPaths.join(', ') }).text)
  }
  if (deps.backupFiles && draft.filesToBackup.length && (!trace.source || trace.source === 'agiagent') && ctx.layout === 'agiagent') {
    try {
      const res = await deps.backupFiles({
        store: ctx.store,
        skill,
        workspaceDir: path.join(trace.path, 'workspace'),
        files: draft.filesToBackup
      })
      if (res.copied.length) {
        void ctx.log.info(coded('reflect.log_backed_up', { n: res.copied.length, task: trace.taskDir }).text)
        skill = await ctx.store.get(skill.skill_id).catch(() => skill)
      }
      for (const s of res.skipped) {
        void ctx.log.info(coded('reflect.log_not_backed_up', { path: s.path, reason: s.reason }).text)
      }
    } catch (err) {
      void ctx.log.error(coded('reflect.log_backup_failed', { task: trace.taskDir, reason: errorText(err) }).text)
    }
  }
  return skill
}

/**
 * The layout new skills take in a chosen library: SKILL.md folders unless it already holds AGIAgent `skill_*.md` files
 * and no SKILL.md (an empty folder is an Agent Skills folder, unless it is an AGIAgent `general/experience`).
 */
async function reflectLayout(dir: string): Promise<'agiagent' | 'skill-md'> {
  const layout = await libraryLayout(dir)
  if (layout === 'agiagent') return 'agiagent'
  const names = await fs.promises.readdir(dir).catch(() => [] as string[])
  const empty = names.filter((n) => !n.startsWith('.') && !['legacy', 'codes', 'logs'].includes(n)).length === 0
  return empty && /[\\/]general[\\/]experience[\\/]?$/.test(path.resolve(dir)) ? 'agiagent' : 'skill-md'
}

/**
 * A SKILL.md skill's name and description (Agent Skills rules): the name from the title through the same naming
 * function deploy uses (Chinese in pinyin), unique in the library; the description says what and when, ≤ 1024.
 */
function skillMdFields(ctx: LibraryCtx, draft: ReflectionDraft, skillId: string): { format: 'skill-md'; name: string; description: string } {
  const name = uniqueSkillName(skillMdNameFor({ title: draft.title, skill_id: skillId }), ctx.takenNames)
  return { format: 'skill-md', name, description: skillMdDescription(draft) }
}

/** A SKILL.md's description of a draft: what and when, ≤ 1024. */
function skillMdDescription(draft: ReflectionDraft): string {
  return cutDescription(oneLine(`${draft.title.replace(/…$/, '')}. ${draft.usageConditions.trim()}`))
}

/** How often a task waiting for the model says how long it has waited. */
const WAIT_TICK_MS = 2_000

/**
 * Runs the reflection (or decision) of one task; with a model, reports the wait every few seconds so a long
 * call shows it is alive (the fraction creeps towards 0.85 and never reaches it).
 */
async function whileWaiting<T>(mode: 'offline' | 'openai', step: (name: ReflectionStep, fraction: number, line: CodedLine) => void, fn: () => Promise<T>): Promise<T> {
  if (mode === 'offline') {
    step('prepare', 0.5, codedLine('reflect.summarising'))
    return fn()
  }
  const started = Date.now()
  const tick = (): void => {
    const seconds = Math.round((Date.now() - started) / 1000)
    step('model', 0.1 + 0.75 * (1 - Math.exp(-seconds / 40)), codedLine('reflect.waiting', { seconds }))
  }
  tick()
  const timer = setInterval(tick, WAIT_TICK_MS)
  try {
    return await fn()
  } finally {
    clearInterval(timer)
  }
}

/** Runs `fn` over items with at most `limit` at once; stops taking new items once `signal` aborts. */
async function pool<T>(items: T[], limit: number, fn: (item: T, index: number) => Promise<void>, signal?: AbortSignal): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length && !signal?.aborted) {
      const i = next++
      await fn(items[i]!, i + 1)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}

class CancelledError extends Error {}

function isAbort(err: unknown): boolean {
  return (err instanceof LlmError && err.code === 'aborted') || (err instanceof Error && err.name === 'AbortError')
}

function errorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err)
  return (text.split('\n')[0] ?? '').slice(0, 500)
}

/**
 * `evolveMemory`: the run's tasks (the same user and task choice as the reflection), grouped by the library that
 * reviews them, proposed into memory. Never fails the run: a library that cannot be served is a problem line (coded,
 * also a warning), since the skills are written already.
 */
async function evolveFromRun(memory: MemoryEvolution, traces: readonly TaskTrace[], opts: ReflectionOptions, rootDir: string, summary: ReflectionSummary): Promise<void> {
  const keep = taskFilter(opts, rootDir)
  const byLibrary = new Map<string, { users: Set<string>; tasks: TaskTrace[] }>()
  for (const t of traces) {
    if (!keep(t)) continue
    const dir = opts.library ? path.resolve(opts.library) : libraryDirFor(rootDir, t.user)
    const group = byLibrary.get(dir) ?? { users: new Set<string>(), tasks: [] }
    group.users.add(t.user || 'default')
    group.tasks.push(t)
    byLibrary.set(dir, group)
  }
  const out: NonNullable<ReflectionSummary['memory']> = { proposed: [], skipped: 0, problems: [] }
  for (const [dir, group] of byLibrary) {
    const user = [...group.users].join(', ')
    try {
      const workspace = typeof memory.workspace === 'string' ? memory.workspace : await memory.workspace(dir, user)
      const real = await fs.promises.realpath(dir).catch(() => null)
      if (!workspace || !real) {
        out.problems.push(codedLine('memory.auto_no_library', { user }))
        continue
      }
      const r = await evolveMemory(real, group.tasks, { workspace: path.resolve(workspace), lang: memory.lang })
      out.proposed.push(...r.proposed.map((p) => p.id))
      out.skipped += r.skipped.length
    } catch (err) {
      out.problems.push(codedLine('memory.auto_failed', { user, reason: reasonOf(err) }))
    }
  }
  if (out.problems.length) summary.warnings = [...(summary.warnings ?? []), ...out.problems.map((p) => p.message)]
  summary.memory = out
}

/** The code and params of a task's failure when its error carries them (a StoreError, an LlmError…), redacted. */
function failureRef(err: unknown, secrets: readonly (string | undefined)[]): { messageCode?: MessageCode; params?: MessageParams } {
  const ref = codedFieldsOf(err)
  return ref ? { messageCode: ref.messageCode, params: redactParams(ref.params, secrets) } : {}
}
