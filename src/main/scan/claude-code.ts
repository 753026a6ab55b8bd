/**
 * Claude Code transcripts (`~/.claude/projects/<project>/<session>.jsonl`) → task traces.
 *
 * Assistant content blocks arrive one per line sharing `message.id`; tool_use/tool_result pair by id;
 * sub-agents live in `<session>/subagents/agent-<id>.jsonl` (or `agent-<id>.jsonl` beside the session)
 * and their calls join the task whose Task call started them.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { TaskTrace } from '../../shared/types'
import type { ScanCache } from './cache'
import type { LogReader } from './read-log'
import { asObj, cachedParse, noteUnreadableEntry, readJsonRecords, recordTime, str, type Json, type SkipNotes } from './jsonl'
import { SessionTaskBuilder, toParams } from './session-tasks'

const WRITE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit'])
const INTERRUPT = '[Request interrupted by user'


/** Text of a tool_result's content (string or blocks). */
function resultText(content: unknown): string {
  if (typeof content === 'string') {
    return content
  }
  if (Array.isArray(content)) {
    return content.map((b) => str(asObj(b)?.text)).join('\n')
  }
  return ''
}

/** Built-in slash commands that do no task work (a custom command expands into a prompt and is a request). */
const BUILTIN_COMMANDS = new Set(
  'clear compact mcp model config cost help status login logout permissions resume exit doctor vim theme agents hooks ide bashes context usage export add-dir terminal-setup privacy-settings statusline output-style upgrade release-notes rewind todos memory plugin'.split(
    ' '
  )
)

/** A slash-command echo as request text (`/name args`), or null for a built-in command. */
function slashCommandRequest(text: string): string | null {
  const name = /<command-name>\/?([^<]+)<\/command-name>/.exec(text)?.[1]?.trim()
  if (!name || BUILTIN_COMMANDS.has(name)) {
    return null
  }
  const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1]?.trim()
  return `/${name}${args ? ` ${args}` : ''}`
}

/** True for user text that is a command echo or system note, not a request. */
function isNotARequest(text: string): boolean {
  const t = text.trimStart()
  return (
    !t ||
    t.startsWith('<command-name>') ||
    t.startsWith('<command-message>') ||
    t.startsWith('<local-command-') ||
    t.startsWith('<system-reminder>') ||
    t.startsWith('Caveat: The messages below') ||
    t.startsWith('This session is being continued from a previous conversation')
  )
}

/** Feeds one transcript's records into the builder. `agent` set = a sub-agent file (no user requests). */
function makeRecordHandler(b: SessionTaskBuilder, agent: string, ownerCallId: string | undefined, links: Map<string, string>) {
  return (r: Json, line: number): void => {
    // a sub-agent's lines are in its own file: only the session file's lines can be shown in the raw view
    const at = agent === 'main' ? line : undefined
    b.at(recordTime(r))
    const type = str(r.type)
    if (typeof r.cwd === 'string') {
      b.setCwd(r.cwd)
    }
    const attachment = asObj(r.attachment)
    if (attachment && str(attachment.type) === 'invoked_skills') {
      const skills = Array.isArray(attachment.skills) ? attachment.skills : []
      for (const s of skills) {
        const o = asObj(s)
        // `path` is a SKILL.md path, or a label such as `userSettings:name`
        const where = str(o?.path)
        b.invokedSkill(typeof s === 'string' ? s : str(o?.name), where.includes('/') || where.includes('\\') ? where : undefined)
      }
    }
    if (type === 'progress') {
      const data = asObj(r.data)
      if (data && str(data.type) === 'agent_progress' && typeof data.agentId === 'string' && typeof r.parentToolUseID === 'string') {
        links.set(data.agentId, r.parentToolUseID)
      }
      return
    }
    const message = asObj(r.message)
    if (!message) {
      return
    }
    if (type === 'assistant') {
      const blocks = Array.isArray(message.content) ? message.content : []
      for (const raw of blocks) {
        const block = asObj(raw)
        if (!block) {
          continue
        }
        if (block.type === 'tool_use') {
          const name = str(block.name)
          const input = asObj(block.input) ?? {}
          b.toolCall(str(block.id) || undefined, agent, name, toParams(input), ownerCallId, at)
          if (WRITE_TOOLS.has(name)) {
            b.file(str(input.file_path) || str(input.notebook_path), ownerCallId)
          }
          if (name === 'Skill') {
            b.skill(str(input.skill) || str(input.command) || str(input.name))
          }
        } else if (block.type === 'text' && !ownerCallId) {
          b.assistantText(str(block.text), str(block.text).trim().length > 0)
        }
      }
      return
    }
    if (type !== 'user') {
      return
    }
    const result = asObj(r.toolUseResult)
    if (result && typeof result.agentId === 'string') {
      // The Task call's result names the sub-agent it ran.
      const content = Array.isArray(message.content) ? message.content : []
      const id = str(asObj(content[0])?.tool_use_id)
      if (id) {
        links.set(result.agentId, id)
      }
    }
    const content = message.content
    if (typeof content === 'string') {
      if (ownerCallId) {
        return
      }
      const command = slashCommandRequest(content)
      if (content.startsWith(INTERRUPT)) {
        b.interrupt()
      } else if (command) {
        b.request(command)
      } else if (!r.isMeta && !isNotARequest(content)) {
        b.request(content)
      }
      return
    }
    if (!Array.isArray(content)) {
      return
    }
    const texts: string[] = []
    for (const raw of content) {
      const block = asObj(raw)
      if (!block) {
        continue
      }
      if (block.type === 'tool_result') {
        const failed = block.is_error === true
        const id = str(block.tool_use_id) || undefined
        b.toolResult(id, !failed, failed ? resultText(block.content).slice(0, 500) : undefined, b.wantsResult(id) ? resultText(block.content) : undefined)
      } else if (block.type === 'text') {
        texts.push(str(block.text))
      }
    }
    if (ownerCallId || texts.length === 0) {
      return
    }
    const text = texts.join('\n')
    if (text.startsWith(INTERRUPT)) {
      b.interrupt()
    } else if (!r.isMeta && !isNotARequest(text)) {
      b.request(text)
    }
  }
}

