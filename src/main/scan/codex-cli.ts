/**
 * Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`) → task traces.
 *
 * A task starts at each `event_msg user_message`; calls and outputs pair by `call_id`; an exec with a
 * non-zero exit code is an error; `task_complete` or a `final_answer` message completes the task.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { TaskTrace } from '../../shared/types'
import type { ScanCache } from './cache'
import type { LogReader } from './read-log'
import { asObj, cachedParse, noteUnreadableEntry, readJsonRecords, recordTime, str, type Json, type SkipNotes } from './jsonl'
import { SessionTaskBuilder, toParams } from './session-tasks'


/** Files an apply_patch input adds, updates or moves to. */
export function filesFromPatch(patch: string): string[] {
  const files: string[] = []
  const re = /^\*\*\* (?:Add File|Update File|Move to): (.+)$/gm
  let m: RegExpExecArray | null
  while ((m = re.exec(patch)) !== null) {
    files.push(m[1]!.trim())
  }
  return files
}

/** The exit code a function_call_output reports, when it says one. */
function exitCodeOf(output: unknown): number | undefined {
  const text = typeof output === 'string' ? output : JSON.stringify(output ?? '')
  const m = /(?:Process exited with code|exit code:?|"exit_code":)\s*(-?\d+)/i.exec(text.slice(0, 2000))
  return m ? Number(m[1]) : undefined
}

/** Parses one rollout file into tasks. */
export async function parseCodexRollout(file: string, opts: { reader?: LogReader; user?: string; notes?: SkipNotes } = {}): Promise<TaskTrace[]> {
  const st = await fs.promises.stat(file)
  const name = path.basename(file, '.jsonl')
  const b = new SessionTaskBuilder({ source: 'codex', path: file, user: opts.user ?? '', name, mtime: Math.round(st.mtimeMs) })
  // Older rollouts have no user_message events: then the user's response_item messages are the requests.
  let sawUserEvent = false
  // write_stdin polls a running command: its "exited with code" repeats the command's own failure.
  const callNames = new Map<string, string>()
  /**
   * An MCP call known only from its end event (no `function_call` item with its id): recorded as a call with its
   * result, so a `query_skill` through MCP shows the skills it returned.
   */
  const mcpCallEnd = (p: Json, line: number): void => {
    const id = str(p.call_id)
    const invocation = asObj(p.invocation)
    if (!id || callNames.has(id) || !invocation) return
    const name = `mcp__${str(invocation.server)}__${str(invocation.tool)}`
    b.toolCall(id, 'codex', name, toParams(invocation.arguments ?? {}), undefined, line)
    callNames.set(id, name)
    const result = asObj(p.result)
    const ok = asObj(result?.Ok)
    const text = (Array.isArray(ok?.content) ? ok.content : []).map((c) => str(asObj(c)?.text)).join('\n')
    const failed = !ok || ok.isError === true
    b.toolResult(id, !failed, failed ? (text || JSON.stringify(result?.Err ?? 'failed')).slice(0, 300) : undefined, b.wantsResult(id) ? text : undefined)
  }
  const onRecord = (r: Json, line: number): void => {
    b.at(recordTime(r))
    const type = str(r.type)
    const p = asObj(r.payload)
    if (!p) {
      return
    }
    const pt = str(p.type)
    if (type === 'session_meta' && typeof p.cwd === 'string') {
      b.setCwd(p.cwd)
      return
    }
    if (type === 'turn_context' && typeof p.cwd === 'string') {
      b.setCwd(p.cwd)
      return
    }
    if (type === 'event_msg') {
      switch (pt) {
        case 'user_message':
          sawUserEvent = true
          b.request(str(p.message), true)
          break
        case 'task_complete':
          b.complete(str(p.last_agent_message))
          break
        case 'turn_aborted':
          b.interrupt()
          break
        case 'exec_command_end': {
          const code = typeof p.exit_code === 'number' ? p.exit_code : 0
          if (code !== 0) {
            const cmd = Array.isArray(p.command) ? p.command.map(String).join(' ') : str(p.command)
            const detail = (str(p.stderr) || str(p.aggregated_output) || str(p.stdout)).trim().split('\n').slice(-3).join('\n')
            b.toolResult(str(p.call_id) || undefined, false, `exit ${code}: ${cmd}${detail ? `\n${detail}` : ''}`.slice(0, 800))
          }
          break
        }
        case 'patch_apply_end':
          if (p.success === false) {
            b.toolResult(str(p.call_id) || undefined, false, `patch failed: ${str(p.stderr)}`.slice(0, 800))
          }
          break
        case 'error':
          b.error(str(p.message) || 'error')
          break
        case 'mcp_tool_call_end':
          mcpCallEnd(p, line)
          break
        default:
          break
      }
      return
    }
    if (type !== 'response_item') {
      return
    }
    switch (pt) {
      case 'message': {
        const role = str(p.role)
        const text = (Array.isArray(p.content) ? p.content : []).map((c) => str(asObj(c)?.text)).join('\n')
        if (role === 'assistant') {
          b.assistantText(text, str(p.phase) === 'final_answer' || (p.phase === undefined && text.trim().length > 0))
        } else if (role === 'user' && !sawUserEvent) {
          const t = text.trimStart()
          if (t && !t.startsWith('<') && !t.startsWith('# AGENTS.md')) {
            b.request(text)
          }
        }
        break
      }
      case 'function_call':
      case 'custom_tool_call': {
        const callName = str(p.name)
        const params = pt === 'function_call' ? toParams(str(p.arguments)) : toParams({ input: str(p.input) })
        b.toolCall(str(p.call_id) || undefined, 'codex', callName, params, undefined, line)
        callNames.set(str(p.call_id), callName)
        if (callName === 'apply_patch') {
          for (const f of filesFromPatch(str(p.input) || str(p.arguments))) {
            b.file(f)
          }
        }
        break
      }
      case 'local_shell_call': {
        // the `local_shell` tool: {action: {type: 'exec', command: [...], working_directory}}
        const action = asObj(p.action) ?? {}
        const id = str(p.call_id) || str(p.id)
        b.toolCall(id || undefined, 'codex', 'local_shell', toParams({ command: action.command ?? [], workdir: str(action.working_directory) }), undefined, line)
        callNames.set(id, 'local_shell')
        break
      }
      case 'web_search_call':
        b.toolCall(str(p.id) || undefined, 'codex', 'web_search', toParams(asObj(p.action) ?? {}), undefined, line)
        break
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const id = str(p.call_id) || undefined
        const code = callNames.get(str(p.call_id)) === 'write_stdin' ? undefined : exitCodeOf(p.output)
        if (code !== undefined && code !== 0) {
          b.toolResult(id, false, `exit ${code}: ${String(typeof p.output === 'string' ? p.output : '').slice(0, 300)}`)
        } else {
          b.toolResult(id, true, undefined, b.wantsResult(id) ? (typeof p.output === 'string' ? p.output : JSON.stringify(p.output ?? '')) : undefined)
        }
        break
      }
      default:
        break
    }
  }
  await readJsonRecords(file, onRecord, opts.reader, opts.notes)
  return b.tasks()
}

