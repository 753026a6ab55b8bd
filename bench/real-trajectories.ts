/**
 * Bench-only readers of the two trajectory formats in `../shared/data/real/sessions` the product has no adapter for
 * (OpenHands event lists, SWE-agent `.traj` files), so the reflection judgment can be checked on agents it was never
 * tuned on. Each request becomes a task `<file>#n` as the session adapters number them; only what the judgment reads
 * is filled in (requests, tool calls and whether they failed, files written, errors, the final answer, finished).
 */
import fs from 'node:fs'
import path from 'node:path'
import type { TaskTrace, ToolCall } from '../src/shared/types'

interface OpenHandsEvent {
  source?: string
  action?: string
  observation?: string
  message?: string
  content?: string
  args?: Record<string, unknown>
  extras?: Record<string, unknown>
}

/** Actions that only talk or steer the agent (not tool calls). */
const OPENHANDS_TALK = new Set(['message', 'finish', 'change_agent_state', 'null', 'system', 'recall', 'think'])

function blankTrace(file: string, n: number, request: string, mtime: number): TaskTrace {
  const base = path.basename(file).replace(/\.(json|traj)$/, '')
  return {
    source: 'codex', // grouped by file like any session source; the judgment never reads the agent's name
    user: '',
    taskDir: `${base}#${n}`,
    path: file,
    mtime,
    status: 'interrupted',
    completed: false,
    requirements: [request],
    toolCalls: [],
    errors: [],
    interruptions: 0,
    agentMessages: [],
    files: []
  }
}

/** An OpenHands trajectory (a JSON list of events): one task per user message. */
export function readOpenHands(file: string): TaskTrace[] {
  const events = JSON.parse(fs.readFileSync(file, 'utf8')) as OpenHandsEvent[]
  const mtime = fs.statSync(file).mtimeMs
  const out: TaskTrace[] = []
  let cur: TaskTrace | undefined
  let pending: ToolCall | undefined
  for (const e of events) {
    if (e.source === 'user' && e.action === 'message') {
      cur = blankTrace(file, out.length + 1, String(e.args?.content ?? e.message ?? ''), mtime)
      out.push(cur)
      continue
    }
    if (!cur || e.source !== 'agent') continue
    if (e.action && !OPENHANDS_TALK.has(e.action)) {
      const args = e.args ?? {}
      pending = { agent: 'openhands', name: e.action, params: Object.fromEntries(Object.entries(args).map(([k, v]) => [k, String(v)])), ok: true }
      cur.toolCalls.push(pending)
      if (e.action === 'edit' && typeof args.path === 'string') cur.files.push(args.path)
      continue
    }
    if (e.observation && pending) {
      const exit = Number((e.extras ?? {}).exit_code ?? /exit code (-?\d+)/.exec(e.message ?? '')?.[1] ?? 0)
      if (exit > 0) {
        pending.ok = false
        cur.errors.push(String(e.content ?? e.message ?? '').slice(0, 300))
      }
      pending = undefined
      continue
    }
    if (e.action === 'message' || e.action === 'finish') {
      cur.finalText = String(e.args?.final_thought ?? e.message ?? e.args?.content ?? '').slice(0, 300)
      cur.status = 'completed'
      cur.completed = true
    }
  }
  return out
}

interface SweAgentTraj {
  history?: { role: string; content: unknown }[]
  trajectory?: { action?: string; observation?: string }[]
  info?: { exit_status?: string; submission?: string }
}

/** A SWE-agent trajectory: one task (the issue), finished when it was submitted. */
export function readSweAgent(file: string): TaskTrace[] {
  const traj = JSON.parse(fs.readFileSync(file, 'utf8')) as SweAgentTraj
  const text = (c: unknown): string => (typeof c === 'string' ? c : Array.isArray(c) ? c.map((p: { text?: string }) => p.text ?? '').join('\n') : '')
  // the last user turn that states the issue (earlier ones may hold a demonstration)
  const issueTurn = [...(traj.history ?? [])].reverse().find((m) => m.role === 'user' && /ISSUE:/.test(text(m.content)) && !/DEMONSTRATION/.test(text(m.content)))
  const issue = /ISSUE:\s*([\s\S]*?)(?:\n\s*INSTRUCTIONS:|$)/.exec(text(issueTurn?.content))?.[1]?.trim() ?? ''
  const trace = blankTrace(file, 1, issue, fs.statSync(file).mtimeMs)
  let open = ''
  for (const step of traj.trajectory ?? []) {
    const action = (step.action ?? '').trim()
    if (!action) continue
    const [name = '', arg = ''] = action.split(/\s+/)
    const failed = /^Your proposed edit has introduced new syntax error|^Traceback \(most recent call last\)|command not found/m.test(step.observation ?? '')
    trace.toolCalls.push({ agent: 'swe-agent', name, params: { command: action.slice(0, 500) }, ok: !failed })
    if (failed) trace.errors.push((step.observation ?? '').slice(0, 300))
    if (name === 'open' || name === 'create') open = arg.replace(/^"|"$/g, '')
    if ((name === 'edit' || name === 'create') && open && !trace.files.includes(open)) trace.files.push(open)
  }
  if (traj.info?.exit_status === 'submitted') {
    trace.status = 'completed'
    trace.completed = true
    trace.finalText = (traj.info.submission ?? '').slice(0, 300)
  }
  return [trace]
}

/** Every trajectory of a set's folder, read with the reader of its kind. */
export function readTrajectories(kind: 'openhands' | 'swe-agent', dir: string): TaskTrace[] {
  const ext = kind === 'openhands' ? '.json' : '.traj'
  const read = kind === 'openhands' ? readOpenHands : readSweAgent
  return fs
    .readdirSync(dir)
    .filter((n) => n.endsWith(ext))
    .sort()
    .flatMap((n) => read(path.join(dir, n)))
}
