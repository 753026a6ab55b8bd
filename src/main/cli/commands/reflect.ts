import path from 'node:path'
import type { TaskTrace } from '../../../shared/types'
import { DEFAULT_SETTINGS } from '../../../shared/types'
import { defaultReflectionDeps } from '../../reflect/default-deps'
import { runReflection, type ReflectionOptions } from '../../reflect/run-reflection'
import type { ReflectionEvent, ReflectionSummary } from '../../reflect/types'
import { TaskOrder, type TaskWait } from '../task-order'
import { resolveRootDirFrom } from '../../scan/discover'
import { checkConfigRoot } from '../config-root'
import { parseCommandArgs, printJson, UsageError, type CliCommand, type CliIo } from '../common'
import { readArgs } from '../arg-words'
import { noTasksHint, refuseLibraryRoot, withDefaultRootHint } from '../no-tasks-hint'
import { coded, englishText, type CodedText, type MessageParam } from '../../../shared/error-codes'
import { say as inLang } from '../lang'
import { codedFieldsOf } from '../../../shared/api-error'

const OPTIONS = {
  'root-dir': { type: 'string' },
  library: { type: 'string' },
  config: { type: 'string' },
  user: { type: 'string' },
  task: { type: 'string', multiple: true },
  llm: { type: 'string', default: 'offline' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  concurrency: { type: 'string' },
  budget: { type: 'string' },
  force: { type: 'boolean', default: false },
  decide: { type: 'boolean', default: false },
  'claude-dir': { type: 'string' },
  'codex-dir': { type: 'string' },
  'synapse-dir': { type: 'string' },
  hook: { type: 'string' },
  'evolve-memory': { type: 'string' },
  lang: { type: 'string' },
  json: { type: 'boolean', default: false }
} as const

const BAR_WIDTH = 24
/** How often a run with held lines looks at the clock: redraws the bar's wait (terminal), or sees whether a note is due. */
const WAIT_TICK_MS = 1_000
/** A terminal's bar says what held lines wait for once they have waited this long (a short hold is not worth a word). */
const BAR_WAIT_AFTER_MS = 2_000
/** A task's name on the progress bar, cut so the bar stays on one terminal line (it is redrawn in place). */
const BAR_TASK_CHARS = 32

/** Draws `[#####-----] 3/10` on one terminal line. */
export function progressBar(done: number, total: number): string {
  const filled = total ? Math.round((done / total) * BAR_WIDTH) : BAR_WIDTH
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${done}/${total}`
}

/** What held lines wait for, as a line of its own (`bar`: as the tail of the terminal's progress bar, shorter). */
export function waitWords(w: TaskWait, total: number, bar: boolean): CodedText {
  const counts = { index: w.index, total, seconds: w.seconds, finished: w.finished, later: w.later }
  if (w.task === undefined) return coded(bar ? 'reflect.bar_held_for_unnamed' : 'reflect.held_for_unnamed', counts)
  const task = bar && w.task.length > BAR_TASK_CHARS ? `${w.task.slice(0, BAR_TASK_CHARS - 1)}…` : w.task
  return coded(bar ? 'reflect.bar_held_for' : 'reflect.held_for', { ...counts, task })
}

/** The human summary printed after a run. */
export function formatReflectSummary(s: ReflectionSummary): string {
  // by code, not by the words (which may change): reflected before, its enhancement waits for review, or its
  // finished version's update was proposed before
  const ALREADY = new Set(['reflect.already', 'reflect.enhancement_pending', 'reflect.finished_update_before'])
  const already = s.skipped.filter((x) => typeof x.messageCode === 'string' && ALREADY.has(x.messageCode)).length
  // --force on a task a skill came from: that skill's update proposed (counted in proposals too), or left as it is
  const again = s.skipped.filter((x) => typeof x.messageCode === 'string' && x.messageCode.startsWith('reflect.again_'))
  const againProposed = again.filter((x) => x.messageCode === 'reflect.again_proposed').length
  const enhanced = (s.proposals?.length ?? 0) - againProposed
  // a task reflected again is counted once, there (with --decide it has a decision too)
  const againTasks = new Set(again.map((x) => x.taskDir))
  const unchanged = s.decisions?.filter((d) => d.operation === 'none' && !againTasks.has(d.taskDir)).length ?? 0
  const noSkill = s.skipped.filter((x) => x.why)
  const other = s.skipped.length - already - enhanced - unchanged - noSkill.length - again.length
  const decided = s.decisions ? `; ${enhanced} enhancement(s) proposed for review, ${unchanged} task(s) needing nothing` : ''
  const reflectedAgain = again.length ? `; reflected again ${again.length} (${againProposed} update(s) of their skills proposed for review, ${again.length - againProposed} without a new update)` : ''
  const lines = [
    `Created ${s.created.length} skill(s)${decided}${reflectedAgain}; skipped ${already} already reflected${noSkill.length ? `, ${noSkill.length} with no skill worth making` : ''}${other ? `, ${other} without logs` : ''}; failed ${s.failed.length}${s.cancelled ? ' (cancelled)' : ''}.`
  ]
  for (const c of s.created) lines.push(`  ✅ ${c.taskDir} → ${c.path}`)
  for (const a of again) lines.push(`  ↻ ${a.taskDir}: ${a.reason}`)
  for (const n of noSkill) lines.push(`  – ${n.taskDir}: ${n.reason}`)
  for (const f of s.failed) lines.push(`  ❌ ${f.taskDir}: ${f.error}`)
  if (s.memory) lines.push(`Memory: ${s.memory.proposed.length} lesson/preference/tool note proposal(s) for review (\`skillbench proposals\`)${s.memory.skipped ? `, ${s.memory.skipped} already there` : ''}.`)
  for (const w of s.warnings ?? []) lines.push(`  ⚠ ${w}`)
  return lines.join('\n') + '\n'
}

async function sessionTraces(values: Record<string, unknown>, io: CliIo, only?: string): Promise<TaskTrace[] | undefined> {
  const flags = (['claude-dir', 'codex-dir', 'synapse-dir'] as const).filter((f) => values[f] !== undefined)
  if (flags.length === 0) {
    return undefined
  }
  if (flags.length > 1) {
    throw new UsageError(coded('cli.give_session_source'))
  }
  const flag = flags[0]!
  const { scanSessions } = await import('../../scan/sessions')
  const source = flag === 'claude-dir' ? 'claude' : flag === 'codex-dir' ? 'codex' : 'synapse'
  const result = await scanSessions({ source, dir: String(values[flag]), cwd: io.cwd, env: io.env, signal: io.signal, ...(only ? { only: (f: string) => f === only } : {}) })
  return result.tasks
}

function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new UsageError(coded('cli.whole_number_range', { option: flag, min: 1, max: 64 }))
  return n
}