/** Every `rollout-*.jsonl` under a Codex folder (`~/.codex/sessions` or any part of its date tree). */
export async function listCodexRollouts(dir: string, notes?: SkipNotes): Promise<string[]> {
  const out: string[] = []
  const walk = async (d: string, depth: number): Promise<void> => {
    const entries = await fs.promises.readdir(d, { withFileTypes: true }).catch(() => [] as fs.Dirent[])
    for (const e of entries) {
      const full = path.join(d, e.name)
      if (e.isDirectory() && depth < 6) {
        await walk(full, depth + 1)
      } else if (!e.isFile()) {
        noteUnreadableEntry(notes, full, e)
      } else if (/^rollout-.*\.jsonl$/.test(e.name)) {
        out.push(full)
      }
    }
  }
  await walk(dir, 0)
  return out.sort()
}

/** All tasks of all rollouts under a Codex folder. */
export async function scanCodexDir(
  dir: string,
  opts: { reader?: LogReader; signal?: AbortSignal; onProgress?: (done: number, total: number, path: string) => void; notes?: SkipNotes; cache?: ScanCache<TaskTrace[]>; only?: (sessionFile: string) => boolean } = {}
): Promise<TaskTrace[]> {
  const listed = await listCodexRollouts(dir, opts.notes)
  const files = opts.only ? listed.filter(opts.only) : listed
  const tasks: TaskTrace[] = []
  let done = 0
  for (const f of files) {
    opts.signal?.throwIfAborted()
    tasks.push(...(await cachedParse(f, opts.cache, () => parseCodexRollout(f, { reader: opts.reader, notes: opts.notes }))))
    opts.onProgress?.(++done, files.length, f)
  }
  return tasks
}
