/**
 * Agent session sources beside AGIAgent roots: Claude Code, Codex CLI, Synapse. Same ScanResult shape.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { coded, type CodedText } from '../../shared/error-codes'
import type { ScanResult, TaskTrace } from '../../shared/types'
import type { ScanCache } from './cache'
import { scanClaudeDir } from './claude-code'
import { scanCodexDir } from './codex-cli'
import { ScanError } from './discover'
import { skippedTask } from './jsonl'
import type { LogReader } from './read-log'
import { scanSynapseDir } from './synapse'

export type SessionSource = 'claude' | 'codex' | 'synapse'

export interface ScanSessionsOptions {
  source: SessionSource
  /** The folder to scan; default: the source's usual location under the home folder. */
  dir?: string
  cwd?: string
  /** `SKILLBENCH_HOME` overrides the home folder (tests). */
  env?: NodeJS.ProcessEnv
  /** Synapse: characters read from the end of each session. */
  maxEnhanceContextChars?: number
  reader?: LogReader
  signal?: AbortSignal
  onProgress?: (done: number, total: number, path: string) => void
  /** Parsed tasks per session file, reused while the file's size and mtime are unchanged. */
  cache?: ScanCache<TaskTrace[]>
  /** Only these session files (Claude Code, Codex): a Stop hook reflects the one session that just ended. */
  only?: (sessionFile: string) => boolean
}

/** The home folder sessions are looked for in (`SKILLBENCH_HOME` first, for tests). */
export function sessionHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.SKILLBENCH_HOME ? path.resolve(env.SKILLBENCH_HOME) : os.homedir()
}

/** Where each agent keeps its sessions by default. */
export function defaultSessionDir(source: SessionSource, env: NodeJS.ProcessEnv = process.env): string {
  const home = sessionHome(env)
  switch (source) {
    case 'claude':
      return path.join(home, '.claude', 'projects')
    case 'codex':
      return path.join(home, '.codex', 'sessions')
    case 'synapse':
      return path.join(home, '.synapse', 'sessions')
  }
}

/** The default session folders that exist on this machine. */
export function detectSessionDirs(env: NodeJS.ProcessEnv = process.env): { source: SessionSource; dir: string }[] {
  return (['claude', 'codex', 'synapse'] as const)
    .map((source) => ({ source, dir: defaultSessionDir(source, env) }))
    .filter((d) => fs.existsSync(d.dir))
}

/** Scans one session folder into tasks (newest first), in the same shape as an AGIAgent root scan. */
export async function scanSessions(opts: ScanSessionsOptions): Promise<ScanResult> {
  const dir = opts.dir ? path.resolve(opts.cwd ?? process.cwd(), opts.dir) : defaultSessionDir(opts.source, opts.env)
  const st = await fs.promises.stat(dir).catch(() => null)
  if (!st?.isDirectory()) {
    throw new ScanError(coded('session.folder_not_found', { dir }))
  }
  const skipped: ScanResult['skipped'] = []
  const common = { reader: opts.reader, signal: opts.signal, onProgress: opts.onProgress, cache: opts.cache, only: opts.only, notes: { skip: (p: string, why: CodedText) => void skipped.push(skippedTask(p, why)) } }
  let tasks: TaskTrace[]
  switch (opts.source) {
    case 'claude':
      tasks = await scanClaudeDir(dir, common)
      break
    case 'codex':
      tasks = await scanCodexDir(dir, common)
      break
    case 'synapse':
      tasks = await scanSynapseDir(dir, { ...common, maxChars: opts.maxEnhanceContextChars })
      break
  }
  // Newest session first; tasks of one session keep their order.
  const order = tasks.map((t, i) => [t, i] as const)
  order.sort((a, b) => b[0].mtime - a[0].mtime || a[1] - b[1])
  return { root: dir, tasks: order.map(([t]) => t), skipped }
}
