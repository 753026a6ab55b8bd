import fs from 'node:fs/promises'
import path from 'node:path'
import type { LlmClient } from '../../llm/types'
import type { CuratedFailure } from '../../memory/lessons'
import {
  acceptPendingPreference,
  capturePreferences,
  consolidateDailyLogs,
  memoryPrompt,
  memoryStatus,
  preferencesFromTexts,
  preferencesFromTraces,
  recordLesson,
  recordProcedural,
  rejectPendingPreference,
  type PreferenceSource
} from '../../memory/memory-files'
import { parseCommandArgs, printJson, UsageError, type CliCommand, type CliIo } from '../common'
import { tracesOf } from '../trace-files'
import { coded } from '../../../shared/error-codes'

const OPTIONS = {
  workspace: { type: 'string' },
  json: { type: 'boolean', default: false },
  // add-lesson
  text: { type: 'string' },
  'hallucinated-tool': { type: 'string' },
  tools: { type: 'string' },
  critic: { type: 'string' },
  lang: { type: 'string' },
  // capture-preferences
  'root-dir': { type: 'string' },
  // add-procedural
  tool: { type: 'string' },
  reason: { type: 'string' },
  // consolidate
  llm: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'include-today': { type: 'boolean', default: false },
  'since-days': { type: 'string' },
  // prompt
  budget: { type: 'string' },
  // evolve
  library: { type: 'string' },
  user: { type: 'string' },
  'claude-dir': { type: 'string' },
  'codex-dir': { type: 'string' },
  'synapse-dir': { type: 'string' },
  'no-preferences': { type: 'boolean', default: false },
  'no-tool-stats': { type: 'boolean', default: false }
} as const

const USAGE = `skillbench memory <subcommand> --workspace DIR [options] [--json]

The workspace's memory/ folder: lessons.md, preferences.md, procedural.md, long-term.md, logs/YYYY-MM-DD.md.

Subcommands:
  show                                  what each memory file holds, pending preferences, logged and consolidated days
  add-lesson --text "RULE"              add a behaviour rule (skipped if the same or a near-duplicate exists)
  add-lesson --hallucinated-tool NAME --tools a,b,c [--lang en|zh]
                                        the "only use the registered tools" lesson for an invented tool name
  add-lesson --critic "SUGGESTION" [--lang en|zh]
  add-procedural --tool NAME --reason "WHY IT FAILED"
                                        record a tool failure in procedural.md (deduplicated per tool)
  capture-preferences [FILE...] [--text "..."] [--root-dir DATA_ROOT]
                                        find "记住：…" / "remember: …" / "Remember that …" in logs or texts and queue
                                        them for review; a .json FILE may be \`skillbench scan --json\` output or TaskTraces;
                                        --root-dir scans an AGIAgent data root's task logs
  accept-preference ID                  move a pending preference (id or unique prefix) into preferences.md
  reject-preference ID                  drop a pending preference
  consolidate [--llm offline|openai] [--base-url URL] [--model NAME] [--include-today] [--since-days N] [--lang en|zh]
                                        summarise each daily log not yet in long-term.md under a "## YYYY-MM-DD" heading
                                        (offline: extractive; openai: key from OPENAI_API_KEY). Never twice per day.
                                        --lang: the language of the line saying where each summary came from
  evolve (--root-dir DATA_ROOT | --claude-dir DIR | --codex-dir DIR | --synapse-dir DIR | FILE.json...)
         (--library DIR | --root-dir DATA_ROOT --user NAME) [--lang en|zh] [--no-preferences] [--no-tool-stats]
                                        reflection over scanned tasks: hallucinated tools and critic suggestions
                                        become lessons, stated preferences (记住：…, 以后都…, from now on…, Always…/
                                        Never…) preferences, tool statistics a procedural note; each lands once as a
                                        proposal in the library's review queue (skillbench proposals / accept / undo)
  prompt [--budget CHARS]               print the system-prompt sections (## 行为约束 / Lessons, ## 用户偏好 / Preferences,
                                        ## 程序记忆 / Procedural memory)`

