/**
 * Seed 001's Stop-hook flow (issue 37): `skillbench hooks --print claude|codex` prints the configuration each agent
 * reads, and the printed command, run as the agent runs it (Claude: through a shell, the hook input on stdin; Codex:
 * the argv with the notification appended), reflects the session that just ended with --decide — only while the
 * auto-enhance switch is on, and with the model the settings name (whose cost it states).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { chatCompletion, startOpenAiServer, type OpenAiTestServer } from '../helpers/openai-server'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'

const PROJECT = path.resolve(__dirname, '..', '..')
const BIN = path.join(PROJECT, 'bin', 'skillbench.cjs')
const CLAUDE_SESSION = realPath('sessions/claude_code/marot_spotter/subagent.jsonl')
const CODEX_DAY = realPath('sessions/codex_cli/codemie-ai_codemie-code/sessions/2026/05/11')
const CODEX_THREAD = '019e1695-0522-7c83-8b39-0dd379793f80'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})
let server: OpenAiTestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

function temp(name: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), `sb-hooks-${name}-`))
  dirs.push(d)
  return fs.realpathSync(d)
}

interface Ran {
  code: number | null
  stdout: string
  stderr: string
}

/** A process as an agent starts it; `input` goes to its stdin. Async: the fake model answers meanwhile. */
function run(command: string, args: string[], opts: { env: NodeJS.ProcessEnv; input?: string; cwd?: string }): Promise<Ran> {
  return new Promise((resolve) => {
    const p = spawn(command, args, { cwd: opts.cwd ?? os.tmpdir(), env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    p.on('close', (code) => resolve({ code, stdout, stderr }))
    p.stdin.end(opts.input ?? '')
  })
}

function setup(autoEnhance: boolean, llm?: { baseUrl: string; model: string }) {
  const root = temp('case')
  const config = path.join(root, 'config')
  fs.mkdirSync(config)
  const settings = { autoEnhance, ...(llm ? { llm: { provider: 'openai', baseUrl: llm.baseUrl, model: llm.model } } : {}) }
  fs.writeFileSync(path.join(config, 'settings.json'), JSON.stringify({ version: 1, settings }))
  const library = path.join(root, 'library')
  fs.mkdirSync(library)
  const env: NodeJS.ProcessEnv = { ...process.env, SKILLBENCH_CONFIG_DIR: config, SKILLBENCH_HOME: path.join(root, 'home'), OPENAI_API_KEY: 'sk-test' }
  return { root, config, library, env }
}

/** A Claude Code project folder holding the session that ends and an older, finished one that must not be touched. */
function claudeProject(root: string): { transcript: string } {
  const project = path.join(root, 'home', '.claude', 'projects', '-work-app')
  fs.mkdirSync(project, { recursive: true })
  const transcript = path.join(project, '7a0f8c1e-1111-4222-8333-444455556666.jsonl')
  fs.copyFileSync(CLAUDE_SESSION, transcript)
  fs.copyFileSync(CLAUDE_SESSION, path.join(project, '0b1c2d3e-aaaa-4bbb-8ccc-dddddddddddd.jsonl'))
  return { transcript }
}

function skillFiles(library: string): string[] {
  const out: string[] = []
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.skillbench') continue
      if (e.isDirectory()) walk(path.join(d, e.name))
      else if (e.name === 'SKILL.md') out.push(path.relative(library, path.join(d, e.name)))
    }
  }
  walk(library)
  return out
}

async function printed(agent: 'claude' | 'codex', env: NodeJS.ProcessEnv, args: string[]): Promise<Ran> {
  const r = await run(process.execPath, [BIN, 'hooks', '--print', agent, ...args], { env })
  expect(r.code).toBe(0)
  return r
}

/** The shell command of the Stop hook in the printed settings.json fragment. */
function claudeCommand(stdout: string): string {
  const hooks = JSON.parse(stdout) as { hooks: { Stop: { hooks: { type: string; command: string; timeout: number }[] }[] } }
  const entry = hooks.hooks.Stop[0]!.hooks[0]!
  expect(entry.type).toBe('command')
  expect(entry.timeout).toBeGreaterThanOrEqual(60)
  return entry.command
}

/** The argv of the printed `notify = [...]` line (an array of TOML basic strings, which JSON reads alike). */
function codexArgv(stdout: string): string[] {
  const m = /^notify = (\[.*\])\n$/.exec(stdout)
  expect(m).not.toBeNull()
  return JSON.parse(m![1]!) as string[]
}

