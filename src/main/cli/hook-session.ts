/**
 * `skillbench reflect --hook claude|codex`: which session just ended (from what the agent hands its hook), and
 * whether to reflect it at all (the auto-enhance switch). See agent-hooks.ts for the two agents' contracts.
 */
import fs from 'node:fs'
import path from 'node:path'
import { readEnhanceSettings } from '../config/enhance-settings'
import { defaultSessionDir } from '../scan/sessions'
import { listCodexRollouts } from '../scan/codex-cli'
import { claudeHookSession, codexHookSession, HOOK_AGENTS, isRolloutOf, type HookAgent } from './agent-hooks'
import { UsageError, type CliIo } from './common'
import { coded, type CodedText } from '../../shared/error-codes'
import { CodedError } from '../../shared/api-error'

/** Largest hook input read from stdin (Claude's is a few hundred bytes). */
const MAX_STDIN_BYTES = 1024 * 1024

export type HookTarget =
  /** Reflect this one session file, scanning `dir` (`--claude-dir` / `--codex-dir`) for it. */
  | { run: true; flag: 'claude-dir' | 'codex-dir'; dir: string; file: string }
  /** Nothing to do: say why (stderr, by its code) and exit with `code` (never 2, which would block Claude from stopping). */
  | { run: false; message: CodedText; code: 0 | 1 }

async function readStdin(limit: number): Promise<string> {
  if (process.stdin.isTTY) return ''
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) throw new CodedError('bad_request', coded('reflect.hook_stdin_too_large', { limit }))
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile()
  } catch {
    return false
  }
}

/**
 * The session a hook call is about, or why it is skipped. `lastArg`: Codex's notification (the last positional);
 * `stdin`: Claude's hook input (read from the process when not given).
 */
export async function hookTarget(agent: string, opts: { io: CliIo; lastArg?: string; codexDir?: string; stdin?: string }): Promise<HookTarget> {
  if (!(HOOK_AGENTS as readonly string[]).includes(agent)) throw new UsageError(coded('cli.takes_either', { option: '--hook', a: HOOK_AGENTS[0], b: HOOK_AGENTS[1] }))
  const settings = readEnhanceSettings(opts.io.env)
  // Seed 001 §4.5.3: with the switch off the hook skips straight away (no scan, no model, no cost).
  if (!settings.autoEnhance) {
    return { run: false, code: 0, message: coded('reflect.hook_auto_off', { file: settings.file }) }
  }
  if ((agent as HookAgent) === 'claude') {
    const h = claudeHookSession(opts.stdin ?? (await readStdin(MAX_STDIN_BYTES)))
    if (!h.ok) return { run: false, code: 1, message: h.problem }
    if (h.agent !== 'claude') return { run: false, code: 1, message: coded('reflect.hook_not_claude') }
    const file = path.resolve(h.cwd ?? opts.io.cwd, h.transcript)
    if (!isFile(file)) return { run: false, code: 1, message: coded('reflect.hook_no_transcript', { file }) }
    const real = fs.realpathSync(file)
    return { run: true, flag: 'claude-dir', dir: path.dirname(real), file: real }
  }
  const h = codexHookSession(opts.lastArg)
  if (!h.ok) return { run: false, code: h.problem.messageCode === 'reflect.hook_not_turn_complete' ? 0 : 1, message: h.problem }
  if (h.agent !== 'codex') return { run: false, code: 1, message: coded('reflect.hook_not_codex') }
  const root = path.resolve(opts.io.cwd, opts.codexDir ?? defaultSessionDir('codex', opts.io.env))
  const rollouts = (await listCodexRollouts(root)).filter((f) => isRolloutOf(path.basename(f), h.threadId))
  const file = rollouts.sort().at(-1)
  if (!file) return { run: false, code: 1, message: coded('reflect.hook_no_rollout', { thread: h.threadId, root }) }
  const real = fs.realpathSync(file)
  return { run: true, flag: 'codex-dir', dir: path.dirname(real), file: real }
}
