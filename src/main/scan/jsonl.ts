/**
 * What the JSONL session adapters (Claude Code, Codex CLI, Synapse) share: loose JSON access and a
 * record reader that skips torn or corrupt lines instead of failing the whole file.
 */
import fs from 'node:fs'
import { coded, refOf, type CodedText, type MessageRef } from '../../shared/error-codes'
import type { SkippedTask, TaskTrace } from '../../shared/types'
import { codedReason } from '../../shared/coded-reason'
import { MAX_JSONL_LINE_CHARS, readLines, type LogReader } from './read-log'

export type Json = Record<string, unknown>

/** The value as a plain object, or undefined. */
export function asObj(v: unknown): Json | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined
}

/** The value as a string ('' when it is not one). */
export function str(v: unknown): string {
  return typeof v === 'string' ? v : ''
}

/** A record's own time (`timestamp`, ISO or epoch), ms since epoch, or undefined. */
export function recordTime(r: Json): number | undefined {
  const t = r.timestamp
  const ms = typeof t === 'string' ? Date.parse(t) : typeof t === 'number' ? (t < 1e12 ? t * 1000 : t) : NaN
  return Number.isFinite(ms) ? ms : undefined
}

/** Where a scan says what it passed over and why (every skipped entry is reported, never dropped silently). */
export interface SkipNotes {
  skip(path: string, why: CodedText): void
}

/** A skipped entry as a scan reports it: the words (what the CLI and scripts read) and their code beside them. */
export function skippedTask(path: string, why: CodedText): SkippedTask {
  return { path, ...codedReason(why) }
}

/** What a special file is, as a word of the table (`scan.not_regular`, `scan.not_folder` take it as `what`). */
export function specialKind(e: fs.Dirent | fs.Stats): MessageRef {
  return refOf(coded(e.isFIFO() ? 'scan.what_fifo' : e.isSocket() ? 'scan.what_socket' : 'scan.what_device'))
}

/** Entries of a session folder that are not session files a scan can read: links and special files. */
export function noteUnreadableEntry(notes: SkipNotes | undefined, full: string, e: fs.Dirent): void {
  if (!notes || !e.name.endsWith('.jsonl')) return
  if (e.isSymbolicLink()) notes.skip(full, coded('scan.link_not_followed'))
  else if (!e.isFile() && !e.isDirectory()) notes.skip(full, coded('scan.not_regular', { what: specialKind(e) }))
}

/**
 * Feeds every JSON object line of a file to `onRecord` with its 1-based line number; returns how many lines were
 * malformed or overlong. Lines too long to hold (a whole session on one 300 MB line, embedded images) are skipped
 * (still counted as lines) and reported to `notes`.
 */
export async function readJsonRecords(file: string, onRecord: (r: Json, line: number) => void, reader?: LogReader, notes?: SkipNotes): Promise<number> {
  let bad = 0
  let line = 0
  let overlong = 0
  let longest = 0
  let records = 0
  let binary = 0
  let firstBad = 0
  const badLine = (): void => {
    bad++
    if (firstBad === 0) firstBad = line
  }
  await readLines(
    file,
    (text) => {
      line++
      if (!text.trim()) {
        return
      }
      if (text.includes('\u0000')) {
        binary++
        badLine()
        return
      }
      try {
        const r = asObj(JSON.parse(text))
        if (r) {
          records++
          onRecord(r, line)
        } else {
          badLine()
        }
      } catch {
        badLine()
      }
    },
    {
      reader,
      onOverlong: (chars) => {
        line++
        bad++
        overlong++
        longest = Math.max(longest, chars)
      }
    }
  )
  const malformed = bad - overlong
  if (records === 0 && malformed > 0) {
    notes?.skip(file, binary > 0 ? coded('scan.binary') : coded('scan.no_json_lines', { n: malformed, line: firstBad }))
  } else if (malformed > 0) {
    notes?.skip(file, coded('scan.bad_lines', { n: malformed, line: firstBad }))
  }
  if (overlong > 0) {
    const mb = (n: number): number => Math.round(n / (1024 * 1024))
    notes?.skip(file, coded('scan.long_lines', { n: overlong, maxMb: mb(MAX_JSONL_LINE_CHARS), longestMb: mb(longest) }))
  }
  return bad
}

/**
 * A session file's tasks from `cache` when the file's size and mtime are unchanged since they were parsed, else
 * parsed now (and cached). `variant` keeps parses of the same file with different settings apart.
 */
export async function cachedParse(
  file: string,
  cache: { get(path: string, size: number, mtimeMs: number): TaskTrace[] | undefined; set(path: string, size: number, mtimeMs: number, value: TaskTrace[]): void } | undefined,
  parse: () => Promise<TaskTrace[]>,
  variant = ''
): Promise<TaskTrace[]> {
  if (!cache) return parse()
  const st = await fs.promises.stat(file).catch(() => null)
  const hit = st ? cache.get(file + variant, st.size, st.mtimeMs) : undefined
  if (hit) return hit
  const tasks = await parse()
  if (st) cache.set(file + variant, st.size, st.mtimeMs, tasks)
  return tasks
}