describe.skipIf(!HAS_REAL_DATA)('skillbench hooks --print (seed 001 Stop hook)', { timeout: 120_000 }, () => {
  it('claude: the printed Stop hook, run through a shell with the hook input, reflects just the session that ended, once', async () => {
    const { root, library, env } = setup(true)
    const { transcript } = claudeProject(root)
    const p = await printed('claude', env, ['--library', library])
    expect(p.stderr).toContain('~/.claude/settings.json')
    expect(p.stderr).toContain('Auto-enhance is on')
    expect(p.stderr).toContain('No model is called')
    const command = claudeCommand(p.stdout)
    expect(command).toContain('reflect --hook claude')
    expect(command).toContain('--decide')

    const input = JSON.stringify({ session_id: '7a0f8c1e-1111-4222-8333-444455556666', transcript_path: transcript, cwd: '/work/app', hook_event_name: 'Stop', stop_hook_active: false })
    const first = await run('/bin/sh', ['-c', command], { env, input })
    expect(first.stderr).not.toMatch(/error/i)
    expect(first.code).toBe(0)
    const made = skillFiles(library)
    expect(made).toHaveLength(1) // the other finished session in the folder is not this hook's business
    expect(first.stdout).toContain('7a0f8c1e-1111-4222-8333-444455556666#1')
    expect(first.stdout).not.toContain('0b1c2d3e')
    // The next turn's hook: already reflected, nothing new.
    const again = await run('/bin/sh', ['-c', command], { env, input })
    expect(again.code).toBe(0)
    expect(again.stdout).toContain('1 already reflected')
    expect(skillFiles(library)).toEqual(made)
  })

  it('with the auto-enhance switch off, the hook skips at once and says so; --print says the hook will do nothing', async () => {
    const { root, library, env } = setup(false)
    const { transcript } = claudeProject(root)
    const p = await printed('claude', env, ['--library', library])
    expect(p.stderr).toContain('Auto-enhance is OFF')
    const r = await run('/bin/sh', ['-c', claudeCommand(p.stdout)], { env, input: JSON.stringify({ transcript_path: transcript, hook_event_name: 'Stop' }) })
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('Auto-enhance is off')
    expect(fs.readdirSync(library)).toEqual([])
  })

  it('a bad hook input is a clear error with exit 1, never 2 (which would keep Claude from stopping)', async () => {
    const { library, env } = setup(true)
    const command = claudeCommand((await printed('claude', env, ['--library', library])).stdout)
    const garbage = await run('/bin/sh', ['-c', command], { env, input: 'not json' })
    expect(garbage.code).toBe(1)
    expect(garbage.stderr).toContain('not a JSON object')
    const missing = await run('/bin/sh', ['-c', command], { env, input: JSON.stringify({ transcript_path: '/nowhere/x.jsonl' }) })
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('/nowhere/x.jsonl is not there')
    const badFlag = await run('/bin/sh', ['-c', `${command} --no-such-flag`], { env, input: '{}' })
    expect(badFlag.code).toBe(1)
    expect(fs.readdirSync(library)).toEqual([])
  })

  it('codex: the printed notify argv, run with the notification appended, reflects that thread\'s rollout', async () => {
    const { root, library, env } = setup(true)
    const sessions = path.join(root, 'codex-sessions')
    fs.cpSync(CODEX_DAY, path.join(sessions, '2026', '05', '11'), { recursive: true })
    const p = await printed('codex', env, ['--library', library, '--codex-dir', sessions])
    expect(p.stderr).toContain('~/.codex/config.toml')
    const argv = codexArgv(p.stdout)
    expect(argv.slice(argv.indexOf('reflect'))).toEqual(['reflect', '--hook', 'codex', '--library', library, '--codex-dir', sessions, '--decide'])
    const note = JSON.stringify({ type: 'agent-turn-complete', 'thread-id': CODEX_THREAD, 'turn-id': '12345', cwd: '/work/app', 'input-messages': ['analyze the transcript'], 'last-assistant-message': 'Done.' })
    const r = await run(argv[0]!, [...argv.slice(1), note], { env })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`${CODEX_THREAD}#1`)
    expect(r.stdout).not.toContain('019e1625') // the other rollout of that day
    expect(skillFiles(library)).toHaveLength(1)
    // Another kind of notification is not a finished turn: nothing to do, no error.
    const other = await run(argv[0]!, [...argv.slice(1), JSON.stringify({ type: 'approval-requested' })], { env })
    expect(other.code).toBe(0)
    expect(skillFiles(library)).toHaveLength(1)
  })

  it('with a model in the settings: --print states the cost, and the hook calls that model for the decision', async () => {
    const answer = ['OPERATION: create', 'NAME: setting-up-credo', 'TOOLS: WebSearch, Bash', 'REASON: a reusable setup flow', 'CHANGES:', '- search the docs', '- install and run', 'CONTENT:', '# Setting up Credo', '', 'Search, then mix credo.'].join('\n')
    server = await startOpenAiServer(() => ({ json: chatCompletion(answer) }))
    const { root, library, env } = setup(true, { baseUrl: server.url, model: 'house-model' })
    const { transcript } = claudeProject(root)
    const p = await printed('claude', env, ['--library', library])
    expect(p.stderr).toContain(`⚠️  Cost: each finished task is sent to house-model at ${server.url}`)
    expect(p.stderr).toContain('extra tokens you pay for')
    const command = claudeCommand(p.stdout)
    expect(command).toContain(`--llm openai --base-url ${server.url} --model house-model`)
    const r = await run('/bin/sh', ['-c', command], { env, input: JSON.stringify({ transcript_path: transcript, hook_event_name: 'Stop' }) })
    expect(r.code).toBe(0)
    expect(server.requests.length).toBeGreaterThanOrEqual(1)
    expect(JSON.stringify(server.requests[0]!.body)).toContain('house-model')
    expect(skillFiles(library)).toEqual(['setting-up-credo/SKILL.md'])
  })
})

describe('skillbench hooks --print: usage', () => {
  it('needs an agent it knows and a library', async () => {
    const env = { ...process.env, SKILLBENCH_CONFIG_DIR: temp('cfg') }
    const none = await run(process.execPath, [BIN, 'hooks', '--print', 'cursor', '--library', '/tmp'], { env })
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('--print takes claude or codex')
    const noLib = await run(process.execPath, [BIN, 'hooks', '--print', 'claude'], { env })
    expect(noLib.code).toBe(2)
    expect(noLib.stderr).toContain('--library DIR or --root-dir DIR')
  })
})