export const command: CliCommand = {
  name: 'reflect',
  options: OPTIONS,
  usage:
    'skillbench reflect --root-dir DIR [--user U] [--task NAME]… [--llm offline|openai] [--base-url URL] [--model M] [--concurrency N] [--force] [--decide] [--json]\n' +
    '       --decide: create, enhance (a proposal to review with `skillbench proposals`) or nothing, per task\n' +
    '       --force: reflect again the tasks reflected before and those whose enhancement waits for review (skipped by default)\n' +
    '       --evolve-memory WORKSPACE [--lang en|zh]: also propose lessons, preferences and tool notes from the same tasks for WORKSPACE/memory\n' +
    '       skillbench reflect --claude-dir DIR | --codex-dir DIR | --synapse-dir DIR  (--root-dir DIR | --library DIR) [...]\n' +
    '       skillbench reflect --hook claude|codex (--library DIR | --root-dir DIR) --decide [...]  (run by the agent: see `skillbench hooks`)',
  async run(argv, io) {
    if (!hookAsked(argv)) return reflect(argv, io)
    // Run by an agent when a session ends: whatever goes wrong is said on stderr and exits 1, never 2 (Claude
    // Code reads 2 from a Stop hook as "do not stop" and would carry on with our message as its prompt).
    try {
      const code = await reflect(argv, io)
      return code === 0 ? 0 : 1
    } catch (err) {
      io.stderr(`skillbench reflect --hook: ${inLang(io, { ...codedFieldsOf(err), message: (err as Error).message })}\n`)
      return 1
    }
  }
}

/** `--hook` is an option of argv as the command reads it (not a word after `--`, not another option's value). */
function hookAsked(argv: readonly string[]): boolean {
  return readArgs(argv, OPTIONS).some((w) => w.role === 'option' && w.option === 'hook')
}

