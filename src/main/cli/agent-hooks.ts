/**
 * Seed 001's Stop-hook flow for agents Skillbench does not run itself: when a Claude Code or Codex session
 * ends a turn, the agent starts `skillbench reflect --hook <agent> … --decide`, which reflects on that one session
 * (create / enhance / nothing) when the auto-enhance switch is on, and skips it at once when it is off.
 *
 * Pure: the configuration text each agent reads, and the reading of what each agent hands its hook.
 * - Claude Code: a `Stop` hook in settings.json (`hooks.Stop[].hooks[] = {type: "command", command, timeout}`);
 *   it runs the command through a shell and writes `{session_id, transcript_path, cwd, hook_event_name, …}` on stdin.
 *   Exit code 2 would block Claude from stopping, so the hook never exits 2.
 * - Codex: `notify = [argv…]` in ~/.codex/config.toml; Codex appends one JSON argument,
 *   `{"type": "agent-turn-complete", "thread-id", "turn-id", "cwd", …}`, and the rollout file's name ends with the
 *   thread id (`rollout-<time>-<thread-id>.jsonl`).
 */
import { coded, type CodedText } from '../../shared/error-codes'

export const HOOK_AGENTS = ['claude', 'codex'] as const
export type HookAgent = (typeof HOOK_AGENTS)[number]

/** How long Claude Code lets the hook run (seconds): a model's reflection of a long session takes a while. */
export const CLAUDE_HOOK_TIMEOUT_S = 600

/** One word quoted for a POSIX shell (left bare when it is plainly safe). */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

/** The settings.json fragment with the Stop hook (merge its `hooks.Stop` entry into the file's). */
export function claudeStopHook(argv: readonly string[]): string {
  const command = argv.map(shellWord).join(' ')
  return JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command, timeout: CLAUDE_HOOK_TIMEOUT_S }] }] } }, null, 2) + '\n'
}

/** A TOML basic string (JSON's escapes are TOML's, for everything JSON.stringify writes). */
function tomlString(s: string): string {
  return JSON.stringify(s)
}

/** The config.toml line for Codex (a top-level key: it goes above the first `[table]`). */
export function codexNotify(argv: readonly string[]): string {
  return `notify = [${argv.map(tomlString).join(', ')}]\n`
}

export type HookSession =
  | { ok: true; agent: 'claude'; transcript: string; sessionId?: string; cwd?: string }
  | { ok: true; agent: 'codex'; threadId: string; cwd?: string }
  | { ok: false; problem: CodedText }

function objectOf(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text)
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null
  } catch {
    return null
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined)

/** What Claude Code wrote on the hook's stdin: the finished session's transcript. */
export function claudeHookSession(stdin: string): HookSession {
  const o = objectOf(stdin.trim())
  if (!o) return { ok: false, problem: coded('reflect.hook_input_not_object') }
  const transcript = str(o.transcript_path)
  if (!transcript) return { ok: false, problem: coded('reflect.hook_no_transcript_path') }
  return { ok: true, agent: 'claude', transcript, ...(str(o.session_id) ? { sessionId: str(o.session_id) } : {}), ...(str(o.cwd) ? { cwd: str(o.cwd) } : {}) }
}

/** What Codex appended as the notify program's last argument: the thread whose turn ended. */
export function codexHookSession(arg: string | undefined): HookSession {
  const o = arg === undefined ? null : objectOf(arg)
  if (!o) return { ok: false, problem: coded('reflect.hook_no_notification') }
  if (o.type !== 'agent-turn-complete') return { ok: false, problem: coded('reflect.hook_not_turn_complete', { type: JSON.stringify(o.type ?? null) }) }
  const threadId = str(o['thread-id'])
  if (!threadId || !/^[A-Za-z0-9-]{8,64}$/.test(threadId)) return { ok: false, problem: coded('reflect.hook_no_thread_id') }
  return { ok: true, agent: 'codex', threadId, ...(str(o.cwd) ? { cwd: str(o.cwd) } : {}) }
}

/** Whether a Codex rollout file name (`rollout-YYYY-MM-DDTHH-MM-SS-<thread id>.jsonl`) is the one of this thread. */
export function isRolloutOf(fileName: string, threadId: string): boolean {
  const m = /^rollout-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-(.+)\.jsonl$/.exec(fileName)
  return m !== null && m[1] === threadId
}
