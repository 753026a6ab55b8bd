/**
 * Simulated agents for the multi-process tests: each is a real process (a CLI call, or an MCP server spawned over
 * stdio) doing query (with touch), rate and append-edit operations, and keeping what it was told succeeded.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { childEnv } from '../helpers/mcp-env'

export const PROJECT = path.resolve(__dirname, '..', '..')
const SETTINGS_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-agents-settings-'))
export const AGENT_ENV: Record<string, string> = childEnv({ SKILLBENCH_CONFIG_DIR: SETTINGS_DIR, SKILLBENCH_LOCK_TIMEOUT_MS: '20000', NODE_PATH: path.join(PROJECT, 'node_modules') })

let agentCli: Promise<string> | undefined

/**
 * The CLI every agent process runs: the sources bundled once per test file (esbuild; dependencies external, as in
 * the real build, found through NODE_PATH in AGENT_ENV). Without a current build, bin/skillbench.cjs compiles the
 * TypeScript through tsx at every start: ~1 s more per process under load, and these tests start hundreds (it was
 * most of many-agents' time). In the run's temporary folder, removed with it.
 */
export function agentCliScript(): Promise<string> {
  agentCli ??= (async () => {
    const outfile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-agent-cli-')), 'cli.cjs')
    const { build } = await import('esbuild')
    await build({ entryPoints: [path.join(__dirname, 'cli-entry.ts')], bundle: true, platform: 'node', format: 'cjs', packages: 'external', target: 'node20', outfile, logLevel: 'silent' })
    return outfile
  })()
  return agentCli
}

/** One `skillbench` CLI run as an agent runs it: exit code and both streams. */
export async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const script = await agentCliScript()
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [script, ...args], { cwd: PROJECT, env: AGENT_ENV, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    // 'close', not 'exit': the child's output may still be in the pipe when it exits.
    p.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }))
  })
}

/** What one agent was told. */
export interface AgentLog {
  /** Skill ids returned by each successful query (each was told its use counted). */
  queried: string[][]
  /** Each successful rating: the quality before and after, as reported. */
  rated: { old: number; next: number }[]
  /** Text appended by each successful edit. */
  appended: string[]
  /** Messages of failed operations. */
  failures: string[]
}

export function emptyLog(): AgentLog {
  return { queried: [], rated: [], appended: [], failures: [] }
}

/** One operation a process can do; `k` numbers it within the agent. */
export type Op = { kind: 'query'; text: string } | { kind: 'rate'; id: string; rating: number } | { kind: 'append'; id: string; text: string }

type Answer = Record<string, unknown> & { status?: string; message?: string }

function record(log: AgentLog, op: Op, answer: Answer | null, error: string | null): void {
  if (!answer || answer.status !== 'success') {
    log.failures.push(error ?? String(answer?.message ?? 'no answer'))
    return
  }
  if (op.kind === 'query') log.queried.push((answer.skills as { skill_id: string }[]).map((s) => s.skill_id))
  else if (op.kind === 'rate') log.rated.push({ old: Number(answer.old_quality_index), next: Number(answer.new_quality_index) })
  else log.appended.push(op.text)
}

/** Runs one CLI call as its own process; resolves with its JSON answer (or the error it printed). */
export async function cliCall(library: string, op: Op, onSpawn?: (pid: number) => void): Promise<{ answer: Answer | null; error: string | null; signal: string | null }> {
  const script = await agentCliScript()
  const args =
    op.kind === 'query'
      ? ['query', op.text, '--top', '2']
      : op.kind === 'rate'
        ? ['rate', op.id, String(op.rating)]
        : ['edit', op.id, '--mode', 'append', '--text', op.text]
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [script, ...args, '--library', library, '--json'], { cwd: PROJECT, env: AGENT_ENV, stdio: ['ignore', 'pipe', 'pipe'] })
    if (p.pid) onSpawn?.(p.pid)
    let out = ''
    let err = ''
    p.stdout.on('data', (d: Buffer) => (out += d.toString()))
    p.stderr.on('data', (d: Buffer) => (err += d.toString()))
    p.on('close', (code, signal) => {
      let answer: Answer | null = null
      try {
        answer = JSON.parse(out) as Answer
      } catch {
        // no JSON: the error is on stderr
      }
      resolve({ answer: code === 0 ? answer : (answer ?? null), error: code === 0 ? null : err.trim() || `exit ${code ?? signal}`, signal })
    })
  })
}

/** A CLI agent: one process per operation, one after another. */
export async function runCliAgent(library: string, ops: Op[], log: AgentLog): Promise<void> {
  for (const op of ops) {
    const r = await cliCall(library, op)
    record(log, op, r.answer, r.error)
  }
}

/** An MCP agent: one `skillbench mcp` server process for all its operations. */
export async function startMcpAgent(library: string, extraArgs: string[] = ['--direct-edit']): Promise<{ client: Client; pid: number | null; close: () => Promise<void> }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [await agentCliScript(), 'mcp', '--library', library, ...extraArgs], cwd: PROJECT, stderr: 'pipe', env: AGENT_ENV })
  const client = new Client({ name: 'sb-concurrency', version: '1.0.0' })
  await client.connect(transport)
  return { client, pid: transport.pid, close: () => client.close() }
}

export async function mcpCall(client: Client, op: Op): Promise<{ answer: Answer | null; error: string | null }> {
  const [name, args] =
    op.kind === 'query'
      ? ['query_skill', { query: op.text }]
      : op.kind === 'rate'
        ? ['rate_skill', { skill_id: op.id, rating: op.rating }]
        : ['edit_skill', { skill_id: op.id, edit_mode: 'append', code_edit: op.text }]
  try {
    const r = (await client.callTool({ name, arguments: args })) as { structuredContent?: Answer }
    return { answer: r.structuredContent ?? null, error: null }
  } catch (err) {
    return { answer: null, error: (err as Error).message }
  }
}

export async function runMcpAgent(library: string, ops: Op[], log: AgentLog): Promise<void> {
  const agent = await startMcpAgent(library)
  try {
    for (const op of ops) {
      const r = await mcpCall(agent.client, op)
      record(log, op, r.answer, r.error)
    }
  } finally {
    await agent.close()
  }
}

/**
 * True when the reported ratings form one chain from `start` to `end` using every one exactly once: then no
 * rating was lost (each was computed from the value the previous one left). Depth-first with backtracking,
 * since rounded values can repeat.
 */
export function ratingsChain(start: number, edges: { old: number; next: number }[], end: number): boolean {
  const key = (v: number): string => v.toFixed(3)
  const byOld = new Map<string, number[]>()
  edges.forEach((e, i) => {
    const k = key(e.old)
    byOld.set(k, [...(byOld.get(k) ?? []), i])
  })
  const used = new Uint8Array(edges.length)
  let steps = 0
  const walk = (at: number, depth: number): boolean => {
    if (++steps > 200_000) return false
    if (depth === edges.length) return key(at) === key(end)
    for (const i of byOld.get(key(at)) ?? []) {
      if (used[i]) continue
      used[i] = 1
      if (walk(edges[i]!.next, depth + 1)) return true
      used[i] = 0
    }
    return false
  }
  return walk(start, 0)
}

/** Failures that say clearly what happened (never a silent or internal error). */
export const CLEAR_FAILURE = /library busy|changed on disk|conflict/
