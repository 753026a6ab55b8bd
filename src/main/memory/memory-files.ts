/**
 * The I/O layer over a workspace's `memory/` folder: reads the files, runs the pure logic, writes
 * atomically. Every function re-reads the files it changes (files on disk are the truth).
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import type { TaskTrace } from '../../shared/types'
import type { LlmClient } from '../llm/types'
import { listContained, readContainedText, writeContained } from '../store/contained'
import { withLibraryLock } from '../store/lock'
import { StoreError } from '../store/types'
import {
  appendDaySections,
  LONG_TERM_HEADER,
  cleanModelSummary,
  consolidatedDays,
  consolidationMessages,
  dayOfLogFile,
  extractiveSummary,
  summaryNote,
  type SummaryMethod
} from './consolidate'
import { addLesson, lessonFromFailure, type AddEntryResult, type CuratedFailure, type MemoryLang } from './lessons'
import {
  acceptPreference,
  cleanPreference,
  extractPreferences,
  parsePendingFile,
  queuePreferences,
  rejectPreference,
  serializePendingFile,
  type AcceptResult,
  type PendingPreference,
  type QueueResult
} from './preferences'
import { longTermPreferenceEntries, upsertLongTermPreference } from './preference-kv'
import { addProceduralRecord, type ProceduralRecord } from './procedural'
import { buildPromptSections, renderPromptSections, type PromptSection } from './prompt-sections'
import { normalizeEntry, parseEntries } from './text'
import { coded, type CodedText, type MessageCode, type MessageParams } from '../../shared/error-codes'
import { CodedError, codedFieldsOf } from '../../shared/api-error'

/** Biggest memory file read; a bigger one is an error rather than a slow prompt. */
export const MAX_MEMORY_FILE_BYTES = 5 * 1024 * 1024

/** Where each memory file lives in a workspace. */
export interface MemoryPaths {
  dir: string
  lessons: string
  preferences: string
  procedural: string
  longTerm: string
  logsDir: string
  /** Preferences found in logs, waiting for review. */
  pendingPreferences: string
}

/** The memory layout of a workspace (`<workspace>/memory/…`). */
export function memoryPaths(workspace: string): MemoryPaths {
  const dir = path.join(path.resolve(workspace), 'memory')
  return {
    dir,
    lessons: path.join(dir, 'lessons.md'),
    preferences: path.join(dir, 'preferences.md'),
    procedural: path.join(dir, 'procedural.md'),
    longTerm: path.join(dir, 'long-term.md'),
    logsDir: path.join(dir, 'logs'),
    pendingPreferences: path.join(dir, '.pending-preferences.json')
  }
}

/**
 * The workspace folder as a real path: every memory file is read and written inside it, never through a link
 * (a `memory/` folder or file that is a symbolic link is refused with path_escape). Made when `create` is set.
 */
export async function realWorkspace(workspace: string, create: boolean): Promise<string> {
  const abs = path.resolve(workspace)
  if (create) await fs.mkdir(abs, { recursive: true })
  try {
    return await fs.realpath(abs)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return abs
    throw err
  }
}

/** `file` (absolute, under ws) relative to the workspace, forward slashes. */
function relIn(ws: string, file: string): string {
  return path.relative(ws, file).split(path.sep).join('/')
}

/** A memory file's text, or null when it does not exist. Refuses links, non-files and oversized files. */
export async function readMem(ws: string, file: string): Promise<string | null> {
  try {
    return await readContainedText(ws, relIn(ws, file), { maxBytes: MAX_MEMORY_FILE_BYTES })
  } catch (err) {
    if (err instanceof StoreError && err.messageCode === 'file.larger_than') {
      throw new CodedError('bad_request', coded('memory.too_large', { file, bytes: MAX_MEMORY_FILE_BYTES }), { cause: err })
    }
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  }
}

/** Writes a memory file atomically inside the workspace (its folders made there; never through a link). */
export async function writeMem(ws: string, file: string, text: string): Promise<void> {
  await writeContained(ws, relIn(ws, file), text)
}