export const command: CliCommand = {
  name: 'memory',
  options: OPTIONS,
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS)
    const [sub, ...rest] = positionals
    if (!sub) {
      throw new UsageError(coded('cli.memory_what_to_do'))
    }
    if (!values.workspace) {
      throw new UsageError(coded('cli.which_workspace'))
    }
    const ws = path.resolve(io.cwd, values.workspace)
    const out = (human: string, data: unknown): void => {
      if (values.json) {
        printJson(io, data)
      } else {
        io.stdout(human.endsWith('\n') ? human : human + '\n')
      }
    }
    switch (sub) {
      case 'show': {
        const s = await memoryStatus(ws)
        const lines = [
          `memory folder: ${s.dir}`,
          ...s.files.map((f) => `  ${f.name.padEnd(15)} ${f.exists ? `${f.entries} ${f.name === 'long-term.md' ? 'days' : 'entries'}, ${f.bytes} bytes` : '(absent)'}`),
          `  daily logs      ${s.logDays.length} (${s.logDays.filter((d) => !s.consolidatedDays.includes(d)).length} not consolidated)`,
          `  pending preferences: ${s.pendingPreferences.length}`,
          ...s.pendingPreferences.map((p) => `    ${p.id}  ${p.text}   [${p.source}]`)
        ]
        out(lines.join('\n'), s)
        return 0
      }
      case 'add-lesson': {
        const lang = parseLang(values.lang)
        const lesson = lessonInput(values)
        const r = await recordLesson(ws, lesson, { lang })
        out(r.added ? `added lesson: ${r.entry}` : `not added, already there: ${r.duplicateOf}`, r)
        return 0
      }
      case 'add-procedural': {
        if (!values.tool || !values.reason) {
          throw new UsageError(coded('cli.add_procedural_needs'))
        }
        const r = await recordProcedural(ws, { tool: values.tool, reason: values.reason })
        out(r.added ? `recorded: ${r.entry}` : `not added, already there: ${r.duplicateOf}`, r)
        return 0
      }
      case 'capture-preferences': {
        const found = await preferenceSources(rest, values.text, values['root-dir'], io)
        const r = await capturePreferences(ws, found)
        const lines = [
          `queued ${r.queued.length} preference(s) for review${r.skipped.length ? `, skipped ${r.skipped.length}` : ''}`,
          ...r.queued.map((q) => `  ${q.id}  ${q.text}   [${q.source}]`),
          ...r.skipped.map((s) => `  (skipped, ${s.reason.replace('_', ' ')}) ${s.text}`)
        ]
        out(lines.join('\n'), { queued: r.queued, skipped: r.skipped })
        return 0
      }
      case 'accept-preference':
      case 'reject-preference': {
        const id = rest[0]
        if (!id) {
          throw new UsageError(coded('cli.needs_preference_id', { subcommand: sub }))
        }
        if (sub === 'accept-preference') {
          const r = await acceptPendingPreference(ws, id)
          out(r.added ? `accepted: ${r.accepted.text}` : `already in preferences.md: ${r.accepted.text} (removed from the queue)`, {
            accepted: r.accepted,
            added: r.added
          })
        } else {
          const r = await rejectPendingPreference(ws, id)
          out(`rejected: ${r.text}`, { rejected: r })
        }
        return 0
      }
      case 'consolidate': {
        const llm = await llmFromFlags(values, io)
        const sinceDays = values['since-days'] === undefined ? undefined : positiveInt(values['since-days'], '--since-days')
        const lang = parseLang(values.lang)
        const r = await consolidateDailyLogs(ws, { llm, includeToday: values['include-today'], sinceDays, signal: io.signal, lang })
        const lines = [
          `consolidated ${r.consolidated.length} day(s)`,
          ...r.consolidated.map((c) => `  ${c.day}  ${c.method}`),
          ...r.skipped.map((s) => `  ${s.day}  skipped: ${s.reason.replace('_', ' ')}`),
          ...r.failed.map((f) => `  ${f.day}  FAILED: ${f.error}`)
        ]
        out(lines.join('\n'), r)
        return r.failed.length > 0 ? 1 : 0
      }
      case 'evolve': {
        const { evolveCommand } = await import('./memory-evolve')
        return evolveCommand(ws, values, rest, io, out)
      }
      case 'prompt': {
        const budget = values.budget === undefined ? undefined : positiveInt(values.budget, '--budget')
        const r = await memoryPrompt(ws, budget)
        out(r.text || '(memory is empty: no section to inject)', r)
        return 0
      }
      default:
        throw new UsageError(coded('cli.unknown_memory_subcommand', { subcommand: sub }))
    }
  }
}