/**
 * Parses one Claude Code session (and the sub-agent transcripts it started) into tasks.
 * `subagentFiles`: agentId → file; only the sub-agents the session links to are read.
 */
export async function parseClaudeSession(
  file: string,
  opts: { subagentFiles?: Map<string, string>; reader?: LogReader; user?: string; notes?: SkipNotes } = {}
): Promise<TaskTrace[]> {
  const st = await fs.promises.stat(file)
  const name = path.basename(file, '.jsonl')
  const b = new SessionTaskBuilder({ source: 'claude', path: file, user: opts.user ?? '', name, mtime: Math.round(st.mtimeMs) })
  const links = new Map<string, string>()
  await readJsonRecords(file, makeRecordHandler(b, 'main', undefined, links), opts.reader, opts.notes)
  const subs = opts.subagentFiles ?? (await findSubagentFiles(path.dirname(file), name))
  for (const [agentId, owner] of links) {
    const sub = subs.get(agentId)
    if (sub) {
      await readJsonRecords(sub, makeRecordHandler(b, `agent-${agentId}`, owner, new Map()), opts.reader, opts.notes)
    }
  }
  return b.tasks()
}

/** Sub-agent files near a session: `<session>/subagents/agent-*.jsonl` and `agent-*.jsonl` beside it. */
async function findSubagentFiles(dir: string, session: string): Promise<Map<string, string>> {
  const map = new Map<string, string>()
  for (const d of [path.join(dir, session, 'subagents'), dir]) {
    const names = await fs.promises.readdir(d).catch(() => [] as string[])
    for (const n of names) {
      const m = /^agent-(.+)\.jsonl$/.exec(n)
      if (m && !m[1]!.startsWith('acompact')) {
        map.set(m[1]!, path.join(d, n))
      }
    }
  }
  return map
}

/**
 * Every session under a Claude folder (`~/.claude/projects`, one project folder, or any tree of them):
 * `*.jsonl` files that are not sub-agent transcripts. Symlinks are not followed.
 */
export async function listClaudeSessions(dir: string, notes?: SkipNotes): Promise<{ sessions: string[]; subagents: Map<string, string> }> {
  const sessions: string[] = []
  const subagents = new Map<string, string>()
  const walk = async (d: string, depth: number): Promise<void> => {
    const entries = await fs.promises.readdir(d, { withFileTypes: true }).catch(() => [] as fs.Dirent[])
    for (const e of entries) {
      const full = path.join(d, e.name)
      if (e.isDirectory() && depth < 4) {
        await walk(full, depth + 1)
      } else if (!e.isFile()) {
        noteUnreadableEntry(notes, full, e)
      } else if (e.name.endsWith('.jsonl')) {
        const m = /^agent-(.+)\.jsonl$/.exec(e.name)
        if (m) {
          if (!m[1]!.startsWith('acompact')) {
            subagents.set(m[1]!, full)
          }
        } else if (path.basename(d) !== 'subagents') {
          sessions.push(full)
        }
      }
    }
  }
  await walk(dir, 0)
  sessions.sort()
  return { sessions, subagents }
}

/** All tasks of all sessions under a Claude folder. */
export async function scanClaudeDir(
  dir: string,
  opts: { reader?: LogReader; signal?: AbortSignal; onProgress?: (done: number, total: number, path: string) => void; notes?: SkipNotes; cache?: ScanCache<TaskTrace[]>; only?: (sessionFile: string) => boolean } = {}
): Promise<TaskTrace[]> {
  const found = await listClaudeSessions(dir, opts.notes)
  const subagents = found.subagents
  const sessions = opts.only ? found.sessions.filter(opts.only) : found.sessions
  const tasks: TaskTrace[] = []
  let done = 0
  for (const s of sessions) {
    opts.signal?.throwIfAborted()
    const project = path.basename(path.dirname(s))
    // a session's sub-agents append progress lines to it: an unchanged session file means unchanged tasks
    tasks.push(...(await cachedParse(s, opts.cache, () => parseClaudeSession(s, { subagentFiles: subagents, reader: opts.reader, user: project, notes: opts.notes }))))
    opts.onProgress?.(++done, sessions.length, s)
  }
  return tasks
}