/**
 * Read-modify-write of one workspace's memory, serialised across every process. The lock is a file in the
 * workspace itself that exists only while held, so the memory folder holds nothing but the memory files.
 */
export async function withMemoryLock<T>(ws: string, fn: () => Promise<T>): Promise<T> {
  return withLibraryLock(ws, fn, { lockDir: '', lockName: '.skillbench-memory.lock', what: 'folder', purpose: 'writing memory files' })
}

/** The memory files the app may show and edit, by name (daily logs: `logs/YYYY-MM-DD.md`). */
export const MEMORY_FILE_NAMES = ['lessons.md', 'preferences.md', 'procedural.md', 'long-term.md'] as const

/** The absolute path of a named memory file; any other name (a path, `..`, another file) is refused. */
export function memoryFilePath(workspace: string, name: string): string {
  const p = memoryPaths(workspace)
  if ((MEMORY_FILE_NAMES as readonly string[]).includes(name)) {
    return path.join(p.dir, name)
  }
  const m = /^logs\/(\d{4}-\d{2}-\d{2}\.md)$/.exec(name)
  if (m && dayOfLogFile(m[1]!)) {
    return path.join(p.logsDir, m[1]!)
  }
  throw new CodedError('bad_request', coded('memory.not_memory_file', { name: name.slice(0, 80), names: MEMORY_FILE_NAMES.join(', ') }))
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/** A memory file for the editor: its text and hash (both null when it does not exist yet). */
export async function readMemoryDocument(workspace: string, name: string): Promise<{ name: string; text: string | null; hash: string | null }> {
  const ws = await realWorkspace(workspace, false)
  const text = await readMem(ws, memoryFilePath(ws, name))
  return { name, text, hash: text === null ? null : sha256(text) }
}

/** Thrown when a memory file changed on disk since the editor read it. */
export class MemoryConflictError extends Error {
  readonly coded: CodedText

  constructor(name: string) {
    const message = coded('memory.changed_on_disk', { name })
    super(message.text)
    this.name = 'MemoryConflictError'
    this.coded = message
  }
}

/**
 * Saves an edited memory file atomically. `baseHash` is the hash the editor read (null = the file
 * must not exist yet); a different current hash is a conflict and nothing is written.
 */
export async function writeMemoryDocument(workspace: string, name: string, text: string, baseHash: string | null): Promise<{ hash: string }> {
  memoryFilePath(workspace, name) // refuses a bad name before anything is made
  if (Buffer.byteLength(text) > MAX_MEMORY_FILE_BYTES) {
    throw new CodedError('bad_request', coded('memory.would_be_too_large', { name, bytes: MAX_MEMORY_FILE_BYTES }))
  }
  const ws = await realWorkspace(workspace, true)
  const file = memoryFilePath(ws, name)
  return withMemoryLock(ws, async () => {
    const current = await readMem(ws, file)
    if ((current === null ? null : sha256(current)) !== baseHash) {
      throw new MemoryConflictError(name)
    }
    await writeMem(ws, file, text)
    return { hash: sha256(text) }
  })
}

/** Adds a lesson (from a curated failure or a plain rule), deduplicated. */
export async function recordLesson(
  workspace: string,
  lesson: CuratedFailure | string,
  opts: { lang?: MemoryLang; threshold?: number } = {}
): Promise<AddEntryResult> {
  const ws = await realWorkspace(workspace, true)
  const p = memoryPaths(ws)
  const text = typeof lesson === 'string' ? lesson : lessonFromFailure(lesson, opts.lang)
  return withMemoryLock(ws, async () => {
    const result = addLesson(await readMem(ws, p.lessons), text, opts.threshold)
    if (result.added) {
      await writeMem(ws, p.lessons, result.text)
    }
    return result
  })
}

/** Records a tool failure in procedural.md, deduplicated per tool. */
export async function recordProcedural(workspace: string, record: ProceduralRecord): Promise<AddEntryResult> {
  const ws = await realWorkspace(workspace, true)
  const p = memoryPaths(ws)
  return withMemoryLock(ws, async () => {
    const result = addProceduralRecord(await readMem(ws, p.procedural), record)
    if (result.added) {
      await writeMem(ws, p.procedural, result.text)
    }
    return result
  })
}

/** A text to search for preferences and where it came from. */
export interface PreferenceSource {
  text: string
  source: string
}

/** The preferences of parsed task traces: the scanner's `preferences` plus any stated in a requirement. */
export function preferencesFromTraces(traces: TaskTrace[]): PreferenceSource[] {
  return firstOfEach(
    traces.flatMap((t) =>
      // the scanner's own finds keep the sentence's full stop: cleaned as the memory's are
      [...(t.preferences ?? []).map(cleanPreference).filter((p) => p !== ''), ...t.requirements.flatMap((r) => extractPreferences(r, { userMessage: true }))].map((text) => ({ text, source: t.taskDir || t.path }))
    )
  )
}

/** The preferences stated in raw texts (log files, chat transcripts). */
export function preferencesFromTexts(sources: PreferenceSource[]): PreferenceSource[] {
  return firstOfEach(sources.flatMap((s) => extractPreferences(s.text).map((text) => ({ text, source: s.source }))))
}

/** Keeps the first occurrence of each preference (the same one is often repeated across a log's context lists). */
function firstOfEach(found: PreferenceSource[]): PreferenceSource[] {
  const seen = new Set<string>()
  return found.filter((f) => {
    const key = normalizeEntry(f.text)
    return key !== '' && !seen.has(key) && (seen.add(key), true)
  })
}

/** Queues found preferences for review (skipping ones accepted or pending already). */
export async function capturePreferences(
  workspace: string,
  found: PreferenceSource[],
  now: Date = new Date()
): Promise<QueueResult> {
  const ws = await realWorkspace(workspace, true)
  const p = memoryPaths(ws)
  return withMemoryLock(ws, async () => {
    const pending = parsePendingFile(await readMem(ws, p.pendingPreferences))
    const result = queuePreferences(pending, await readMem(ws, p.preferences), found, now)
    if (result.queued.length > 0) {
      await writeMem(ws, p.pendingPreferences, serializePendingFile(result.file))
    }
    return result
  })
}

/** The preferences waiting for review. */
export async function listPendingPreferences(workspace: string): Promise<PendingPreference[]> {
  const ws = await realWorkspace(workspace, false)
  return parsePendingFile(await readMem(ws, memoryPaths(ws).pendingPreferences)).items
}

/**
 * Accepts one pending preference into preferences.md and long-term.md's preferences block (a key-value one
 * replaces its key's earlier value). Both are written before the queue, so a crash in between leaves the item
 * pending, and accepting it again finishes the job (the writes already made are no-op dedupes).
 */
export async function acceptPendingPreference(workspace: string, id: string): Promise<AcceptResult> {
  const ws = await realWorkspace(workspace, true)
  const p = memoryPaths(ws)
  return withMemoryLock(ws, async () => {
    const pending = parsePendingFile(await readMem(ws, p.pendingPreferences))
    const result = acceptPreference(pending, await readMem(ws, p.preferences), id)
    if (result.added) {
      await writeMem(ws, p.preferences, result.preferencesMd)
    }
    // an accepted preference reaches long-term memory too (upstream's push_to_long_term), before it leaves the queue
    const longTerm = upsertLongTermPreference(await readMem(ws, p.longTerm), LONG_TERM_HEADER, result.accepted.text)
    if (longTerm.changed) {
      await writeMem(ws, p.longTerm, longTerm.text)
    }
    await writeMem(ws, p.pendingPreferences, serializePendingFile(result.pending))
    return result
  })
}

/** Drops one pending preference. */
export async function rejectPendingPreference(workspace: string, id: string): Promise<PendingPreference> {
  const ws = await realWorkspace(workspace, true)
  const p = memoryPaths(ws)
  return withMemoryLock(ws, async () => {
    const result = rejectPreference(parsePendingFile(await readMem(ws, p.pendingPreferences)), id)
    await writeMem(ws, p.pendingPreferences, serializePendingFile(result.pending))
    return result.rejected
  })
}

/** Local calendar day of a date, YYYY-MM-DD (log files are named by the agent's local day). */
export function localDay(d: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

/** Appends text to today's daily log `logs/YYYY-MM-DD.md` (the agent side of the memory loop). */
export async function appendDailyLog(workspace: string, text: string, now: Date = new Date()): Promise<string> {
  const ws = await realWorkspace(workspace, true)
  const p = memoryPaths(ws)
  const file = path.join(p.logsDir, `${localDay(now)}.md`)
  return withMemoryLock(ws, async () => {
    const current = (await readMem(ws, file)) ?? ''
    const sep = current === '' || current.endsWith('\n') ? '' : '\n'
    await writeMem(ws, file, `${current}${sep}${text.trimEnd()}\n`)
    return file
  })
}

/** The days that have a daily log, sorted. */
export async function listLogDays(workspace: string): Promise<string[]> {
  const ws = await realWorkspace(workspace, false)
  const names = await listContained(ws, 'memory/logs')
  return names.flatMap((n) => dayOfLogFile(n) ?? []).sort()
}

export interface ConsolidateOptions {
  /** Summarise with this model; without it, an extractive summary. */
  llm?: LlmClient
  now?: Date
  /** Today's log is still growing and is skipped unless this is set. */
  includeToday?: boolean
  /** Only days within the last N days (by date). */
  sinceDays?: number
  signal?: AbortSignal
  /** The language of the line under each day's heading (where the summary came from); English by default. */
  lang?: MemoryLang
}

export interface ConsolidationReport {
  consolidated: { day: string; method: string; chars: number }[]
  skipped: { day: string; reason: 'already_consolidated' | 'today' | 'too_old' | 'empty' }[]
  /** A day not summarised: why in English, and by code when the error carried one (the app words it). */
  failed: { day: string; error: string; messageCode?: MessageCode; params?: MessageParams }[]
}

/**
 * Summarises every daily log not yet in long-term.md and appends one section per day.
 * Idempotent: a day whose heading exists is never summarised again. A day the model fails on is
 * reported and left out (so a later run can still summarise it), never filled with a fallback.
 */
export async function consolidateDailyLogs(workspace: string, opts: ConsolidateOptions = {}): Promise<ConsolidationReport> {
  const ws = await realWorkspace(workspace, false)
  const p = memoryPaths(ws)
  const now = opts.now ?? new Date()
  const today = localDay(now)
  const oldest = opts.sinceDays === undefined ? undefined : localDay(new Date(now.getTime() - opts.sinceDays * 86_400_000))
  const report: ConsolidationReport = { consolidated: [], skipped: [], failed: [] }
  const done = consolidatedDays((await readMem(ws, p.longTerm)) ?? '')
  // method: the line written under the day's heading (in opts.lang); english: the report's
  const sections: { day: string; summary: string; method: string; english: string }[] = []
  for (const day of await listLogDays(workspace)) {
    if (done.has(day)) {
      report.skipped.push({ day, reason: 'already_consolidated' })
      continue
    }
    if (day >= today && !opts.includeToday) {
      report.skipped.push({ day, reason: 'today' })
      continue
    }
    if (oldest !== undefined && day < oldest) {
      report.skipped.push({ day, reason: 'too_old' })
      continue
    }
    opts.signal?.throwIfAborted()
    try {
      const log = (await readMem(ws, path.join(p.logsDir, `${day}.md`))) ?? ''
      if (!log.trim()) {
        report.skipped.push({ day, reason: 'empty' })
        continue
      }
      const { summary, how } = await summariseDay(day, log, opts)
      sections.push({ day, summary, method: summaryNote(day, how, opts.lang), english: summaryNote(day, how) })
    } catch (err) {
      if (opts.signal?.aborted) {
        throw err
      }
      report.failed.push({ day, error: (err as Error).message.split('\n')[0] ?? 'unknown error', ...codedFieldsOf(err) })
    }
  }
  if (sections.length > 0) {
    // Re-read under the lock: another run may have consolidated some days meanwhile.
    await withMemoryLock(ws, async () => {
      const current = await readMem(ws, p.longTerm)
      const already = consolidatedDays(current ?? '')
      const fresh = sections.filter((s) => !already.has(s.day))
      if (fresh.length > 0) {
        await writeMem(ws, p.longTerm, appendDaySections(current, fresh))
      }
      for (const s of fresh) {
        report.consolidated.push({ day: s.day, method: s.english, chars: s.summary.length })
      }
      for (const s of sections.filter((x) => already.has(x.day))) {
        report.skipped.push({ day: s.day, reason: 'already_consolidated' })
      }
    })
  }
  return report
}

async function summariseDay(day: string, log: string, opts: ConsolidateOptions): Promise<{ summary: string; how: SummaryMethod }> {
  if (!opts.llm) {
    const summary = extractiveSummary(log)
    if (!summary) {
      throw new CodedError('invalid', coded('memory.nothing_to_summarise'))
    }
    return { summary, how: { kind: 'extractive' } }
  }
  const reply = await opts.llm.chat({ messages: consolidationMessages(day, log), temperature: 0.2, signal: opts.signal })
  return { summary: cleanModelSummary(reply.text), how: { kind: 'model', model: reply.model || opts.llm.model } }
}

/** The system-prompt sections built from the workspace's memory files. */
export async function memoryPrompt(
  workspace: string,
  budgetChars?: number
): Promise<{ sections: PromptSection[]; text: string }> {
  const ws = await realWorkspace(workspace, false)
  const p = memoryPaths(ws)
  const sections = buildPromptSections(
    {
      lessons: await readMem(ws, p.lessons),
      preferences: await readMem(ws, p.preferences),
      procedural: await readMem(ws, p.procedural)
    },
    budgetChars
  )
  return { sections, text: renderPromptSections(sections) }
}

/** One memory file in the status overview. */
export interface MemoryFileStatus {
  name: string
  path: string
  exists: boolean
  bytes: number
  entries: number
}

export interface MemoryStatus {
  dir: string
  files: MemoryFileStatus[]
  pendingPreferences: PendingPreference[]
  /** The preferences in long-term.md's preferences block (where accepted ones go, from here or from a review). */
  longTermPreferences: string[]
  logDays: string[]
  consolidatedDays: string[]
}

/** What the workspace's memory holds (for `memory show` and the app's memory view). */
export async function memoryStatus(workspace: string): Promise<MemoryStatus> {
  const ws = await realWorkspace(workspace, false)
  const p = memoryPaths(ws)
  const files: MemoryFileStatus[] = []
  let longTerm = ''
  for (const [name, file] of [
    ['lessons.md', p.lessons],
    ['preferences.md', p.preferences],
    ['procedural.md', p.procedural],
    ['long-term.md', p.longTerm]
  ] as const) {
    const text = await readMem(ws, file)
    if (name === 'long-term.md') {
      longTerm = text ?? ''
    }
    files.push({
      name,
      path: file,
      exists: text !== null,
      bytes: text === null ? 0 : Buffer.byteLength(text),
      entries: name === 'long-term.md' ? consolidatedDays(text ?? '').size : parseEntries(text ?? '').length
    })
  }
  return {
    dir: p.dir,
    files,
    pendingPreferences: await listPendingPreferences(workspace),
    longTermPreferences: longTermPreferenceEntries(longTerm),
    logDays: await listLogDays(workspace),
    consolidatedDays: [...consolidatedDays(longTerm)].sort()
  }
}