function parseLang(raw: string | undefined): 'en' | 'zh' {
  if (raw === undefined || raw === 'en' || raw === 'zh') {
    return raw ?? 'en'
  }
  throw new UsageError(coded('cli.must_be_either', { option: '--lang', a: 'en', b: 'zh' }))
}

function positiveInt(raw: string, flag: string): number {
  const n = Number(raw)
  if (!Number.isInteger(n) || n <= 0) {
    throw new UsageError(coded('cli.positive_whole_number', { option: flag }))
  }
  return n
}

function lessonInput(values: { text?: string; 'hallucinated-tool'?: string; tools?: string; critic?: string }): CuratedFailure | string {
  const given = [values.text, values['hallucinated-tool'], values.critic].filter((v) => v !== undefined).length
  if (given !== 1) {
    throw new UsageError(coded('cli.add_lesson_needs_one'))
  }
  if (values.text !== undefined) {
    return values.text
  }
  if (values.critic !== undefined) {
    return { kind: 'critic', suggestion: values.critic }
  }
  const validTools = (values.tools ?? '').split(',').map((t) => t.trim()).filter(Boolean)
  if (validTools.length === 0) {
    throw new UsageError(coded('cli.hallucinated_tool_needs_tools'))
  }
  return { kind: 'hallucinated_tool', tool: values['hallucinated-tool']!, validTools }
}

/** Texts to search: each FILE (scan JSON, TaskTrace JSON or plain text) and --text. */
async function preferenceSources(files: string[], text: string | undefined, rootDir: string | undefined, io: CliIo): Promise<PreferenceSource[]> {
  if (files.length === 0 && text === undefined && rootDir === undefined) {
    throw new UsageError(coded('cli.capture_preferences_needs'))
  }
  const found: PreferenceSource[] = []
  if (rootDir !== undefined) {
    const { scanRoot } = await import('../../scan/scan-root')
    const scan = await scanRoot({ rootDir: path.resolve(io.cwd, rootDir), cwd: io.cwd, signal: io.signal })
    found.push(...preferencesFromTraces(scan.tasks))
  }
  if (text !== undefined) {
    found.push(...preferencesFromTexts([{ text, source: '--text' }]))
  }
  for (const f of files) {
    const file = path.resolve(io.cwd, f)
    const content = await fs.readFile(file, 'utf8')
    const traces = f.endsWith('.json') ? tracesOf(content, file) : undefined
    found.push(...(traces ? preferencesFromTraces(traces) : preferencesFromTexts([{ text: content, source: file }])))
  }
  return found
}

async function llmFromFlags(
  values: { llm?: string; 'base-url'?: string; model?: string },
  io: CliIo
): Promise<LlmClient | undefined> {
  const mode = values.llm ?? (values['base-url'] || values.model ? 'openai' : 'offline')
  if (mode === 'offline') {
    return undefined
  }
  if (mode !== 'openai') {
    throw new UsageError(coded('cli.must_be_either', { option: '--llm', a: 'offline', b: 'openai' }))
  }
  const { createOpenAiClient, llmConfigFromEnv } = await import('../../llm/openai-client')
  return createOpenAiClient(llmConfigFromEnv({ 'base-url': values['base-url'], model: values.model }, io.env))
}
