/**
 * Synapse-style sessions (`~/.synapse/sessions/<id>.jsonl`) → task traces.
 *
 * Read from the END and cut to `maxEnhanceContextChars` (the most recent work is what gets analysed).
 * Lines are chat messages, OpenAI-style (`role`, `content`, `tool_calls`, `tool_call_id`) or Anthropic-style
 * (content blocks `tool_use` / `tool_result`), optionally wrapped as `{type, message}`.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { TaskTrace } from '../../shared/types'
import { DEFAULT_SETTINGS } from '../../shared/types'
import type { ScanCache } from './cache'
import { readTail, type LogReader } from './read-log'
import { asObj, cachedParse, noteUnreadableEntry, recordTime, str, type Json, type SkipNotes } from './jsonl'
import { SessionTaskBuilder, toParams } from './session-tasks'

const INTERRUPT = /^\[Request interrupted by user/


function textOf(content: unknown): string {
  if (typeof content === 'string') {
    return content
  }
  if (Array.isArray(content)) {
    return content
      .map((b) => {
        const o = asObj(b)
        return o && (o.type === 'text' || o.type === undefined) ? str(o.text) : ''
      })
      .filter(Boolean)
      .join('\n')
  }
  return ''
}

const WRITE_TOOLS = /^(write|edit|create|multiedit|write_file|edit_file|apply_patch)$/i

/** Feeds one message record into the builder. */
function onMessage(b: SessionTaskBuilder, rec: Json): void {
  const type = str(rec.type)
  if (type === 'task_complete' || type === 'stop' || type === 'done') {
    b.complete(str(rec.message) || str(rec.text))
    return
  }
  if (type === 'interrupt' || type === 'interrupted') {
    b.interrupt()
    return
  }
  const m = asObj(rec.message) ?? rec
  const role = str(m.role) || (type === 'user' || type === 'assistant' || type === 'tool' ? type : '')
  if (typeof rec.cwd === 'string') {
    b.setCwd(rec.cwd)
  }
  const content = m.content
  if (role === 'user') {
    const blocks = Array.isArray(content) ? content.map(asObj) : []
    for (const blk of blocks) {
      if (blk?.type === 'tool_result') {
        const failed = blk.is_error === true
        const id = str(blk.tool_use_id) || undefined
        b.toolResult(id, !failed, failed ? textOf(blk.content).slice(0, 500) : undefined, b.wantsResult(id) ? textOf(blk.content) : undefined)
      }
    }
    const text = textOf(content).trim()
    if (!text) {
      return
    }
    if (INTERRUPT.test(text)) {
      b.interrupt()
    } else if (!m.isMeta) {
      b.request(text)
    }
    return
  }
  if (role === 'assistant') {
    let calls = 0
    for (const raw of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
      const tc = asObj(raw)
      const fn = asObj(tc?.function)
      const name = str(fn?.name) || str(tc?.name)
      if (!name) {
        continue
      }
      const params = toParams(fn ? str(fn.arguments) || fn.arguments : tc?.input ?? tc?.arguments)
      b.toolCall(str(tc?.id) || undefined, 'synapse', name, params)
      calls++
      if (WRITE_TOOLS.test(name)) {
        b.file(params.file_path ?? params.path ?? params.target_file ?? '')
      }
    }
    for (const raw of Array.isArray(content) ? content : []) {
      const blk = asObj(raw)
      if (blk?.type === 'tool_use') {
        const params = toParams(blk.input)
        b.toolCall(str(blk.id) || undefined, 'synapse', str(blk.name), params)
        calls++
        if (WRITE_TOOLS.test(str(blk.name))) {
          b.file(params.file_path ?? params.path ?? '')
        }
      }
    }
    const text = textOf(content)
    if (text.trim()) {
      b.assistantText(text, calls === 0)
    }
    return
  }
  if (role === 'tool') {
    const text = textOf(content)
    const failed = m.is_error === true || rec.is_error === true || /^\s*(error|失败|failed)\b/i.test(text)
    const id = str(m.tool_call_id) || undefined
    b.toolResult(id, !failed, failed ? text.slice(0, 500) : undefined, b.wantsResult(id) ? text : undefined)
  }
}

/**
 * Parses the END of one Synapse session, at most `maxChars` characters (default: the setting's default).
 * A cut first line is dropped; tasks whose request fell outside the cut start with no requirement.
 */
export async function parseSynapseSession(
  file: string,
  opts: { maxChars?: number; reader?: LogReader; user?: string } = {}
): Promise<{ tasks: TaskTrace[]; cut: boolean }> {
  const st = await fs.promises.stat(file)
  const { text, cut } = await readTail(file, opts.maxChars ?? DEFAULT_SETTINGS.maxEnhanceContextChars, { reader: opts.reader })
  const lines = text.split('\n')
  if (cut) {
    lines.shift() // began mid-line
  }
  const b = new SessionTaskBuilder({
    source: 'synapse',
    path: file,
    user: opts.user ?? '',
    name: path.basename(file, '.jsonl'),
    mtime: Math.round(st.mtimeMs)
  })
  for (const line of lines) {
    if (!line.trim()) {
      continue
    }
    try {
      const rec = asObj(JSON.parse(line))
      if (rec) {
        b.at(recordTime(rec))
        onMessage(b, rec)
      }
    } catch {
      // torn or corrupt line: skipped
    }
  }
  return { tasks: b.tasks(), cut }
}

/** Every `<id>.jsonl` directly in a Synapse sessions folder, newest first. */
export async function listSynapseSessions(dir: string, notes?: SkipNotes): Promise<string[]> {
  const entries = await fs.promises.readdir(dir, { withFileTypes: true }).catch(() => [] as fs.Dirent[])
  for (const e of entries) if (!e.isFile()) noteUnreadableEntry(notes, path.join(dir, e.name), e)
  const files = entries.filter((e) => e.isFile() && e.name.endsWith('.jsonl')).map((e) => path.join(dir, e.name))
  const stats = await Promise.all(files.map(async (f) => [f, (await fs.promises.stat(f)).mtimeMs] as const))
  return stats.sort((a, b) => b[1] - a[1]).map(([f]) => f)
}

/** All tasks of all sessions in a Synapse folder, each session read from its end. */
export async function scanSynapseDir(
  dir: string,
  opts: { maxChars?: number; reader?: LogReader; signal?: AbortSignal; onProgress?: (done: number, total: number, path: string) => void; notes?: SkipNotes; cache?: ScanCache<TaskTrace[]> } = {}
): Promise<TaskTrace[]> {
  const files = await listSynapseSessions(dir, opts.notes)
  const tasks: TaskTrace[] = []
  let done = 0
  for (const f of files) {
    opts.signal?.throwIfAborted()
    // what is read depends on the cut: a cached parse is only reused for the same one
    const cut = opts.maxChars ?? DEFAULT_SETTINGS.maxEnhanceContextChars
    tasks.push(...(await cachedParse(f, opts.cache, async () => (await parseSynapseSession(f, { maxChars: opts.maxChars, reader: opts.reader })).tasks, `#${cut}`)))
    opts.onProgress?.(++done, files.length, f)
  }
  return tasks
}