async function reflect(argv: string[], io: CliIo): Promise<number> {
  const hooked = hookAsked(argv)
  // Codex appends its notification as the last argument
  const { values, positionals } = parseCommandArgs(argv, OPTIONS, hooked)
  let only: string | undefined
  if (values.hook !== undefined) {
    const { hookTarget } = await import('../hook-session')
    const target = await hookTarget(values.hook, { io, lastArg: positionals.at(-1), codexDir: values['codex-dir'] })
    if (!target.run) {
      io.stderr(`${inLang(io, target.message)}\n`)
      return target.code
    }
    values['claude-dir'] = undefined
    values['codex-dir'] = undefined
    values[target.flag] = target.dir
    only = target.file
  }
  const mode = values.llm
  if (mode !== 'offline' && mode !== 'openai') {
    throw new UsageError(coded('cli.must_be_either', { option: '--llm', a: 'offline', b: 'openai' }))
  }
  const concurrency = positiveInt(values.concurrency, '--concurrency')
  const budget = values.budget === undefined ? DEFAULT_SETTINGS.reflectBudgetChars : Number(values.budget)
  if (!Number.isFinite(budget) || budget < 1000) throw new UsageError(coded('cli.budget_min'))

  const traces = await sessionTraces(values, io, only)
  // --library names where a session source's skills go; an AGIAgent root's tasks go to their users' libraries (with
  // --root-dir and no session source, --library was ignored without a word: refused the same way)
  if (!traces && values.library !== undefined) {
    throw new UsageError(coded('cli.library_needs_session_source'))
  }
  if (traces && !values['root-dir'] && !values.library) {
    throw new UsageError(coded('cli.session_sources_need_library'))
  }
  const found = values['root-dir']
    ? { root: path.resolve(io.cwd, values['root-dir']) }
    : traces
      ? { root: path.resolve(io.cwd, values.library!) }
      : resolveRootDirFrom({ configPath: values.config, cwd: io.cwd })
  const rootDir = found.root
  // a root config.txt names is checked as --root-dir is before the run (cli/bundled-sample.ts refused that one)
  await checkConfigRoot(found, { writes: true, env: io.env })
  if (!traces) await refuseLibraryRoot(rootDir)

  // the SDK takes 100–250 ms to load: only where a model is used
  const openai = mode === 'openai' ? await import('../../llm/openai-client') : undefined
  const llmConfig = openai?.llmConfigFromEnv({ 'base-url': values['base-url'], model: values.model }, io.env)
  const llm = openai && llmConfig ? openai.createOpenAiClient(llmConfig) : undefined

  const progressLine = { shown: false }
  let done = 0
  let total = 0
  // tasks run a few at once: their lines are printed in task order (newest first, as the run orders them), so a
  // task that needs no work does not come before the ones still being read
  const inOrder = new TaskOrder()
  const now = Date.now
  const say = (e: ReflectionEvent, line: string, ends: boolean): void => {
    for (const l of inOrder.push(e.index, line, ends, now())) io.stderr(`${l}\n`)
  }
  // behind a slow task the lines of those after it wait, and the run looked stuck: while lines are held, a terminal's
  // bar says what they wait for (redrawn every tick), elsewhere a line says it every few seconds (TaskOrder's pace)
  const bar = (): string => {
    const held = inOrder.waiting(now())
    const wait = held && held.heldMs >= BAR_WAIT_AFTER_MS ? held : undefined
    return `${progressBar(done, total)}${wait ? ` ${inLang(io, waitWords(wait, total, true))}` : ''}`
  }
  const tick = (): void => {
    if (io.isTTY) {
      if ((inOrder.waiting(now())?.heldMs ?? -1) < BAR_WAIT_AFTER_MS || total === 0) return
      io.stderr(`\r\u001b[2K${bar()}`)
      progressLine.shown = true
      return
    }
    const wait = inOrder.note(now())
    if (wait) io.stderr(`${inLang(io, waitWords(wait, total, false))}\n`)
  }
  // an event's message in the CLI's language (--lang): by its code when it has one. With --decide the message carries
  // the seed's report (content, in the task's language), after the coded line (a created skill) or alone (enhance,
  // none: the code is the app's line, not what the message says): the report is printed as it is, as in English.
  const words = (e: ReflectionEvent): string => {
    if (e.message === undefined) return ''
    if (!e.decision || !io.words || !e.messageCode) return inLang(io, { messageCode: e.messageCode, params: e.params, message: e.message })
    const line = englishText({ messageCode: e.messageCode, params: e.params ?? {} })
    return e.message.startsWith(line) ? inLang(io, { messageCode: e.messageCode, params: e.params, message: line }) + e.message.slice(line.length) : e.message
  }
  // an event's message as a param of another line: by its code when it has one (worded in the same language)
  const reasonOf = (e: ReflectionEvent): MessageParam => (e.messageCode && e.params ? { messageCode: e.messageCode, params: e.params } : (e.message ?? ''))
  const onEvent = (e: ReflectionEvent): void => {
    if (progressLine.shown) {
      io.stderr('\r\u001b[2K')
      progressLine.shown = false
    }
    if (e.index > 0) inOrder.heard(e.index, e.taskDir, now())
    if (e.total > 0) total = e.total
    switch (e.kind) {
      case 'start':
        io.stderr(`${e.message === undefined ? inLang(io, coded('reflect.found', { n: e.total })) : words(e)}\n`)
        break
      case 'task-start':
        say(e, `${words(e)}`, false)
        break
      case 'task-done':
        done++
        // with --decide the message carries the seed's report after the path
        say(e, e.skillPath ? `✅ ${e.message?.startsWith('Skill generated: ') ? words(e) : inLang(io, coded('reflect.generated', { path: e.skillPath }))}` : words(e), true)
        break
      case 'task-failed':
        done++
        say(e, `❌ ${e.taskDir}: ${words(e)}`, true)
        break
      case 'task-skipped':
        done++
        say(e, e.decision ? words(e) : inLang(io, coded('reflect.skipping_task', { index: e.index, total: e.total, task: e.taskDir, reason: reasonOf(e) })), true)
        break
      default:
        break
    }
    if (io.isTTY && e.kind !== 'done' && e.total > 0) {
      io.stderr(bar())
      progressLine.shown = true
    }
  }

  const opts: ReflectionOptions = {
    rootDir,
    user: values.user,
    tasks: values.task,
    mode,
    force: values.force,
    decide: values.decide,
    concurrency: concurrency ?? DEFAULT_SETTINGS.llm.concurrency,
    budgetChars: budget,
    traces,
    signal: io.signal,
    onEvent
  }
  if (traces && values.library) {
    opts.library = path.resolve(io.cwd, values.library)
  }
  if (values['evolve-memory'] !== undefined) {
    const lang = values.lang ?? 'en'
    if (lang !== 'en' && lang !== 'zh') throw new UsageError(coded('cli.must_be_either', { option: '--lang', a: 'en', b: 'zh' }))
    opts.evolveMemory = { workspace: path.resolve(io.cwd, values['evolve-memory']), lang }
  }
  const ticks = setInterval(tick, WAIT_TICK_MS)
  ticks.unref?.()
  const summary = await runReflection(
    opts,
    defaultReflectionDeps({ llm, secrets: llmConfig?.apiKey ? [llmConfig.apiKey] : [] })
  )
    .catch((err: unknown) => {
      throw withDefaultRootHint(err, Boolean(values['root-dir'] || values.config || traces))
    })
    .finally(() => {
      clearInterval(ticks)
      // lines of tasks a cancel stopped before their end, still waiting for them
      const rest = inOrder.rest()
      if (rest.length === 0) return
      if (progressLine.shown) io.stderr('\r\u001b[2K')
      progressLine.shown = false
      for (const l of rest) io.stderr(`${l}\n`)
    })
  if (progressLine.shown) io.stderr('\n')
  // nothing found at all: a --user or --task typo, or a folder that is not a data root (the run said only "0 tasks")
  if (!traces && !summary.cancelled && summary.created.length + summary.skipped.length + summary.failed.length === 0) {
    io.stderr(`skillbench reflect: ${inLang(io, await noTasksHint(rootDir, { user: values.user, tasks: values.task }))}\n`)
  }
  if (values.json) {
    printJson(io, summary)
  } else {
    io.stdout(formatReflectSummary(summary))
  }
  if (summary.cancelled) return 130
  return summary.failed.length ? 1 : 0
}
